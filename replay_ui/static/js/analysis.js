// Win chances from the search player (GET/POST …/analysis): a chart of every seat's estimated win
// probability under the score chart (clicking jumps there), the marks ?! ? ?? of the moves that lost
// the mover chances, the best moves at the current position (also beside the move picker), and on a
// fork the branch's chances against its parent line at the fork point and at the head.

import { api } from "./api.js";
import { DASHES, lineKey, markerShape } from "./chart.js";
import { el, svg } from "./dom.js";

const W = 1000, H = 140, PAD_L = 44, PAD_R = 10, PAD_T = 8, PAD_B = 18;
const POLL_MS = 1500;
const pct = (p) => p === null || p === undefined ? "–" : `${Math.round(100 * p)}%`;

export class AnalysisPanel {
  constructor({ gid, bid, user, players, onSelect }) {
    this.api = `/api/games/${encodeURIComponent(gid)}/branches/`;
    this.gid = gid;
    this.bid = bid;
    this.user = user;
    this.players = players;
    this.onSelect = onSelect;
    this.section = document.getElementById("win-section");
    this.data = null;
    this.bySeq = new Map();
    this.view = "full";
    this.head = 1;
    this.seq = 1;
    this.timer = null;
    const button = document.getElementById("analysis-request");
    if (button) button.addEventListener("click", () => this.request());
    document.getElementById("analysis-budget").addEventListener("change", () =>
      this.load(this.view, this.head).catch(() => {}));
  }

  get rollouts() { return Number(document.getElementById("analysis-budget").value); }

  url(bid) { return `${this.api}${encodeURIComponent(bid)}/analysis`; }

  /** Load the branch's analysis for `view` (a spectator has no seat to search for: none is shown). */
  async load(view, head) {
    this.view = view;
    this.head = head;
    clearTimeout(this.timer);
    if (view === "spectator") { this.data = null; this.bySeq.clear(); this.render(); return; }
    this.data = await api(`${this.url(this.bid)}?rollouts=${this.rollouts}&view=${encodeURIComponent(view)}`);
    this.bySeq = new Map(this.data.positions.map((p) => [p.seq, p]));
    this.render();
    if (this.data.status === "running") this.timer = setTimeout(() => this.load(this.view, this.head).catch(() => {}), POLL_MS);
  }

  async request() {
    const status = document.getElementById("analysis-status");
    try {
      const body = { rollouts: this.rollouts, view: this.view === "spectator" ? "full" : this.view };
      await api(this.url(this.bid), { method: "POST", body });
      await this.load(body.view, this.head);
    } catch (error) {
      status.replaceChildren(el("span", { class: "error", text: error.message }));
    }
  }

  render() {
    const status = document.getElementById("analysis-status");
    const chart = document.getElementById("win-chart");
    if (!this.data) {
      status.textContent = "Pick the full view or a seat to see win chances.";
      chart.replaceChildren();
      return;
    }
    const { status: state, done, total } = this.data;
    status.textContent = state === "done" ? `${total} decisions analysed.`
      : state === "running" ? `Analysing… ${done} of ${total} decisions.` : `Not analysed yet (${done} of ${total}).`;
    chart.replaceChildren(...(this.data.positions.length ? this.chart() : []));
    this.markMoves();
    this.show(this.seq);
  }

  x(seq) { return PAD_L + (W - PAD_L - PAD_R) * (this.head <= 1 ? 0 : (seq - 1) / (this.head - 1)); }
  y(p) { return H - PAD_B - (H - PAD_T - PAD_B) * p; }

