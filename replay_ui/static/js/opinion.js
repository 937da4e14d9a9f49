// A second opinion (issue 30): the same analysis of the branch under another seed, asked for beside the first and
// shown against it. At the move on screen it says what it finds best and whether it marks the played move; for the
// game, how many of the first's marks it confirms and in how many positions the best move agrees; on the win chart,
// a faint ring at the mover's chance beside the first's point. Its seed is kept in the page's URL (`?seed=N`), so a
// shared link, or a reload, shows the same. The words are analysistext.js's; the analysis panel (analysis.js) owns
// this and asks the API.

import { agreement, agreementText, parseSeed, pct, secondOpinionText } from "./analysistext.js";
import { api } from "./api.js";
import { el, svg } from "./dom.js";
import { t } from "./i18n.js";

/** The first opinion's seed: the page's analysis is the API's default one. */
export const FIRST_SEED = 0;

/** The second opinion's state and its parts of the panel: status and progress, the line at the move on screen, the
 *  agreement line and the chart's rings. */
export class SecondOpinion {
  /** `search`: the page's query string, which may name the seed (`?seed=N`); `signedIn`: whether the user may ask. */
  constructor({ search, signedIn }) {
    this.signedIn = signedIn;
    this.seed = null;     // the second opinion's seed, null while none is chosen
    this.error = null;    // what went wrong with the last seed given or request made
    this.loadError = null;  // why its report could not be loaded, until it can
    this.data = null;     // its report (GET …/analysis?seed=N) in the panel's view
    this.bySeq = new Map();
    const asked = new URLSearchParams(search).get("seed");
    if (asked !== null) this.choose(asked);
    const input = document.getElementById("opinion-seed");
    if (input && this.seed !== null) input.value = String(this.seed);
  }

  /** Take `text` as the seed: true if it is one (and not the first opinion's), else the reason is kept in `error` and
   *  the seed chosen before stays. Another seed than before drops the report of the one before. */
  choose(text) {
    const parsed = parseSeed(text);
    const first = parsed.seed === FIRST_SEED;
    this.error = parsed.error || (first ? t("seed %(seed)s is the first opinion's: a second opinion needs another", { seed: FIRST_SEED })
      : null);
    if (this.error) return false;
    if (parsed.seed !== this.seed) this.clear();
    this.seed = parsed.seed;
    return true;
  }

  /** The seed typed beside the button, if it is a good one (else null, the reason in `error`). */
  fromInput() {
    const input = document.getElementById("opinion-seed");
    return input && this.choose(input.value) ? this.seed : null;
  }

  get running() { return Boolean(this.data && this.data.status === "running"); }

  /** Load the report of the chosen seed from `url` (the branch's analysis route) in `view`; none without a seed or in
   *  the spectator's view. A report that comes when `wanted()` says its view is no longer shown is dropped. A
   *  refusal is kept in `loadError` until a load succeeds. */
  async load(url, rollouts, view, wanted = () => true) {
    if (this.seed === null || view === "spectator") { this.clear(); return; }
    const seed = this.seed;
    try {
      const data = await api(`${url}?rollouts=${rollouts}&view=${encodeURIComponent(view)}&seed=${seed}`);
      if (seed !== this.seed || !wanted()) return;  // another seed or view was chosen meanwhile
      this.data = data;
      this.bySeq = new Map(data.positions.map((p) => [p.seq, p]));
      this.loadError = null;
    } catch (error) {
      this.clear();
      this.loadError = error.message;
    }
  }

  clear() {
    this.data = null;
    this.bySeq.clear();
  }

  /** Status, progress and the agreement with `first` (the first opinion's report, or null). */
  render(first) {
    const line = document.getElementById("opinion-line");
    const status = document.getElementById("opinion-status");
    const bar = document.getElementById("opinion-progress");
    const said = this.statusText(), error = this.error || this.loadError;
    line.hidden = !said && !error;
    status.replaceChildren(...(error ? [el("span", { class: "error", text: t("No second opinion: %(reason)s.", { reason: error }) })]
      : said ? [said] : []));
    bar.hidden = !this.running || Boolean(error);
    const cancel = document.getElementById("opinion-cancel");
    if (cancel) cancel.hidden = !(this.data && this.data.may_cancel);
    if (this.running) {
      bar.max = Math.max(1, this.data.total);
      bar.value = this.data.done;
      bar.textContent = t("%(done)s of %(total)s", { done: this.data.done, total: this.data.total });
    }
    // How the two agree only once both are done: counted over the few positions a running one has, it says little.
    const box = document.getElementById("opinion-agreement");
    const done = first && this.data && first.status === "done" && this.data.status === "done";
    const text = done ? agreementText(agreement(first, this.data)) : null;
    box.hidden = !text;
    box.textContent = text || "";
  }

  /** "Second opinion (seed 1): 20 decisions analysed." and the like, or null without a report. */
  statusText() {
    if (!this.data) return null;
    const { status, done, total } = this.data;
    const seed = this.seed;
    if (status === "done") return t("Second opinion (seed %(seed)s): %(total)s decisions analysed.", { seed, total });
    if (status === "running") return t("Second opinion (seed %(seed)s): analysing… %(done)s of %(total)s decisions.", { seed, done, total });
    if (status === "cancelled") return t("Second opinion (seed %(seed)s): cancelled at %(done)s of %(total)s decisions.", { seed, done, total });
    return this.signedIn ? t("Second opinion (seed %(seed)s): not asked for yet (%(done)s of %(total)s).", { seed, done, total })
      : t("Second opinion (seed %(seed)s): not asked for yet (%(done)s of %(total)s); sign in to ask for it.", { seed, done, total });
  }

  /** At position `seq`: what the second opinion says of the move that led here (`moveText` names it if its entry
   *  does not). */
  show(seq, moveText) {
    const box = document.getElementById("opinion-verdict");
    const text = secondOpinionText(this.bySeq.get(seq - 1), moveText);
    box.hidden = !text;
    box.textContent = text || "";
  }

  /** The chart's faint rings at the mover's chance by the second opinion, one per position it has analysed (beside
   *  the first's point there), in a group, or null. `x` maps a seq, `y` a chance, to the chart's coordinates;
   *  `players` names the seats. */
  chartPoints(x, y, players) {
    const positions = this.data ? this.data.positions.filter((p) => typeof p.win[p.actor] === "number") : [];
    if (!positions.length) return null;
    const said = (p) => t("move %(n)s: second opinion (seed %(seed)s) %(player)s %(chance)s",
                          { n: p.seq, seed: this.seed, player: players[p.actor], chance: pct(p.win[p.actor]) });
    return svg("g", { class: "second-points" }, positions.map((p) =>
      svg("circle", { class: "second-point", cx: x(p.seq).toFixed(1), cy: y(p.win[p.actor]).toFixed(1), r: 4.5,
                      "data-seq": p.seq }, svg("title", {}, said(p)))));
  }
}
