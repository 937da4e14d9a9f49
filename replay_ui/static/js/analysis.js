// Win chances from the search player (GET/POST …/analysis): a chart of every seat's estimated win
// probability under the score chart (clicking jumps there), with each estimate's interval as a band;
// the engine's marks ?! ? ?? of the moves that lost the mover chances (styled and labelled as the
// engine's, apart from people's glyphs), with a legend giving their thresholds; at the move on screen
// what was played against what was best, with intervals; the best moves at the current position (also
// beside the move picker, which then orders its moves by win chance); and on a fork the branch's chances
// against its parent line at the fork point and at the head. A second opinion (the same analysis under another seed)
// is asked for and shown against the first by opinion.js.
//
// While it runs, the panel says how long it still needs (from the pace of the decisions done so far, as the report
// and each progress notice give it, counted down in between) and offers whoever asked for it, and the game's owner, to
// cancel it; at a budget below the game's default it says how much less sure the marks are, with the measured figures.
//
// What the report's figures say in words is analysistext.js.

import { bestMoves, budgetNote, interval, lossText, MARK_NAMES, markClass, orderReason, pct, playedText,
         progressText, rankedOptions, spread, thresholdsOf, timeLeftText, verdictText, winText } from "./analysistext.js";
import { api } from "./api.js";
import { DASHES, lineKey, markerShape } from "./chart.js";
import { el, replaceChildren, svg } from "./dom.js";
import { t, tParts } from "./i18n.js";
import { openStream } from "./live.js";
import { SecondOpinion } from "./opinion.js";
import { rankPicker } from "./picker.js";

const W = 1000, H = 140, PAD_L = 44, PAD_R = 10, PAD_T = 8, PAD_B = 18;
/** Below this many CSS pixels the chart is drawn on a narrower canvas, so that on a phone it is not 50 px high. */
const NARROW_PX = 640, NARROW_W = 480;
/** A burst of verdicts (a worker stores one per decision) reloads the report once, this long after the last. */
const RELOAD_PAUSE_MS = 250;
/** How often the time left is counted down on screen between two progress notices. */
const COUNTDOWN_MS = 1000;

/** The SVG points of seat `seat`'s interval band over `positions` (upper edge forward, lower edge back), or null
 *  when no position has an interval for that seat. `x` maps a seq, `y` a chance, to the chart's coordinates. */
export function bandPoints(positions, seat, x, y) {
  const known = positions.filter((p) => Array.isArray(p.win_ci) && Array.isArray(p.win_ci[seat]));
  if (!known.length) return null;
  const upper = known.map((p) => `${x(p.seq).toFixed(1)},${y(p.win_ci[seat][1]).toFixed(1)}`);
  const lower = known.map((p) => `${x(p.seq).toFixed(1)},${y(p.win_ci[seat][0]).toFixed(1)}`).reverse();
  return [...upper, ...lower].join(" ");
}

/** Select the budget `asked` (the URL's `rollouts`, a whole number of rollouts) in the menu `select`, adding it when
 *  the menu lacks it; nothing when none is asked or it is no whole number. */
function chooseBudget(select, asked) {
  if (asked === null || !/^[1-9]\d{0,6}$/.test(asked)) return;
  if (![...select.options].some((o) => o.value === asked)) select.append(el("option", { value: asked, text: asked }));
  select.value = asked;
}

export class AnalysisPanel {
  /** `onSeed` is called when a second opinion's seed or the budget is chosen (the page keeps both in its URL, the
   *  budget as `?rollouts=N` when it is not the game's default); `refused`: the branch
   *  is a live table, whose analysis the server refuses (the page says why): nothing is asked for. */
  constructor({ gid, bid, user, players, onSelect, onSeed = () => {}, refused = false }) {
    this.api = `/api/games/${encodeURIComponent(gid)}/branches/`;
    this.gid = gid;
    this.bid = bid;
    this.user = user;
    this.players = players;
    this.onSelect = onSelect;
    this.onSeed = onSeed;
    this.refused = refused;
    this.opinion = new SecondOpinion({ search: location.search, signedIn: Boolean(user) });
    this.section = document.getElementById("win-section");
    this.data = null;
    this.bySeq = new Map();
    this.view = "full";
    this.head = 1;
    this.seq = 1;
    this.timer = null;
    this.w = W;  // the chart's canvas width, chosen when it is drawn (again when the room for it changes much)
    window.addEventListener("resize", () => {
      if (this.data && this.data.positions.length && this.canvasWidth() !== this.w) this.render();
    });
    const button = document.getElementById("analysis-request");
    if (button) button.addEventListener("click", () => this.request());
    const second = document.getElementById("opinion-request");
    if (second) second.addEventListener("click", () => this.requestSecond());
    const cancel = document.getElementById("analysis-cancel");
    if (cancel) cancel.addEventListener("click", () => this.cancel(0));
    const cancelSecond = document.getElementById("opinion-cancel");
    if (cancelSecond) cancelSecond.addEventListener("click", () => this.cancel(this.opinion.seed));
    this.estimate = null;  // { seconds, at }: the time left as last told (report or notice), and when it was told
    this.countdown = null;
    const budget = document.getElementById("analysis-budget");
    this.defaultRollouts = Number(budget.value);
    chooseBudget(budget, new URLSearchParams(location.search).get("rollouts"));
    budget.addEventListener("change", () => {
      this.onSeed();
      this.load(this.view, this.head).catch(() => {});
    });
  }

