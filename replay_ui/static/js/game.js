// The game page: steps through a branch without reloading, keeps a URL per position
// (/games/<gid>/b/<bid>/<seq>, via history.pushState), and draws the board from a client
// cache of states that is filled a window at a time ahead of where the user is going.

import { AnalysisPanel } from "./analysis.js";
import { api } from "./api.js";
import { rendererFor } from "./boards/index.js";
import { BoardText } from "./boardtext.js";
import { Branches } from "./branches.js";
import { ScoreChart } from "./chart.js";
import { initChat } from "./chat.js";
import { el, pageData } from "./dom.js";
import { followView } from "./downloads.js";
import { bindShortcutSwitch, onSelectChosen } from "./keys.js";
import { markLastMove } from "./lastmove.js";
import { followBranch, openStream, showTurnInTitle, turnText } from "./live.js";
import { MoveList, throwWords } from "./movelist.js";
import { Notes } from "./notes.js";
import { paced } from "./pace.js";
import { Picker } from "./picker.js";
import { followSeats, initSeats, initTakeBack, refreshSeats } from "./seats.js";
import { formatList, formatNumber, t, tn } from "./i18n.js";
import { EngineLine } from "./thinking.js";

const page = pageData();
const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const uiRoot = `/games/${enc(page.gid)}`;
const branchApi = `/api/games/${enc(page.gid)}/branches/${enc(page.bid)}`;
const uiBranch = `${uiRoot}/b/${enc(page.bid)}`;
const WINDOW_BEHIND = 16, WINDOW_AHEAD = 48, PREFETCH_MARGIN = 12;

const app = {
  head: page.head,
  seq: page.seq || page.head,
  // With no view asked, the view the server chose: a seat holder's own seat while several play the branch.
  view: new URLSearchParams(location.search).get("view") || page.view || "full",
  timeline: null,
  states: new Map(),
  loading: new Map(), // first seq of a window being fetched -> its promise
  renderToken: 0,
  userMoves: 0, // positions the user asked for (steps, clicks, keys): a late automatic jump must not undo one
  board: null, // the renderer module, loaded by name at start
  branch: null,
  tableNotice: null, // what the seats stream said of the viewer's place at the table (seat taken back, branch deleted)
  deleted: false,
};

// ---- states: a cache filled by windows of states.json --------------------------------------
function fetchWindow(from, to) {
  if (app.loading.has(from)) return app.loading.get(from);
  const view = app.view;
  const url = `${uiBranch}/states.json?from=${from}&to=${to}&view=${enc(view)}`;
  const promise = api(url).then((body) => {
    if (view !== app.view) return;
    for (const [seq, state] of Object.entries(body.states)) app.states.set(Number(seq), state);
  }).finally(() => app.loading.delete(from));
  app.loading.set(from, promise);
  return promise;
}

async function stateAt(seq) {
  if (!app.states.has(seq)) {
    for (const pending of app.loading.values()) await pending;
    if (!app.states.has(seq)) await fetchWindow(Math.max(1, seq - WINDOW_BEHIND), Math.min(app.head, seq + WINDOW_AHEAD));
  }
  return app.states.get(seq);
}

function prefetchAround(seq) {
  const ahead = Math.min(app.head, seq + PREFETCH_MARGIN), behind = Math.max(1, seq - PREFETCH_MARGIN);
  if (!app.states.has(ahead)) {
    let from = seq;
    while (app.states.has(from) && from < ahead) from++;
    fetchWindow(from, Math.min(app.head, from + WINDOW_AHEAD)).catch(() => {});
  }
  if (!app.states.has(behind)) {
    let to = seq;
    while (app.states.has(to) && to > behind) to--;
    fetchWindow(Math.max(1, to - WINDOW_AHEAD), to).catch(() => {});
  }
}

// ---- drawing a position -----------------------------------------------------------------------
function positionInfo(seq) {
  return app.timeline ? app.timeline.positions[seq - 1] || null : null;
}

function captionFor(seq, state) {
  const info = positionInfo(seq);
  const names = page.players;
  // The game's adapter words the position (round, phase, …); the actor and result are generic.
  const parts = info && info.caption ? [...info.caption] : [];
  const actor = info ? info.actor : null;
  if (typeof actor === "number") parts.push(t("%(player)s to act", { player: names[actor] }));
  else if (actor === "chance") parts.push(t("chance to draw"));
  else if (seq === app.head && app.timeline && app.timeline.outcome) {
    const o = app.timeline.outcome;
    const winners = formatList(o.winners.map((s) => names[s]));
    const score = formatNumber(o.scores[o.winners[0]]);
    parts.push(o.winners.length > 1 ? t("game over: %(winners)s share the win with %(score)s", { winners, score })
      : t("game over: %(winners)s wins with %(score)s", { winners, score }));
  }
  return parts.join(" · ");
}

