// The Amerigo board, drawn from a state as the API serves it (dump_state, or a seat's view in
// which the cubes inside the tower are hidden and only counted). Static tables (island tiles,
// tile kinds with their rotations, frame spaces, tokens, tracks) come from the engine through
// the page data; the map is laid out from the state's layout (each tile turned as chance said).
// Nothing here knows a rule: it only lays out what the state says. Its words are the game's glossary's in the
// page's language (`tg`: colours, goods, the rulebook's components) and the site's catalog's (`t`).

import { capitalised, gameTerms, t } from "../i18n.js";
import { el, redraw, svg } from "../dom.js";
import { initialsOf } from "./initials.js";

const tg = gameTerms("amerigo");
const LAND = ".PCTSKF";
const OVER = "game over";  // the last step's name (an id the engine gives, not shown)
const sum = (values) => values.reduce((a, b) => a + b, 0);
const vp = (n) => tg.count(n, "component", "VP", "VP");
const ap = (n) => tg.count(n, "component", "AP", "AP");

/** A tile kind in words: "neutral tile M1", "village tile D2" (its group's word and its shape's name). */
function tileName(kind) {
  return t("%(tile)s %(shape)s", { tile: tg("component", `${kind.group} tile`), shape: kind.shape });
}

/** What a tile kind scores, on a small and on a big island. */
function tileValues(kind) {
  return t("%(small_island)s %(small)s, %(big_island)s %(big)s", { small_island: tg("component", "small island"),
    small: vp(kind.vp[0]), big_island: tg("component", "big island"), big: vp(kind.vp[1]) });
}

/** A map space's words: land, a trading-post space, a good's space, water, an anchor, or not laid yet. */
function spaceWord(ch, kind, C) {
  if (kind === "land" && ch === "P") return t("%(post)s space", { post: tg("component", "trading post") });
  if (kind === "land" && ch !== ".") return t("%(good)s space", { good: tg("good", C.goods[C.good_letters.indexOf(ch)]) });
  return { land: t("land"), water: t("water"), anchor: tg("component", "anchor"), unknown: t("not laid yet") }[kind];
}

// ---- the map ------------------------------------------------------------------------------------

/** A 7 x 7 tile turned clockwise `k` times: local'(r, c) = local(6 − c, r). */
function rotateTile(rows, k) {
  const size = rows.length;
  for (let turn = 0; turn < k % 4; turn++) {
    const src = rows;
    rows = src.map((_, r) => src.map((__, c) => src[size - 1 - c][r]).join(""));
  }
  return rows;
}

/** The map's characters, row by row ("?" where no tile is laid yet). */
function mapLines(state, C) {
  const tiles = (state.components && state.components.island_tiles) || C.island_tiles;
  const names = Object.keys(tiles);
  const [rows, cols] = C.grid, size = C.tile_size;
  const lines = Array.from({ length: rows * size }, () => Array(cols * size).fill("?"));
  state.layout.forEach(([tile, rotation], index) => {
    const turned = rotateTile(tiles[names[tile]], rotation);
    const tr = Math.floor(index / cols), tc = index % cols;
    for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) lines[tr * size + r][tc * size + c] = turned[r][c];
  });
  return lines;
}

/** Islands as the engine numbers them: flood fills of land, in reading order of their first space. */
function islandsOf(lines) {
  const h = lines.length, w = lines[0].length;
  const island = Array(h * w).fill(-1), cells = [];
  for (let start = 0; start < h * w; start++) {
    if (island[start] >= 0 || !LAND.includes(lines[Math.floor(start / w)][start % w])) continue;
    const index = cells.length, todo = [start], mine = [start];
    island[start] = index;
    while (todo.length) {
      const cell = todo.pop(), y = Math.floor(cell / w), x = cell % w;
      for (const [ny, nx] of [[y - 1, x], [y + 1, x], [y, x - 1], [y, x + 1]]) {
        if (ny < 0 || nx < 0 || ny >= h || nx >= w) continue;
        const other = ny * w + nx;
        if (island[other] < 0 && LAND.includes(lines[ny][nx])) { island[other] = index; mine.push(other); todo.push(other); }
      }
    }
    cells.push(mine.sort((a, b) => a - b));
  }
  return { island, cells };
}

