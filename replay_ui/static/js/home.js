// Home: the games list (with the filter form's values), the upload form with its progress
// and report, and the new live game form.

import { api, query } from "./api.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50;
let offset = 0;

function filters() {
  const params = new URLSearchParams(location.search);
  return { game: params.get("game") || "", player: params.get("player") || "", source: params.get("source") || "" };
}

function gameRow(game) {
  const when = game.created ? new Date(game.created * 1000).toLocaleString() : "";
  return el("tr", {},
    el("td", {}, el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: game.title || game.id }),
       el("div", { class: "muted", text: game.game.replaceAll("_", " ") })),
    el("td", { text: game.players.join(", ") }),
    el("td", { text: game.source }),
    el("td", { text: game.owner || "—" }),
    el("td", { text: when }));
}

async function loadGames(more = false) {
  const status = $("games-status"), table = $("games-table");
  if (!more) offset = 0;
  try {
    const body = await api(`/api/games${query({ ...filters(), limit: PAGE, offset })}`);
    const rows = body.games.map(gameRow);
    if (more) table.tBodies[0].append(...rows); else table.tBodies[0].replaceChildren(...rows);
    offset += body.games.length;
    table.hidden = offset === 0;
    status.textContent = offset === 0 ? "No games match." : `${offset} game${offset === 1 ? "" : "s"} shown.`;
    $("games-more").hidden = body.games.length < PAGE;
  } catch (error) {
    status.replaceChildren(el("span", { class: "error", text: `Could not list games: ${error.message}` }));
  }
}

// ---- uploads ----------------------------------------------------------------------------------
function reportList(report) {
  return el("ul", { class: "report" }, (report || []).map((entry) => {
    if (typeof entry === "string") return el("li", { text: entry });
    const parts = [entry.status || entry.kind, entry.move_id !== undefined ? `move ${entry.move_id}` : null,
                   entry.line || entry.text, entry.reason].filter(Boolean);
    return el("li", { class: entry.status || entry.kind || "", text: parts.join(" · ") });
  }));
}

function uploadSummary(body) {
  const kind = body.kind === "log-only" ? "log only: browse and annotate, no forks" : "full rules replay";
  return [body.game_name, kind, `${body.events} events`, body.incomplete ? "incomplete (partial)" : null]
    .filter(Boolean).join(" · ");
}

function uploadError(error) {
  const where = [error.move_id !== undefined ? `move ${error.move_id}` : null, error.line, error.rule].filter(Boolean);
  return `${error.message || error.code}${where.length ? ` (${where.join(" · ")})` : ""}`;
}

async function pollUpload(uid) {
  const status = $("upload-status"), progress = $("upload-progress");
  progress.hidden = false;
  for (;;) {
    const body = await api(`/api/uploads/${encodeURIComponent(uid)}`);
    const done = body.progress ? body.progress.done : 0, total = body.progress ? body.progress.total : 0;
    progress.max = Math.max(1, total);
    progress.value = done;
    status.textContent = `Import ${body.status}: ${done} of ${total || "?"} moves`;
    if (!["queued", "running", "started", "pending"].includes(body.status)) {
      $("upload-report").replaceChildren(
        body.game ? el("p", {}, el("a", { href: `/games/${encodeURIComponent(body.game)}`, text: "Open the imported game" }),
                       el("span", { class: "muted", text: ` · ${uploadSummary(body)}` })) : null,
        body.error ? el("p", { class: "error", text: uploadError(body.error) }) : null,
        reportList(body.report));
      loadGames();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

async function upload(event) {
  event.preventDefault();
  const status = $("upload-status");
  const file = $("upload-file").files[0], text = $("upload-text").value;
  const partial = $("upload-partial").checked;
  if (!file && !text.trim()) { status.textContent = "Choose a file or paste a log first."; return; }
  const form = new FormData();
  form.append("file", file || new Blob([text], { type: "text/plain" }), file ? file.name : "pasted.txt");
  if (partial) form.append("partial", "true");
  status.textContent = "Uploading…";
  $("upload-report").replaceChildren();
  try {
    const accepted = await api(`/api/uploads${partial ? "?partial=true" : ""}`, { method: "POST", body: form });
    await pollUpload(accepted.id);
  } catch (error) {
    status.replaceChildren(el("span", { class: "error",
      text: error.status === 404 || error.status === 405 ? "Uploads are not available on this server yet." : error.message }));
  }
}

// ---- new live game ------------------------------------------------------------------------------
async function newGame(event) {
  event.preventDefault();
  const status = $("new-status");
  const players = $("new-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
  const body = { game: $("new-game").value, players, visibility: $("new-visibility").value };
  const seed = $("new-seed").value.trim();
  if (seed) body.seed = seed;
  try {
    const made = await api("/api/games", { method: "POST", body });
    window.location.assign(`/games/${encodeURIComponent(made.id)}/b/${encodeURIComponent(made.branch)}/${made.seq}`);
  } catch (error) {
    status.replaceChildren(el("span", { class: "error", text: error.message }));
  }
}

$("upload-form").addEventListener("submit", upload);
$("games-more").addEventListener("click", () => loadGames(true));
$("new-game-form")?.addEventListener("submit", newGame);
loadGames().then(() => { document.body.dataset.ready = "true"; });
