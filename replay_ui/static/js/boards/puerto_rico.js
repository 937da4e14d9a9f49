// The Puerto Rico board, drawn from a state as the API serves it (dump_state, or a seat's
// view with hidden VP chips as null and the face-down stack as a count). Static tables
// (buildings, ships, role cards) come from the engine through the page data: nothing here
// knows a rule; it only lays out what the state says. Its words are the game's glossary's in the page's language
// (`tg`: roles, buildings, goods, plantations, the rulebook's components) and the site's catalog's (`t`).

import { el, redraw } from "../dom.js";
import { capitalised, gameTerms, t } from "../i18n.js";
import { lettersFor } from "./letters.js";

const tg = gameTerms("puerto_rico");
let letters = null;  // each tile kind's letters, made when the board is first drawn (lettersFor)
// Two letters per tile kind in English: corn and coffee share a first letter.
const ABBREVIATIONS = { corn: "Co", indigo: "In", sugar: "Su", tobacco: "To", coffee: "Cf", quarry: "Q" };
const sum = (values) => values.reduce((a, b) => a + b, 0);
const vp = (n) => tg.count(n, "component", "VP", "VP");

/** A good's or a tile kind's word: the good itself, or the quarry. */
function kindWord(name) {
  return name === "quarry" ? tg("tile", "quarry") : tg("good", name);
}

/** A tile's word: a plantation of its good, or a quarry. */
function tileWord(name) {
  return name === "quarry" ? tg("tile", "quarry") : tg("plantation", `${name} plantation`);
}

/** The letters of a good or plantation, so that a colour is never the only thing saying which. */
function abbreviation(name) {
  return letters?.[name] || name.slice(0, 2);
}

function coin(n, label = tg.count(n, "component", "doubloon")) {
  return el("span", { class: "coin", role: "img", title: label, "aria-label": label }, String(n));
}

function vpChip(n, left = false) {
  const hidden = n === null || n === undefined;
  const chips = hidden ? tg.many("component", "VP chip") : tg.count(n, "component", "VP chip");
  const said = left && !hidden ? t("%(chips)s left", { chips }) : chips;
  return el("span", { class: "vp", role: "img", title: hidden ? t("%(chips)s hidden in this view", { chips }) : said,
                      "aria-label": hidden ? t("%(chips)s hidden", { chips }) : said }, hidden ? "?" : String(n));
}

function barrel(kind, count, names) {
  return el("span", { class: `barrel g-${names[kind]}`, title: tg.count(count, "good", names[kind], names[kind]) },
    el("span", { class: "good-letter", text: abbreviation(names[kind]) }), String(count));
}

/** A slot of a ship or of the trading house: a good's letters when filled, dashed and empty otherwise. */
function goodSlot(kindName, attrs) {
  if (!kindName) return el("span", { ...attrs, class: `${attrs.class} free` });
  return el("span", { ...attrs, class: `${attrs.class} g-${kindName}` }, el("span", { class: "good-letter", text: abbreviation(kindName) }));
}

/** `node` marked as drawing state field `path` (for the last-move highlight, lastmove.js). */
function withPath(node, path) {
  node.dataset.path = path;
  return node;
}

function colonist(filled = true) {
  return el("span", { class: filled ? "colonist" : "circle", "aria-hidden": "true" });
}

function tile(kind, tiles, occupied) {
  const name = tiles[kind];
  return el("span", { class: `tile g-${name}`, title: occupied ? t("%(tile)s, occupied", { tile: tileWord(name) }) : tileWord(name) },
    el("span", { class: "tile-letter", text: abbreviation(name) }), occupied === null ? null : colonist(occupied));
}

function rolesRow(state, ctx) {
  const { components: C, names } = ctx;
  const taken = ctx.position?.taken || [];
  return el("div", { class: "pr-roles", role: "list", "aria-label": tg.heading("component", "role card") },
    C.roles.map((role, card) => {
      const isTaken = state.roles_taken[card];
      const by = taken[card];
      return el("div", { class: `role-card${isTaken ? " taken" : ""}`, role: "listitem", "data-path": `roles_taken.${card}` },
        el("span", { class: "role-name", text: tg("role", role) }),
        state.role_coins[card] ? coin(state.role_coins[card], t("%(doubloons)s on the card",
                                                                { doubloons: tg.count(state.role_coins[card], "component", "doubloon") })) : null,
        isTaken ? el("span", { class: "role-by", text: by !== null && by !== undefined ? names[by] : t("taken") }) : null);
    }));
}

