// The Die goldene Stadt board, drawn from a state as the API serves it (dump_state, or a seat's view
// in which other players' hands, bonus cards and letters are null and the piles are counts). The
// sites, roads, rivers, regions and card tables come from the engine through the page data: the
// game's own component set (the default one or a custom one), with screen positions from the UI
// adapter (on the island, or in rings for a set with sites of its own). Nothing here knows a rule. Its words are the
// game's glossary's in the page's language (`tg`: terrains, cards, goods, sites, the rulebook's components) and the
// site's catalog's (`t`).

import { el, redraw, svg } from "../dom.js";
import { capitalised, formatList, gameTerms, t } from "../i18n.js";
import { initialsOf } from "./initials.js";
import { markPiece } from "../lastmove.js";

const tg = gameTerms("golden_city");
const TERRAIN_CLASS = { CO: "t-co", MT: "t-mt", ME: "t-me", FO: "t-fo", DE: "t-de" };
// Where the houses of seats 0..3 sit on a city part (one house per player there).
const CITY_SLOTS = [[-10, -12], [10, -12], [-10, 12], [10, 12]];
const coins = (n) => tg.count(n, "component", "coin");
const letters = () => tg.many("component", "letter");
const landscapeCard = (short) => tg.many("card", "landscape card", short);
const landscapeCards = (n) => tg.count(n, "card", "landscape card", "cards", "card");

/** A reward's short label on the map, under its site. */
function rewardLabel(reward) {
  return {
    coin1: `+${coins(1)}`, coin2: `+${coins(2)}`, card: landscapeCard("card"), key: tg.many("card", "key card", "key"),
    bonus: tg.many("card", "bonus card", "bonus"), goods: tg.many("card", "goods card", "goods"), outer: "5 / 3",
    "outer+coin": `5 / 3 +${tg("component", "coin")}`, inner: `10 / 6 +${landscapeCard("card")}`,
  }[reward] || reward;
}

/** A reward in words, for the site's title. */
function rewardText(reward) {
  const words = { letters: letters(), coin: tg("component", "coin"), card: tg("card", "landscape card") };
  return {
    coin1: coins(1), coin2: coins(2), card: t("may draw a %(card)s", words), key: tg("card", "key card"),
    bonus: t("may keep a %(card)s", { card: tg("card", "bonus card") }), goods: tg("card", "goods card"),
    outer: t("5 %(letters)s to the first builder, 3 to the second", words),
    "outer+coin": t("5 %(letters)s and 1 %(coin)s to the first builder, 3 %(letters)s to the second", words),
    inner: t("10 %(letters)s and a %(card)s to the first builder, 6 %(letters)s to the second", words),
  }[reward] || reward;
}

/** A site's kind in words: a harbour, a suburb, an outer or inner city part. */
function siteWord(kind) {
  return kind === "outer" ? tg("site", "outer city part") : kind === "inner" ? tg("site", "inner city part") : tg("site", kind);
}

/** A terrain (its code: `MT`) in words. */
function terrainWord(code, C) {
  const name = C.terrain_names[C.terrains.indexOf(code)];
  return name ? tg("terrain", name) : code;
}

/** A scoring card's region in words: a river (`R-NE`) or a terrain's district (`D-MT`). */
function regionWord(region, C) {
  if (!region.startsWith("D-")) return t("%(river)s %(name)s", { river: tg("site", "river"), name: region });
  return t("%(terrain)s %(district)s", { terrain: terrainWord(region.slice(2), C),
                                         district: tg("site", "district") });
}

// ---- the tables: the game's component set, from the page data ---------------------------------
function tablesFor(state, C) {
  return { sites: C.sites, rivers: C.rivers, regions: C.regions, goodsCards: C.goods_cards, scoring: C.scoring_cards,
           bonus: C.bonus_cards, goods: C.goods };
}

// ---- small pieces ------------------------------------------------------------------------------
function terrainChip(code, count, C) {
  const name = terrainWord(code, C);
  return el("span", { class: `gc-card ${TERRAIN_CLASS[code]}`, title: t("%(cards)s: %(terrain)s", { cards: landscapeCards(count), terrain: name }) },
    el("span", { class: "gc-code", translate: "no", text: code }), count > 1 ? el("span", { class: "gc-count", text: `×${count}` }) : null);
}

