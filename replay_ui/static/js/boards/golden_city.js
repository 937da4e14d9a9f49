// The Die goldene Stadt board, drawn from a state as the API serves it (dump_state, or a seat's view
// in which other players' hands, bonus cards and letters are null and the piles are counts). The
// sites, roads, rivers, regions and card tables come from the engine through the page data: the
// game's own component set (the default one or a custom one), with screen positions from the UI
// adapter (on the island, or in rings for a set with sites of its own). Nothing here knows a rule.

import { el, redraw, svg } from "../dom.js";
import { initialsOf } from "./initials.js";
import { markPiece } from "../lastmove.js";

const TERRAIN_CLASS = { CO: "t-co", MT: "t-mt", ME: "t-me", FO: "t-fo", DE: "t-de" };
const REWARD_LABEL = {
  coin1: "+1 coin", coin2: "+2 coins", card: "card", key: "key", bonus: "bonus", goods: "goods",
  outer: "5 / 3", "outer+coin": "5 / 3 +coin", inner: "10 / 6 +card",
};
const REWARD_TEXT = {
  coin1: "1 coin", coin2: "2 coins", card: "may draw a landscape card", key: "a key card", bonus: "may keep a bonus card",
  goods: "a goods card", outer: "5 letters to the first builder, 3 to the second",
  "outer+coin": "5 letters and 1 coin to the first builder, 3 letters to the second",
  inner: "10 letters and a landscape card to the first builder, 6 letters to the second",
};
// Where the houses of seats 0..3 sit on a city part (one house per player there).
const CITY_SLOTS = [[-10, -12], [10, -12], [-10, 12], [10, 12]];
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// ---- the tables: the game's component set, from the page data ---------------------------------
function tablesFor(state, C) {
  return { sites: C.sites, rivers: C.rivers, regions: C.regions, goodsCards: C.goods_cards, scoring: C.scoring_cards,
           bonus: C.bonus_cards, goods: C.goods };
}

// ---- small pieces ------------------------------------------------------------------------------
function terrainChip(code, count, C) {
  const name = C.terrain_names[C.terrains.indexOf(code)];
  return el("span", { class: `gc-card ${TERRAIN_CLASS[code]}`, title: `${count} ${name} card${count === 1 ? "" : "s"}` },
    el("span", { class: "gc-code", text: code }), count > 1 ? el("span", { class: "gc-count", text: `×${count}` }) : null);
}

function handChips(hand, C) {
  const chips = C.terrains.filter((t) => hand[t]).map((t) => terrainChip(t, hand[t], C));
  return chips.length ? chips : [el("span", { class: "muted", text: "none" })];
}

function goodChip(good) {
  return el("span", { class: `gc-good g-${good}`, title: good, text: good });
}

function goodsCard(card, T) {
  const shown = T.goodsCards[card] || [];
  return el("span", { class: "gc-goods-card", title: `goods card ${card}: ${shown.join(" and ")}` },
    el("span", { class: "gc-id", text: card }), shown.map(goodChip));
}

function coin(n, label = "coins") {
  return el("span", { class: "gc-coin", role: "img", title: `${n} ${label}`, "aria-label": `${n} ${label}` }, String(n));
}

function count(value) {
  return Array.isArray(value) ? value.length : typeof value === "object" && value !== null
    ? Object.values(value).reduce((a, b) => a + b, 0) : value;
}

function box(title, ...children) {
  return el("section", { class: "gc-box" }, el("h3", { text: title }), ...children);
}

// ---- the map -------------------------------------------------------------------------------------
function sector(angle, inner, outer) {
  const a0 = ((angle - 45) * Math.PI) / 180, a1 = ((angle + 45) * Math.PI) / 180;
  const p = (r, a) => `${(r * Math.cos(a)).toFixed(1)} ${(r * Math.sin(a)).toFixed(1)}`;
  return `M ${p(inner, a0)} L ${p(outer, a0)} A ${outer} ${outer} 0 0 1 ${p(outer, a1)} L ${p(inner, a1)} A ${inner} ${inner} 0 0 0 ${p(inner, a0)} Z`;
}