const timings = {};

function timed(name, fn) {
  const t0 = performance.now();
  fn();
  timings[name] = performance.now() - t0;
}

function draw(seq, state) {
  const start = performance.now();
  const info = positionInfo(seq);
  timed("board", () => app.board.renderBoard($("board"), state, {
    components: page.components, names: page.players, position: info, actor: info ? info.actor : null,
  }));
  $("board").dataset.seq = String(seq);
  delete $("board").dataset.preview;  // (a turn form's arrangement, drawn over the head, is gone)
  // Rewritten only when it changes: a new text node would be a new paint (and a late "largest paint") for nothing.
  const caption = captionFor(seq, state);
  if ($("caption").textContent !== caption) $("caption").textContent = caption;
  if (document.body.dataset.ready) $("move-said").textContent = `${positionText(seq)}. ${caption}`;
  $("scrubber").value = String(seq);
  $("scrubber").setAttribute("aria-valuetext", positionText(seq));
  $("seq-label").textContent = `${seq} / ${app.head}`;
  timed("moves", () => moves.highlight(seq));
  timed("chart", () => chart.mark(seq));
  syncJumpSelects(seq);
  timed("notes", () => notes.show(seq));
  timed("picker", () => updatePicker(seq));
  timed("analysis", () => analysis.show(seq));
  showOutcome(seq);
  timings.draw = performance.now() - start;
  showLastMove(seq, state, app.renderToken);
  showStepChance(seq);
  branches.follow();
  boardText.update();
  document.body.dataset.drawn = "true";
}

/** The first board, from the state and position facts the page came with: no request, no timeline yet. */
function drawFirst() {
  const seq = app.seq, info = page.position || null;
  app.states.set(seq, page.state);
  // The final result above the board comes with the page too: drawn later, it would push the board down.
  if (page.outcome) showOutcome(seq, page.outcome);
  app.board.renderBoard($("board"), page.state, {
    components: page.components, names: page.players, position: info, actor: info ? info.actor : null,
  });
  document.body.dataset.drawn = "true";
}

/** The slider's words for position `seq`: "move 286 of 573: Emese places a colonist on …". */
function positionText(seq) {
  const move = app.moveBySeq ? app.moveBySeq.get(seq) : null;
  const where = t("move %(n)s of %(total)s", { n: seq, total: app.head });
  if (move) return t("%(where)s: %(move)s", { where, move: move.text });
  return seq === 1 ? t("%(where)s: the start", { where }) : where;
}

// ---- the last move: what the last decision (with the chance that followed it) changed ----------
function lastDecisionAt(seq) {
  if (!app.timeline) return null;
  const moves = app.timeline.moves;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i].seq <= seq && typeof moves[i].actor === "number") return moves[i].seq;
  }
  return null;
}

async function showLastMove(seq, state, token) {
  const decision = lastDecisionAt(seq);
  const before = decision ? await stateAt(decision - 1) : null;
  if (token !== app.renderToken) return; // a later step drew another position
  const marked = markLastMove($("board"), before, state, app.board);
  $("board").dataset.lastMoveSeq = decision ? String(decision) : "";
  $("board").dataset.lastMoveMarked = String(marked);
}

// The final result under the caption, at the last position of a finished game.
function showOutcome(seq, outcome = app.timeline && app.timeline.outcome) {
  const box = $("outcome");
  box.hidden = !(outcome && seq === app.head);
  if (box.hidden || box.dataset.drawn === "true") return;
  // Column names, cells and tie-breaks in words come from the game's adapter (timeline "words").
  const words = outcome.words || { columns: [], cells: [], tiebreaks: [] };
  const columns = words.columns.length ? words.columns
    : (outcome.details && outcome.details.length ? Object.keys(outcome.details[0]).map((key) => ({ key, label: key })) : []);
  const cell = (seat, key) => (words.cells[seat] || {})[key] ?? String(outcome.details[seat][key]);
  // In the engine's final places: a game may rank by more than score and tie-break (in Die goldene
  // Stadt a blocked player is last whatever their letters), so the places are read, never re-derived.
  const ranks = outcome.ranks;
  const order = outcome.scores.map((_, seat) => seat).sort((a, b) => ranks[a] - ranks[b] || a - b);
  box.replaceChildren(el("h2", { id: "outcome-h", text: t("Final result") }), el("table", {},
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("place") }), el("th", { scope: "col", text: t("player") }),
      columns.map((c) => el("th", { scope: "col", "data-key": c.key, text: c.label })), el("th", { scope: "col", text: t("total") }),
      el("th", { scope: "col", text: t("tie-break") }))),
    el("tbody", {}, order.map((seat) => el("tr", { class: outcome.winners.includes(seat) ? "winner" : "", "data-seat": String(seat) },
      el("td", { class: "place", text: String(ranks[seat]) }),
      el("th", { scope: "row", text: page.players[seat] }),
      columns.map((c) => el("td", { text: cell(seat, c.key) })),
      el("td", { class: "total", text: String(outcome.scores[seat]) }),
      el("td", { class: "tiebreak", text: words.tiebreaks[seat] ?? String(outcome.tiebreaks[seat]) }))))));
  box.dataset.drawn = "true";
}

