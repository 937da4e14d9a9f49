// Home: the reader's tables (live), the games list (with the filter form's values), the upload form with its
// progress and report, and the new table form (seats: the reader, invites, the engine).

import { api, query } from "./api.js";
import { el, replaceChildren } from "./dom.js";
import { formatDateTime, formatList, formatNumber, gameTitle, t, tn, tParts } from "./i18n.js";
import { openStream } from "./live.js";
import { noticeTables } from "./turnalerts.js";
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
  return epoch ? formatDateTime(epoch) : "";
}

function gameRow(game) {
  const when = whenText(game.created);
  return el("tr", {},
    el("td", {}, el("a", { href: `/games/${encodeURIComponent(game.id)}`, text: game.title || game.id }),
       el("div", { class: "muted", text: gameTitle(game.game) })),
    el("td", { text: game.players.join(", ") }),
    el("td", { class: "result", text: resultText(game) }),
    el("td", { text: SOURCES[game.source] || game.source }),
    el("td", { text: game.owner || "—" }),
    el("td", { text: when }));
}

// "won by Anna" (a shared first place lists every winner), "finished" when the log names no winner, else "—".
function resultText(game) {
  if (!game.finished) return "—";
  return game.winners.length ? t("won by %(winners)s", { winners: formatList(game.winners) }) : t("finished");
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
    status.textContent = shown === 0 ? t("No games match.") : tn("%(num)d game shown.", "%(num)d games shown.", shown);
    $("games-more").hidden = !next;
  } catch (error) {
    if (mine !== asked) return;
    status.replaceChildren(el("span", { class: "error", text: t("Could not list games: %(reason)s", { reason: error.message }) }));
  }
}

// Results as you type: a short pause after the last key, then one request (the form still works without JS).
function filtersChanged() {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => loadGames(), TYPING_PAUSE_MS);
}

// ---- uploads ----------------------------------------------------------------------------------
/** Follow upload `uid` to its end and show its report; `again`: the same file was uploaded before by the same user
 *  (the API's `duplicate`), whose game is then said to be already here rather than imported anew, as is the game an
 *  upload was linked to (`linked`: a public BGA table, or a public game's own export, that is here already). */
async function pollUpload(uid, again = false) {
  const body = await followUpload(uid, $("upload-status"), $("upload-progress"));
  const here = again || body.linked;
  const link = el("a", { href: `/games/${encodeURIComponent(body.game)}`,
                         text: here ? body.title || body.game : t("Open the imported game") });
  const said = again ? tParts("Already here: %(game)s (you uploaded this file before)", { game: link })
    : body.linked ? tParts("Already here: %(game)s (nothing was imported anew)", { game: link }) : [link];
  replaceChildren($("upload-report"),
    body.game ? el("p", { class: here ? "upload-again" : null }, ...said,
                   el("span", { class: "muted", text: ` · ${uploadSummary(body)}` })) : null,
    body.error ? el("p", { class: "error", text: uploadError(body.error) }) : null,
    reportSections(body));
  loadGames();
}

// Which input an upload uses: the chosen file when there is one (said out loud when text was pasted too).
function uploadSource() {
  const file = $("upload-file").files[0], text = $("upload-text").value;
  if (file && text.trim()) {
    return { blob: file, name: file.name,
             note: t("Using the chosen file %(file)s; the pasted text is not used (clear the file to use it).", { file: file.name }) };
  }
  if (file) return { blob: file, name: file.name, note: t("Using the chosen file %(file)s.", { file: file.name }) };
  if (text.trim()) return { blob: new Blob([text], { type: "text/plain" }), name: "pasted.txt", note: t("Using the pasted text.") };
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
  if (!source) { status.textContent = t("Choose a file or paste a log first."); return; }
  $("upload-source").textContent = source.note;
  const form = new FormData();
  form.append("file", source.blob, source.name);
  if (partial) form.append("partial", "true");
  form.append("visibility", $("upload-visibility").value);
  status.textContent = t("Uploading…");
  $("upload-report").replaceChildren();
  try {
    const accepted = await api(`/api/uploads${partial ? "?partial=true" : ""}`, { method: "POST", body: form });
    await pollUpload(accepted.id, accepted.duplicate);
  } catch (error) {
    status.replaceChildren(el("span", { class: "error",
      text: error.status === 404 || error.status === 405 ? t("Uploads are not available on this server yet.") : error.message }));
  }
}

// ---- new table ---------------------------------------------------------------------------------
const DEFAULT_NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil"];
const HOLDERS = [["me", t("me")], ["invite", t("invite (link)")], ["engine:easy", t("engine, easy")],
                 ["engine:normal", t("engine, normal")], ["engine:strong", t("engine, strong")]];