  /** The budget chosen when it is not the game's default (the page's URL keeps it), else null. */
  get chosenRollouts() { return this.rollouts === this.defaultRollouts ? null : this.rollouts; }

  get rollouts() { return Number(document.getElementById("analysis-budget").value); }

  url(bid) { return `${this.api}${encodeURIComponent(bid)}/analysis`; }

  /** Load the branch's analysis for `view` (a spectator has no seat to search for: none is shown). While the
   *  analysis runs the panel follows its progress stream (a notice per verdict stored: no polling) and loads the
   *  report again after each burst; once done (or never asked for) it stops following. The second opinion, if one
   *  is chosen, is loaded with it. */
  async load(view, head) {
    if (view !== this.view) { this.data = null; this.bySeq.clear(); }  // never another view's chances meanwhile
    this.view = view;
    this.head = head;
    clearTimeout(this.timer);
    this.timer = null;
    if (view === "spectator" || this.refused) {
      this.data = null; this.bySeq.clear(); this.opinion.clear(); this.render(); this.rerankPicker(); return;
    }
    const first = `${this.url(this.bid)}?rollouts=${this.rollouts}&view=${encodeURIComponent(view)}`;
    let data;
    try {
      [data] = await Promise.all([api(first), this.opinion.load(this.url(this.bid), this.rollouts, view,
                                                                  () => view === this.view)]);
    } catch (error) {
      // The branch became a live table since the page was loaded: it is not asked again at every move.
      if (error.code === "analysis_refused_while_played") { this.refused = true; return this.load(view, head); }
      throw error;
    }
    if (view !== this.view) return;  // the view changed while this one loaded
    this.data = data;
    this.told(data.estimate ? data.estimate.seconds_left : null);
    this.bySeq = new Map(this.data.positions.map((p) => [p.seq, p]));
    this.render();
    this.rerankPicker();
    if (this.data.status === "running" || this.opinion.running) this.follow(); else this.unfollow();
  }