/** The page's URL at `seq`: the view, when not the full one, the second opinion's seed, if one is chosen, and the
 *  analysis budget, when not the game's default (a reload shows the same analysis). */
function urlFor(seq) {
  const params = [app.view !== "full" ? `view=${enc(app.view)}` : null,
                  analysis.opinion.seed !== null ? `seed=${analysis.opinion.seed}` : null,
                  analysis.chosenRollouts !== null ? `rollouts=${analysis.chosenRollouts}` : null].filter(Boolean);
  return `${uiBranch}/${seq}${params.length ? "?" + params.join("&") : ""}`;
}

/** Rewrite the page's current address to name position `seq` (no new history entry). */
function replaceAddress(seq) {
  history.replaceState({ seq }, "", urlFor(seq));
}

/** Show position `seq`. `history`: "push" adds an entry (jumps), "replace" rewrites the current one (steps,
 * so that the back button leaves the page after browsing instead of undoing every step), "none" answers back/forward. */
async function goTo(seq, { history: mode = "push", push = true } = {}) {
  seq = Math.max(1, Math.min(app.head, Math.round(seq)));
  const token = ++app.renderToken;
  timings.requested = performance.now();
  const state = await stateAt(seq);
  timings.wait = performance.now() - timings.requested;
  if (token !== app.renderToken || !state) return; // a later step superseded this one
  app.seq = seq;
  draw(seq, state);
  showTurn();
  if (seq === app.head && $("live-new")) hideNewMoves();
  if (push && mode !== "none" && location.pathname + location.search !== urlFor(seq)) {
    if (mode === "replace") replaceAddress(seq);
    else history.pushState({ seq }, "", urlFor(seq));
  }
  prefetchAround(seq);
}

// ---- stepping: one position, or (decisions only) to the next position where a player acts ------
const DECISIONS_ONLY_KEY = "ludolog.decisionsOnly";

function decisionsOnly() {
  return !page.log_only && $("decisions-only") !== null && $("decisions-only").checked;
}

/** A position stepping by decisions stops at: a player is to act there, or it is the first or last. */
function isStop(seq) {
  if (seq <= 1 || seq >= app.head) return true;
  const info = positionInfo(seq);
  return !info || typeof info.actor === "number";
}

/** A position the user asked for: counted, so that an automatic jump started earlier gives way to it. */
function userGoTo(seq, options) {
  app.userMoves++;
  return goTo(seq, options);
}

function step(direction) {
  app.userMoves++;
  let seq = app.seq + direction;
  if (decisionsOnly()) while (!isStop(seq)) seq += direction;
  return goTo(seq, { history: "replace" });
}

function bindStepMode() {
  const box = $("decisions-only");
  if (!box) return;
  box.checked = localStorage.getItem(DECISIONS_ONLY_KEY) === "true";
  box.addEventListener("change", () => {
    localStorage.setItem(DECISIONS_ONLY_KEY, String(box.checked));
    showStepChance(app.seq);
  });
}

/** With decisions only, the chance that followed the last decision is shown as part of the step. */
function showStepChance(seq) {
  const out = $("step-chance");
  if (!out) return;
  const decision = lastDecisionAt(seq);
  const chance = !decisionsOnly() || !app.timeline ? []
    : app.timeline.moves.filter((m) => m.actor === "chance" && m.seq <= seq && m.seq > (decision || 1));
  out.hidden = !chance.length;
  out.replaceChildren(...(chance.length ? [el("span", { class: "step-chance-h", text: t("then chance: ") }),
    el("span", { text: chanceSummary(chance) })] : []));
}