// How the games list names a game's source (the API's `source`), as the page's first rows do (replay_ui/views.py).
const SOURCES = { live: t("live"), demo: t("demo"), bga: t("BGA import"), "bga-log": t("BGA log only") };

function playerCounts() {
  return JSON.parse($("new-game-form").dataset.playerCounts || "{}");
}

/** The count menu offers what the chosen game's rules allow (kept when still allowed). */
function fillCounts() {
  const [least, most] = playerCounts()[$("new-game").value] || [2, 4];
  const menu = $("new-count"), kept = Number(menu.value);
  menu.replaceChildren(...Array.from({ length: most - least + 1 }, (_, i) =>
    el("option", { value: String(least + i), text: String(least + i) })));
  menu.value = String(kept >= least && kept <= most ? kept : least);
  fillSeats();
}

/** One row per seat: the player's name and who plays it (seat 0 the reader's, the others invites by default),
 *  keeping what was typed in rows that stay. */
function fillSeats() {
  const rows = $("new-seat-rows"), count = Number($("new-count").value);
  const old = [...rows.children];
  const made = Array.from({ length: count }, (_, seat) => old[seat] || seatRow(seat));
  rows.replaceChildren(...made);
  seedAllowed();
}

function seatRow(seat) {
  const name = el("input", { id: `new-name-${seat}`, class: "seat-name", value: DEFAULT_NAMES[seat] || t("Player %(n)s", { n: seat + 1 }),
                             required: "", maxlength: "60", "aria-label": t("Seat %(n)s: player name", { n: seat + 1 }) });
  const holder = el("select", { id: `new-holder-${seat}`, class: "seat-holder", "aria-label": t("Seat %(n)s: played by", { n: seat + 1 }) },
    ...HOLDERS.map(([value, text]) => el("option", { value, text })));
  holder.value = seat === 0 ? "me" : "invite";
  holder.addEventListener("change", seedAllowed);
  return el("div", { class: "seat-row" }, el("span", { class: "muted", text: `${seat + 1}.` }), name, holder);
}

/** A named seed is for a table whose other seats are all the engine's: with an invite the field is off. */
function seedAllowed() {
  const invited = [...document.querySelectorAll("#new-seat-rows .seat-holder")].some((s) => s.value === "invite");
  $("new-seed").disabled = invited;
  $("new-seed").title = invited ? t("A table with an invited person is dealt from a secret seed the server draws") : "";
}

function newTableBody() {
  const seats = [...document.querySelectorAll("#new-seat-rows .seat-row")];
  const body = {
    game: $("new-game").value, visibility: $("new-visibility").value,
    players: seats.map((row) => row.querySelector(".seat-name").value.trim()),
    seats: seats.map((row) => {
      const [holder, level] = row.querySelector(".seat-holder").value.split(":");
      return level ? { holder, level } : { holder };
    }),
  };
  const seed = $("new-seed").value.trim();
  if (seed && !$("new-seed").disabled) body.seed = seed;
  return body;
}

/** The invite links to send, each with a button that copies it, and the way to the table. */
function showInvites(made, players) {
  const invites = made.seats.filter((seat) => seat.invite_url);
  const copy = (url, button) => navigator.clipboard?.writeText(url).then(() => { button.textContent = t("Copied"); },
                                                                          () => { button.textContent = t("Select and copy"); });
  replaceChildren($("new-invites"),
    el("p", { text: t("Send each invite to the person who is to take the seat (each link works once):") }),
    el("ul", { class: "invite-links" }, ...invites.map((seat) => {
      const field = el("input", { class: "invite-url", value: seat.invite_url, readonly: "",
                                  "aria-label": t("Invite link for seat %(n)s (%(player)s)", { n: seat.seat + 1, player: players[seat.seat] }) });
      field.addEventListener("focus", () => field.select());
      const button = el("button", { type: "button", text: t("Copy") });
      button.addEventListener("click", () => copy(seat.invite_url, button));
      return el("li", {}, el("span", { text: t("%(player)s: ", { player: players[seat.seat] }) }), field, button);
    })),
    el("p", {}, el("a", { id: "new-table-link", href: made.url, text: t("Go to the table") })));
}

async function newGame(event) {
  event.preventDefault();
  const status = $("new-status");
  const body = newTableBody();
  status.textContent = t("Starting…");
  try {
    const made = await api("/api/games", { method: "POST", body });
    if (!made.seats.some((seat) => seat.invite_url)) { window.location.assign(`${made.url}/${made.seq}`); return; }
    status.textContent = t("The table is ready.");
    showInvites(made, body.players);
    if ($("my-tables")) loadTables();
  } catch (error) {
    const fields = error.details?.fields ? Object.entries(error.details.fields).map(([name, why]) => `${name}: ${JSON.stringify(why)}`) : [];
    status.replaceChildren(el("span", { class: "error", text: fields.length ? t("Not started: %(reasons)s", { reasons: fields.join("; ") }) : error.message }));
  }
}

