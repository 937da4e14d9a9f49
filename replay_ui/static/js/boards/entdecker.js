// The Entdecker board, drawn from a state as the API serves it (dump_state, or a seat's view in which
// the undrawn tiles are left out and the chip pool is a count). Tile faces (land parts and water
// regions per placed-tile code), the board's size and the unit and chip tables come from the engine
// through the page data: the game's own component set, the default one or a custom one.
// Nothing here knows a rule: it draws what the state and the adapter say. Its words are the game's glossary's in the
// page's language (`tg`: units, events, sides, the rulebook's components) and the site's catalog's (`t`).

import { el, redraw, svg } from "../dom.js";
import { capitalised, formatList, gameTerms, t } from "../i18n.js";
import { initialsOf } from "./initials.js";
import { lettersFor } from "./letters.js";

const tg = gameTerms("entdecker");
const S = 60; // a cell, in SVG units
const M = 40; // the margin around the grid: coordinates outside, the start circles inside
const SIDES = ["N", "E", "S", "W"];
const SIDE_WORDS = ["north", "east", "south", "west"];
const DIRS = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const EVENTS = ["storm", "hostile", "friendly", "pirates", "ruins", "treasure"];
const UNITS = ["scout", "fort", "settlement"];
/** An event's word: English says the natives' two kinds in full. */
const eventWord = (event) => (event === "hostile" ? tg.many("event", "hostile", "hostile natives")
  : event === "friendly" ? tg.many("event", "friendly", "friendly natives") : tg("event", event));
const EVENT_BADGE = lettersFor(EVENTS, eventWord, { storm: "St", hostile: "Ho", friendly: "Fr", pirates: "Pi", ruins: "Ru", treasure: "Tr" });
const tiles = (n) => tg.count(n, "component", "tile");
const sidesOf = (mask) => [0, 1, 2, 3].filter((d) => (mask >> d) & 1);

// ---- geometry of one face, in unit coordinates (0..1), drawn at any size ----------------------
// A headland (a land part touching one side) is a trapezoid that keeps clear of the corners, so two
// headlands on one tile never touch; a part touching several sides is full-width bands joined
// through the centre; an islet is a disc.
const HEADLAND = [[0.2, 0], [0.8, 0], [0.62, 0.26], [0.38, 0.26]];
const BAND = [[0, 0], [1, 0], [1, 0.32], [0, 0.32]];
const CENTRE = [[0.32, 0.32], [0.68, 0.32], [0.68, 0.68], [0.32, 0.68]];

function turn([x, y], d) {
  // Rotate a point of the north-side shape to side d (clockwise quarter turns about the centre).
  for (let i = 0; i < d; i++) [x, y] = [1 - y, x];
  return [x, y];
}

function partPolygons(mask) {
  const sides = sidesOf(mask);
  if (sides.length === 1) return [HEADLAND.map((p) => turn(p, sides[0]))];
  return [...sides.map((d) => BAND.map((p) => turn(p, d))), CENTRE];
}

function partAnchor(mask) {
  const sides = sidesOf(mask);
  if (!sides.length) return [0.5, 0.5];
  const points = sides.map((d) => [0.5 + DIRS[d][0] * 0.36, 0.5 + DIRS[d][1] * 0.36]);
  if (sides.length > 1) points.push([0.5, 0.5]);
  return [points.reduce((a, p) => a + p[0], 0) / points.length, points.reduce((a, p) => a + p[1], 0) / points.length];
}

function regionJunction(mask, face) {
  const sides = sidesOf(mask);
  // On a tile with an islet the sea runs round it: the passages meet south-east of the islet.
  if (face && face.parts.includes(0) && sides.length > 1) return [0.78, 0.78];
  if (sides.length === 1) return [0.5 + DIRS[sides[0]][0] * 0.2, 0.5 + DIRS[sides[0]][1] * 0.2];
  const ax = sides.reduce((a, d) => a + DIRS[d][0], 0) / sides.length, ay = sides.reduce((a, d) => a + DIRS[d][1], 0) / sides.length;
  return [0.5 + ax * 0.5, 0.5 + ay * 0.5];
}

function points(poly, x0, y0, size) {
  return poly.map(([x, y]) => `${(x0 + x * size).toFixed(1)},${(y0 + y * size).toFixed(1)}`).join(" ");
}