function chanceSummary(moves) {
  const parts = [];
  let throwParts = null;
  for (const move of moves) {
    if (move.throw) {
      if (!throwParts) { throwParts = []; parts.push(throwParts); }
      if (!/^0 /.test(move.throw)) throwParts.push(move.throw);
    } else {
      throwParts = null;
      parts.push(move.text);
    }
  }
  return parts.map((p) => Array.isArray(p) ? throwWords(page.components.throw_label, p) : p).join("; ");
}

// ---- navigation -------------------------------------------------------------------------------
function roundStarts() {
  // The position where a round starts: just before the first move that opens a group in it.
  const starts = [];
  if (!app.timeline) return starts;
  for (const move of app.timeline.moves) {
    if (move.pick && !starts.some((s) => s.round === move.round)) starts.push({ round: move.round, seq: move.seq - 1 });
  }
  return starts;
}

function nextRound(direction) {
  app.userMoves++;
  const starts = roundStarts();
  if (direction > 0) {
    const next = starts.find((s) => s.seq > app.seq);
    return goTo(next ? next.seq : app.head);
  }
  const previous = starts.filter((s) => s.seq < app.seq).pop();
  return goTo(previous ? previous.seq : 1);
}

/** The jump selects' options, built again only when they change (most new moves open no round or phase). */
function fillJumpSelects() {
  const picks = app.timeline ? app.timeline.moves.filter((m) => m.pick) : [];
  const who = (m) => typeof m.actor === "number" ? `${page.players[m.actor]}: ` : "";
  fillSelect($("jump-round"), roundStarts().map((s) => [String(s.seq), `Round ${s.round}`]));
  fillSelect($("jump-phase"), picks.map((m) => [String(m.seq), `R${m.round} ${who(m)}${m.phase}`]));
}

const drawnOptions = new WeakMap(); // select -> the options it shows, as a string to compare

function fillSelect(select, options) {
  const key = JSON.stringify(options);
  if (drawnOptions.get(select) === key) return;
  drawnOptions.set(select, key);
  select.replaceChildren(el("option", { value: "", text: t("jump to…") }),
    ...options.map(([value, text]) => el("option", { value, text })));
  select.disabled = options.length < 1;
}

function syncJumpSelects(seq) {
  $("jump-round").value = "";
  $("jump-phase").value = "";
}

let shortcutsOn = () => true;

function onKey(event) {
  if (!shortcutsOn()) return;
  const target = event.target;
  if (target.closest && target.closest("input:not([type=checkbox]), textarea, select, [contenteditable]")) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const actions = {
    ArrowLeft: () => step(-1), ArrowRight: () => step(1),
    Home: () => userGoTo(1), End: () => userGoTo(app.head),
    r: () => nextRound(1), R: () => nextRound(-1),
  };
  const action = actions[event.key];
  if (action) { event.preventDefault(); action(); }
}

/** On a phone the move picker's sheet folds to its heading (to see the board under it) and opens again. */
function bindPickerFold() {
  const button = $("play-fold");
  if (!button) return;
  button.addEventListener("click", () => {
    const folded = $("play-section").classList.toggle("folded");
    button.setAttribute("aria-expanded", String(!folded));
    button.textContent = folded ? t("Show the moves") : t("Hide the moves");
  });
}

function bindControls() {
  bindPickerFold();
  $("nav-first").addEventListener("click", () => userGoTo(1));
  $("nav-prev").addEventListener("click", () => step(-1));
  $("nav-next").addEventListener("click", () => step(1));
  $("nav-last").addEventListener("click", () => userGoTo(app.head));
  $("nav-round").addEventListener("click", () => nextRound(1));
  $("scrubber").addEventListener("input", (e) => userGoTo(Number(e.target.value), { history: "replace" }));
  bindStepMode();
  onSelectChosen($("jump-round"), (value) => userGoTo(Number(value)));
  onSelectChosen($("jump-phase"), (value) => userGoTo(Number(value)));
  offerAllowedViews();
  $("view-select").value = app.view;
  followView(app.view);
  onSelectChosen($("view-select"), (value) => changeView(value));
  shortcutsOn = bindShortcutSwitch();
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => {
    const match = location.pathname.match(/\/(\d+)$/);
    const view = new URLSearchParams(location.search).get("view") || page.view || "full";
    if (view !== app.view) { app.view = view; $("view-select").value = view; followView(view); reloadForView(); }
    userGoTo(match ? Number(match[1]) : app.head, { push: false });
  });
}