function houseShape(x, y, seat, name, tag) {
  const s = 7;
  const d = `M ${x - s} ${y + s} L ${x - s} ${y - s * 0.2} L ${x} ${y - s * 1.1} L ${x + s} ${y - s * 0.2} L ${x + s} ${y + s} Z`;
  // The owner's initial on the house: houses of two players differ without their colours too.
  return svg("g", { class: "gc-house-g" }, svg("path", { d, class: `gc-house p${seat}` }, svg("title", { text: `${name}'s house` })),
    svg("text", { x, y: y + s * 0.3, class: "gc-house-letter", "aria-hidden": "true", text: tag || "" }));
}

/** Half the map's width in map units (the viewBox is -272…272 both ways). */
const MAP_EDGE = 272;

function siteGroup(site, owners, state, ctx, T) {
  const { names } = ctx;
  const city = site.kind === "outer" || site.kind === "inner";
  const r = city ? 15 : site.kind === "harbour" ? 13 : 15;
  const current = state.site === site.id;
  const classes = `gc-site ${TERRAIN_CLASS[site.terrain]} k-${site.kind}${site.river ? " river" : ""}${current ? " current" : ""}`;
  const who = owners.length ? owners.map((seat) => names[seat]).join(", ") : "nobody";
  const title = `${site.id}: ${site.kind === "outer" ? "outer city part" : site.kind === "inner" ? "inner city part" : site.kind}` +
    `${site.river ? " on river " + site.river : ""}; reward: ${REWARD_TEXT[site.reward] || site.reward}; houses: ${who}`;
  const shape = site.kind === "harbour"
    ? svg("rect", { x: site.x - r, y: site.y - r, width: 2 * r, height: 2 * r, rx: 4, class: "gc-site-shape" })
    : svg("circle", { cx: site.x, cy: site.y, r, class: "gc-site-shape" });
  const label = city ? site.id.split("-").pop() : site.id;
  const parts = [svg("title", { text: title }), shape, svg("text", { x: site.x, y: site.y + 3.5, class: "gc-site-id", text: label })];
  // City parts show their rewards in the legend under the map: on the ring there is no room.
  // Under the site, unless that runs off the map's bottom edge (HA11's caption was cut): then above it.
  const captionY = site.y + r + 9 > MAP_EDGE - 4 ? site.y - r - 4 : site.y + r + 9;
  if (!city) parts.push(svg("text", { x: site.x, y: captionY, class: "gc-reward", text: REWARD_LABEL[site.reward] || site.reward }));
  if (city) owners.forEach((seat) => parts.push(houseShape(site.x + CITY_SLOTS[seat][0] * 1.3, site.y + CITY_SLOTS[seat][1] * 1.2, seat, names[seat], initialsOf(names)[seat])));
  else if (owners.length) parts.push(houseShape(site.x + r * 0.75, site.y - r * 0.75, owners[0], names[owners[0]], initialsOf(names)[owners[0]]));
  return svg("g", { class: classes, dataset: { site: site.id } }, parts);
}

function mapSvg(state, ctx, T) {
  const owners = {};
  state.players.forEach((p, seat) => p.houses.forEach((sid) => (owners[sid] = owners[sid] || []).push(seat)));
  const byId = Object.fromEntries(T.sites.map((s) => [s.id, s]));
  const roads = [];
  for (const s of T.sites) {
    for (const other of s.neighbours) {
      if (other > s.id || !byId[other]) continue;
      const o = byId[other];
      roads.push(svg("line", { x1: s.x, y1: s.y, x2: o.x, y2: o.y, class: "gc-road" }));
    }
  }
  const regions = T.regions.map((r) => svg("path", { d: sector(r.angle, 100, 230), class: `gc-region ${TERRAIN_CLASS[r.terrain]}` }));
  const rivers = T.rivers.map((r) => svg("g", {},
    svg("line", { x1: r.from[0], y1: r.from[1], x2: r.to[0], y2: r.to[1], class: "gc-river" }),
    svg("text", { x: r.label[0], y: r.label[1] + 3, class: "gc-river-label", text: r.id })));
  const sites = T.sites.map((s) => siteGroup(s, owners[s.id] || [], state, ctx, T));
  return svg("svg", { viewBox: "-272 -272 544 544", class: "gc-map", role: "img",
                      "aria-label": `The island: ${Object.keys(owners).length} sites with houses` },
    svg("rect", { x: -272, y: -272, width: 544, height: 544, class: "gc-sea" }),
    svg("circle", { cx: 0, cy: 0, r: 232, class: "gc-island" }),
    regions, svg("circle", { cx: 0, cy: 0, r: 100, class: "gc-city" }), rivers, roads, sites);
}