  chart() {
    const box = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart win-chart", role: "img",
                             "aria-label": "Every player's estimated chance to win over the game; click to jump" });
    for (const p of [0, 0.5, 1]) {
      box.append(svg("line", { class: "grid", x1: PAD_L, x2: W - PAD_R, y1: this.y(p), y2: this.y(p) }),
                 svg("text", { class: "tick", x: PAD_L - 6, y: this.y(p) + 4, "text-anchor": "end" }, pct(p)));
    }
    const positions = this.data.positions;
    this.players.forEach((name, seat) => {
      const points = positions.map((p) => `${this.x(p.seq).toFixed(1)},${this.y(p.win[seat] ?? 0).toFixed(1)}`);
      box.append(svg("polyline", { class: `series p${seat}`, points: points.join(" "), "stroke-dasharray": DASHES[seat % DASHES.length] || null },
        svg("title", {}, name)));
    });
    for (const p of positions) {
      const point = markerShape(p.actor, this.x(p.seq), this.y(p.win[p.actor] ?? 0), 3.5,
                                { class: `win-point p${p.actor}`, "data-seq": p.seq });
      point.addEventListener("click", (e) => { e.stopPropagation(); this.onSelect(p.seq); });
      point.append(svg("title", {}, `move ${p.seq}: ${this.players[p.actor]} ${pct(p.win[p.actor])}`));
      box.append(point);
    }
    this.marker = svg("line", { class: "marker", y1: PAD_T, y2: H - PAD_B });
    box.append(this.marker);
    box.addEventListener("click", (event) => this.onSelect(this.seqAt(box, event)));
    const legend = el("ul", { class: "legend" }, this.players.map((name, seat) =>
      el("li", { class: `p${seat}` }, lineKey(seat), el("span", { text: name }))));
    return [box, legend];
  }

  seqAt(box, event) {
    const rect = box.getBoundingClientRect();
    const x = (event.clientX - rect.left) * (W / rect.width);
    const ratio = Math.min(1, Math.max(0, (x - PAD_L) / (W - PAD_L - PAD_R)));
    return Math.round(1 + ratio * (this.head - 1));
  }

  /** The played move (event seq + 1) of each analysed position gets its mark in the move list. */
  markMoves() {
    for (const old of document.querySelectorAll("#moves .mv-mark")) old.remove();
    if (!this.data) return;
    for (const p of this.data.positions) {
      const mark = p.played && p.played.mark;
      const button = mark && document.querySelector(`#moves .mv[data-seq="${p.seq + 1}"]`);
      if (!button) continue;
      const lost = `lost ${pct(p.played.loss)} against ${p.best[0].text}`;
      button.append(el("span", { class: `mv-mark mark-${mark.length}${mark.includes("!") ? "i" : ""}`, title: lost, text: mark }));
    }
  }

  /** The best moves at position `seq`, with the mover's chance after each. */
  show(seq) {
    this.seq = seq;
    if (this.marker) { this.marker.setAttribute("x1", this.x(seq)); this.marker.setAttribute("x2", this.x(seq)); }
    const box = document.getElementById("best-moves");
    const entry = this.bySeq.get(seq);
    if (!entry || !entry.best.length) { box.replaceChildren(); return; }
    box.replaceChildren(el("h3", { text: `Best moves for ${this.players[entry.actor]}` }),
      el("ol", {}, entry.best.map((b) => el("li", { class: entry.played && entry.played.action === b.action ? "played" : "" },
        el("span", { class: "best-win", text: pct(b.win) }), " ", el("span", { text: b.text }),
        el("span", { class: "muted", text: ` (${b.n} rollouts)` })))));
  }

  /** Beside the move picker: each legal move that the search tried gets its win chance (again, when called
   *  again: the picker and the analysis load independently, and whichever comes second calls this). */
  decoratePicker(container, seq) {
    for (const old of container.querySelectorAll(".pick-win")) old.remove();
    const entry = this.bySeq.get(seq);
    if (!entry) return;
    const wins = new Map(entry.best.map((b) => [b.action, b.win]));
    for (const button of container.querySelectorAll("button.pick")) {
      const win = wins.get(button.dataset.action);
      if (win !== undefined) button.append(el("span", { class: "pick-win", text: ` · ${pct(win)}` }));
    }
  }

  /** On a fork: its chances against the parent line's, at the fork point and at each head. */
  async compare(branch) {
    const box = document.getElementById("fork-compare");
    if (!branch || !branch.parent || !this.data || this.view === "spectator") { box.replaceChildren(); return; }
    const parent = await api(`${this.url(branch.parent)}?rollouts=${this.rollouts}&view=${encodeURIComponent(this.view)}`);
    const atFork = (data) => data.positions.find((p) => p.seq === branch.fork_seq) || null;
    const after = (data) => data.positions.filter((p) => p.seq > branch.fork_seq);
    const last = (list) => list.length ? list[list.length - 1] : null;
    const here = atFork(this.data), there = atFork(parent);
    const rows = [];
    if (here && here.played && there && there.played) {
      rows.push(el("tr", {}, el("th", { scope: "row", text: `move ${branch.fork_seq + 1}` }),
        el("td", { text: `${here.played.action}: ${pct(here.played.win)}` }),
        el("td", { text: `${there.played.action}: ${pct(there.played.win)}` })));
    }
    const mine = last(after(this.data)), theirs = last(after(parent));
    if (mine || theirs) {
      const chances = (p) => p ? this.players.map((name, seat) => `${name} ${pct(p.win[seat])}`).join(", ") : "–";
      rows.push(el("tr", {}, el("th", { scope: "row", text: "at the head" }), el("td", { text: chances(mine) }),
        el("td", { text: chances(theirs) })));
    }
    box.replaceChildren(...(rows.length ? [el("table", { class: "fork-compare" },
      el("caption", { text: `This branch against its parent line, from the fork at move ${branch.fork_seq}` }),
      el("thead", {}, el("tr", {}, el("th", {}), el("th", { scope: "col", text: "this branch" }),
        el("th", { scope: "col", text: `parent (${branch.parent})` }))), el("tbody", {}, rows))] : []));
  }
}
