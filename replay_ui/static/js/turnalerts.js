// Turn alerts (issue 46): once the signed-in user turns them on (a button: browsers ask for the notifications
// permission only after a click), a notification and a short tone when it becomes their turn at one of their tables,
// while any ludolog tab is open. Every signed-in page loads this module. The home page hands it each list of tables
// it loads (home.js calls noticeTables); any other page follows GET /api/me/tables/stream itself while alerts are on.
//
// One notification per turn, however many tabs are open: each tab sees the turn come, but only the first to write it
// down (under a Web Lock where the browser has them, so that two tabs cannot both read "not yet told") tells it; the
// notification's tag names the table, so even a race the lock cannot close shows one notification, not two.

import { gameTitle, t } from "./i18n.js";
import { api } from "./api.js";
import { openStream } from "./live.js";

const OPT_IN = "ludolog.turn-alerts";  // "on" once this browser's user turned the alerts on
const TOLD = "ludolog.turn-alerts.told";  // {"gid/bid": seq} of the turns a tab has told
const TELLER_LOCK = "ludolog-turn-alerts-teller";  // held by the one tab that tells (see teller)
const RELOAD_PAUSE_MS = 300;

/** The words of this module, in one place. */
const TEXT = {
  off: t("Turn on turn alerts"),
  on: t("Turn alerts are on (turn off)"),
  offHint: t("A notification and a short tone in this browser when it becomes your turn, while a ludolog tab is open."),
  onHint: t("On: this browser tells you when it becomes your turn at one of your tables, while a ludolog tab is open."),
  blocked: t("This browser blocks notifications for this site: allow them in its site settings, then press the button again."),
  unsupported: t("This browser cannot show notifications."),
  title: (table) => t("Your turn: %(table)s", { table: table.title || table.game }),
  body: (table) => {
    const who = table.to_move ? t("%(player)s is to move", { player: table.to_move.player }) : t("It is your turn");
    return t("%(who)s · %(game)s", { who, game: gameTitle(table.rules) });
  },
};

const supported = "Notification" in window;
const yourTurn = new Map();  // per tab: "gid/bid" → whether it was the user's turn when this tab last looked
let watching = null;
let audio = null;
/** Whether this tab is the browser's one teller. Web Locks elect it: the first tab to ask holds the lock while it
 *  lives, and the next tab in line takes it when that one closes. Every tab reads the same turns, and a record of
 *  what was told in localStorage alone would not do: Chromium copies localStorage to the other tabs' processes a
 *  moment later, so two tabs could both read "not told yet". Without Web Locks, every tab tells, guarded by TOLD. */
let teller = !navigator.locks;
navigator.locks?.request(TELLER_LOCK, () => { teller = true; return new Promise(() => {}); });

/** True when the user turned alerts on in this browser and it may show notifications. */
function alertsOn() {
  return supported && localStorage.getItem(OPT_IN) === "on" && Notification.permission === "granted";
}

const key = (table) => `${table.game}/${table.branch}`;

/** A short two-note chime made by WebAudio (no sound file); silent where the page may not play sound yet. */
function chime() {
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.02;
    [660, 880].forEach((frequency, i) => {
      const at = start + i * 0.16;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.0001, at);
      volume.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      tone.connect(volume).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.32);
    });
  } catch { /* no audio here: the notification alone */ }
}

/** Write down that the turn of `table` at its seq was told; false when a tab had written it down already. */
function firstToTell(table) {
  const told = JSON.parse(localStorage.getItem(TOLD) || "{}");
  if (told[key(table)] === table.seq) return false;
  told[key(table)] = table.seq;
  localStorage.setItem(TOLD, JSON.stringify(told));
  return true;
}

function tell(table) {
  if (!teller || !firstToTell(table)) return;  // the teller alone tells, once a turn (TOLD: for browsers without locks)
  chime();
  if (document.visibilityState === "visible" && location.pathname === table.url) return;  // its banner says it here
  const note = new Notification(TEXT.title(table), { body: TEXT.body(table), tag: `ludolog-turn-${key(table)}` });
  note.addEventListener("click", () => { window.focus(); location.assign(table.url); note.close(); });
}

/** Take in a list of the user's tables (GET /api/me/tables): tell each turn that has just become theirs. The first
 *  list a tab sees only sets what it knows (a turn already waiting when the tab opened is no news), as does a table
 *  it had not seen (one the user just made or sat at). */
export function noticeTables(tables) {
  // A table where chance is to draw (between a move and its dice) is nobody's turn yet: it changes nothing known, or
  // a list read between a player's own roll and its die would make their next move of the same turn look like news.
  const settled = tables.filter((t) => t.to_move !== null || t.over);
  const news = settled.filter((t) => t.your_turn && yourTurn.get(key(t)) === false);
  for (const table of settled) yourTurn.set(key(table), Boolean(table.your_turn));
  if (alertsOn()) for (const table of news) tell(table);
  document.body.dataset.turnAlertsWaiting = String(tables.filter((t) => t.your_turn).length);
  document.body.dataset.turnAlertsChecked = String(Date.now());
}

async function loadAndNotice() {
  try {
    const { tables } = await api("/api/me/tables");
    await noticeTables(tables);
  } catch { /* the next notice loads the list again */ }
}

/** Follow the user's tables while alerts are on, on pages other than the home page (whose list feeds noticeTables). */
function watch() {
  if (watching || !alertsOn() || document.getElementById("my-tables")) return;
  let timer = null;
  const handle = {
    stream: null,
    closed: false,
    close() { this.closed = true; clearTimeout(timer); if (this.stream) this.stream.close(); },
  };
  watching = handle;
  loadAndNotice().then(() => {
    if (handle.closed) return;
    handle.stream = openStream(() => "/api/me/tables/stream", { tables: () => {
      clearTimeout(timer);
      timer = setTimeout(loadAndNotice, RELOAD_PAUSE_MS);
    } });
  });
}

function unwatch() {
  if (watching) watching.close();
  watching = null;
}

function showButtons(message) {
  const on = alertsOn();
  for (const button of document.querySelectorAll("[data-turn-alerts]")) {
    button.textContent = on ? TEXT.on : TEXT.off;
    button.setAttribute("aria-pressed", String(on));
  }
  const hint = message || (!supported ? TEXT.unsupported : on ? TEXT.onHint
    : Notification.permission === "denied" ? TEXT.blocked : TEXT.offHint);
  for (const status of document.querySelectorAll("[data-turn-alerts-status]")) status.textContent = hint;
}

async function toggle() {
  if (alertsOn()) {
    localStorage.setItem(OPT_IN, "off");
    unwatch();
    showButtons();
    return;
  }
  if (!supported) return showButtons(TEXT.unsupported);
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") return showButtons(TEXT.blocked);
  localStorage.setItem(OPT_IN, "on");
  chime();  // the click lets this page play sound from now on, and the user hears what an alert sounds like
  showButtons();
  watch();
}

for (const button of document.querySelectorAll("[data-turn-alerts]")) button.addEventListener("click", toggle);
// Alerts turned on or off in another tab: this one follows.
window.addEventListener("storage", (event) => {
  if (event.key !== OPT_IN) return;
  showButtons();
  if (alertsOn()) watch(); else unwatch();
});
showButtons();
watch();
