// The tab the bookmarklet opens. It tells the BGA tab that opened it that it is ready (a message with no data),
// takes the log that tab posts back only from an origin of LUDOLOG_BGA_ORIGINS (any other sender is ignored,
// with a line in the console), keeps it in this tab's sessionStorage (so signing in on the way loses nothing),
// shows what the server reads in it (POST /api/uploads/preview: nothing stored), and on Import uploads it
// through the normal upload path (POST /api/uploads) and follows the import to the game.

import { api } from "./api.js";
import { el, replaceChildren } from "./dom.js";
import { originAllowed } from "./bgaorigins.js";
import { importProgressLine, reportSections, uploadError } from "./uploadreport.js";

const READY = "ludolog-bga-ready";
const LOG = "ludolog-bga-log";
const KEPT = "ludolog-bga-log";
const POLL_MS = 400;
const PENDING = ["queued", "running", "started", "pending"];

const $ = (id) => document.getElementById(id);
const root = $("bga-receive");
const patterns = JSON.parse(root.dataset.origins);
let received = null;

function status(text, isError = false) {
  replaceChildren($("receive-status"), isError ? el("span", { class: "error", text }) : text);
}

function logBlob(kept) {
  const json = kept.log.trimStart().startsWith("{") || kept.log.trimStart().startsWith("[");
  return { blob: new Blob([kept.log], { type: json ? "application/json" : "text/plain" }),
           name: `bga-${kept.table || "log"}.${json ? "json" : "txt"}` };
}

function logForm(kept) {
  const { blob, name } = logBlob(kept);
  const form = new FormData();
  form.append("file", blob, name);
  return form;
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

async function show(kept) {
  received = kept;
  status("Reading the log…");
  try {
    const seen = await api("/api/uploads/preview", { method: "POST", body: logForm(kept) });
    const kind = seen.kind === "rules" ? "full rules: replay, fork and play on" : "log only: browse and annotate";
    $("preview-game").textContent = `${seen.game_label || "a game the log does not name"} (${kind})`;
    $("preview-table").textContent = seen.table_id ?? kept.table ?? "not named in the log";
    $("preview-players").textContent = seen.players.length ? seen.players.join(", ") : "not named in the log";
    $("preview-moves").textContent = String(seen.moves);
    $("receive-preview").hidden = false;
    status(`Received from ${kept.from}. Check it, choose who may see it, then press Import.`);
  } catch (error) {
    $("receive-preview").hidden = true;
    status(`This log cannot be imported: ${uploadError({ message: error.message, ...error.details })}`, true);
  }
}

function onMessage(event) {
  if (!originAllowed(event.origin, patterns)) {
    console.warn(`ludolog: ignored a message from ${event.origin}, which is not one of LUDOLOG_BGA_ORIGINS`);
    return;
  }
  const data = event.data;
  if (!data || data.type !== LOG || typeof data.log !== "string") {
    console.warn(`ludolog: ignored a message from ${event.origin} that holds no log`);
    return;
  }
  window.removeEventListener("message", onMessage);
  const kept = { log: data.log, table: typeof data.table === "string" ? data.table : null, from: event.origin };
  keep(kept);
  show(kept);
}

async function follow(uid) {
  const progress = $("upload-progress");
  progress.hidden = false;
  for (;;) {
    const body = await api(`/api/uploads/${encodeURIComponent(uid)}`);
    const done = body.progress ? body.progress.done : 0, total = body.progress ? body.progress.total : 0;
    progress.max = Math.max(1, total);
    progress.value = done;
    $("upload-status").textContent = importProgressLine(body.status, done, total);
    if (!PENDING.includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function importLog(event) {
  event.preventDefault();
  if (!received) return;
  const form = logForm(received);
  form.append("visibility", $("receive-visibility").value);
  $("receive-import").disabled = true;
  $("upload-status").textContent = "Uploading…";
  $("upload-report").replaceChildren();
  try {
    const accepted = await api("/api/uploads", { method: "POST", body: form });
    const body = await follow(accepted.id);
    if (body.status === "done" && body.game) {
      sessionStorage.removeItem(KEPT);
      window.location.assign(`/games/${encodeURIComponent(body.game)}`);
      return;
    }
    replaceChildren($("upload-report"), body.error ? el("p", { class: "error", text: uploadError(body.error) }) : null,
                    reportSections(body));
  } catch (error) {
    $("upload-status").replaceChildren(el("span", { class: "error", text: error.message }));
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
    status("Nothing to import yet: click the bookmarklet on a Board Game Arena replay or review page.");
  }
  document.body.dataset.ready = "true";
}

start();