/** Where a frame space is drawn: just outside the map beside the spaces it touches. */
function framePoint(frame, h, w) {
  let y = 0, x = 0;
  for (const [r, c] of frame.cells) { y += r + 0.5; x += c + 0.5; }
  y /= frame.cells.length; x /= frame.cells.length;
  const [r, c] = frame.cells[0];
  const dy = r === 0 ? -1.1 : r === h - 1 ? 1.1 : 0, dx = c === 0 ? -1.1 : c === w - 1 ? 1.1 : 0;
  return [x + dx, y + dy];
}

const baseCache = new Map();

/** The static layer of a layout: sea, land, anchors, post and goods spaces, tile edges, frames (cached, cloned). */
function baseLayer(lines, C, key) {
  if (baseCache.has(key)) return baseCache.get(key).cloneNode(true);
  const h = lines.length, w = lines[0].length, size = C.tile_size;
  const group = svg("g", { class: "am-base" });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const ch = lines[y][x];
      const kind = ch === "?" ? "unknown" : ch === "~" ? "water" : ch === "A" ? "anchor" : "land";
      group.append(svg("rect", { x, y, width: 1, height: 1, class: `am-cell am-${kind}` },
        svg("title", { text: `${y},${x} ${spaceWord(ch, kind, C)}` })));
      if (ch === "A") group.append(svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.22, class: "am-anchor-mark" }));
      if (ch === "P") group.append(svg("rect", { x: x + 0.18, y: y + 0.18, width: 0.64, height: 0.64, class: "am-post-space" }));
    }
  }
  for (let t = 0; t <= Math.max(h, w); t += size) {
    if (t <= w) group.append(svg("line", { x1: t, y1: 0, x2: t, y2: h, class: "am-tile-edge" }));
    if (t <= h) group.append(svg("line", { x1: 0, y1: t, x2: w, y2: t, class: "am-tile-edge" }));
  }
  // Every column and row numbered on the top and left edges, for reading the notation's map spaces
  // (row,col: "post at 12,23" is read off the edges instead of counted); the first of each tile bold. A number
  // beside a frame space on that edge gives way to the frame's label (they would overlap); its neighbours tell it.
  const points = C.frames.map((frame) => framePoint(frame, h, w));
  const besideFrame = (t, onTop) => points.some(([fx, fy]) => (onTop ? fy < 0 && Math.abs(fx - (t + 0.5)) < 0.9
                                                                     : fx < 0 && Math.abs(fy - (t + 0.5)) < 0.9));
  for (let t = 0; t < Math.max(h, w); t++) {
    const edge = t % size === 0 ? " edge" : "";
    if (t < w && !besideFrame(t, true)) group.append(svg("text", { x: t + 0.5, y: -0.2, class: `am-tick${edge}`, text: String(t) }));
    if (t < h && !besideFrame(t, false)) group.append(svg("text", { x: -0.2, y: t + 0.68, class: `am-tick side${edge}`, text: String(t) }));
  }
  C.frames.forEach((frame) => {
    const [fx, fy] = framePoint(frame, h, w);
    // Labelled with the notation's own name (F1…F16) and, on hover, the side of the map it lies on.
    group.append(svg("circle", { cx: fx, cy: fy, r: 0.55, class: "am-frame" },
      svg("title", { text: t("%(frame)s space %(name)s (%(side)s)", { frame: tg("component", "frame"), name: frame.name,
                                                                       side: frame.side }) })),
      svg("text", { x: fx, y: fy + 0.15, class: "am-frame-label", text: frame.name }));
  });
  baseCache.set(key, group);
  if (baseCache.size > 8) baseCache.delete(baseCache.keys().next().value);
  return group.cloneNode(true);
}