async function changeView(view) {
  const before = app.view;
  app.view = view;
  try {
    await reloadForView();
  } catch (error) {
    if (error.status !== 403) throw error;
    // Refused (a table keeps its hidden information per seat): the menu and the board stay in the view they had
    // (the timeline the page has is still that view's; its states are fetched again as the board needs them).
    app.view = before;
    $("view-select").value = before;
    $("view-status").textContent = view === "full" ? t("Cannot show the full view: %(reason)s", { reason: error.message })
      : t("Cannot show the chosen view: %(reason)s", { reason: error.message });
    return;
  }
  $("view-status").textContent = "";
  followView(view);
  await goTo(app.seq);
  follow();
}

/** At a table being played the menu offers only the views the viewer may have (their seats and spectator); offered
 *  again when seats change under the page. */
function offerAllowedViews() {
  if (!Array.isArray(page.views)) return;
  for (const option of $("view-select").options) {
    option.disabled = !page.views.includes(option.value);
    option.title = option.disabled ? t("Not while the table is being played: hidden information is kept per seat") : "";
  }
}

async function reloadForView() {
  app.states.clear();
  app.loading.clear();
  await loadTimeline();
}

// ---- timeline, picker, notes, chart ----------------------------------------------------------
const moves = new MoveList($("moves"), (seq) => userGoTo(seq), page.components.throw_label);
const chart = new ScoreChart($("chart"), (seq) => userGoTo(seq));
const notes = new Notes({ gid: page.gid, bid: page.bid, user: page.user,
                          onChange: (seq, list) => moves.setNotes(seq, list) });
const picker = new Picker({ branchApi, onPlaying: () => app.userMoves, onPlayed: afterPlay,
                            groups: page.components.picker_groups, forms: page.components.turn_forms,
                            components: page.components, stateAt, preview: previewHead });
initSeats(page);
initTakeBack(page);
initChat(page);
const engineLine = new EngineLine(page.players);
engineLine.take(page.table ? page.table.engine : null);
const branches = new Branches({ gid: page.gid, bid: page.bid, uiRoot, getSeq: () => app.seq, user: page.user });
const boardText = new BoardText($("board"), $("board-text"), $("board-text-body"));
const analysis = new AnalysisPanel({ gid: page.gid, bid: page.bid, user: page.user, players: page.players,
                                     onSelect: (seq) => userGoTo(seq),
                                     onSeed: () => replaceAddress(app.seq),
                                     refused: Boolean(page.table && page.table.analysis_refused) });

function fetchTimeline() {
  return api(`${uiBranch}/timeline.json?view=${enc(app.view)}`);
}

/** Let the browser paint and answer input between two big pieces of work (no task long enough to block it). */
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Once the page as the server sent it is on screen (or after 100 ms, should frames not come in a hidden tab). */
function painted() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });
}

/** Take in the branch's timeline (`pending`: a request already under way): move list, chart, jump selects. */
async function loadTimeline(pending = null) {
  await takeInTimeline(await (pending || fetchTimeline()), { growing: false });
}

/** Take in the moves after the page's head (the branch grew): only they are asked for, and added to the timeline the
 *  page has, when it has one of the same view; a long game then costs each new move only its own share. */
async function loadNewMoves() {
  const had = app.timeline;
  if (!had) return loadTimeline();
  // `after` belongs to this ask, not to the timeline.
  const { after: _, ...part } = await api(`${uiBranch}/timeline.json?view=${enc(app.view)}&after=${had.head}`);
  // Another view than the one the page's moves are in (the view was changed meanwhile): the whole timeline again.
  if (part.view !== had.view) return loadTimeline();
  await takeInTimeline({ ...part, moves: had.moves.concat(part.moves), positions: had.positions.concat(part.positions) },
                       { growing: true });
}

/** Take in `timeline`: the move list and the jump selects at once; the summaries of the whole line (chart and
 *  analysis) at once too, unless the branch is `growing` move by move, when they follow at their own pace
 *  (`summaries`). */
async function takeInTimeline(timeline, { growing }) {
  app.timeline = timeline;
  delete $("outcome").dataset.drawn;
  app.head = app.timeline.head;
  app.moveBySeq = new Map(app.timeline.moves.map((m) => [m.seq, m]));
  $("scrubber").max = String(app.head);
  moves.render(app.timeline.moves, page.players, notes.bySeq);
  await nextTask();
  fillJumpSelects();
  if (growing) summaries.soon();
  else summaries.now();
}

/** The score chart and the analysis of the line as the page's timeline has it now. */
function drawSummaries() {
  $("chart-section").hidden = !chart.render(app.timeline.positions, page.players, app.timeline.outcome);
  chart.mark(app.seq);
  analysis.load(app.view, app.head).then(() => {
    if (picker.seq !== null) analysis.decoratePicker($("picker"), picker.seq);
    return analysis.compare(branches.current);
  }).catch(() => {});
}