function legend() {
  return el("p", { class: "gc-legend" },
    el("span", { class: "gc-leg gc-leg-river", text: "river suburb" }),
    el("span", { text: "outer city part (O): 5 / 3 letters to the 1st / 2nd builder, O1 also +1 coin" }),
    el("span", { text: "inner (I): 10 letters + a card / 6 letters, needs a key card" }));
}

// ---- the common area -----------------------------------------------------------------------------
function scoringBox(state, ctx, T) {
  const card = state.scoring_card ? T.scoring[state.scoring_card] : null;
  const pile = count(state.scoring_pile);
  const next = state.next_scoring_back ?? (Array.isArray(state.scoring_pile) && state.scoring_pile.length
    ? T.scoring[state.scoring_pile[0]].back : null);
  const last = state.last_scoring && state.last_scoring.some((v) => v)
    ? el("div", { class: "gc-small" }, "last scoring: ", state.last_scoring.map((v, seat) =>
      el("span", { class: `gc-gain p${seat}`, title: `${ctx.names[seat]} got ${v} letters` }, `${ctx.names[seat]} +${v}`)))
    : null;
  return box("Scoring card",
    card ? el("div", { class: "gc-scoring-card", title: `scoring card ${state.scoring_card}` },
      el("span", { class: "gc-id", text: `${state.scoring_card} · back ${card.back}` }), goodChip(card.good),
      el("span", { class: "gc-regions", text: card.region_names.join(" + ") }))
      : el("div", { class: "muted", text: "none face up" }),
    el("div", { class: "gc-small" }, `${plural(pile, "card")} left`, next ? ` · next back ${next}` : "",
      ` · ${state.scored.length} scored`),
    last);
}

function landscapeBox(state, ctx) {
  const C = ctx.components;
  const pile = count(state.pile);
  return box("Landscape cards",
    el("div", { class: "gc-kv" }, el("span", { text: "draw pile" }), el("strong", { text: String(pile) })),
    el("div", { class: "gc-kv" }, el("span", { text: "discards" }), el("span", { class: "gc-chips" }, handChips(state.discard, C))));
}

function pairsBox(state, ctx) {
  const C = ctx.components, n = state.players.length;
  if (!state.layout.length) return null;
  const rows = [];
  for (let k = 0; k < n; k++) {
    const cards = [state.layout[k], state.layout[n + k]].filter((t) => t);
    const seat = state.bids[k];
    rows.push(el("div", { class: "gc-pair", dataset: { pair: String(k + 1), path: `bids.${k}` } },
      el("span", { class: "gc-pair-no", text: `Pair ${k + 1}` }),
      el("span", { class: "gc-chips" }, cards.map((t) => terrainChip(t, 1, C))),
      seat >= 0 ? el("span", { class: `gc-hand p${seat}`, title: `${ctx.names[seat]}'s bidding hand lies here`, text: ctx.names[seat] })
        : el("span", { class: "muted gc-small", text: "free" })));
  }
  const cost = state.phase === "bidding" ? el("div", { class: "gc-small", text: `next displacement costs ${state.displacements + 1}` }) : null;
  return box("Landscape pairs", rows, cost);
}

function goodsBox(state, T) {
  const pile = count(state.goods_pile);
  return box("Goods cards",
    el("div", { class: "gc-display" }, state.goods_display.length ? state.goods_display.map((c) => goodsCard(c, T))
      : el("span", { class: "muted", text: "display empty" })),
    el("div", { class: "gc-small" }, `face-down pile ${pile}`,
      state.goods_boxed.length ? ` · boxed: ${state.goods_boxed.join(", ")}` : ""));
}

function supplyBox(state, ctx, T) {
  const bonus = state.bonus_pile;
  return box("Supply",
    el("div", { class: "gc-kv" }, el("span", { text: "coins" }), coin(state.coin_supply, "coins in the supply")),
    el("div", { class: "gc-kv" }, el("span", { text: "key cards" }), el("strong", { text: String(state.key_supply) }),
      el("span", { class: "gc-small", text: `(${state.keys_used} played)` })),
    el("div", { class: "gc-kv" }, el("span", { text: "bonus pile" }),
      Array.isArray(bonus) ? el("span", { class: "gc-bonus-list" }, bonus.map((b) => el("span", { class: "gc-bonus", title: T.bonus[b] || b, text: b })))
        : el("strong", { text: String(bonus) })));
}