// ---- your tables --------------------------------------------------------------------------------
/** "3 min", "2 hr", "4 days": how long a seat has waited (the page's language's units). */
function waitedFor(since) {
  const seconds = Math.max(0, Date.now() / 1000 - since);
  if (seconds < 90) return t("a moment");
  if (seconds < 5400) return formatNumber(Math.round(seconds / 60), { style: "unit", unit: "minute", unitDisplay: "short" });
  if (seconds < 172800) return formatNumber(Math.round(seconds / 3600), { style: "unit", unit: "hour", unitDisplay: "short" });
  return formatNumber(Math.round(seconds / 86400), { style: "unit", unit: "day", unitDisplay: "long" });
}

function tableTurn(table) {
  if (table.over) return table.ended ? t("game over · ended %(time)s ago", { time: waitedFor(table.ended) }) : t("game over");
  if (!table.to_move) return t("chance to draw");
  if (table.your_turn && table.waiting_since) {
    return t("your turn (%(player)s) · waiting %(waited)s", { player: table.to_move.player, waited: waitedFor(table.waiting_since) });
  }
  if (table.your_turn) return t("your turn (%(player)s)", { player: table.to_move.player });
  return t("%(player)s's turn (%(holder)s)", { player: table.to_move.player, holder: table.to_move.holder });
}

function tableRow(table) {
  return el("li", { class: table.your_turn ? "table-row your-turn" : "table-row", "data-game": table.game, "data-branch": table.branch },
    el("a", { href: table.url, text: table.title || table.game }),
    el("span", { class: "muted", text: ` ${gameTitle(table.rules)}${table.branch === "main" ? "" : ` · ${table.branch}`} · ` }),
    el("span", { class: "table-turn", text: tableTurn(table) }));
}

/** How many finished tables the list shows: a few at first, more on "More finished tables". */
const FINISHED_STEP = 10;
let finishedShown = FINISHED_STEP;

/** The finished tables, the latest ended first, under their own heading; "more" while some are not shown. */
function showFinished(finished, total) {
  $("finished-tables").hidden = !finished.length;
  $("finished-list").replaceChildren(...finished.map(tableRow));
  $("finished-more").hidden = finished.length >= total;
  $("finished-more").textContent = t("More finished tables (%(count)s not shown)", { count: total - finished.length });
}

async function loadTables() {
  const status = $("tables-status");
  try {
    const { tables, finished, finished_total: total } = await api(`/api/me/tables?finished=${finishedShown}`);
    noticeTables(tables);  // a turn that has just become the reader's: an alert, if they turned alerts on
    $("tables-list").replaceChildren(...tables.map(tableRow));
    showFinished(finished, total);
    const waiting = tables.filter((t) => t.your_turn).length;
    status.textContent = !tables.length && !finished.length
      ? t("You sit at no table yet: start one with the New table form, or open an invite someone sent you.")
      : !tables.length ? t("No game is going on at your tables.")
      : waiting ? tn("%(num)d table waiting for you.", "%(num)d tables waiting for you.", waiting) : t("No table is waiting for you.");
    document.body.dataset.tablesUpdated = String(Date.now());
  } catch (error) {
    status.replaceChildren(el("span", { class: "error", text: t("Could not list your tables: %(reason)s", { reason: error.message }) }));
  }
}

/** The list follows the reader's tables: a move, a seat taken or given back, a table made or deleted reloads it. */
function followTables() {
  let timer = null;
  openStream(() => "/api/me/tables/stream", { tables: () => {
    clearTimeout(timer);
    timer = setTimeout(loadTables, LIST_RELOAD_PAUSE_MS);
  } });
}

if ($("finished-more")) {
  $("finished-more").addEventListener("click", () => { finishedShown += FINISHED_STEP; loadTables(); });
}
$("upload-form").addEventListener("submit", upload);
$("upload-file").addEventListener("change", showSourceNote);
$("upload-text").addEventListener("input", showSourceNote);
$("games-more").addEventListener("click", () => loadGames(true));
$("filters").addEventListener("input", filtersChanged);
$("filters").addEventListener("change", filtersChanged);
$("filters").addEventListener("submit", (event) => { event.preventDefault(); loadGames(); });
if ($("new-game-form")) {
  $("new-game-form").addEventListener("submit", newGame);
  $("new-game").addEventListener("change", fillCounts);
  $("new-count").addEventListener("change", fillSeats);
  fillCounts();
}
const tablesShown = $("my-tables") ? loadTables().then(followTables) : Promise.resolve();
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

Promise.all([adoptFirstPage() ? Promise.resolve() : loadGames(), tablesShown]).then(() => {
  followGames();
  document.body.dataset.ready = "true";
});
