// The words of an analysis report (GET …/analysis): chances with their intervals, what was played against what
// was best, what a move lost, the marks' names and thresholds. Pure functions of the report, no DOM, so that the
// panel (analysis.js) and anything else that speaks of an analysis say it the same way.
//
// The report may come without intervals (`ci`, `win_ci`, `loss_ci`), `options` or `thresholds` (an analysis
// stored before they existed): everything then falls back to what there is.

import { t, tn } from "./i18n.js";

/** "31%" for a chance, "–" for none. */
export const pct = (p) => p === null || p === undefined ? "–" : `${Math.round(100 * p)}%`;

/** The marks' loss thresholds when the report does not give them (the service's own since marks began). */
export const DEFAULT_THRESHOLDS = { "?!": 0.05, "?": 0.10, "??": 0.20 };
/** What each engine mark means, mildest first. */
export const MARK_NAMES = { "?!": t("inaccuracy"), "?": t("mistake"), "??": t("blunder") };

/** The thresholds of a report (its own, else the defaults). */
export function thresholdsOf(report) {
  return report && report.thresholds ? { ...DEFAULT_THRESHOLDS, ...report.thresholds } : DEFAULT_THRESHOLDS;
}

/** "[27–35]" for an interval of win chances, "" without one. */
export function interval(ci) {
  if (!Array.isArray(ci) || ci.length !== 2 || ci.some((v) => typeof v !== "number")) return "";
  return `[${Math.round(100 * ci[0])}–${Math.round(100 * ci[1])}]`;
}

/** "win 31% [27–35]" (or "win 31%" without an interval). */
export function winText(win, ci) {
  const range = interval(ci);
  return range ? t("win %(chance)s %(range)s", { chance: pct(win), range }) : t("win %(chance)s", { chance: pct(win) });
}

/** The class of an engine mark: mark-2 (??), mark-1 (?), mark-2i (?!), as the move list has always had. */
export function markClass(mark) {
  return `mark-${mark.length}${mark.includes("!") ? "i" : ""}`;
}

/** Every evaluated move of a position, the engine's best first (the verdict's: where the samples cannot tell the
 *  played move from a better-looking one, the played move), then by win chance: its `options` when the report has
 *  them, else its `best`. */
export function rankedOptions(entry) {
  if (!entry) return [];
  const list = Array.isArray(entry.options) && entry.options.length ? entry.options : entry.best || [];
  const top = Array.isArray(entry.best) && entry.best.length ? entry.best[0].action : null;
  return [...list].sort((a, b) => (b.action === top) - (a.action === top) || (b.win ?? -1) - (a.win ?? -1));
}

/** The played move's text: its own (in a seat's view, as that seat may see it), else the text of the same action
 *  among the evaluated moves, else `fallback`. */
export function playedText(entry, fallback = null) {
  const played = entry && entry.played;
  if (!played) return null;
  if (played.text) return played.text;
  const same = rankedOptions(entry).find((o) => o.action === played.action);
  return same && same.text ? same.text : fallback || played.action;
}

/** "played X (win 31% [27–35]), best was Y (win 52% [48–56])" for an analysed position whose move was played;
 *  `fallback` names the played move when the report has no text for it. Null without a played move. */
export function verdictText(entry, fallback = null) {
  if (!entry || !entry.played) return null;
  const played = entry.played;
  // A move hidden from this view, or another seat's move that a seat's analysis does not judge, has no chance.
  const move = playedText(entry, fallback);
  const playedPart = typeof played.win === "number" ? t("played %(move)s (%(chance)s)", { move, chance: winText(played.win, played.ci) })
    : t("played %(move)s", { move });
  const best = rankedOptions(entry)[0];
  if (!best) return playedPart;
  if (played.action !== null && best.action === played.action) return t("%(played)s, the engine found no better move", { played: playedPart });
  return t("%(played)s, best was %(best)s (%(chance)s)", { played: playedPart, best: best.text || best.action, chance: winText(best.win, best.ci) });
}

/** "lost 21 points [15–27] of win chance" (points = percentage points), or null when nothing was lost. */
export function lossText(played) {
  if (!played || typeof played.loss !== "number" || played.loss <= 0) return null;
  const points = Math.round(100 * played.loss);
  return Array.isArray(played.loss_ci) ? t("lost %(points)s points %(range)s of win chance", { points, range: interval(played.loss_ci) })
    : t("lost %(points)s points of win chance", { points });
}


// ---- a second opinion: the same analysis under another seed (issue 30) --------------------------------------------

/** The largest seed the API accepts (2^31 - 1); seeds run from 0. */
export const MAX_SEED = 2 ** 31 - 1;
/** How strong each mark is, mildest first. */
const MARK_RANK = { "?!": 1, "?": 2, "??": 3 };

/** `{ seed }` for the text of a seed (an integer from 0 to MAX_SEED, digits only), else `{ error }` saying what is
 *  wrong with it. */