/** The face of a tile code as SVG (water, land parts, dashed sea passages), at (x0, y0) with `size`. */
function faceShapes(face, x0, y0, size, extra = "") {
  const shapes = [svg("rect", { class: `ed-water${extra}`, x: x0, y: y0, width: size, height: size })];
  for (const mask of face.parts) {
    if (!mask) {
      shapes.push(svg("circle", { class: "ed-land", cx: x0 + size / 2, cy: y0 + size / 2, r: size * 0.14 }));
      continue;
    }
    for (const poly of partPolygons(mask)) shapes.push(svg("polygon", { class: "ed-land", points: points(poly, x0, y0, size) }));
  }
  for (const mask of face.regions) {
    const [jx, jy] = regionJunction(mask, face);
    for (const d of sidesOf(mask)) {
      const mx = 0.5 + DIRS[d][0] * 0.5, my = 0.5 + DIRS[d][1] * 0.5;
      shapes.push(svg("line", { class: "ed-passage", x1: x0 + mx * size, y1: y0 + my * size, x2: x0 + jx * size, y2: y0 + jy * size }));
    }
  }
  return shapes;
}

function landWords(face) {
  const land = sidesOf(face.land).map((d) => tg("side", SIDE_WORDS[d]));
  return land.length ? t("%(land)s %(sides)s", { land: tg("tile", "land"), sides: land.join(", ") }) : t("all sea");
}

/** A tile kind in words: a reserve tile's number, the kind's name, its event. */
function kindWords(kind) {
  const tile = tg("tile", kind.name);
  const name = kind.reserve ? t("%(reserve)s #%(n)s %(tile)s", { reserve: tg("component", "reserve tile"), n: kind.reserve, tile }) : tile;
  return kind.event ? t("%(tile)s with %(event)s", { tile: name, event: eventWord(kind.event) }) : name;
}

// ---- pieces -----------------------------------------------------------------------------------
function unitShape(code, cx, cy, names) {
  const [seat, unit] = code;
  const title = svg("title", { text: t("%(name)s's %(unit)s", { name: names[seat], unit: tg("unit", UNITS[unit]) }) });
  const cls = `ed-unit p${seat}`;
  let shape;
  if (unit === 0) shape = svg("circle", { class: cls, cx, cy, r: 7.5 });
  else if (unit === 1) shape = svg("rect", { class: cls, x: cx - 8, y: cy - 8, width: 16, height: 16, rx: 2 });
  else shape = svg("polygon", { class: cls, points: `${cx},${cy - 11} ${cx + 10},${cy - 2} ${cx + 8},${cy + 9} ${cx - 8},${cy + 9} ${cx - 10},${cy - 2}` });
  return svg("g", { class: "ed-unit-g", dataset: { seat: String(seat), unit: String(unit) } }, title, shape,
    // The owner's initial on the piece (its shape says scout, fort or settlement): no colour needed.
    svg("text", { class: "ed-unit-letter", x: cx, y: cy + 3.5, text: initialsOf(names)[seat] }));
}

function shipShape(cx, cy) {
  return svg("g", { class: "ed-ship", "data-path": "ship", transform: `translate(${cx.toFixed(1)},${cy.toFixed(1)})` },
    svg("title", { text: tg("component", "ship") }),
    svg("path", { class: "ed-hull", d: "M-11,2 L11,2 L7,8 L-7,8 Z" }),
    svg("path", { class: "ed-sail", d: "M-1,-11 L-1,1 L8,1 Z" }),
    svg("line", { class: "ed-mast", x1: -1, y1: -12, x2: -1, y2: 2 }));
}

function tilesFor(state, ctx) {
  return ctx.components;
}

// ---- the map ----------------------------------------------------------------------------------
function cellXY(cell, T) { return [cell % T.width, Math.floor(cell / T.width)]; }

function circlePos(cell, d, T) {
  const [x, y] = cellXY(cell, T);
  const cx = M + x * S + S / 2 + DIRS[d][0] * (S / 2 + 13), cy = M + y * S + S / 2 + DIRS[d][1] * (S / 2 + 13);
  return [cx, cy];
}