// ---- the players ---------------------------------------------------------------------------------
function playerCard(player, seat, state, ctx, T) {
  const C = ctx.components, name = ctx.names[seat];
  const toAct = ctx.actor === seat;
  const total = player.houses_left + player.houses.length;
  const letters = player.letters === null || player.letters === undefined ? null : player.letters;
  const hand = player.hand
    ? handChips(player.hand, C)
    : [el("span", { class: "gc-hidden", title: "hidden in this view", text: `${plural(player.hand_size ?? 0, "card")} (hidden)` })];
  const bonus = player.bonus
    ? (player.bonus.length ? player.bonus.map((b) => el("span", { class: "gc-bonus", title: T.bonus[b] || b, text: b })) : [el("span", { class: "muted", text: "none" })])
    : [el("span", { class: "gc-hidden", text: `${player.bonus_count ?? 0} face down` })];
  return el("article", { class: `gc-player p${seat}${toAct ? " to-act" : ""}${player.blocked ? " blocked" : ""}`, "aria-label": `${name}'s pieces` },
    el("header", {},
      el("span", { class: "gc-swatch", "aria-hidden": "true" }),
      el("h3", { text: name }),
      state.start_seat === seat && state.phase !== "over" ? el("span", { class: "badge gc-key", title: "holds the start key", text: "start key" }) : null,
      toAct ? el("span", { class: "badge act", text: "to act" }) : null,
      player.blocked ? el("span", { class: "badge gc-blocked", text: "blocked" }) : null),
    el("div", { class: "gc-stats" },
      withPath(coin(player.coins), `players.${seat}.coins`),
      el("span", { class: "gc-letters", "data-path": `players.${seat}.letters`, title: letters === null ? "trade letters hidden in this view" : `${letters} trade letters` },
        letters === null ? "? letters" : `${letters} letters`),
      el("span", { class: "gc-keys", title: "key cards", "data-path": `players.${seat}.keys` }, `${player.keys} key${player.keys === 1 ? "" : "s"}`),
      el("span", { class: "gc-houses", title: "houses left to build" }, `${player.houses_left}/${total} houses`)),
    el("div", { class: "gc-row" }, el("span", { class: "gc-label", text: "hand" }), el("span", { class: "gc-chips", "data-path": `players.${seat}.hand` }, hand)),
    el("div", { class: "gc-row" }, el("span", { class: "gc-label", text: "goods" }),
      el("span", { class: "gc-chips" }, player.goods.length ? player.goods.map((c) => goodsCard(c, T)) : el("span", { class: "muted", text: "none" }))),
    el("div", { class: "gc-row" }, el("span", { class: "gc-label", text: "bonus" }), el("span", { class: "gc-chips" }, bonus)));
}

/** `node` marked as drawing state field `path` (for the last-move highlight, lastmove.js). */
function withPath(node, path) {
  node.dataset.path = path;
  return node;
}

/** The last-move hook: a house is in a player's list of site ids, so the sites that gained one are marked. */
export function markLastMove(container, before, after) {
  after.players.forEach((player, seat) => {
    const had = new Set(before.players[seat]?.houses || []);
    for (const site of player.houses || []) {
      if (had.has(site)) continue;
      const group = container.querySelector(`.gc-site[data-site="${CSS.escape(site)}"]`);
      if (group) markPiece(group);
    }
  });
}

/** Draw the board of `state` into `container`. */
export function renderBoard(container, state, ctx) {
  const T = tablesFor(state, ctx.components);
  const board = el("div", { class: "gc" },
    el("div", { class: "gc-top" },
      el("div", { class: "gc-map-wrap" }, mapSvg(state, ctx, T), legend()),
      el("div", { class: "gc-common" }, scoringBox(state, ctx, T), pairsBox(state, ctx), goodsBox(state, T),
        landscapeBox(state, ctx), supplyBox(state, ctx, T))),
    el("div", { class: `gc-players n${state.players.length}` },
      state.players.map((p, seat) => playerCard(p, seat, state, ctx, T))));
  redraw(container, board);
}