export function parseSeed(text) {
  const raw = String(text ?? "").trim();
  const expected = t("a seed is an integer from 0 to %(most)s", { most: MAX_SEED });
  if (raw === "") return { error: t("no seed given (%(expected)s)", { expected }) };
  if (/^-\d+$/.test(raw)) return { error: t("the seed %(seed)s is negative (%(expected)s)", { seed: raw, expected }) };
  if (!/^\d+$/.test(raw)) return { error: t("the seed \"%(seed)s\" is not a whole number (%(expected)s)", { seed: raw, expected }) };
  if (Number(raw) > MAX_SEED) return { error: t("the seed %(seed)s is too large (%(expected)s)", { seed: raw, expected }) };
  return { seed: Number(raw) };
}

/** Whether the second opinion's mark `second` confirms the first's mark `first`: a mark as strong or stronger, or one
 *  step milder (`??` by `??` or `?`, `?` and `?!` by any mark), the measure of reproducibility in issue 30. */
export function confirms(first, second) {
  if (!MARK_RANK[first] || !MARK_RANK[second]) return false;
  return MARK_RANK[second] >= MARK_RANK[first] - 1;
}

/** How two analyses of the same branch agree, over the positions both have analysed: `marks`, the first's marked
 *  moves, `confirmed`, how many of them the second confirms (see `confirms`), `positions`, those with a best move in
 *  both, and `same`, how many of them name the same best move (the verdict's best, as `rankedOptions` puts it). */
export function agreement(first, second) {
  const other = new Map((second && second.positions || []).map((p) => [p.seq, p]));
  const tally = { marks: 0, confirmed: 0, positions: 0, same: 0 };
  for (const entry of first && first.positions || []) {
    const twin = other.get(entry.seq);
    if (!twin) continue;
    const best = rankedOptions(entry)[0], twinBest = rankedOptions(twin)[0];
    if (best && twinBest) {
      tally.positions += 1;
      if (best.action === twinBest.action) tally.same += 1;
    }
    const mark = entry.played && entry.played.mark;
    if (mark) {
      tally.marks += 1;
      if (confirms(mark, twin.played && twin.played.mark)) tally.confirmed += 1;
    }
  }
  return tally;
}

/** "The second opinion confirms 3 of the first's 4 marks and names the same best move in 12 of 15 positions." for an
 *  `agreement`, or null when the two have no position in common yet. */
export function agreementText(tally) {
  if (!tally || !tally.positions) return null;
  const positions = tn("%(num)d position", "%(num)d positions", tally.positions);
  if (!tally.marks) {
    return t("The second opinion has no mark of the first's to confirm and names the same best move in %(same)s of %(positions)s.",
             { same: tally.same, positions });
  }
  const marks = tn("%(num)d mark", "%(num)d marks", tally.marks);
  return t("The second opinion confirms %(confirmed)s of the first's %(marks)s and names the same best move in %(same)s of %(positions)s.",
           { confirmed: tally.confirmed, marks, same: tally.same, positions });
}

/** "second opinion: best Y, played X marked ??" (or "not marked") for the second opinion's entry of a position;
 *  `fallback` names the played move when the report has no text for it. Null without an entry. */
export function secondOpinionText(entry, fallback = null) {
  if (!entry) return null;
  const best = rankedOptions(entry)[0];
  const parts = best ? [t("best %(move)s", { move: best.text || best.action })] : [];
  if (entry.played) {
    const judged = typeof entry.played.win === "number";
    const verdict = !judged ? t("not judged") : entry.played.mark ? t("marked %(mark)s", { mark: entry.played.mark }) : t("not marked");
    parts.push(t("played %(move)s %(verdict)s", { move: playedText(entry, fallback), verdict }));
  }
  return parts.length ? t("second opinion: %(said)s", { said: parts.join(", ") }) : null;
}


// ---- the panel's progress: the time left, a cancelled analysis, how sure a small budget is (issue 46) -------------

/** "about 40 s left" (rounded as a person would say it) for a number of seconds; "estimating…" without one (before the
 *  first decision is done nothing is known of the pace). */
export function timeLeftText(seconds) {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return t("estimating…");
  if (seconds < 10) return t("a few seconds left");
  if (seconds < 90) return t("about %(n)s s left", { n: Math.round(seconds / 5) * 5 });
  if (seconds < 5400) return t("about %(n)s min left", { n: Math.round(seconds / 60) });
  return t("about %(n)s h left", { n: Math.round(seconds / 3600) });
}

/** The status line of a report: done, running, cancelled (the decisions done stay) or not asked for. */
export function progressText(report) {
  const { status, done, total } = report;
  if (status === "done") return t("%(total)s decisions analysed.", { total });
  if (status === "running") return t("Analysing… %(done)s of %(total)s decisions.", { done, total });
  if (status === "cancelled") {
    return done ? t("Cancelled at %(done)s of %(total)s decisions; the %(done)s analysed are shown.", { done, total })
      : t("Cancelled at %(done)s of %(total)s decisions.", { done, total });
  }
  return t("Not analysed yet (%(done)s of %(total)s).", { done, total });
}

