// The puzzles pages (issue 49): the list with its filters, and one puzzle: its board in the mover's seat view (the
// game's own renderer), the answer form (the mover's legal moves, as radio buttons: arrows and space choose, Enter
// answers) and the verdict ("played X (win 31 %), best Y (52 %)" with the intervals).

import { api, query } from "./api.js";
import { rendererFor } from "./boards/index.js";
import { el, pageData, replaceChildren, svg } from "./dom.js";
import { formatNumber, gameTitle, t, tn } from "./i18n.js";

const page = pageData();
const $ = (id) => document.getElementById(id);

const percent = (p) => formatNumber(p, { style: "percent", maximumFractionDigits: 0 });
const interval = (ci) => `${percent(ci[0])}–${percent(ci[1])}`;
const STAGES = { early: () => t("early game"), middle: () => t("middle game"), late: () => t("late game") };
const stageName = (stage) => (STAGES[stage] ? STAGES[stage]() : stage);

// ---- the list --------------------------------------------------------------------------------
async function showList() {
  const form = $("puzzle-filters");
  const params = Object.fromEntries(new FormData(form).entries());
  try {
    const { puzzles } = await api(`/api/puzzles${query(params)}`);
    $("puzzle-count").textContent = puzzles.length ? tn("%(num)d puzzle", "%(num)d puzzles", puzzles.length) : t("No puzzles yet.");
    replaceChildren($("puzzle-list"), puzzles.map((p) => el("li", {},
      el("a", { href: `/puzzles/${encodeURIComponent(p.id)}`,
                text: t("%(game)s: %(theme)s", { game: gameTitle(p.game), theme: p.theme }) }),
      el("span", { class: "hint",
                   text: t(" · %(stage)s · %(players)s players", { stage: stageName(p.stage), players: p.players }) }))));
  } catch (error) {
    $("puzzle-count").textContent = error.message;
  }
  document.body.dataset.ready = "true";
}

// ---- the solver's rating: now, its curve (a small SVG line, as the analysis chart draws) and the latest answers ----
const CHART = { width: 320, height: 90, pad: 6 };

function ratingCurve(history) {
  const points = [1500, ...history.map((h) => h.rating)];
  const low = Math.min(...points) - 10, high = Math.max(...points) + 10;
  const x = (i) => CHART.pad + (i * (CHART.width - 2 * CHART.pad)) / Math.max(1, points.length - 1);
  const y = (r) => CHART.height - CHART.pad - ((r - low) * (CHART.height - 2 * CHART.pad)) / (high - low);
  const path = points.map((r, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  return svg("svg", { viewBox: `0 0 ${CHART.width} ${CHART.height}`, class: "rating-curve", role: "img",
                      "aria-label": t("Rating after each answer, from %(first)s to %(last)s", {
                        first: formatNumber(Math.round(points[0])), last: formatNumber(Math.round(points.at(-1))) }) },
    svg("path", { d: path, class: "rating-line" }),
    ...points.map((r, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(r).toFixed(1), r: 2.5, class: "rating-dot" })));
}

async function showMyRating() {
  const mine = await api("/api/me/puzzles");
  $("my-rating-now").textContent = tn("%(rating)s (± %(deviation)s) after %(num)d answer",
    "%(rating)s (± %(deviation)s) after %(num)d answers", mine.attempts,
    { rating: formatNumber(Math.round(mine.rating)), deviation: formatNumber(Math.round(mine.deviation)) });
  replaceChildren($("my-rating-chart"), mine.history.length ? ratingCurve(mine.history) : null);
  replaceChildren($("my-history"), mine.history.slice(-10).reverse().map((h) => el("li", {},
    el("a", { href: `/puzzles/${encodeURIComponent(h.puzzle)}`, text: h.correct ? t("right") : t("wrong") }),
    el("span", { class: "hint", text: ` ${formatNumber(Math.round(h.before))} → ${formatNumber(Math.round(h.rating))}` }))));
}

function initList() {
  if (page.user) showMyRating();
  const form = $("puzzle-filters");
  const wanted = new URLSearchParams(location.search);
  for (const name of ["game", "stage", "theme"]) if (wanted.get(name)) form.elements[name].value = wanted.get(name);
  if (form.elements.mine && wanted.get("mine") === "true") form.elements.mine.checked = true;  // "puzzles from my games"
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = Object.fromEntries(new FormData(form).entries());
    history.replaceState(null, "", `/puzzles${query(params)}`);
    showList();
  });
  showList();
}

// ---- one puzzle ------------------------------------------------------------------------------
function moveChoice(move, index) {
  const id = `move-${index}`;
  return el("div", { class: "puzzle-move" },
    el("input", { type: "radio", name: "action", id, value: move.action, required: true }),
    el("label", { for: id, text: move.text }));
}

function verdictLines(result) {
  const { best, played } = result;
  const said = result.correct ? t("Right!") : t("Not the best move.");
  return [
    el("p", { class: result.correct ? "verdict-right" : "verdict-wrong", text: said }),
    el("p", { class: "verdict-numbers",
      text: t("Played %(played)s (win %(played_win)s), best %(best)s (%(best_win)s).", {
        played: played.text, played_win: percent(played.win), best: best.text, best_win: percent(best.win) }) }),
    el("p", { class: "hint",
      text: t("%(level)s intervals: played %(played)s, best %(best)s; the played move lost %(loss)s (%(loss_ci)s), marked %(mark)s.", {
        level: percent(0.95), played: interval(played.ci), best: interval(best.ci), loss: percent(played.loss), loss_ci: interval(played.loss_ci),
        mark: played.mark }) }),
  ];
}

function ratingLine(rating) {
  if (!rating) return null;
  const text = rating.rated
    ? t("Your rating: %(before)s → %(after)s", { before: formatNumber(Math.round(rating.before)), after: formatNumber(Math.round(rating.rating)) })
    : t("Your rating stays %(rating)s: only a first answer to a puzzle is rated.", { rating: formatNumber(Math.round(rating.rating)) });
  return el("p", { class: "verdict-rating", text });
}

async function answer(event) {
  event.preventDefault();
  const chosen = new FormData($("puzzle-form")).get("action");
  if (!chosen) return;
  $("puzzle-submit").disabled = true;
  try {
    const result = await api(`/api/puzzles/${encodeURIComponent(page.id)}/answer`, { method: "POST", body: { action: chosen } });
    replaceChildren($("puzzle-verdict"), verdictLines(result), ratingLine(result.rating));
    $("puzzle-verdict").dataset.correct = String(result.correct);
  } catch (error) {
    replaceChildren($("puzzle-verdict"), el("p", { class: "error", text: error.message }));
    $("puzzle-submit").disabled = false;
  }
  $("puzzle-verdict").focus();
}

async function initPuzzle() {
  const [shown, board] = await Promise.all([api(`/api/puzzles/${encodeURIComponent(page.id)}`), rendererFor(page.renderer)]);
  const names = shown.state.names || page.players;
  $("puzzle-about").textContent = t("%(name)s to move · %(theme)s · %(stage)s", {
    name: names[shown.seat], theme: shown.theme, stage: stageName(shown.stage) });
  board.renderBoard($("board"), shown.state, { components: page.components, names, position: null, actor: shown.seat });
  document.body.dataset.drawn = "true";
  $("puzzle-moves").append(...shown.actions.map(moveChoice));
  $("puzzle-form").addEventListener("submit", answer);
  document.body.dataset.ready = "true";
}

if (page.id) initPuzzle(); else initList();
