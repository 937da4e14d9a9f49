// The score chart: one line per player over the seqs, a marker at the current position,
// a dot per player at each round start; clicking anywhere jumps to the nearest position.
// From the keyboard the chart is one slider over the round starts (← → Home End), so that
// jumping by it needs no mouse and costs one tab stop rather than a dot each.
// Colour is never the only way to tell the players apart (WCAG 1.4.1): each line has its own dash
// pattern and marker shape, and ends in the player's name.

import { t } from "./i18n.js";
import { el, svg } from "./dom.js";

const W = 1000, H = 180, PAD_L = 34, PAD_R = 96, PAD_T = 10, PAD_B = 22;
/** A dash pattern per seat (solid first), so that lines differ in grayscale too. */
export const DASHES = ["", "10 5", "3 4", "14 4 3 4", "6 3 1 3"];
const LABEL_GAP = 13;

/** Seat `seat`'s marker: circle, square, triangle, diamond or cross, centred on (x, y). */
export function markerShape(seat, x, y, r, attrs = {}) {
  const pts = (list) => list.map(([dx, dy]) => `${(x + dx * r).toFixed(1)},${(y + dy * r).toFixed(1)}`).join(" ");
  switch (seat % 5) {
    case 0: return svg("circle", { ...attrs, cx: x, cy: y, r });
    case 1: return svg("rect", { ...attrs, x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8 });
    case 2: return svg("polygon", { ...attrs, points: pts([[0, -1.1], [1, 0.8], [-1, 0.8]]) });
    case 3: return svg("polygon", { ...attrs, points: pts([[0, -1.2], [1.1, 0], [0, 1.2], [-1.1, 0]]) });
    default: return svg("polygon", { ...attrs, points: pts([[-1, -0.35], [-0.35, -0.35], [-0.35, -1], [0.35, -1], [0.35, -0.35], [1, -0.35],
                                                            [1, 0.35], [0.35, 0.35], [0.35, 1], [-0.35, 1], [-0.35, 0.35], [-1, 0.35]]) });
  }
}

/** A small picture of seat `seat`'s line (its dash unless `dashed` is false, and its marker), for legends. */
export function lineKey(seat, { dashed = true } = {}) {
  return svg("svg", { class: `line-key p${seat}`, viewBox: "0 0 30 12", width: 30, height: 12, "aria-hidden": "true" },
    svg("line", { class: "series", x1: 1, y1: 6, x2: 29, y2: 6, "stroke-dasharray": dashed ? DASHES[seat % DASHES.length] || null : null }),
    markerShape(seat, 15, 6, 4, { class: "dot" }));
}

export class ScoreChart {
  constructor(container, onSelect) {
    this.container = container;
    this.onSelect = onSelect;
    this.marker = null;
  }