/** While the branch grows (its stream, a move played here), the chart and the analysis are drawn again at most once
 *  every SUMMARY_PAUSE_MS: at the first new move, then once for all the moves that came meanwhile. Each is drawn from
 *  the whole line (and the analysis asked for again), which at every move of a quick game (an engine seat answering at
 *  once) was a fifth of what following it cost the browser (docs/PERFORMANCE.md, "Following a game live"). The
 *  board, the move list, the turn and the seats follow every move. */
const SUMMARY_PAUSE_MS = 1000;
const summaries = paced(drawSummaries, SUMMARY_PAUSE_MS);

/** The address of a page moved on by the stream names its position too, rewritten at the same pace: each rewrite is
 *  a navigation the browser records (about a tenth of following a quick game). It is written when it fires, from where
 *  the page is then, so a step the reader took meanwhile (which writes its own address) is never undone. */
const liveAddress = paced(() => {
  if (location.pathname + location.search !== urlFor(app.seq)) replaceAddress(app.seq);
}, SUMMARY_PAUSE_MS);

function updatePicker(seq) {
  const branch = branches.current;
  const info = positionInfo(seq);
  // The seats the user moves for (all of them for the owner of a branch with no seat assigned): issue 33.
  const mine = page.user && branch && info && (page.table ? page.table.mine.includes(info.actor) : branch.owner === page.user);
  if (!mine || seq !== app.head || !info || typeof info.actor !== "number") { picker.hide(); return; }
  picker.show(seq, page.players[info.actor], info.actor).then(() => analysis.decoratePicker($("picker"), seq));
  if (!app.pickerOpened) { app.pickerOpened = true; bringBoardAbovePicker(); }
}

/** Draw `state` as the head's board while a turn form builds a turn there (null: the head as it is). */
function previewHead(state) {
  if (app.seq !== app.head) return;
  const info = positionInfo(app.head);
  app.board.renderBoard($("board"), state || app.states.get(app.head), {
    components: page.components, names: page.players, position: info, actor: info ? info.actor : null,
  });
  if (state) $("board").dataset.preview = "true"; else delete $("board").dataset.preview;
}

/** On a phone the picker is a sheet at the foot of the screen (app.css): the first time it opens, the caption and the
 *  board are brought up above it, so the board and the moves to choose from show together. */
function bringBoardAbovePicker() {
  if (!matchMedia("(max-width: 640px)").matches) return;
  const caption = $("caption");
  if (caption.getBoundingClientRect().top > 0) window.scrollBy(0, caption.getBoundingClientRect().top);
}

/** After a move was played here: reload the timeline and the tree, then show the head — unless the user went
 *  somewhere else since they played it (`movesAtPlay`: the count of their steps when the move was sent; the answer
 *  and the reload take a while on a long game, and the stream's batch of the same move may be taken in first): their
 *  step wins. The head, not the move just played: at a table another seat (the engine) may have answered already, and
 *  the timeline just loaded holds that answer too, so the stream's notice of it will find nothing new to move the
 *  board to. */
function afterPlay(newHead, movesAtPlay) {
  return inTurn(() => takeInPlayed(newHead, movesAtPlay));
}

/** The new heads of the branch are taken in one at a time, in the order they came (a move played here, each batch
 *  from the stream): two of them interleaved at their awaits would each see the board away from a head the other
 *  had just loaded, and leave it behind with a "new moves" button although the reader never stepped away. */
let headTurn = Promise.resolve();
function inTurn(task) {
  headTurn = headTurn.then(task, task);
  return headTurn;
}

async function takeInPlayed(newHead, movesAtPlay) {
  // The branch's stream often brings the move before the answer to its POST does: then it is taken in already, and
  // loading (and drawing) the whole timeline and asking for the seats again would only repeat that work.
  const takenIn = Boolean(newHead) && newHead <= app.head;
  if (!takenIn) {
    await loadNewMoves();
    await branches.load();
  }
  if (app.userMoves === movesAtPlay) await goTo(Math.max(newHead || 0, app.head));
  else updatePicker(app.seq);  // the reader went elsewhere while a turn's steps were sent: the picker follows them
  showTurn();
  if (!takenIn) refreshSeats(page);
  document.body.dataset.played = String(newHead || app.head);
}