/** A player's initial on a piece of the map (white with a dark edge: legible on every player colour). */
function pieceLetter(x, y, text) {
  return svg("text", { x, y, class: "am-piece-letter", "aria-hidden": "true", text });
}

function boat(x, y, seat, label) {
  const path = `M${x - 0.42},${y - 0.05} L${x + 0.42},${y - 0.05} L${x + 0.25},${y + 0.3} L${x - 0.25},${y + 0.3} Z ` +
               `M${x},${y - 0.05} L${x},${y - 0.45} L${x + 0.3},${y - 0.12} Z`;
  return svg("path", { d: path, class: `am-ship p${seat}` }, svg("title", { text: label }));
}

function mapSvg(state, ctx) {
  const C = ctx.components, names = ctx.names, tags = initialsOf(names);
  const lines = mapLines(state, C);
  const h = lines.length, w = lines[0].length;
  const key = JSON.stringify([state.layout, C.grid]);
  const root = svg("svg", { class: "am-map", viewBox: `-1.9 -1.9 ${w + 3.8} ${h + 3.8}`, role: "img",
                           "aria-label": t("island map, %(tiles)s laid", { tiles: tg.count(state.layout.length, "component", "island tile") }) });
  root.append(baseLayer(lines, C, key));
  if (!state.cover.length) return root;
  const { island, cells } = islandsOf(lines);
  const cover = state.cover;
  const layer = svg("g", { class: "am-pieces" });
  // goods tokens still on the map
  for (let cell = 0; cell < cover.length; cell++) {
    const y = Math.floor(cell / w), x = cell % w, ch = lines[y][x], good = C.good_letters.indexOf(ch);
    if (good >= 0 && cover[cell] === 0) {
      layer.append(svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.4, class: `am-good g-${C.goods[good]}` },
        svg("title", { text: t("%(good)s %(token)s at %(y)s,%(x)s", { good: tg("good", C.goods[good]),
                                                                        token: tg("component", "goods token"), y, x }) })),
        svg("text", { x: x + 0.5, y: y + 0.78, class: "am-good-letter", text: ch }));
    }
  }
  // built tiles, with an edge wherever the neighbour is not the same tile; a village tile carries its builder's
  // initial once, on the cell of it farthest from an island's check mark
  const villageCells = new Map();
  const checkCells = new Set(cells.filter((_, i) => state.island_empty[i] === 0).map((list) => list[0]));
  for (let cell = 0; cell < cover.length; cell++) {
    const mark = cover[cell];
    if (mark <= 0) continue;
    const [kind, builder] = state.placements[mark - 1];
    const k = C.kinds[kind];
    const y = Math.floor(cell / w), x = cell % w;
    const cls = k.group === "village" ? `am-tile village p${builder}` : "am-tile neutral";
    layer.append(svg("rect", { x, y, width: 1, height: 1, class: cls, "data-path": `cover.${cell}` },
      svg("title", { text: t("%(tile)s built by %(name)s", { tile: tileName(k), name: names[builder] }) })));
    if (k.group === "village") {
      // the cell farthest from any check mark (a check mark's glyph reaches into the next cell)
      const far = Math.min(99, ...[...checkCells].map((c) => Math.abs(c % w - x) + Math.abs(Math.floor(c / w) - y)));
      const best = villageCells.get(mark);
      if (!best || far > best[3]) villageCells.set(mark, [x, y, builder, far]);
    }
    for (const [dy, dx, x1, y1, x2, y2] of [[-1, 0, 0, 0, 1, 0], [1, 0, 0, 1, 1, 1], [0, -1, 0, 0, 0, 1], [0, 1, 1, 0, 1, 1]]) {
      const ny = y + dy, nx = x + dx;
      const same = ny >= 0 && nx >= 0 && ny < h && nx < w && cover[ny * w + nx] === mark;
      if (!same) layer.append(svg("line", { x1: x + x1, y1: y + y1, x2: x + x2, y2: y + y2, class: "am-tile-line" }));
    }
  }
  for (const [x, y, builder] of villageCells.values()) layer.append(pieceLetter(x + 0.45, y + 0.8, tags[builder]));
  // trading posts
  for (let cell = 0; cell < cover.length; cell++) {
    if (cover[cell] >= 0) continue;
    const seat = -cover[cell] - 1, y = Math.floor(cell / w), x = cell % w;
    layer.append(svg("path", { d: `M${x + 0.5},${y + 0.08} L${x + 0.92},${y + 0.45} L${x + 0.82},${y + 0.92} ` +
                                  `L${x + 0.18},${y + 0.92} L${x + 0.08},${y + 0.45} Z`, class: `am-post p${seat}`, "data-path": `cover.${cell}` },
      svg("title", { text: t("%(name)s's %(post)s at %(y)s,%(x)s", { name: names[seat], post: tg("component", "trading post"), y, x }) })),
      pieceLetter(x + 0.45, y + 0.86, tags[seat]));
  }
  // islands: chests, completion
  cells.forEach((list, i) => {
    const first = list[0], y = Math.floor(first / w), x = first % w;
    if (state.chests[i]) {
      layer.append(svg("rect", { x: x + 0.1, y: y + 0.2, width: 0.8, height: 0.6, rx: 0.1, class: "am-chest" },
        svg("title", { text: t("%(chest)s (%(island)s of %(n)s spaces)", { chest: tg("component", "treasure chest"),
                                                                             island: tg("component", "big island"), n: list.length }) })));
    }
    if (state.island_empty[i] === 0) {
      layer.append(svg("text", { x: x + 0.86, y: y + 0.34, class: "am-complete", text: "✓" },
        svg("title", { text: t("island of %(n)s spaces, complete", { n: list.length }) })));
    }
  });
  // ships: map spaces, then frame spaces (several may share a frame space)
  const atNode = new Map();
  state.players.forEach((p, seat) => p.ships.forEach((node, i) => {
    if (node < 0) return;
    if (!atNode.has(node)) atNode.set(node, []);
    atNode.get(node).push([seat, i]);
  }));
  for (const [node, ships] of atNode) {
    let x, y, where;
    if (node < h * w) { y = Math.floor(node / w) + 0.55; x = node % w + 0.5; where = `${y - 0.55},${x - 0.5}`; }
    else { const frame = C.frames[node - h * w]; [x, y] = framePoint(frame, h, w); where = frame.name; }
    ships.forEach(([seat, i], k) => {
      const off = (k - (ships.length - 1) / 2) * 0.55;
      const piece = boat(x + off, y, seat, t("%(name)s's %(ship)s %(n)s at %(where)s", { name: names[seat],
                                                                                          ship: tg("component", "ship"), n: i + 1, where }));
      piece.dataset.path = `players.${seat}.ships.${i}`;
      layer.append(piece, pieceLetter(x + off, y + 0.24, tags[seat]));
    });
  }
  root.append(layer);
  root.dataset.islands = String(cells.length);
  return root;
}