function shipsBox(state, C) {
  const goods = C.goods;
  const ships = C.ship_capacities.map((capacity, i) => {
    const kind = state.ship_goods[i], load = state.ship_loads[i];
    const slots = Array.from({ length: capacity }, (_, j) =>
      goodSlot(j < load && kind >= 0 ? goods[kind] : null, { class: "slot", "aria-hidden": "true" }));
    const cargo = kind >= 0 ? t("%(load)s/%(capacity)s %(good)s", { load, capacity, good: tg("good", goods[kind]) })
      : t("empty, %(capacity)s", { capacity });
    return el("div", { class: "ship", title: t("%(ship)s: %(cargo)s", { ship: tg("component", "cargo ship"), cargo }),
                       "data-path": `ship_loads.${i} ship_goods.${i}` },
      el("span", { class: "ship-cap", text: String(capacity) }), el("span", { class: "slots" }, slots));
  });
  return el("div", { class: "box ships" }, el("h3", { text: tg.heading("component", "cargo ship") }), ships);
}

function tradingHouse(state, C) {
  const slots = Array.from({ length: C.trading_house_spaces }, (_, i) => {
    const kind = state.trading_house[i];
    return goodSlot(kind === undefined ? null : C.goods[kind],
                    { class: "slot big", title: kind === undefined ? t("free") : tg("good", C.goods[kind]), "data-path": `trading_house.${i}` });
  });
  return el("div", { class: "box trading" }, el("h3", { text: capitalised(tg("component", "trading house")) }),
    el("div", { class: "slots" }, slots));
}

function colonistsBox(state) {
  return el("div", { class: "box colonists", "data-path": "colonist_ship colonist_supply" },
    el("h3", { text: tg.heading("component", "colonist") }),
    el("div", { class: "kv" }, el("span", { text: tg("component", "colonist ship") }),
      el("strong", { class: "num", text: String(state.colonist_ship) }), colonist()),
    el("div", { class: "kv" }, el("span", { text: tg("component", "supply") }),
      el("strong", { class: "num", text: String(state.colonist_supply) })));
}

function bankBox(state, C) {
  return el("div", { class: "box bank" }, el("h3", { text: t("Bank") }),
    el("div", { class: "kv" }, el("span", { text: tg.many("component", "VP chip") }), vpChip(state.vp_bank, true)),
    el("div", { class: "barrels" }, C.goods.map((_, k) => barrel(k, state.goods_supply[k], C.goods))));
}

function plantationsBox(state, C) {
  const faceUp = [];
  state.face_up.forEach((count, kind) => { for (let i = 0; i < count; i++) faceUp.push(tile(kind, C.tiles, null)); });
  const stack = Array.isArray(state.stack) ? sum(state.stack) : state.stack;
  return el("div", { class: "box plantations" }, el("h3", { text: tg.heading("tile", "plantation") }),
    el("div", { class: "tiles", "data-path": "face_up" }, faceUp.length ? faceUp : el("span", { class: "muted", text: t("none face up") })),
    el("div", { class: "kv small" },
      el("span", { text: t("%(quarries)s %(n)s", { quarries: tg.many("tile", "quarry", "quarries"), n: state.quarries }) }),
      el("span", { text: t("face down %(n)s", { n: stack }) }),
      el("span", { text: t("discarded %(n)s", { n: sum(state.discards) }) })));
}

function buildingBank(state, C) {
  const columns = [1, 2, 3, 4].map((points) => el("div", { class: "bank-col" },
    el("h4", { text: vp(points) }),
    C.buildings.map((b, i) => b.vp !== points ? null : el("div", {
      class: `bank-item ${b.produces >= 0 ? "prod g-" + C.goods[b.produces] : "violet"}${state.building_supply[i] ? "" : " sold-out"}`,
      title: t("%(building)s: cost %(cost)s, %(vp)s, %(circles)s, %(left)s left", {
        building: tg("building", b.name), cost: b.cost, vp: vp(b.vp), circles: tg.count(b.circles, "component", "circle"),
        left: state.building_supply[i] }),
      "data-path": `building_supply.${i}`,
    }, el("span", { class: "b-name", text: tg("building", b.name) }), el("span", { class: "b-cost", text: String(b.cost) }),
       el("span", { class: "b-left", text: `×${state.building_supply[i]}` })))));
  return el("div", { class: "pr-bankboard", role: "group", "aria-label": t("Buildings in the bank") }, columns);
}