function mapSvg(state, ctx) {
  const T = tilesFor(state, ctx);
  const names = ctx.names;
  const width = T.width * S + 2 * M, height = T.height * S + 2 * M;
  const layers = { grid: [], tiles: [], marks: [], units: [], top: [] };
  const placed = new Set(state.placed || []);
  const passages = new Set((ctx.position && ctx.position.passages) || []);
  const scoring = new Set((ctx.position && ctx.position.scoring_cells) || []);
  for (let x = 0; x < T.width; x++) {
    layers.grid.push(svg("text", { class: "ed-coord", x: M + x * S + S / 2, y: 12, text: String(x) }));
  }
  for (let y = 0; y < T.height; y++) {
    layers.grid.push(svg("text", { class: "ed-coord", x: 8, y: M + y * S + S / 2 + 4, text: String(y) }));
  }
  layers.grid.push(svg("rect", { class: "ed-rim", x: M - 26, y: M - 26, width: T.width * S + 52, height: T.height * S + 52, rx: 10 }));
  state.board.forEach((code, cell) => {
    const [x, y] = cellXY(cell, T), x0 = M + x * S, y0 = M + y * S;
    const where = `(${x}, ${y})`;
    if (code < 0) {
      layers.tiles.push(svg("rect", { class: `ed-unknown${passages.has(cell) ? " ed-target" : ""}`, x: x0, y: y0, width: S, height: S },
        svg("title", { text: passages.has(cell) ? t("%(where)s: unexplored, behind one of the ship's passages", { where })
          : t("%(where)s: unexplored", { where }) })));
      return;
    }
    const kind = T.kinds[code >> 2], face = T.faces[code];
    const label = t("%(where)s: %(tile)s, %(land)s (rotation %(rotation)s)", { where, tile: kindWords(kind), land: landWords(face),
                                                                              rotation: code & 3 });
    const cls = `ed-tile${kind.reserve ? " ed-reserve" : ""}${placed.has(cell) ? " ed-new" : ""}${scoring.has(cell) ? " ed-scoring" : ""}`;
    layers.tiles.push(svg("g", { class: cls, dataset: { cell: String(cell), path: `board.${cell}` } }, svg("title", { text: label }), faceShapes(face, x0, y0, S),
      svg("rect", { class: "ed-tile-edge", x: x0, y: y0, width: S, height: S })));
    if (kind.event) {
      layers.marks.push(svg("g", { class: `ed-event ev-${kind.event}` }, svg("title", { text: eventWord(kind.event) }),
        svg("circle", { cx: x0 + 11, cy: y0 + 11, r: 8.5 }),
        svg("text", { x: x0 + 11, y: y0 + 14.5, text: EVENT_BADGE[kind.event] })));
    }
    if (kind.reserve) layers.marks.push(svg("text", { class: "ed-reserve-no", x: x0 + S - 4, y: y0 + S - 4, text: `R${kind.reserve}` }));
    const unit = state.units[cell];
    if (unit) {
      const [ax, ay] = partAnchor(face.parts[unit[2]]);
      const piece = unitShape(unit, x0 + ax * S, y0 + ay * S, names);
      piece.dataset.path = `units.${cell}`;
      layers.units.push(piece);
    }
  });
  const [mode, shipCell, shipIndex] = state.ship;
  for (let cell = 0; cell < state.board.length; cell++) {
    const [x, y] = cellXY(cell, T);
    for (let d = 0; d < 4; d++) {
      const off = (d === 0 && y === 0) || (d === 2 && y === T.height - 1) || (d === 3 && x === 0) || (d === 1 && x === T.width - 1);
      if (!off) continue;
      const [cx, cy] = circlePos(cell, d, T);
      const open = state.board[cell] < 0;
      layers.marks.push(svg("circle", { class: `ed-circle${open ? " open" : ""}`, cx, cy, r: 6 },
        svg("title", { text: open ? t("start circle %(x)s %(y)s %(side)s", { x, y, side: SIDES[d].toLowerCase() })
          : t("start circle %(x)s %(y)s %(side)s (its cell is explored)", { x, y, side: SIDES[d].toLowerCase() }) })));
    }
  }
  if (mode === 1) {
    const [cx, cy] = circlePos(shipCell, shipIndex, T);
    layers.top.push(shipShape(cx, cy));
  } else if (mode === 2) {
    const face = T.faces[state.board[shipCell]];
    const [jx, jy] = regionJunction(face.regions[shipIndex], face);
    const [x, y] = cellXY(shipCell, T);
    layers.top.push(shipShape(M + x * S + jx * S, M + y * S + jy * S));
  }
  return svg("svg", { class: "ed-map", viewBox: `0 0 ${width} ${height}`, role: "img",
                      "aria-label": t("The map: %(n)s of %(total)s cells explored", { n: state.board.filter((c) => c >= 0).length,
                                                                                       total: state.board.length }) },
    svg("g", {}, layers.grid), svg("g", {}, layers.tiles), svg("g", {}, layers.marks), svg("g", {}, layers.units), svg("g", {}, layers.top));
}