// ---- the storage board and the action circuit ---------------------------------------------

function cubes(count, colour, title) {
  return el("span", { class: `am-cubes c-${colour}`, title }, Array.from({ length: count }, () => el("span", { class: "am-cube" })),
    count ? null : el("span", { class: "muted", text: "–" }));
}

function circuit(state, C) {
  const inPhase = state.round > 0 && C.step_names[state.step] !== OVER;
  const tower = tg("component", "cube tower");
  const inside = state.tower ? t("inside the %(tower)s: %(n)s", { tower, n: sum(state.tower) })
    : t("inside the %(tower)s: %(n)s (hidden)", { tower, n: state.tower_cubes });
  return el("div", { class: "am-box am-circuit" },
    el("h3", { text: state.phase_ap ? t("Action circuit · %(ap)s", { ap: ap(state.phase_ap) }) : t("Action circuit") }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, el("span", { class: "sr-only", text: t("colour") })),
      el("th", { text: tg("component", "storage board") }), el("th", { text: tg("component", "action field") }), el("th", { text: tower }))),
    el("tbody", {}, C.colours.map((colour, i) => el("tr", { class: inPhase && state.phase === i ? "am-now" : "" },
      el("th", { scope: "row" }, el("span", { class: `am-swatch c-${colour}` }), `${tg("colour", colour)} `,
        el("span", { class: "am-action-name", text: tg("action", C.action_names[i]) })),
      el("td", { "data-path": `storage.${i}` }, cubes(state.storage[i], colour, t("%(n)s %(colour)s on the %(board)s",
        { n: state.storage[i], colour: tg("colour", colour), board: tg("component", "storage board") }))),
      el("td", { "data-path": `field.${i}` }, cubes(state.field[i], colour, t("%(n)s %(colour)s in the %(field)s",
        { n: state.field[i], colour: tg("colour", colour), field: tg("component", "action field") }))),
      el("td", { class: "num" }, state.tower ? String(state.tower[i]) : el("span", { class: "muted", text: "?" })))))),
    el("div", { class: "am-small" },
      el("span", { text: inside }),
      sum(state.stray) ? el("span", { text: t("stray in the %(tray)s: %(n)s", { tray: tg("component", "tray"), n: sum(state.stray) }) }) : null,
      sum(state.thrown) ? el("span", { text: t("thrown now: %(n)s", { n: sum(state.thrown) }) }) : null));
}