function island(player, C, seat) {
  const cells = [];
  player.island.forEach((count, kind) => {
    // The last tile of a kind is the newest: a new plantation or colonist marks that one only.
    for (let i = 0; i < count; i++) {
      const piece = tile(kind, C.tiles, i < player.island_workers[kind]);
      if (i === count - 1) piece.dataset.path = `players.${seat}.island.${kind} players.${seat}.island_workers.${kind}`;
      cells.push(piece);
    }
  });
  while (cells.length < C.island_spaces) cells.push(el("span", { class: "tile empty", "aria-hidden": "true" }));
  return el("div", { class: "island", role: "group",
                     "aria-label": t("island: %(n)s of %(spaces)s spaces", { n: sum(player.island), spaces: C.island_spaces }) }, cells);
}

function city(player, C, seat) {
  const cells = [];
  let used = 0;
  player.city.forEach((workers, i) => {
    if (workers < 0) return;
    const b = C.buildings[i];
    used += b.large ? 2 : 1;
    const circles = Array.from({ length: b.circles }, (_, j) => colonist(j < workers));
    cells.push(el("div", {
      class: `building ${b.large ? "large " : ""}${b.produces >= 0 ? "prod g-" + C.goods[b.produces] : "violet"}`,
      title: t("%(building)s: %(workers)s/%(circles)s %(colonists)s, %(vp)s", { building: tg("building", b.name), workers,
        circles: b.circles, colonists: tg.many("component", "colonist"), vp: vp(b.vp) }),
      "data-path": `players.${seat}.city.${i}`,
    }, el("span", { class: "b-name", text: tg("building", b.name) }), el("span", { class: "b-foot" },
       el("span", { class: "circles" }, circles), el("span", { class: "b-vp", text: String(b.vp) }))));
  });
  for (; used < C.city_spaces; used++) cells.push(el("div", { class: "building empty", "aria-hidden": "true" }));
  return el("div", { class: "city", role: "group", "aria-label": t("city") }, cells);
}

function playerBoard(player, seat, state, ctx) {
  const { components: C, names } = ctx;
  const pos = ctx.position || {};
  const toAct = ctx.actor === seat;
  const score = pos.scores ? pos.scores[seat] : undefined;
  const goods = C.goods.map((_, k) => player.goods[k] ? withPath(barrel(k, player.goods[k], C.goods), `players.${seat}.goods.${k}`) : null)
    .filter(Boolean);
  const barrels = tg.many("component", "barrel");
  const sanJuan = tg("component", "San Juan");
  return el("article", { class: `pr-player${toAct ? " to-act" : ""}`, "aria-label": t("%(name)s's board", { name: names[seat] }) },
    el("header", {},
      el("h3", { text: names[seat] }),
      state.governor === seat ? el("span", { class: "badge gov", title: tg("component", "governor"),
                                             text: capitalised(tg("component", "governor")) }) : null,
      toAct ? el("span", { class: "badge act", text: t("to act") }) : null,
      el("span", { class: "spacer" }),
      el("span", { class: "barrels", role: "group", "aria-label": barrels },
        goods.length ? goods : el("span", { class: "muted", text: t("no %(barrels)s", { barrels }) })),
      withPath(coin(player.doubloons), `players.${seat}.doubloons`), withPath(vpChip(player.vp), `players.${seat}.vp`),
      score !== undefined && score !== null ? el("span", { class: "score", title: t("score so far"), text: t("%(score)s pts", { score }) }) : null),
    el("div", { class: "pr-player-body" },
      el("div", {}, island(player, C, seat),
        el("div", { class: "sanjuan", title: t("%(san_juan)s: %(colonists)s not placed", { san_juan: sanJuan, colonists: tg.many("component", "colonist") }),
                    "data-path": `players.${seat}.san_juan` },
          el("span", { text: sanJuan }), player.san_juan ? colonist() : null, el("strong", { text: String(player.san_juan) }))),
      city(player, C, seat)));
}

/** Draw the board of `state` into `container`. */
export function renderBoard(container, state, ctx) {
  const C = ctx.components;
  letters ??= lettersFor(C.tiles, kindWord, ABBREVIATIONS);
  const board = el("div", { class: "pr" },
    rolesRow(state, ctx),
    el("div", { class: "pr-common" }, shipsBox(state, C), tradingHouse(state, C), colonistsBox(state),
       bankBox(state, C), plantationsBox(state, C)),
    buildingBank(state, C),
    el("div", { class: `pr-players n${state.players.length}` },
      state.players.map((p, seat) => playerBoard(p, seat, state, ctx))));
  redraw(container, board);
}