function showBranchLabel() {
  const branch = branches.current;
  if (!branch) return;
  const name = branch.name || branch.id, owner = branch.owner || t("no owner");
  $("branch-label").textContent = branch.parent
    ? t("branch %(name)s (fork of %(parent)s at move %(seq)s) · %(owner)s", { name, parent: branch.parent, seq: branch.fork_seq, owner })
    : t("branch %(name)s · %(owner)s", { name, owner });
}

// ---- live: the branch's new moves from its stream ----------------------------------------------
/** (Re)open the branch's stream in the current view, from the head the page has. */
function follow() {
  if (app.live) app.live.close();
  app.live = followBranch(branchApi, { view: app.view, after: app.head, onEvents: onLiveEvents, onViewWithdrawn,
                                       onOpen: () => { document.body.dataset.liveView = app.view; },
                                       onEnd: () => { document.body.dataset.liveEnded = "true"; } });
}

/** Seats changed so that the page's view is no longer its reader's (the stream ended saying so): the menu offers the
 *  views they may have now and the page turns to the first of them (turnToView), or, when the seats stream has already
 *  turned it to one of them, follows on in that view. */
function onViewWithdrawn(views) {
  if (app.deleted) return;
  if (Array.isArray(views)) { page.views = views; offerAllowedViews(); }
  if (!Array.isArray(views) || views.includes(app.view)) { follow(); return; }
  turnToView(views[0]);
}

/** The server no longer gives the reader the page's view (their seat taken back, seats changed): the page turns to
 *  `view`, the one it gives them now, and says whose turn it is. A reader who was at the latest move stays there (any
 *  move that came with the change included), as the stream would have moved them; a branch deleted meanwhile is said
 *  gone. */
async function turnToView(view) {
  const wasAtHead = app.seq === app.head;
  $("view-select").value = view;
  try {
    await changeView(view);
    if (wasAtHead && app.seq !== app.head) await goTo(app.head, { history: "none" });
    showTurn();
  } catch (error) { branchGoneUnderfoot(error); }
}

/** New events arrived: take in the timeline; a user at the latest move is moved on with it (and the move picker with
 *  them, so that its expected seq is the new head), anyone elsewhere gets the "new moves" button instead. */
function onLiveEvents(events) {
  return inTurn(() => takeInLive(events));
}

async function takeInLive(events) {
  const newHead = events[events.length - 1].seq;
  document.body.dataset.streamHead = String(newHead); // what the stream has brought, taken in here or not
  if (newHead <= app.head) return; // our own move, already taken in after it was played
  const wasAtHead = app.seq === app.head;
  const movesBefore = app.userMoves;
  const before = app.head;
  await loadNewMoves();
  branches.load().catch(() => {});
  if (wasAtHead && app.userMoves === movesBefore) {
    await goTo(app.head, { history: "none" });
    liveAddress.soon();
  }
  else showNewMoves(app.head - before);
  showTurn();
  refreshSeats(page);
  document.body.dataset.liveHead = String(app.head);
}

/** The seats stream's news for the viewer: their seat was taken back (they watch now, in the spectator view, which
 *  the server would give them anyway) or the branch is gone (its stream is closed and the banner says why). */
function followTable() {
  followSeats(page, {
    onReleased: (text) => {
      app.tableNotice = text;
      if (/^\d+$/.test(app.view)) turnToView("spectator");
      showTurn();
      document.body.dataset.seatReleased = "true";
    },
    onDeleted: (text) => {
      app.tableNotice = text;
      app.deleted = true;
      if (app.live) app.live.close();
      engineLine.take(null);
      showTurn();
      document.body.dataset.branchDeleted = "true";
    },
    onEngine: (status) => engineLine.take(status),
  });
}

/** A request of the page's was answered 404 because its branch was deleted while the request was on its way (the
 *  seats stream's notice, which names who deleted it, may come a moment later): the page says the branch is gone
 *  instead of failing. Any other failure is a fault and is thrown on. */
function branchGoneUnderfoot(error) {
  if (error.status !== 404) throw error;
  if (!app.deleted) {
    app.tableNotice = t("This branch is gone: it was deleted");
    showTurn();
  }
}

/** Others' notes appear as they are written: a change reloads the notes (the move list's marks and, unless the
 *  reader is editing one, the panel of the shown move). */
function followNotes() {
  let timer = null;
  openStream(() => `/api/games/${enc(page.gid)}/annotations/stream`, { annotation: () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const before = [...notes.bySeq.keys()];
      await notes.load();
      for (const seq of new Set([...before, ...notes.bySeq.keys()])) moves.setNotes(seq, notes.bySeq.get(seq) || []);
      if (!notes.editing) notes.show(app.seq);
      document.body.dataset.notesUpdated = String(Date.now());
    }, 200);
  } });
}

