// The page of a log-only game: BGA's log as numbered moves with their time, one block per move.
// The main panel shows the current move's lines; the side shows the whole log (each block
// clickable, with its annotations' glyphs). Controls fit a log: step, jump to a BGA move number,
// search the text. A position is an event seq (seq 1 is the start, each later seq one move), so
// the address /games/<gid>/b/<bid>/<seq> and annotations work as on any game.

import { formatDateTime, locale, t, tn } from "./i18n.js";
import { api } from "./api.js";
import { el, pageData, replaceChildren } from "./dom.js";
import { bindShortcutSwitch } from "./keys.js";
import { Notes } from "./notes.js";

const page = pageData();
const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const uiBranch = `/games/${enc(page.gid)}/b/${enc(page.bid)}`;

const app = { seq: page.seq || page.head, head: page.head, moves: [], bySeq: new Map(), blocks: new Map(), matches: [], match: -1 };

// ---- words --------------------------------------------------------------------------------------
function moveLabel(move) {
  if (!move) return t("Start of the game");
  return move.move_id !== null && move.move_id !== undefined ? t("Move %(n)s", { n: move.move_id }) : t("Before the first move");
}

function timeLabel(move) {
  if (!move) return "";
  if (typeof move.time === "number") {
    return formatDateTime(move.time, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }
  return move.time_text || "";
}

function timeTitle(move) {
  return move && typeof move.time === "number" ? formatDateTime(move.time, { dateStyle: "medium", timeStyle: "medium" }) : "";
}

function lineItem(line, query) {
  const item = el("li", { class: "log-line", translate: "no", title: line.raw ? t("BGA: %(line)s", { line: line.raw }) : null });
  if (!query) { item.textContent = line.text; return item; }
  // Matches are marked with <mark>; the text goes in as text nodes, never as markup.
  const lower = line.text.toLowerCase();
  let at = 0;
  for (let hit = lower.indexOf(query); hit >= 0; hit = lower.indexOf(query, at)) {
    item.append(line.text.slice(at, hit), el("mark", { text: line.text.slice(hit, hit + query.length) }));
    at = hit + query.length;
  }
  item.append(line.text.slice(at));
  return item;
}

function glyphsOf(seq) {
  return (notes.bySeq.get(seq) || []).map((n) => n.glyph).filter(Boolean).join(" ");
}

// ---- the log (side) ---------------------------------------------------------------------------
function moveBlock(move) {
  const glyphs = glyphsOf(move.seq), count = (notes.bySeq.get(move.seq) || []).length;
  return el("li", { class: "log-move", id: `log-move-${move.seq}`, dataset: { seq: String(move.seq) },
                    onclick: () => goTo(move.seq) },
    el("div", { class: "log-move-head" },
      // A button, so that the keyboard reaches every move as the mouse does (the click bubbles to the block).
      el("button", { type: "button", class: "link log-move-no", text: moveLabel(move) }),
      el("span", { class: "glyphs", text: glyphs }),
      count ? el("span", { class: "badge", text: tn("%(num)d comment", "%(num)d comments", count) }) : null,
      el("time", { class: "log-move-time", title: timeTitle(move), text: timeLabel(move) })),
    el("ul", { class: "log-move-lines" }, move.lines.map((line) => lineItem(line, searchQuery()))));
}

function renderLog() {
  app.blocks.clear();
  const blocks = app.moves.map((move) => {
    const block = moveBlock(move);
    app.blocks.set(move.seq, block);
    return block;
  });
  $("log-moves").replaceChildren(...blocks);
  markMatches();
}

function refreshBlock(seq) {
  const move = app.bySeq.get(seq), old = app.blocks.get(seq);
  if (!move || !old) return;
  const block = moveBlock(move);
  block.classList.toggle("current", seq === app.seq);
  block.classList.toggle("match", app.matches.includes(seq));
  old.replaceWith(block);
  app.blocks.set(seq, block);
}

// ---- the current move (main) ----------------------------------------------------------------
function drawCurrent() {
  const move = app.bySeq.get(app.seq);
  const time = timeLabel(move);
  replaceChildren($("current-h"), el("span", { text: moveLabel(move) }),
    time ? el("time", { class: "log-move-time", title: timeTitle(move), text: ` · ${time}` }) : null,
    glyphsOf(app.seq) ? el("span", { class: "glyphs", text: ` ${glyphsOf(app.seq)}` }) : null);
  const lines = move ? move.lines : [{ text: t("The players sit down; step forward to read the log.") }];
  $("current-lines").replaceChildren(...lines.map((line) => lineItem(line, searchQuery())));
  $("current-move").dataset.seq = String(app.seq);
  $("scrubber").value = String(app.seq);
  $("seq-label").textContent = t("step %(n)s of %(total)s", { n: app.seq, total: app.head });
  const said = move ? move.lines.map((line) => line.text).join(" ") : t("the start");
  $("scrubber").setAttribute("aria-valuetext", t("step %(n)s of %(total)s: %(move)s, %(said)s",
                                                 { n: app.seq, total: app.head, move: moveLabel(move), said }).slice(0, 200));
  for (const [seq, block] of app.blocks) block.classList.toggle("current", seq === app.seq);
  const block = app.blocks.get(app.seq);
  if (block) showInList($("log-moves"), block);
  notes.show(app.seq);
  $("notes-move").textContent = move ? moveLabel(move).toLocaleLowerCase(locale) : t("the start");
}

/** Scroll the log list (only the list) to `block`: scrollIntoView would scroll the page too, and on a phone, where
 *  the list lies below the current move, the page would open scrolled down to it. */
function showInList(list, block) {
  const box = list.getBoundingClientRect(), at = block.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

function urlFor(seq) {
  return `${uiBranch}/${seq}`;
}

function goTo(seq, { push = true } = {}) {
  app.seq = Math.max(1, Math.min(app.head, Math.round(seq)));
  drawCurrent();
  if (push && location.pathname !== urlFor(app.seq)) history.pushState({ seq: app.seq }, "", urlFor(app.seq));
}

// ---- jump to a BGA move number ----------------------------------------------------------------
function jumpToMove(event) {
  event.preventDefault();
  const wanted = Number($("jump-move").value);
  if (!Number.isFinite(wanted) || $("jump-move").value === "") return;
  // The move with that number, or the first one after it (a move of silent lines only has no block).
  const found = app.moves.find((m) => m.move_id !== null && m.move_id >= wanted);
  if (!found) {
    $("jump-status").textContent = t("No move %(n)s: the log ends at %(last)s.", { n: wanted, last: moveLabel(app.moves[app.moves.length - 1]) });
    return;
  }
  $("jump-status").textContent = found.move_id === wanted ? "" : t("No lines at move %(n)s: showing %(shown)s.", { n: wanted, shown: moveLabel(found) });
  goTo(found.seq);
}

// ---- search ------------------------------------------------------------------------------------
function searchQuery() {
  return $("log-search").value.trim().toLowerCase();
}

function markMatches() {
  const query = searchQuery();
  app.matches = query ? app.moves.filter((m) => m.lines.some((l) => l.text.toLowerCase().includes(query))).map((m) => m.seq) : [];
  for (const [seq, block] of app.blocks) block.classList.toggle("match", app.matches.includes(seq));
  $("search-count").textContent = query ? tn("%(num)d move matches", "%(num)d moves match", app.matches.length) : "";
}

function onSearchInput() {
  renderLog();
  drawCurrent();
}

function stepMatch(direction) {
  if (!app.matches.length) return;
  const next = direction > 0 ? app.matches.find((s) => s > app.seq) ?? app.matches[0]
                             : [...app.matches].reverse().find((s) => s < app.seq) ?? app.matches[app.matches.length - 1];
  goTo(next);
}

// ---- controls -----------------------------------------------------------------------------------
let shortcutsOn = () => true;

function onKey(event) {
  if (!shortcutsOn()) return;
  const target = event.target;
  if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const actions = { ArrowLeft: () => goTo(app.seq - 1), ArrowRight: () => goTo(app.seq + 1), Home: () => goTo(1), End: () => goTo(app.head) };
  const action = actions[event.key];
  if (action) { event.preventDefault(); action(); }
}

function bindControls() {
  $("nav-first").addEventListener("click", () => goTo(1));
  $("nav-prev").addEventListener("click", () => goTo(app.seq - 1));
  $("nav-next").addEventListener("click", () => goTo(app.seq + 1));
  $("nav-last").addEventListener("click", () => goTo(app.head));
  $("scrubber").addEventListener("input", (e) => goTo(Number(e.target.value)));
  $("jump-form").addEventListener("submit", jumpToMove);
  $("log-search").addEventListener("input", onSearchInput);
  $("search-form").addEventListener("submit", (e) => { e.preventDefault(); stepMatch(1); });
  $("search-prev").addEventListener("click", () => stepMatch(-1));
  shortcutsOn = bindShortcutSwitch();
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => {
    const match = location.pathname.match(/\/(\d+)$/);
    goTo(match ? Number(match[1]) : app.head, { push: false });
  });
}

// Players' colours: set through the DOM (the page's CSP allows no inline style attributes).
function paintSwatches() {
  for (const swatch of document.querySelectorAll(".swatch[data-color]")) {
    if (/^#[0-9a-f]{6}$/i.test(swatch.dataset.color)) swatch.style.backgroundColor = swatch.dataset.color;
    else swatch.classList.add("no-color");
  }
}

const notes = new Notes({ gid: page.gid, bid: page.bid, user: page.user, onChange: (seq) => { refreshBlock(seq); drawCurrent(); } });

async function start() {
  paintSwatches();
  bindControls();
  const [log] = await Promise.all([api(`${uiBranch}/log.json`), notes.load().catch(() => {})]);
  app.moves = log.moves;
  app.head = log.head;
  for (const move of app.moves) app.bySeq.set(move.seq, move);
  $("scrubber").max = String(app.head);
  renderLog();
  history.replaceState({ seq: app.seq }, "", urlFor(app.seq));
  goTo(app.seq, { push: false });
  document.body.dataset.drawn = "true";
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  $("current-lines").replaceChildren(el("li", { class: "error", text: t("Could not load the log: %(reason)s", { reason: error.message }) }));
});

// For the browser tests and for curious users: the current position.
window.ludolog = { goTo, get seq() { return app.seq; }, get head() { return app.head; } };