function handChips(hand, C) {
  const chips = C.terrains.filter((t) => hand[t]).map((t) => terrainChip(t, hand[t], C));
  return chips.length ? chips : [el("span", { class: "muted", text: t("none") })];
}

function goodChip(good) {
  return el("span", { class: `gc-good g-${good}`, title: tg("good", good), text: tg("good", good) });
}

function goodsCard(card, T) {
  const shown = T.goodsCards[card] || [];
  return el("span", { class: "gc-goods-card", title: t("%(card)s %(id)s: %(goods)s", { card: tg("card", "goods card"), id: card,
                                                                                   goods: formatList(shown.map((good) => tg("good", good))) }) },
    el("span", { class: "gc-id", text: card }), shown.map(goodChip));
}

function coin(n, label = coins(n)) {
  return el("span", { class: "gc-coin", role: "img", title: label, "aria-label": label }, String(n));
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
  return svg("g", { class: "gc-house-g" }, svg("path", { d, class: `gc-house p${seat}` }, svg("title", { text: t("%(name)s's house", { name }) })),
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
  const words = { id: site.id, site: siteWord(site.kind), river: tg("site", "river"), name: site.river, reward: rewardText(site.reward),
                  who: owners.length ? formatList(owners.map((seat) => names[seat])) : t("nobody") };
  const title = site.river ? t("%(id)s: %(site)s on %(river)s %(name)s; reward: %(reward)s; houses: %(who)s", words)
    : t("%(id)s: %(site)s; reward: %(reward)s; houses: %(who)s", words);
  const shape = site.kind === "harbour"
    ? svg("rect", { x: site.x - r, y: site.y - r, width: 2 * r, height: 2 * r, rx: 4, class: "gc-site-shape" })
    : svg("circle", { cx: site.x, cy: site.y, r, class: "gc-site-shape" });
  const label = city ? site.id.split("-").pop() : site.id;
  const parts = [svg("title", { text: title }), shape, svg("text", { x: site.x, y: site.y + 3.5, class: "gc-site-id", translate: "no", text: label })];
  // City parts show their rewards in the legend under the map: on the ring there is no room.
  // Under the site, unless that runs off the map's bottom edge (HA11's caption was cut): then above it.
  const captionY = site.y + r + 9 > MAP_EDGE - 4 ? site.y - r - 4 : site.y + r + 9;
  if (!city) parts.push(svg("text", { x: site.x, y: captionY, class: "gc-reward", text: rewardLabel(site.reward) }));
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
    svg("text", { x: r.label[0], y: r.label[1] + 3, class: "gc-river-label", translate: "no", text: r.id })));
  const sites = T.sites.map((s) => siteGroup(s, owners[s.id] || [], state, ctx, T));
  return svg("svg", { viewBox: "-272 -272 544 544", class: "gc-map", role: "img",
                      "aria-label": t("The island: %(n)s sites with houses", { n: Object.keys(owners).length }) },
    svg("rect", { x: -272, y: -272, width: 544, height: 544, class: "gc-sea" }),
    svg("circle", { cx: 0, cy: 0, r: 232, class: "gc-island" }),
    regions, svg("circle", { cx: 0, cy: 0, r: 100, class: "gc-city" }), rivers, roads, sites);
}

function legend() {
  return el("p", { class: "gc-legend" },
    el("span", { class: "gc-leg gc-leg-river", text: t("%(suburb)s on a %(river)s", { suburb: tg("site", "suburb"), river: tg("site", "river") }) }),
    el("span", { text: t("%(part)s (O): 5 / 3 %(letters)s to the 1st / 2nd builder, O1 also +1 %(coin)s", {
      part: tg("site", "outer city part"), letters: letters(), coin: tg("component", "coin") }) }),
    el("span", { text: t("%(part)s (I): 10 %(letters)s + a %(card)s / 6 %(letters)s, needs a %(key)s", {
      part: tg("site", "inner city part"), letters: letters(), card: tg("card", "landscape card"), key: tg("card", "key card") }) }));
}

