// The puzzles pages (issue 49): the list with its filters, and one puzzle: its board in the mover's seat view (the
// game's own renderer), the answer form (the mover's legal moves, as radio buttons: arrows and space choose, Enter
// answers) and the verdict ("played X (win 31 %), best Y (52 %)" with the intervals).

import { api, query } from "./api.js";
import { rendererFor } from "./boards/index.js";
import { el, pageData, replaceChildren } from "./dom.js";

const page = pageData();
const $ = (id) => document.getElementById(id);

const percent = (p) => `${Math.round(100 * p)} %`;
const interval = (ci) => `${Math.round(100 * ci[0])}–${Math.round(100 * ci[1])} %`;

// ---- the list --------------------------------------------------------------------------------
async function showList() {
  const form = $("puzzle-filters");
  const params = Object.fromEntries(new FormData(form).entries());
  try {
    const { puzzles } = await api(`/api/puzzles${query(params)}`);
    $("puzzle-count").textContent = puzzles.length ? `${puzzles.length} puzzle${puzzles.length > 1 ? "s" : ""}` : "No puzzles yet.";
    replaceChildren($("puzzle-list"), puzzles.map((p) => el("li", {},
      el("a", { href: `/puzzles/${encodeURIComponent(p.id)}`, text: `${p.game.replaceAll("_", " ")}: ${p.theme}` }),
      el("span", { class: "hint", text: ` · ${p.stage} game · ${p.players} players` }))));
  } catch (error) {
    $("puzzle-count").textContent = error.message;
  }
  document.body.dataset.ready = "true";
}

function initList() {
  const form = $("puzzle-filters");
  const wanted = new URLSearchParams(location.search);
  for (const name of ["game", "stage", "theme"]) if (wanted.get(name)) form.elements[name].value = wanted.get(name);
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
  const said = result.correct ? "Right!" : "Not the best move.";
  return [
    el("p", { class: result.correct ? "verdict-right" : "verdict-wrong", text: said }),
    el("p", { class: "verdict-numbers",
      text: `Played ${played.text} (win ${percent(played.win)}), best ${best.text} (${percent(best.win)}).` }),
    el("p", { class: "hint",
      text: `95 % intervals: played ${interval(played.ci)}, best ${interval(best.ci)}; the played move lost ` +
            `${percent(played.loss)} (${interval(played.loss_ci)}), marked ${played.mark}.` }),
  ];
}

async function answer(event) {
  event.preventDefault();
  const chosen = new FormData($("puzzle-form")).get("action");
  if (!chosen) return;
  $("puzzle-submit").disabled = true;
  try {
    const result = await api(`/api/puzzles/${encodeURIComponent(page.id)}/answer`, { method: "POST", body: { action: chosen } });
    replaceChildren($("puzzle-verdict"), verdictLines(result));
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
  $("puzzle-about").textContent = `${names[shown.seat]} to move · ${shown.theme} · ${shown.stage} game`;
  board.renderBoard($("board"), shown.state, { components: page.components, names, position: null, actor: shown.seat });
  document.body.dataset.drawn = "true";
  $("puzzle-moves").append(...shown.actions.map(moveChoice));
  $("puzzle-form").addEventListener("submit", answer);
  document.body.dataset.ready = "true";
}

if (page.id) initPuzzle(); else initList();