function roundBox(state, C) {
  const time = state.round >= 1 ? C.time_values[Math.min(state.round, C.rounds) - 1] : C.time_values[0];
  const hidden = 5 - state.pirates.length;
  return el("div", { class: "am-box am-round" }, el("h3", { text: tg.heading("component", "round", "Round") }),
    el("div", { class: "am-kv" }, el("strong", { class: "am-big", text: state.round ? `${state.round} / ${C.rounds}` : t("setup") }),
      el("span", { class: "am-time", title: t("top %(marker)s (completion scores are multiplied by it)", { marker: tg("component", "time marker") }),
                   text: t("time ×%(n)s", { n: time }) })),
    el("div", { class: "am-kv", title: t("%(markers)s: face up, and still face down", { markers: tg.many("component", "pirate marker") }) },
      el("span", { text: tg("component", "pirates") }),
      state.pirates.map((v) => el("span", { class: "am-pirate", text: String(v) })),
      Array.from({ length: Math.max(0, hidden) }, () => el("span", { class: "am-pirate down", text: "?" })),
      el("strong", { text: `= ${sum(state.pirates)}` })));
}

/** A progress token's kind in words: kept, used once, or scored at the end. */
function tokenKind(kind) {
  return { permanent: t("permanent"), once: t("once"), end: t("end of game") }[kind] || kind;
}

function tokenChip(id, C, used = false) {
  const token = C.tokens[id];
  // the effect comes worded in the page's language (the adapter's: the games catalog's template of the token)
  const title = t("%(id)s (%(kind)s): %(effect)s", { id: token.id, kind: tokenKind(token.kind), effect: token.effect });
  return el("span", { class: `am-token k-${token.kind}${used ? " used" : ""}`, title },
    el("span", { translate: "no", text: token.id }));
}

function progressBox(state, C) {
  const half = C.progress_spaces.length / 2;
  const row = (from) => el("div", { class: "am-spaces" }, C.progress_spaces.slice(from, from + half).map((name, j) => {
    const token = state.progress_spaces[from + j];
    return el("span", { class: "am-space", "data-path": `progress_spaces.${from + j}` }, el("span", { class: "am-space-name", text: name }),
      token >= 0 ? tokenChip(token, C) : el("span", { class: "muted", text: t("empty") }));
  }));
  return el("div", { class: "am-box am-progress" }, el("h3", { text: t("%(tokens)s (%(n)s to come)", {
      tokens: tg.heading("phase", "progress token"), n: state.progress_pool.length }) }),
    row(0), row(half));
}