// ---- the common area -----------------------------------------------------------------------------
function scoringBox(state, ctx, T) {
  const card = state.scoring_card ? T.scoring[state.scoring_card] : null;
  const pile = count(state.scoring_pile);
  const next = state.next_scoring_back ?? (Array.isArray(state.scoring_pile) && state.scoring_pile.length
    ? T.scoring[state.scoring_pile[0]].back : null);
  const last = state.last_scoring && state.last_scoring.some((v) => v)
    ? el("div", { class: "gc-small" }, `${t("last scoring:")} `, state.last_scoring.map((v, seat) =>
      el("span", { class: `gc-gain p${seat}`, title: t("%(name)s got %(letters)s", { name: ctx.names[seat], letters: tg.count(v, "component", "letter") }) },
        `${ctx.names[seat]} +${v}`)))
    : null;
  const C = ctx.components;
  const counts = [t("%(cards)s left", { cards: tg.count(pile, "card", "scoring card", "cards", "card") }), next ? t("next back %(back)s", { back: next }) : null,
                  t("%(n)s scored", { n: state.scored.length })];
  return box(capitalised(tg("card", "scoring card")),
    card ? el("div", { class: "gc-scoring-card", title: t("%(card)s %(id)s", { card: tg("card", "scoring card"), id: state.scoring_card }) },
      el("span", { class: "gc-id", text: t("%(card)s · back %(back)s", { card: state.scoring_card, back: card.back }) }), goodChip(card.good),
      el("span", { class: "gc-regions", text: card.regions.map((region) => regionWord(region, C)).join(" + ") }))
      : el("div", { class: "muted", text: t("none face up") }),
    el("div", { class: "gc-small" }, counts.filter(Boolean).join(" · ")),
    last);
}

function landscapeBox(state, ctx) {
  const C = ctx.components;
  const pile = count(state.pile);
  return box(tg.heading("card", "landscape card"),
    el("div", { class: "gc-kv" }, el("span", { text: tg("component", "draw pile") }), el("strong", { text: String(pile) })),
    el("div", { class: "gc-kv" }, el("span", { text: tg.many("component", "discard pile", "discards") }),
      el("span", { class: "gc-chips" }, handChips(state.discard, C))));
}

function pairsBox(state, ctx) {
  const C = ctx.components, n = state.players.length;
  if (!state.layout.length) return null;
  const rows = [];
  for (let k = 0; k < n; k++) {
    const cards = [state.layout[k], state.layout[n + k]].filter((t) => t);
    const seat = state.bids[k];
    rows.push(el("div", { class: "gc-pair", dataset: { pair: String(k + 1), path: `bids.${k}` } },
      el("span", { class: "gc-pair-no", text: t("%(pair)s %(n)s", { pair: capitalised(tg.many("component", "pair", "pair")), n: k + 1 }) }),
      el("span", { class: "gc-chips" }, cards.map((terrain) => terrainChip(terrain, 1, C))),
      seat >= 0 ? el("span", { class: `gc-hand p${seat}`, title: t("%(name)s's %(hand)s lies here", { name: ctx.names[seat],
                                                                                                    hand: tg("component", "bidding hand") }),
                               text: ctx.names[seat] })
        : el("span", { class: "muted gc-small", text: t("free") })));
  }
  const cost = state.phase === "bidding" ? el("div", { class: "gc-small", text: t("next displacement costs %(n)s", { n: state.displacements + 1 }) }) : null;
  return box(tg.heading("component", "pair", "Landscape pairs"), rows, cost);
}

function goodsBox(state, T) {
  const pile = count(state.goods_pile);
  return box(tg.heading("card", "goods card"),
    el("div", { class: "gc-display" }, state.goods_display.length ? state.goods_display.map((c) => goodsCard(c, T))
      : el("span", { class: "muted", text: t("display empty") })),
    el("div", { class: "gc-small" }, t("face-down pile %(n)s", { n: pile }),
      state.goods_boxed.length ? ` · ${t("boxed: %(cards)s", { cards: state.goods_boxed.join(", ") })}` : ""));
}