// ---- the side panel ---------------------------------------------------------------------------
function miniFace(code, T, size = 34) {
  const face = T.faces[code];
  return svg("svg", { class: "ed-mini", viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true" },
    faceShapes(face, 0, 0, size), svg("rect", { class: "ed-tile-edge", x: 0, y: 0, width: size, height: size }));
}

function stackWords(k, size, top) {
  const words = { stack: tg("component", "stack"), n: k + 1, tiles: tiles(size) };
  if (!size) return t("%(stack)s %(n)s: %(tiles)s", words);
  const back = top === 1 ? t("a '?' back") : top === 0 ? t("a plain back") : t("a back not yet seen");
  return t("%(stack)s %(n)s: %(tiles)s, top shows %(back)s", { ...words, back });
}

function stacksBox(state, phase) {
  const drawing = phase === "draw" || phase === "stack back";
  return el("div", { class: "ed-box ed-stacks" }, el("h3", { text: t("%(stacks)s (face down)", { stacks: tg.heading("component", "stack") }) }),
    el("div", { class: "ed-row" }, state.stacks.map((size, k) => {
      const top = state.tops[k];
      const back = size === 0 ? t("empty") : top === 1 ? "?" : top === 0 ? "" : "…";
      const cls = `ed-back${top === 1 ? " event" : ""}${size === 0 ? " empty" : ""}${drawing && state.stack === k ? " drawing" : ""}`;
      return el("div", { class: "ed-stack", "data-path": `stacks.${k} tops.${k}${state.stack === k ? " stack" : ""}`, title: stackWords(k, size, top) },
        el("span", { class: cls, text: back }), el("span", { class: "ed-stack-no", text: `#${k + 1}` }),
        el("span", { class: "ed-num", text: String(size) }));
    })));
}

function handBox(state, T) {
  if (state.tile === undefined || state.tile < 0) return null;
  const kind = T.kinds[state.tile];
  return el("div", { class: "ed-box ed-hand", "data-path": "tile" },
    el("h3", { text: t("%(tile)s drawn", { tile: capitalised(tg("component", "tile")) }) }),
    el("div", { class: "ed-kv" }, miniFace(state.tile * 4, T, 44),
      el("span", { text: t("%(tile)s (as printed, rotation 0)", { tile: kindWords(kind) }) })));
}

function reserveBox(state, T) {
  return el("div", { class: "ed-box ed-reserve-box" },
    el("h3", { text: t("%(reserve)s (face up)", { reserve: tg.heading("component", "reserve tile") }) }),
    el("div", { class: "ed-row" }, state.reserve.map((count, i) =>
      el("div", { class: "ed-res", title: t("%(reserve)s #%(n)s: %(tiles)s", { reserve: tg("component", "reserve tile"), n: i + 1,
                                                                                tiles: tiles(count) }) },
        miniFace(T.reserve_kinds[i] * 4, T, 26), el("span", { class: "ed-num", text: `#${i + 1}·${count}` })))));
}

function poolBox(state, T) {
  const pool = state.pool;
  const total = Array.isArray(pool) ? pool.reduce((a, b) => a + b, 0) : pool;
  const chips = tg.many("component", "discovery chip");
  const detail = Array.isArray(pool) ? T.chip_values.map((v, i) => el("span", { class: "ed-chip",
    title: t("%(n)s %(chips)s worth %(value)s", { n: pool[i], chips, value: v }) }, `${v}×${pool[i]}`)) : [];
  const discarded = Array.isArray(state.discarded) ? state.discarded.reduce((a, b) => a + b, 0) : 0;
  return el("div", { class: "ed-box" }, el("h3", { text: t("Bank") }),
    el("div", { class: "ed-kv" }, el("span", { text: t("%(chips)s face down", { chips }) }), el("strong", { class: "ed-num", text: String(total) }), detail),
    el("div", { class: "ed-kv" }, el("span", { text: t("last spin") }), el("strong", { class: "ed-num", text: state.income ? String(state.income) : "–" }),
      el("span", { class: "muted", text: t("%(wheel)s %(values)s", { wheel: tg("component", "income wheel"), values: T.wheel.join("/") }) })),
    el("div", { class: "ed-kv" }, el("span", { text: t("%(tiles)s out of the game", { tiles: tg.many("component", "tile") }) }),
      el("strong", { class: "ed-num", text: String(discarded) })));
}

const EXPEDITION_PHASES = ["buy", "explore", "draw", "stack back", "place", "friendly natives", "natives chip"];

function expeditionBox(state, ctx, phase) {
  const who = ctx.names[state.turn];
  const rows = [];
  if (EXPEDITION_PHASES.includes(phase)) {
    rows.push(el("div", { class: "ed-kv" }, el("span", { text: t("%(name)s's %(expedition)s", { name: who, expedition: tg("component", "expedition") }) })));
    rows.push(el("div", { class: "ed-kv" }, el("span", { text: t("paid draws left") }), el("strong", { class: "ed-num", text: String(state.draws_left) }),
      el("span", { text: t("drawn") }), el("strong", { class: "ed-num", text: String(state.drawn) })));
  }
  if (state.storm) {
    rows.push(el("div", { class: "ed-kv warn", text: t("a %(storm)s ended the %(expedition)s", { storm: tg("event", "storm"),
                                                                                              expedition: tg("component", "expedition") }) }));
  }
  if (state.islands && state.islands.length) {
    const sizes = formatList(state.islands.map((i) => t("size %(n)s", { n: i[1] })));
    rows.push(el("div", { class: "ed-kv" }, el("span", { text: t("%(islands)s being scored: %(sizes)s", { islands: tg.many("component", "island"), sizes }) })));
  }
  return rows.length ? el("div", { class: "ed-box ed-expedition" }, el("h3", { text: t("This turn") }), rows) : null;
}

function playerCard(seat, state, ctx, T, phase) {
  const name = ctx.names[seat];
  const toAct = ctx.actor === seat;
  const gold = state.gold[seat];
  const supply = state.supply[seat];
  const onMap = [0, 0, 0];
  for (const u of state.units) if (u && u[0] === seat) onMap[u[1]] += 1;
  const track = Array.from({ length: T.gold_max }, (_, i) => el("span", { class: `ed-pip${i < gold ? " on" : ""}` }));
  const units = UNITS.map((unit, u) =>
    el("span", { class: `ed-unit-chip p${seat}`, "data-path": `supply.${seat}.${u}`,
                 title: t("%(units)s in supply, %(n)s on the map (cost %(cost)s)", { units: tg.count(supply[u], "unit", unit), n: onMap[u],
                                                                                    cost: T.unit_costs[u] }) },
      el("span", { class: `ed-u u${u}` }), `${supply[u]}`, onMap[u] ? el("span", { class: "muted", text: `+${onMap[u]}` }) : null));
  const chips = state.chips[seat];
  return el("article", { class: `ed-player p${seat}${toAct ? " to-act" : ""}${state.turn === seat && phase !== "over" ? " active" : ""}`,
                         "aria-label": t("%(name)s's supply", { name }) },
    el("header", {}, el("span", { class: "swatch" }), el("h3", { text: name }),
      toAct ? el("span", { class: "badge act", text: t("to act") }) : null,
      el("span", { class: "spacer" }), el("span", { class: "ed-score", title: t("score"), text: t("%(score)s pts", { score: state.score[seat] }),
                                                    "data-path": `score.${seat}` })),
    el("div", { class: "ed-kv" }, el("span", { class: "ed-coin", title: tg.count(gold, "component", "gold", "gold"), text: String(gold),
                                               "data-path": `gold.${seat}` }),
      el("span", { class: "ed-track", "aria-hidden": "true" }, track)),
    el("div", { class: "ed-kv" }, units),
    el("div", { class: "ed-kv ed-chips", "data-path": `chips.${seat}` }, el("span", { text: tg.many("component", "discovery chip", "chips") }),
      chips.length ? chips.map((v) => el("span", { class: "ed-chip", title: t("%(chip)s worth %(value)s", { chip: tg("component", "discovery chip"), value: v }),
                                                   text: String(v) }))
        : el("span", { class: "muted", text: t("none") })));
}

function legend() {
  return el("div", { class: "ed-legend" },
    Object.entries(EVENT_BADGE).map(([event, badge]) => el("span", { class: `ed-legend-item ev-${event}` },
      el("span", { class: "ed-badge", text: badge }), eventWord(event))),
    UNITS.map((unit, u) => el("span", { class: "ed-legend-item" }, el("span", { class: `ed-u u${u}` }), tg("unit", unit))),
    el("span", { class: "ed-legend-item" }, el("span", { class: "ed-swatch-new" }), t("laid this turn")),
    el("span", { class: "ed-legend-item" }, el("span", { class: "ed-swatch-target" }), t("behind the ship's passages")));
}

/** Draw the board of `state` into `container`. */
export function renderBoard(container, state, ctx) {
  const T = tilesFor(state, ctx);
  const phase = ctx.components.phases[state.phase];
  const board = el("div", { class: "ed" },
    el("div", { class: "ed-top" },
      el("div", { class: "ed-map-wrap" }, mapSvg(state, ctx), legend()),
      el("div", { class: "ed-side" }, stacksBox(state, phase), handBox(state, T), expeditionBox(state, ctx, phase), reserveBox(state, T), poolBox(state, T))),
    el("div", { class: `ed-players n${state.gold.length}` }, state.gold.map((_, seat) => playerCard(seat, state, ctx, T, phase))));
  redraw(container, board);
}