function productionBox(state, C) {
  const values = C.production_values.length;
  return el("div", { class: "am-box am-production" }, el("h3", { text: tg.heading("component", "production token") }),
    el("div", { class: "am-spaces" }, state.production_spaces.map((kind, i) => kind < 0
      ? el("span", { class: "am-prod empty", "data-path": `production_spaces.${i}`, title: t("space %(n)s: empty", { n: i + 1 }), text: String(i + 1) })
      : el("span", { class: `am-prod g-${C.goods[Math.floor(kind / values)]}`, "data-path": `production_spaces.${i}`,
                     title: t("space %(n)s: %(good)s %(value)s", { n: i + 1, good: tg("good", C.goods[Math.floor(kind / values)]),
                                                                   value: C.production_values[kind % values] }) },
        el("span", { class: "am-prod-good", text: tg("good", C.goods[Math.floor(kind / values)]) }),
        el("strong", { text: String(C.production_values[kind % values]) })))));
}

function supplyBox(state, C) {
  return el("div", { class: "am-box am-supply" }, el("h3", { text: t("%(tiles)s (%(n)s left)", {
      tiles: tg.heading("component", "neutral tile"), n: sum(state.neutral) }) }),
    el("div", { class: "am-chips" }, C.neutral_kinds.map((k, i) => {
      const kind = C.kinds[k];
      return el("span", { class: `am-kind${state.neutral[i] ? "" : " gone"}`, "data-path": `neutral.${i}`,
                          title: t("%(tile)s: %(ap)s; %(values)s", { tile: tileName(kind), ap: ap(kind.size), values: tileValues(kind) }) },
        `${kind.shape}`, el("sub", { text: `×${state.neutral[i]}` }));
    })));
}

function orderTrack(state, ctx) {
  const C = ctx.components, T = C.order_track;
  const at = Array.from({ length: T.last + 1 }, () => []);
  state.players.forEach((p, seat) => at[p.order_pos].push([p.order_stamp, seat]));
  const points = new Map(T.vp.map(([space, value]) => [space, value]));
  return el("div", { class: "am-box am-order" }, el("h3", { text: t("%(track)s (player order)", {
      track: capitalised(tg("component", "special-action track")) }) }),
    el("ol", { class: "am-track" }, at.map((discs, pos) => {
      const colour = T.colours[pos];
      const name = colour === -1 ? "white" : colour === -2 ? "any" : C.colours[colour];
      discs.sort((a, b) => b[0] - a[0]);
      const colourWord = name === "any" ? t("any colour") : tg("colour", name);
      return el("li", { class: `am-track-space c-${name}`, title: points.has(pos)
        ? t("space %(n)s: %(colour)s, %(vp)s", { n: pos, colour: colourWord, vp: vp(points.get(pos)) })
        : t("space %(n)s: %(colour)s", { n: pos, colour: colourWord }) },
        el("span", { class: "am-track-no", text: String(pos) }),
        points.has(pos) ? el("span", { class: "am-track-vp", text: `${points.get(pos)}★` }) : null,
        el("span", { class: "am-discs" }, discs.map(([, seat]) => el("span", { class: `am-disc p${seat}`, title: ctx.names[seat], "data-path": `players.${seat}.order_pos`,
                                                                 text: initialsOf(ctx.names)[seat] }))));
    })));
}

// ---- players ------------------------------------------------------------------------------

function stat(label, value, title, path) {
  return el("span", { class: "am-stat", title: title || label, "data-path": path }, el("span", { class: "am-stat-label", text: label }),
    el("strong", { text: String(value) }));
}