function supplyBox(state, ctx, T) {
  const bonus = state.bonus_pile;
  return box(t("Supply"),
    el("div", { class: "gc-kv" }, el("span", { text: tg.many("component", "coin") }),
      coin(state.coin_supply, t("%(coins)s in the supply", { coins: coins(state.coin_supply) }))),
    el("div", { class: "gc-kv" }, el("span", { text: tg.many("card", "key card") }), el("strong", { text: String(state.key_supply) }),
      el("span", { class: "gc-small", text: t("(%(n)s played)", { n: state.keys_used }) })),
    el("div", { class: "gc-kv" }, el("span", { text: t("%(cards)s (pile)", { cards: tg.many("card", "bonus card") }) }),
      Array.isArray(bonus) ? el("span", { class: "gc-bonus-list" }, bonus.map((b) => bonusChip(b, T)))
        : el("strong", { text: String(bonus) })));
}

// ---- the players ---------------------------------------------------------------------------------
function playerCard(player, seat, state, ctx, T) {
  const C = ctx.components, name = ctx.names[seat];
  const toAct = ctx.actor === seat;
  const total = player.houses_left + player.houses.length;
  const shown = player.letters === null || player.letters === undefined ? null : player.letters;
  const hand = player.hand
    ? handChips(player.hand, C)
    : [el("span", { class: "gc-hidden", title: t("hidden in this view"), text: t("%(cards)s (hidden)", { cards: landscapeCards(player.hand_size ?? 0) }) })];
  const bonus = player.bonus
    ? (player.bonus.length ? player.bonus.map((b) => bonusChip(b, T)) : [el("span", { class: "muted", text: t("none") })])
    : [el("span", { class: "gc-hidden", text: t("%(n)s face down", { n: player.bonus_count ?? 0 }) })];
  const startKey = tg("component", "start key");
  return el("article", { class: `gc-player p${seat}${toAct ? " to-act" : ""}${player.blocked ? " blocked" : ""}`, "aria-label": t("%(name)s's pieces", { name }) },
    el("header", {},
      el("span", { class: "gc-swatch", "aria-hidden": "true" }),
      el("h3", { text: name }),
      state.start_seat === seat && state.phase !== "over" ? el("span", { class: "badge gc-key", title: t("holds the %(key)s", { key: startKey }), text: startKey }) : null,
      toAct ? el("span", { class: "badge act", text: t("to act") }) : null,
      player.blocked ? el("span", { class: "badge gc-blocked", text: t("blocked") }) : null),
    el("div", { class: "gc-stats" },
      withPath(coin(player.coins), `players.${seat}.coins`),
      el("span", { class: "gc-letters", "data-path": `players.${seat}.letters`,
                   title: shown === null ? t("%(letters)s hidden in this view", { letters: tg.many("component", "letter", "trade letters") })
                     : tg.count(shown, "component", "letter", "trade letters", "trade letter") },
        tg.count(shown ?? "?", "component", "letter")),
      el("span", { class: "gc-keys", title: tg.many("card", "key card"), "data-path": `players.${seat}.keys` }, tg.count(player.keys, "card", "key card", "keys", "key")),
      el("span", { class: "gc-houses", title: t("houses left to build") }, t("%(left)s/%(total)s houses", { left: player.houses_left, total }))),
    el("div", { class: "gc-row" }, el("span", { class: "gc-label", text: t("hand") }), el("span", { class: "gc-chips", "data-path": `players.${seat}.hand` }, hand)),
    el("div", { class: "gc-row" }, el("span", { class: "gc-label", text: tg.many("card", "goods card", "goods") }),
      el("span", { class: "gc-chips" }, player.goods.length ? player.goods.map((c) => goodsCard(c, T)) : el("span", { class: "muted", text: t("none") }))),
    el("div", { class: "gc-row" }, el("span", { class: "gc-label", text: tg.many("card", "bonus card", "bonus") }), el("span", { class: "gc-chips" }, bonus)));
}

/** A bonus card: its id (the notation's, the same in every language) and what it scores. */
function bonusChip(card, T) {
  return el("span", { class: "gc-bonus", title: T.bonus[card] || card }, el("span", { translate: "no", text: card }));
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
