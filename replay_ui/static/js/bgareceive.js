// The tab the bookmarklet opens. It tells the BGA tab that opened it that it is ready (a message with no data),
// takes the log that tab posts back only from an origin of LUDOLOG_BGA_ORIGINS (any other sender is ignored,
// with a line in the console), keeps it in this tab's sessionStorage (so signing in on the way loses nothing),
// shows what it holds, read here in the browser (bgasummary.js; a log in no known envelope is refused here, saying
// why), and only on Import sends it to ludolog, through the normal upload path (POST /api/uploads), then follows
// the import to the game. Before that click no request of this tab carries the log or anything of it. Told by its
// opener, from an accepted origin, that there is no log (BGA refused it), it closes itself before it holds one.

import { api } from "./api.js";
import { el, replaceChildren } from "./dom.js";
import { originAllowed } from "./bgaorigins.js";
import { LogRefused, summarise } from "./bgasummary.js";
import { followUpload, reportSections, uploadError } from "./uploadreport.js";
import { t } from "./i18n.js";

const READY = "ludolog-bga-ready";
const LOG = "ludolog-bga-log";
const CLOSE = "ludolog-bga-close";
const KEPT = "ludolog-bga-log";

const $ = (id) => document.getElementById(id);
const root = $("bga-receive");
const patterns = JSON.parse(root.dataset.origins);
const rulesGames = JSON.parse(root.dataset.games);
let received = null;

function status(text, isError = false) {
  replaceChildren($("receive-status"), isError ? el("span", { class: "error", text }) : text);
}

// The upload as the raw body (the log's own text, nothing added), its name and visibility in the address.
function uploadRequest(kept, visibility) {
  const json = kept.log.trimStart().startsWith("{") || kept.log.trimStart().startsWith("[");
  const options = new URLSearchParams({ visibility, filename: `bga-${kept.table || "log"}.${json ? "json" : "txt"}` });
  return [`/api/uploads?${options}`, { method: "POST", body: kept.log,
           headers: { "Content-Type": json ? "application/json" : "text/plain; charset=utf-8" } }];
}

function keep(kept) {
  try {
    sessionStorage.setItem(KEPT, JSON.stringify(kept));
  } catch {
    // Too large for this browser's session storage: the import still works, only a sign-in on the way loses it.
    console.warn("ludolog: the log is too large to keep in this tab across a sign-in");
  }
}

function keptLog() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
    return kept && typeof kept.log === "string" ? kept : null;
  } catch {
    return null;
  }
}

function show(kept) {
  let seen;
  try {
    seen = summarise(kept.log, rulesGames);
  } catch (error) {
    if (!(error instanceof LogRefused)) throw error;
    received = null;
    $("receive-preview").hidden = true;
    status(t("This log cannot be imported: %(reason)s", { reason: error.message }), true);
    return;
  }
  received = kept;
  const kind = seen.rules ? t("full rules: replay, fork and play on") : t("log only: browse and annotate");
  const game = seen.label || t("a game the log does not name");  // said apart: a t() inside t()'s arguments is not extracted
  $("preview-game").textContent = t("%(game)s (%(kind)s)", { game, kind });
  $("preview-table").textContent = seen.table ?? kept.table ?? t("not named in the log");
  $("preview-players").textContent = seen.players.length ? seen.players.join(", ") : t("not named in the log");
  // Each count named for what it counts: a log-only game's replay steps through the moves with a line everyone sees
  // (not every BGA move number has one); a game with rules is imported as moves and chance draws, which the import
  // report counts.
  $("preview-moves-label").textContent = seen.rules ? t("BGA moves") : t("Steps");
  $("preview-moves").textContent = String(seen.rules ? seen.moves : seen.steps);
  $("preview-moves-note").textContent = seen.rules
    ? t("move numbers in the log: the import says how many players' moves and chance draws they hold")
    : t("BGA moves with a line everyone sees, which the replay steps through (%(moves)s BGA move numbers in all)", { moves: seen.moves });
  $("receive-preview").hidden = false;
  status(t("Received from %(origin)s. Check it, choose who may see it, then press Import: only then is it sent to ludolog.",
           { origin: kept.from }));
}

function onMessage(event) {
  if (!originAllowed(event.origin, patterns)) {
    console.warn(`ludolog: ignored a message from ${event.origin}, which is not one of LUDOLOG_BGA_ORIGINS`);
    return;
  }
  const data = event.data;
  if (data && data.type === CLOSE && event.source === window.opener && !received) {
    window.close(); // the bookmarklet found no log to hand over: this tab was opened for nothing
    return;
  }
  if (!data || data.type !== LOG || typeof data.log !== "string") {
    console.warn(`ludolog: ignored a message from ${event.origin} that holds no log`);
    return;
  }
  window.removeEventListener("message", onMessage);
  const kept = { log: data.log, table: typeof data.table === "string" ? data.table : null, from: event.origin };
  keep(kept);
  show(kept);
}

async function importLog(event) {
  event.preventDefault();
  if (!received) return;
  $("receive-import").disabled = true;
  $("upload-status").textContent = t("Uploading…");
  $("upload-report").replaceChildren();
  try {
    const accepted = await api(...uploadRequest(received, $("receive-visibility").value));
    const body = await followUpload(accepted.id, $("upload-status"), $("upload-progress"));
    if (body.status === "done" && body.game) {
      sessionStorage.removeItem(KEPT);
      window.location.assign(`/games/${encodeURIComponent(body.game)}`);
      return;
    }
    replaceChildren($("upload-report"), body.error ? el("p", { class: "error", text: uploadError(body.error) }) : null,
                    reportSections(body));
  } catch (error) {
    // The upload refused the log (400 unreadable, 422 unusable): its message says where and why.
    $("upload-status").replaceChildren(el("span", { class: "error", text: t("This log cannot be imported: %(reason)s", { reason: error.message }) }));
  }
  $("receive-import").disabled = false;
}

function start() {
  window.addEventListener("message", onMessage);
  $("receive-form").addEventListener("submit", importLog);
  const kept = keptLog();
  if (kept) show(kept);
  if (window.opener) {
    // No data in it, so any opener may hear it; the log comes back addressed to this origin alone.
    window.opener.postMessage({ type: READY }, "*");
  } else if (!kept) {
    status(t("Nothing to import yet: click the bookmarklet on a Board Game Arena replay or review page."));
  }
  document.body.dataset.ready = "true";
}

start();