/** A tile's shape drawn small (its first orientation's squares), for the stock and the village supply. */
function shapeIcon(kind) {
  const cells = kind.orientations["0"] || kind.orientations[Object.keys(kind.orientations)[0]];
  const rows = 1 + Math.max(...cells.map(([y]) => y)), cols = 1 + Math.max(...cells.map(([, x]) => x));
  return svg("svg", { class: `am-shape ${kind.group}`, viewBox: `0 0 ${cols} ${rows}`, width: cols * 7, height: rows * 7, "aria-hidden": "true" },
    cells.map(([y, x]) => svg("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88 })));
}

function goodLine(player, seat, good, g, C) {
  const values = C.production_values.length;
  const bought = player.production.slice(g * values, (g + 1) * values);
  const prod = 1 + sum(bought);
  const tokens = bought.flatMap((count, v) => Array(count).fill(C.production_values[v])).join(", ");
  const words = { good: tg("good", good), n: player.goods[g], tokens: tg.count(prod, "component", "production token"), bought: tokens };
  return el("span", { class: `am-good-pair g-${good}`, "data-path": `players.${seat}.goods.${g} players.${seat}.production`,
                      title: tokens ? t("%(good)s: %(n)s, %(tokens)s (printed 1; bought %(bought)s)", words)
                        : t("%(good)s: %(n)s, %(tokens)s (printed 1)", words) },
    el("span", { class: "am-good-dot", "aria-hidden": "true" }), el("span", { class: "am-good-name", text: tg("good", good) }),
    el("strong", { text: String(player.goods[g]) }), el("span", { class: "am-good-prod", text: t("makes %(n)s", { n: prod }) }));
}

function stockLine(player, seat, C) {
  const stock = C.kinds.map((k, i) => player.stock[i] ? el("span", { class: `am-kind ${k.group}`,
    title: t("%(tile)s: build %(ap)s; %(values)s", { tile: tileName(k), ap: ap(k.build_cost), values: tileValues(k) }) },
    shapeIcon(k), tileName(k), player.stock[i] > 1 ? el("strong", { text: ` ×${player.stock[i]}` }) : null) : null).filter(Boolean);
  return el("div", { class: "am-line", "data-path": `players.${seat}.stock` }, el("span", { class: "am-line-label", text: t("tiles to build") }),
    stock.length ? stock : el("span", { class: "muted", text: t("none") }));
}

function villagesLine(player, seat, C) {
  return el("div", { class: "am-line", title: t("%(tiles)s still in the supply, by shape", { tiles: tg.many("component", "village tile") }),
                     "data-path": `players.${seat}.villages` },
    el("span", { class: "am-line-label", text: t("villages left") }),
    C.village_kinds.map((k, i) => el("span", { class: `am-kind village${player.villages[i] ? "" : " gone"}`,
                                               title: t("%(tile)s: %(n)s left", { tile: tileName(C.kinds[k]), n: player.villages[i] }) },
      shapeIcon(C.kinds[k]), el("strong", { text: `×${player.villages[i]}` }))));
}

function shipsLine(player, seat, state, C) {
  return el("div", { class: "am-line" }, el("span", { class: "am-line-label", text: tg.many("component", "ship") }),
    player.ships.map((node, i) => el("span", { class: "am-ship-at", "data-path": `players.${seat}.ships.${i}` },
      el("span", { class: `am-ship-icon p${seat}`, "aria-hidden": "true" }),
      t("%(ship)s %(n)s %(where)s", { ship: tg("component", "ship"), n: i + 1, where: shipWhere(node, state, C) }))));
}

function statsLine(player, seat, C) {
  const of = (track, n, max) => t("%(track)s %(n)s of %(max)s", { track, n, max });
  return el("div", { class: "am-stats" },
    stat(tg.many("component", "cannon"), player.cannons, of(tg.many("component", "cannon"), player.cannons, C.cannon_max), `players.${seat}.cannons`),
    stat(tg("action", "progress"), player.progress, of(tg("component", "progress track"), player.progress, C.progress_track.last),
         `players.${seat}.progress`),
    stat(t("order"), player.order_pos, t("%(track)s space %(n)s", { track: tg("component", "special-action track"), n: player.order_pos }),
         `players.${seat}.order_pos`),
    stat(tg.many("component", "trading post", "posts"), player.posts_left, t("%(posts)s left (%(founded)s founded)",
      { posts: tg.count(player.posts_left, "component", "trading post"), founded: player.posts_founded }), `players.${seat}.posts_left`),
    player.chests ? stat(tg.many("component", "treasure chest", "chests"), player.chests, t("%(chests)s (3 %(gold)s each)",
      { chests: tg.many("component", "treasure chest"), gold: tg("component", "gold") }), `players.${seat}.chests`) : null);
}

function playerCard(player, seat, state, ctx) {
  const C = ctx.components, names = ctx.names;
  const toAct = ctx.actor === seat;
  const doing = toAct && state.action >= 0
    ? el("div", { class: "am-doing", "data-path": "action", text: t("performing %(action)s (%(colour)s), %(ap)s left", {
        action: tg("action", C.action_names[state.action]), colour: tg("colour", C.colours[state.action]), ap: ap(state.ap) }) }) : null;
  return el("article", { class: `am-player p${seat}${toAct ? " to-act" : ""}`, "aria-label": t("%(name)s's sheet", { name: names[seat] }) },
    el("header", {}, el("span", { class: `am-disc p${seat}`, "aria-hidden": "true", text: initialsOf(names)[seat] }), el("h3", { text: names[seat] }),
      toAct ? el("span", { class: "badge act", text: t("to act") }) : null, el("span", { class: "spacer" }),
      el("span", { class: "am-vp", title: tg.many("component", "VP", "victory points"), text: vp(player.vp), "data-path": `players.${seat}.vp` }),
      el("span", { class: "am-gold", title: t("%(gold)s (track 0-%(max)s)", { gold: tg.count(player.gold, "component", "gold", "gold"), max: C.gold_max }),
                   text: String(player.gold), "data-path": `players.${seat}.gold` })),
    doing,
    statsLine(player, seat, C),
    el("div", { class: "am-goods" }, C.goods.map((good, g) => goodLine(player, seat, good, g, C))),
    el("div", { class: "am-line", "data-path": `players.${seat}.tokens players.${seat}.used` },
      el("span", { class: "am-line-label", text: tg.many("phase", "progress token", "tokens") }),
      player.tokens.length ? player.tokens.map((id) => tokenChip(id, C, player.used.includes(id))) : el("span", { class: "muted", text: t("none") })),
    stockLine(player, seat, C),
    villagesLine(player, seat, C),
    shipsLine(player, seat, state, C));
}

function shipWhere(node, state, C) {
  if (node < 0) return t("not placed yet");
  const cells = state.cover.length;
  if (!cells) return t("somewhere (map hidden)");
  if (node >= cells) return t("on %(frame)s space %(name)s", { frame: tg("component", "frame"), name: C.frames[node - cells].name });
  const width = C.grid[1] * C.tile_size;
  return t("at row %(row)s, column %(column)s", { row: Math.floor(node / width), column: node % width });
}

/** Draw the board of `state` into `container`. */
export function renderBoard(container, state, ctx) {
  const C = ctx.components;
  const board = el("div", { class: "am" },
    el("div", { class: "am-top" },
      el("div", { class: "am-map-wrap" }, mapSvg(state, ctx)),
      el("div", { class: "am-side" }, roundBox(state, C), circuit(state, C), progressBox(state, C), productionBox(state, C),
        supplyBox(state, C))),
    orderTrack(state, ctx),
    el("div", { class: `am-players n${state.players.length}` }, state.players.map((p, seat) => playerCard(p, seat, state, ctx))));
  redraw(container, board);
}