function showNewMoves(count) {
  const button = $("live-new");
  const shown = Number(button.dataset.count || 0) + count;
  button.dataset.count = String(shown);
  button.textContent = tn("%(num)d new move: show the latest", "%(num)d new moves: show the latest", shown);
  button.hidden = false;
}

function hideNewMoves() {
  const button = $("live-new");
  button.hidden = true;
  button.dataset.count = "0";
}

/** The banner and the tab title: whose turn it is at the head ("your turn" when the view's seat is to act). */
function showTurn() {
  const info = positionInfo(app.head);
  const text = app.deleted ? null : turnText(info ? info.actor : null, page.players, app.view);
  const banner = $("turn-banner");
  // "Game over" only above the final position: over an earlier one of a finished game it reads as that position's.
  const said = text || (app.timeline && app.timeline.outcome && app.seq === app.head ? t("Game over") : "");
  banner.textContent = app.tableNotice ? [app.tableNotice, said].filter(Boolean).join(" · ") : said;
  banner.hidden = !banner.textContent;
  banner.classList.toggle("yours", text === t("Your turn"));
  showTurnInTitle(text);
  engineLine.atHead(app.head);
}

// ---- log-only games: the rendered lines of each move ----------------------------------------
function linesOf(event) {
  const meta = event.meta || {};
  const raw = meta.lines || meta.text || meta.line || event.action || event.type;
  return (Array.isArray(raw) ? raw : [raw]).map((line) => typeof line === "string" ? line : line.text || "");
}

async function startLogOnly() {
  const events = [];
  let after = 0;
  for (;;) {
    const pageOfEvents = await api(`${branchApi}/events?after=${after}&limit=5000`);
    events.push(...pageOfEvents.events);
    if (!pageOfEvents.events.length || events[events.length - 1].seq >= pageOfEvents.head) break;
    after = events[events.length - 1].seq;
  }
  app.head = events.length ? events[events.length - 1].seq : 1;
  const timelineMoves = events.filter((e) => e.seq > 1).map((e) => ({ seq: e.seq, actor: e.actor, text: linesOf(e).join(" ") }));
  app.timeline = { moves: timelineMoves, positions: [], head: app.head, outcome: null };
  for (const e of events) app.states.set(e.seq, { lines: linesOf(e), seq: e.seq });
  app.board = { renderBoard: (container, _state, ctx) => renderLog(container, events, app.seq) };
  $("scrubber").max = String(app.head);
  moves.render(timelineMoves, page.players, notes.bySeq);
  for (const id of ["jump-round", "jump-phase", "view-select"]) $(id).disabled = true;
}

function renderLog(container, events, seq) {
  const shown = events.filter((e) => e.seq > 1 && e.seq <= seq).slice(-12);
  container.replaceChildren(el("div", { class: "log-only" },
    el("p", { class: "muted", text: t("A log-only game: no rules engine behind it, so these are the log's own lines.") }),
    el("ol", { class: "log-lines" }, shown.map((e) => el("li", { class: e.seq === seq ? "current" : "" },
      el("span", { class: "mv-seq", text: String(e.seq) }), linesOf(e).map((line) => el("span", { class: "log-line", translate: "no", text: line })))))));
}

// ---- start ------------------------------------------------------------------------------------
async function start() {
  // The timeline (every move's sentence) is the biggest download: ask for it first, use it when it is needed.
  const timeline = page.log_only ? null : fetchTimeline();
  timeline?.catch(() => {});
  app.board = await rendererFor(page.renderer);
  // The page came with the state it opens at (as its view sees it): draw it before anything loads, once the
  // server's caption and frame are on screen.
  await painted();
  if (page.state && !page.log_only) drawFirst();
  bindControls();
  await Promise.all([notes.load().catch(() => {}), branches.load().then(showBranchLabel).catch(() => {})]);
  if (page.log_only) await startLogOnly();
  else await Promise.all([loadTimeline(timeline), stateAt(app.seq)]);
  await nextTask();
  replaceAddress(app.seq);
  await goTo(app.seq, { push: false });
  if (!page.log_only) {
    $("live-new").addEventListener("click", () => { hideNewMoves(); userGoTo(app.head); });
    showTurn();
    follow();
    followTable();
  }
  followNotes();
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  document.body.dataset.drawn = "true";
  $("caption").replaceChildren(el("span", { class: "error", text: t("Could not load the game: %(reason)s", { reason: error.message }) }));
});

// For the browser tests and for curious users: the current position.
window.ludolog = { goTo, timings, get seq() { return app.seq; }, get head() { return app.head; } };