  /** Follow the progress notices of this branch's analysis in the current view (one stream, opened again after it
   *  ended or was refused: live.js openStream). */
  follow() {
    const url = `${this.url(this.bid)}/stream?view=${encodeURIComponent(this.view)}`;
    if (this.source && this.sourceUrl === url) return;
    this.unfollow();
    this.sourceUrl = url;
    const reload = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.load(this.view, this.head).catch(() => {}), RELOAD_PAUSE_MS);
    };
    const progressed = (message) => {
      const notice = JSON.parse(message.data);
      // The first opinion's pace only: a second opinion's notices come on the same stream.
      const mine = !notice.seed && notice.rollouts === this.rollouts;
      if (mine && typeof notice.left === "number" && this.data && this.data.status === "running") {
        this.told(notice.left);
        this.renderStatus();
      }
      reload();
    };
    // The stream starts when it opens: a verdict stored between the last load and then is caught by one more load.
    this.source = openStream(() => url, { analysis: progressed, open: reload });
  }

  /** Take `seconds` as the time left now (null: not known yet), and count it down on screen while the analysis runs. */
  told(seconds) {
    this.estimate = typeof seconds === "number" ? { seconds, at: Date.now() } : null;
    clearInterval(this.countdown);
    this.countdown = this.estimate ? setInterval(() => this.renderStatus(), COUNTDOWN_MS) : null;
  }

  /** The time left now: the last told, less the time since. */
  secondsLeft() {
    if (!this.estimate) return null;
    return Math.max(0, this.estimate.seconds - (Date.now() - this.estimate.at) / 1000);
  }

  /** Cancel the analysis under `seed` (0: the first opinion) at the chosen budget and view, then show how it stopped. */
  async cancel(seed) {
    const status = document.getElementById(seed ? "opinion-status" : "analysis-status");
    try {
      const body = { rollouts: this.rollouts, view: this.view === "spectator" ? "full" : this.view, seed };
      await api(`${this.url(this.bid)}/cancel`, { method: "POST", body });
      await this.load(body.view, this.head);
    } catch (error) {
      status.replaceChildren(el("span", { class: "error", text: error.message }));
    }
  }

  unfollow() {
    if (this.source) this.source.close();
    this.source = null;
    this.sourceUrl = null;
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

  /** Ask for the second opinion under the seed typed beside its button (a bad seed is said, and nothing asked);
   *  the page's URL keeps the seed. */
  async requestSecond() {
    const seed = this.opinion.fromInput();
    if (seed === null) { this.opinion.render(this.data); return; }
    this.onSeed();
    try {
      const body = { rollouts: this.rollouts, view: this.view === "spectator" ? "full" : this.view, seed };
      await api(this.url(this.bid), { method: "POST", body });
      await this.load(body.view, this.head);
    } catch (error) {
      this.opinion.error = error.message;
      this.opinion.render(this.data);
    }
  }

  render() {
    const chart = document.getElementById("win-chart");
    this.progress();
    this.legend();
    this.opinion.render(this.data);
    this.renderStatus();
    this.renderBudgetNote();
    if (!this.data) {
      chart.replaceChildren();
      this.markMoves();
      this.show(this.seq);
      return;
    }
    chart.replaceChildren(...(this.data.positions.length ? this.chart() : []));
    this.markMoves();
    this.show(this.seq);
  }

  /** The status line, the time left beside it while it runs (counted down, apart from the status that screen readers
   *  announce), and the cancel button for who may use it. */
  renderStatus() {
    const status = document.getElementById("analysis-status");
    const left = document.getElementById("analysis-left");
    const cancel = document.getElementById("analysis-cancel");
    const running = Boolean(this.data && this.data.status === "running");
    if (cancel) cancel.hidden = !(this.data && this.data.may_cancel);
    if (!running) { clearInterval(this.countdown); this.countdown = null; }
    const leftText = running ? timeLeftText(this.secondsLeft()) : "";
    if (left) {
      left.hidden = !running;
      if (left.textContent !== leftText) left.textContent = leftText;
    }
    const said = this.data ? progressText(this.data) : t("Pick the full view or a seat to see win chances.");
    if (status.textContent !== said) status.textContent = said;
  }

  /** How sure the chosen budget is, when it is below the game's default: said before the run and after. */
  renderBudgetNote() {
    const box = document.getElementById("analysis-budget-note");
    if (!box) return;
    const note = this.data ? budgetNote(this.data) : null;
    box.hidden = !note;
    box.textContent = note || "";
  }

  /** The progress bar: shown while the analysis runs, hidden otherwise. */
  progress() {
    const bar = document.getElementById("analysis-progress");
    if (!bar) return;
    const running = Boolean(this.data && this.data.status === "running");
    bar.hidden = !running;
    if (!running) return;
    bar.max = Math.max(1, this.data.total);
    bar.value = this.data.done;
    bar.textContent = t("%(done)s of %(total)s", { done: this.data.done, total: this.data.total });
  }

  /** What the engine's marks mean, with the thresholds of this analysis, set apart from people's glyphs. */
  legend() {
    const box = document.getElementById("analysis-legend");
    if (!box) return;
    if (!this.data || !this.data.positions.length) { box.replaceChildren(); return; }
    const thresholds = thresholdsOf(this.data);
    const sure = this.data.positions.some((p) => p.played && Array.isArray(p.played.loss_ci));
    box.replaceChildren(
      el("h3", { text: t("The engine's marks") }),
      el("ul", { class: "mark-legend" }, Object.keys(MARK_NAMES).map((mark) => el("li", { dataset: { mark } },
        el("span", { class: `engine-mark ${markClass(mark)}`, text: mark }), " ",
        t("%(name)s: lost at least %(points)s points of win chance", { name: MARK_NAMES[mark], points: Math.round(100 * thresholds[mark]) })))),
      el("p", { class: "hint" }, sure
        ? t("A move is marked only when even the low end of its loss's interval reaches the threshold.")
        : t("Marked from the estimated loss of win chance against the best move."), " ",
        ...tParts("People's glyphs from comments (%(glyphs)s) are theirs, shown plain; the engine's marks are boxed.",
                  { glyphs: el("span", { class: "mv-glyphs", text: "!? ??" }) })));
  }

  /** The chart's canvas width for the room it has now. */
  canvasWidth() {
    const room = document.getElementById("win-chart").clientWidth;
    return room && room < NARROW_PX ? NARROW_W : W;
  }

  x(seq) { return PAD_L + (this.w - PAD_L - PAD_R) * (this.head <= 1 ? 0 : (seq - 1) / (this.head - 1)); }
  y(p) { return H - PAD_B - (H - PAD_T - PAD_B) * p; }

  chart() {
    this.w = this.canvasWidth();
    const box = svg("svg", { viewBox: `0 0 ${this.w} ${H}`, class: "chart win-chart", role: "img",
                             "aria-label": t("Every player's estimated chance to win over the game, shaded where the estimate may lie; click to jump") });
    for (const p of [0, 0.5, 1]) {
      box.append(svg("line", { class: "grid", x1: PAD_L, x2: this.w - PAD_R, y1: this.y(p), y2: this.y(p) }),
                 svg("text", { class: "tick", x: PAD_L - 6, y: this.y(p) + 4, "text-anchor": "end" }, pct(p)));
    }
    const positions = this.data.positions;
    this.players.forEach((name, seat) => {
      const band = bandPoints(positions, seat, (seq) => this.x(seq), (p) => this.y(p));
      if (band) box.append(svg("polygon", { class: `win-band p${seat}`, points: band }, svg("title", {}, `${name}: interval`)));
    });
    this.players.forEach((name, seat) => {
      const points = positions.map((p) => `${this.x(p.seq).toFixed(1)},${this.y(p.win[seat] ?? 0).toFixed(1)}`);
      box.append(svg("polyline", { class: `series p${seat}`, points: points.join(" "), "stroke-dasharray": DASHES[seat % DASHES.length] || null },
        svg("title", {}, name)));
    });
    const second = this.opinion.chartPoints((seq) => this.x(seq), (p) => this.y(p), this.players);
    if (second) box.append(second);
    for (const p of positions) {
      const point = markerShape(p.actor, this.x(p.seq), this.y(p.win[p.actor] ?? 0), 3.5,
                                { class: `win-point p${p.actor}`, "data-seq": p.seq });
      point.addEventListener("click", (e) => { e.stopPropagation(); this.onSelect(p.seq); });
      const ci = Array.isArray(p.win_ci) ? interval(p.win_ci[p.actor]) : "";
      point.append(svg("title", {}, `move ${p.seq}: ${this.players[p.actor]} ${pct(p.win[p.actor])}${ci ? " " + ci : ""}`));
      box.append(point);
    }
    this.marker = svg("line", { class: "marker", y1: PAD_T, y2: H - PAD_B });
    box.append(this.marker);
    box.addEventListener("click", (event) => this.onSelect(this.seqAt(box, event)));
    const legend = el("ul", { class: "legend" }, this.players.map((name, seat) =>
      el("li", { class: `p${seat}` }, lineKey(seat), el("span", { text: name }))),
      second ? el("li", { class: "second-key muted",
                          text: t("○ the second opinion (seed %(seed)s): the mover's chance", { seed: this.opinion.seed }) }) : null);
    return [box, legend];
  }

  seqAt(box, event) {
    const rect = box.getBoundingClientRect();
    const x = (event.clientX - rect.left) * (this.w / rect.width);
    const ratio = Math.min(1, Math.max(0, (x - PAD_L) / (this.w - PAD_L - PAD_R)));
    return Math.round(1 + ratio * (this.head - 1));
  }

  /** The played move (event seq + 1) of each analysed position gets the engine's mark in the move list: boxed and
   *  titled as the engine's, apart from the glyphs people gave in comments. */
  markMoves() {
    for (const old of document.querySelectorAll("#moves .mv-mark")) old.remove();
    if (!this.data) return;
    for (const p of this.data.positions) {
      const mark = p.played && p.played.mark;
      const button = mark && document.querySelector(`#moves .mv[data-seq="${p.seq + 1}"]`);
      if (!button) continue;
      const best = rankedOptions(p)[0];
      const lost = [lossText(p.played), best ? `against ${best.text || best.action}` : null].filter(Boolean).join(" ");
      button.append(el("span", { class: `mv-mark engine-mark ${markClass(mark)}`, dataset: { engine: "" },
                                 title: lost ? t("The engine's mark: %(name)s, %(lost)s", { name: MARK_NAMES[mark] || mark, lost })
                                   : t("The engine's mark: %(name)s", { name: MARK_NAMES[mark] || mark }), text: mark }));
    }
  }

  /** At position `seq`: the verdict on the move that led here (move `seq`, decided at position seq - 1) and the
   *  best moves from here, with the mover's chance after each. */
  show(seq) {
    this.seq = seq;
    if (this.marker) { this.marker.setAttribute("x1", this.x(seq)); this.marker.setAttribute("x2", this.x(seq)); }
    this.verdict(seq);
    const moveText = document.querySelector(`#moves .mv[data-seq="${seq}"] .mv-text`);
    this.opinion.show(seq, moveText ? moveText.textContent : null);
    const box = document.getElementById("best-moves");
    const entry = this.bySeq.get(seq);
    const listed = bestMoves(entry);
    if (!listed.length) { box.replaceChildren(); return; }
    // By win chance, the engine's choice first; where that puts a lower chance above a higher one, the reason is said.
    const reason = orderReason(entry, listed);
    replaceChildren(box, el("h3", { text: t("Best moves for %(player)s", { player: this.players[entry.actor] }) }),
      el("ol", {}, listed.map((b) => el("li", { class: entry.played && entry.played.action === b.action ? "played" : "" },
        el("span", { class: "best-win", text: pct(b.win) }), " ",
        interval(b.ci) ? el("span", { class: "best-ci muted", title: t("95 %% interval %(range)s", { range: interval(b.ci) }),
                                      text: `${spread(b.ci)} ` }) : null,
        el("span", { text: b.text || b.action }),
        el("span", { class: "muted", text: t(" (%(n)s rollouts)", { n: b.n }) })))),
      reason ? el("p", { class: "hint best-order-note", text: reason }) : null);
  }

  /** "Move N, Anna: played X (win 31% [27–35]), best was Y (win 52% [48–56])" and the engine's mark, if any. */
  verdict(seq) {
    const box = document.getElementById("analysis-verdict");
    if (!box) return;
    const entry = this.bySeq.get(seq - 1);
    const moveText = document.querySelector(`#moves .mv[data-seq="${seq}"] .mv-text`);
    const text = verdictText(entry, moveText ? moveText.textContent : null);
    if (!text) { box.replaceChildren(); box.hidden = true; return; }
    const mark = entry.played.mark;
    const loss = lossText(entry.played);
    box.hidden = false;
    // Through dom.js's replaceChildren, which drops the absent parts (the DOM's own writes a null as "null").
    replaceChildren(box, el("strong", { text: t("Move %(n)s, %(player)s: ", { n: seq, player: this.players[entry.actor] }) }), text,
      loss ? `; ${loss}` : "",
      mark ? el("span", { class: `engine-mark ${markClass(mark)}`, title: t("The engine's mark: %(name)s", { name: MARK_NAMES[mark] || mark }),
                          text: mark }) : null);
  }

  /** The move picker at position `seq`, once both it and the analysis are there (whichever comes second calls
   *  this; again after every reload): ranked by the analysis of that position, or back in its own groups. */
  decoratePicker(container, seq) {
    rankPicker(container, rankedOptions(this.bySeq.get(seq)));
  }

  /** The move picker on screen, ranked again by what has just been loaded (while an analysis runs, the picker's
   *  position may get its results at any poll). */
  rerankPicker() {
    const box = document.getElementById("picker");
    if (box && box.dataset.seq) this.decoratePicker(box, Number(box.dataset.seq));
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
      rows.push(el("tr", {}, el("th", { scope: "row", text: t("move %(n)s", { n: branch.fork_seq + 1 }) }),
        el("td", { text: `${playedText(here)}: ${winText(here.played.win, here.played.ci)}` }),
        el("td", { text: `${playedText(there)}: ${winText(there.played.win, there.played.ci)}` })));
    }
    const mine = last(after(this.data)), theirs = last(after(parent));
    if (mine || theirs) {
      const chances = (p) => p ? this.players.map((name, seat) => `${name} ${pct(p.win[seat])}`).join(", ") : "–";
      rows.push(el("tr", {}, el("th", { scope: "row", text: t("at the head") }), el("td", { text: chances(mine) }),
        el("td", { text: chances(theirs) })));
    }
    box.replaceChildren(...(rows.length ? [el("table", { class: "fork-compare" },
      el("caption", { text: t("This branch against its parent line, from the fork at move %(n)s", { n: branch.fork_seq }) }),
      el("thead", {}, el("tr", {}, el("th", {}), el("th", { scope: "col", text: t("this branch") }),
        el("th", { scope: "col", text: t("parent (%(name)s)", { name: branch.parent }) }))), el("tbody", {}, rows))] : []));
  }
}