  /** Draw the chart for `positions` (index = seq - 1); hidden if no position has scores. With the game's
   *  `outcome`, the legend ends on each player's final place as the engine gives it (never re-derived from
   *  the lines' ends: in Die goldene Stadt a blocked player is last whatever their letters). */
  render(positions, players, outcome = null) {
    const series = players.map((_, seat) => positions.map((p) => p.scores ? p.scores[seat] : null));
    const known = series.flat().filter((v) => v !== null && v !== undefined);
    if (!known.length) { this.container.replaceChildren(); return false; }
    this.count = positions.length;
    this.max = Math.max(5, ...known);
    this.roundStarts = roundStarts(positions);
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "slider", tabindex: "0",
                                "aria-label": t("Score of every player over the game: arrow keys jump between round starts"),
                                "aria-valuemin": "1", "aria-valuemax": String(positions.length) });
    chart.append(...this.axes(positions));
    series.forEach((values, seat) => chart.append(...this.line(values, seat, players[seat], positions)));
    chart.append(...this.endLabels(series, players));
    this.marker = svg("line", { class: "marker", y1: PAD_T, y2: H - PAD_B });
    chart.append(this.marker);
    chart.addEventListener("click", (event) => this.onSelect(this.seqAt(chart, event)));
    chart.addEventListener("keydown", (event) => this.onKey(event));
    this.chart = chart;
    const legend = el("ul", { class: "legend" }, players.map((name, seat) =>
      el("li", { class: `p${seat}` }, lineKey(seat), el("span", { text: name }),
         series[seat].some((v) => v === null) ? el("span", { class: "muted", text: t(" (hidden)") }) : null,
         outcome && outcome.ranks ? el("span", { class: "place", text: t(" · place %(place)s", { place: outcome.ranks[seat] }) }) : null)));
    this.container.replaceChildren(chart, legend);
    return true;
  }

  x(seq) { return PAD_L + (W - PAD_L - PAD_R) * (this.count <= 1 ? 0 : (seq - 1) / (this.count - 1)); }
  y(value) { return H - PAD_B - (H - PAD_T - PAD_B) * (value / this.max); }

  axes(positions) {
    const parts = [svg("line", { class: "axis", x1: PAD_L, x2: W - PAD_R, y1: H - PAD_B, y2: H - PAD_B })];
    const step = this.max > 40 ? 10 : 5;
    for (let v = 0; v <= this.max; v += step) {
      parts.push(svg("line", { class: "grid", x1: PAD_L, x2: W - PAD_R, y1: this.y(v), y2: this.y(v) }),
                 svg("text", { class: "tick", x: PAD_L - 6, y: this.y(v) + 4, "text-anchor": "end" }, String(v)));
    }
    let lastRound = null;
    positions.forEach((p, i) => {
      if (p.round && p.round !== lastRound && p.round % 5 === 0) {
        parts.push(svg("text", { class: "tick", x: this.x(i + 1), y: H - 6, "text-anchor": "middle" }, t("R%(round)s", { round: p.round })));
      }
      lastRound = p.round ?? lastRound;
    });
    return parts;
  }

  line(values, seat, name, positions) {
    const points = [];
    values.forEach((v, i) => { if (v !== null && v !== undefined) points.push(`${this.x(i + 1).toFixed(1)},${this.y(v).toFixed(1)}`); });
    if (!points.length) return [];
    const parts = [svg("polyline", { class: `series p${seat}`, points: points.join(" "),
                                     "stroke-dasharray": DASHES[seat % DASHES.length] || null })];
    let lastRound = null;
    positions.forEach((p, i) => {
      if (p.round !== lastRound && values[i] !== null && values[i] !== undefined) {
        const dot = markerShape(seat, this.x(i + 1), this.y(values[i]), 4.5, { class: `dot p${seat}` });
        dot.append(svg("title", {}, t("%(player)s: %(score)s at round %(round)s (seq %(seq)s)",
                                      { player: name, score: values[i], round: p.round, seq: i + 1 })));
        parts.push(dot);
      }
      lastRound = p.round;
    });
    return parts;
  }

  /** Each line ends in its player's name and last score, pushed apart where lines end close together. */
  endLabels(series, players) {
    const ends = series.map((values, seat) => {
      const last = values.reduce((found, v, i) => (v !== null && v !== undefined ? i : found), -1);
      return last < 0 ? null : { seat, x: this.x(last + 1), y: this.y(values[last]), value: values[last] };
    }).filter(Boolean).sort((a, b) => a.y - b.y);
    for (let i = 1; i < ends.length; i++) ends[i].y = Math.max(ends[i].y, ends[i - 1].y + LABEL_GAP);
    const overflow = ends.length ? ends[ends.length - 1].y - (H - PAD_B) : 0;
    if (overflow > 0) for (const end of ends) end.y = Math.max(PAD_T, end.y - overflow);
    return ends.map((end) => svg("text", { class: `end-label p${end.seat}`, x: end.x + 8, y: end.y + 4 },
      `${players[end.seat]} ${end.value}`));
  }

  seqAt(chart, event) {
    const box = chart.getBoundingClientRect();
    const x = (event.clientX - box.left) * (W / box.width);
    const ratio = Math.min(1, Math.max(0, (x - PAD_L) / (W - PAD_L - PAD_R)));
    return Math.round(1 + ratio * (this.count - 1));
  }

  /** Keyboard: ← → to the previous / next round start, Home / End to the first / last position. */
  onKey(event) {
    const targets = { ArrowLeft: this.roundStartBefore(this.current), ArrowRight: this.roundStartAfter(this.current),
                      Home: 1, End: this.count };
    const seq = targets[event.key];
    if (seq === undefined) return;
    event.preventDefault();
    event.stopPropagation();  // the page's own arrow keys step one move; here they jump by round
    if (seq !== null) this.onSelect(seq);
  }

  roundStartBefore(seq) { return [...this.roundStarts].reverse().find((s) => s < seq) ?? 1; }
  roundStartAfter(seq) { return this.roundStarts.find((s) => s > seq) ?? this.count; }

  /** Move the current-position marker. */
  mark(seq) {
    this.current = seq;
    if (this.chart) {
      this.chart.setAttribute("aria-valuenow", String(seq));
      this.chart.setAttribute("aria-valuetext", t("move %(n)s of %(total)s", { n: seq, total: this.count }));
    }
    if (!this.marker) return;
    this.marker.setAttribute("x1", this.x(seq));
    this.marker.setAttribute("x2", this.x(seq));
  }
}

/** Seqs at which a new round begins (index + 1 of the first position of each round). */
function roundStarts(positions) {
  const starts = [];
  let lastRound = null;
  positions.forEach((p, i) => {
    if (p.round && p.round !== lastRound) starts.push(i + 1);
    lastRound = p.round ?? lastRound;
  });
  return starts;
}
