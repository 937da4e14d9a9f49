// Home: the games list (with the filter form's values), the upload form with its progress
// and report, and the new live game form.

import { api, query } from "./api.js";
import { el, replaceChildren } from "./dom.js";
import { openStream } from "./live.js";
import { followUpload, reportSections, uploadError, uploadSummary } from "./uploadreport.js";

const $ = (id) => document.getElementById(id);
const PAGE = 50;
const TYPING_PAUSE_MS = 150;
const FILTER_NAMES = ["game", "player", "source", "q", "table", "result", "winner", "owner", "order"];
let next = null;
let shown = 0;
let asked = 0;  // numbers the listing requests, so that an older answer never replaces a newer one
let typingTimer = null;

// The filters as the form holds them (the page's URL follows the form, so a reload or a shared link keeps them).
const LIST_RELOAD_PAUSE_MS = 300;

function filters() {
  const form = new FormData($("filters"));
  const out = {};
  for (const name of FILTER_NAMES) {
    const value = (form.get(name) || "").toString().trim();
    if (value && !(name === "order" && value === "newest")) out[name] = value;
  }
  return out;
}

function whenText(epoch) {
  return epoch ? new Date(epoch * 1000).toLocaleString() : "";
}

function gameRow(game) {
  const when = whenText(game.created);
  return el("tr", {},
    el("td", {}, el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: game.title || game.id }),
       el("div", { class: "muted", text: game.game.replaceAll("_", " ") })),
    el("td", { text: game.players.join(", ") }),
    el("td", { class: "result", text: resultText(game) }),
    el("td", { text: game.source }),
    el("td", { text: game.owner || "—" }),
    el("td", { text: when }));
}

// "won by Anna" (a shared first place lists every winner), "finished" when the log names no winner, else "—".
function resultText(game) {
  if (!game.finished) return "—";
  return game.winners.length ? `won by ${game.winners.join(" and ")}` : "finished";
}

async function loadGames(more = false) {
  const status = $("games-status"), table = $("games-table");
  const mine = ++asked;
  const wanted = filters();
  if (!more) {
    next = null;
    history.replaceState(null, "", `${location.pathname}${query(wanted)}`);
  }
  try {
    let body = await api(`/api/games${query({ ...wanted, limit: PAGE, cursor: more ? next : null })}`);
    // A rare match may lie past what one request looks at: an empty page with a cursor says go on.
    for (let step = 0; !body.games.length && body.next && step < 20 && mine === asked; step++) {
      body = await api(`/api/games${query({ ...wanted, limit: PAGE, cursor: body.next })}`);
    }
    if (mine !== asked) return;  // the filters changed while this was on its way
    const rows = body.games.map(gameRow);
    if (more) table.tBodies[0].append(...rows); else table.tBodies[0].replaceChildren(...rows);
    shown = (more ? shown : 0) + body.games.length;
    next = body.next;
    table.hidden = shown === 0;
    status.textContent = shown === 0 ? "No games match." : `${shown} game${shown === 1 ? "" : "s"} shown.`;
    $("games-more").hidden = !next;
  } catch (error) {
    if (mine !== asked) return;
    status.replaceChildren(el("span", { class: "error", text: `Could not list games: ${error.message}` }));
  }
}

// Results as you type: a short pause after the last key, then one request (the form still works without JS).
function filtersChanged() {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => loadGames(), TYPING_PAUSE_MS);
}

// ---- uploads ----------------------------------------------------------------------------------
async function pollUpload(uid) {
  const body = await followUpload(uid, $("upload-status"), $("upload-progress"));
  replaceChildren($("upload-report"),
    body.game ? el("p", {}, el("a", { href: `/games/${encodeURIComponent(body.game)}`, text: "Open the imported game" }),
                   el("span", { class: "muted", text: ` · ${uploadSummary(body)}` })) : null,
    body.error ? el("p", { class: "error", text: uploadError(body.error) }) : null,
    reportSections(body));
  loadGames();
}

// Which input an upload uses: the chosen file when there is one (said out loud when text was pasted too).
function uploadSource() {
  const file = $("upload-file").files[0], text = $("upload-text").value;
  if (file && text.trim()) {
    return { blob: file, name: file.name, note: `Using the chosen file ${file.name}; the pasted text is not used (clear the file to use it).` };
  }
  if (file) return { blob: file, name: file.name, note: `Using the chosen file ${file.name}.` };
  if (text.trim()) return { blob: new Blob([text], { type: "text/plain" }), name: "pasted.txt", note: "Using the pasted text." };
  return null;
}

function showSourceNote() {
  const source = uploadSource();
  $("upload-source").textContent = source ? source.note : "";
}

async function upload(event) {
  event.preventDefault();
  const status = $("upload-status");
  const partial = $("upload-partial").checked;
  const source = uploadSource();
  if (!source) { status.textContent = "Choose a file or paste a log first."; return; }
  $("upload-source").textContent = source.note;
  const form = new FormData();
  form.append("file", source.blob, source.name);
  if (partial) form.append("partial", "true");
  form.append("visibility", $("upload-visibility").value);
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
$("upload-file").addEventListener("change", showSourceNote);
$("upload-text").addEventListener("input", showSourceNote);
$("games-more").addEventListener("click", () => loadGames(true));
$("filters").addEventListener("input", filtersChanged);
$("filters").addEventListener("change", filtersChanged);
$("filters").addEventListener("submit", (event) => { event.preventDefault(); loadGames(); });
$("new-game-form")?.addEventListener("submit", newGame);
/** The first page came with the page (rendered on the server): only its times are put in the reader's own words. */
function adoptFirstPage() {
  const table = $("games-table");
  if (table.dataset.firstPage === undefined) return false;
  shown = Number(table.dataset.firstPage);
  next = table.dataset.next || null;
  for (const time of table.querySelectorAll("time[data-epoch]")) time.textContent = whenText(Number(time.dataset.epoch));
  return true;
}

/** The list follows the site: a game created or changed that this reader's listing shows (the server leaves out
 *  others' private games) reloads the first page, unless the reader has paged further. */
function followGames() {
  let timer = null;
  openStream(() => "/api/games/stream", { game: () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (shown <= PAGE) loadGames().then(() => { document.body.dataset.listUpdated = String(Date.now()); });
    }, LIST_RELOAD_PAUSE_MS);
  } });
}

(adoptFirstPage() ? Promise.resolve() : loadGames()).then(() => {
  followGames();
  document.body.dataset.ready = "true";
});