/** "± 9": half an interval's width, in points; "" without an interval. */
export function spread(ci) {
  if (!Array.isArray(ci) || ci.length !== 2 || ci.some((v) => typeof v !== "number")) return "";
  return `± ${Math.round(50 * (ci[1] - ci[0]))}`;
}

/** "34 % ± 9" for a move's win chance and half its interval's width (points), or "34 %" without an interval. */
export function plusMinus(move) {
  const chance = `${Math.round(100 * move.win)} %`;
  const range = spread(move.ci);
  return range ? `${chance} ${range}` : chance;
}

/** Whether two moves' intervals overlap (without intervals: they do, nothing tells them apart). */
function overlap(a, b) {
  if (!Array.isArray(a.ci) || !Array.isArray(b.ci)) return true;
  return a.ci[0] <= b.ci[1] && b.ci[0] <= a.ci[1];
}

/** The best moves of a position as the panel lists them: the engine's choice first (the verdict's best), then by win
 *  chance; at most `count`. */
export function bestMoves(entry, count = 5) {
  return rankedOptions(entry).slice(0, count);
}

/** Why the engine's choice is listed above a move with a higher win chance, or null when it is not (the list is then
 *  in the order of the win chances). The choice is the verdict's: a played move the paired playouts do not show to
 *  be worse stays the best, and otherwise the better of the moves measured on the most playouts. */
export function orderReason(entry, listed = bestMoves(entry)) {
  const [first, ...rest] = listed;
  if (!first || typeof first.win !== "number") return null;
  const higher = rest.filter((m) => typeof m.win === "number" && m.win > first.win);
  if (!higher.length) return null;
  const top = higher.reduce((a, b) => (b.win > a.win ? b : a));
  const pair = { first: plusMinus(first), top: plusMinus(top) };
  const apart = overlap(first, top) ? t("%(first)s and %(top)s: not told apart at this budget", pair)
    : t("%(first)s and %(top)s: the paired playouts do not show the first worse", pair);
  const played = entry.played && entry.played.action === first.action;
  const why = played ? t("so the move played stands as the engine's choice")
    : t("and the engine's choice rests on %(n)s playouts, %(move)s on %(other)s", { n: first.n, move: top.text || top.action, other: top.n });
  return t("Listed first although %(move)s has the higher win chance: %(apart)s, %(why)s.", { move: top.text || top.action, apart, why });
}

/** What a budget below the game's default may be trusted for, from the report's `budget` (the figures measured at
 *  this budget and at the default, where the repository has them: docs/PERFORMANCE.md), or null at the default budget
 *  or above. */
export function budgetNote(report) {
  const budget = report && report.budget;
  if (!budget || !budget.small) return null;
  const r = report.rollouts, d = budget.at_default, at = budget.default;
  const head = t("%(r)s rollouts is a small budget for this game (its default is %(at)s): its marks and best moves are less sure.",
                 { r, at });
  const m = budget.measured;
  if (!m) {
    const unmeasured = t("How much less was not measured for this game at %(r)s rollouts.", { r });
    return `${head} ${unmeasured}`;
  }
  const marked = d
    ? t("Measured on %(decisions)s decisions judged twice, the engine marked %(marked)s of %(verdicts)s moves (%(pct)s %%) where at %(at)s it marks %(atPct)s %%: at %(r)s it cannot tell most moves apart, so it keeps the move played as the best and misses mistakes.",
        { decisions: m.decisions, marked: m.marked, verdicts: m.verdicts, pct: m.marked_pct, at, atPct: d.marked_pct, r })
    : t("Measured on %(decisions)s decisions judged twice, the engine marked %(marked)s of %(verdicts)s moves (%(pct)s %%): at %(r)s it cannot tell most moves apart, so it keeps the move played as the best and misses mistakes.",
        { decisions: m.decisions, marked: m.marked, verdicts: m.verdicts, pct: m.marked_pct, r });
  const best = d ? t("A second opinion named the same best move in %(pct)s %% (at %(at)s: %(atPct)s %%).",
                     { pct: m.best_agrees_pct, at, atPct: d.best_agrees_pct })
    : t("A second opinion named the same best move in %(pct)s %%.", { pct: m.best_agrees_pct });
  const kept = { kept: m.blunders_kept, blunders: m.blunders, pct: m.blunders_kept_pct, r, at };
  const atDefault = d && d.blunders ? d.blunders_kept_pct : null;
  const blunders = m.blunders
    ? (atDefault !== null ? t("It kept %(kept)s of %(blunders)s ?? marks as ?? or ? (%(pct)s %%; at %(at)s: %(atPct)s %%).",
                              { ...kept, atPct: atDefault })
      : t("It kept %(kept)s of %(blunders)s ?? marks as ?? or ? (%(pct)s %%).", kept))
    : (atDefault !== null ? t("No ?? mark came up in that sample, so how often a second opinion keeps one at %(r)s is not measured (at %(at)s: %(atPct)s %%).", { ...kept, atPct: atDefault })
      : t("No ?? mark came up in that sample, so how often a second opinion keeps one at %(r)s is not measured.", kept));
  return `${head} ${marked} ${best} ${blunders}`;
}
