// An upload's import as people read it: the progress line while it runs, then the summary, the error and the
// report. The report opens with counts (moves imported; lines inferred, refused, skipped), then lists the
// lines a person should look at (refused, inferred); the many silent or merely used lines are
// folded away behind their count. Shared by the home page's upload form and the BGA import tab.

import { api } from "./api.js";
import { el } from "./dom.js";

/** The states of an upload still on its way. */
const PENDING = ["queued", "running", "started", "pending"];
const POLL_MS = 400;

/** Follow upload `uid` until it is no longer on its way, showing its progress in the `status` line and the
 *  `progress` bar (full when done); the upload's last answer. */
export async function followUpload(uid, status, progress) {
  progress.hidden = false;
  for (;;) {
    const body = await api(`/api/uploads/${encodeURIComponent(uid)}`);
    const done = body.progress ? body.progress.done : 0, total = body.progress ? body.progress.total : 0;
    progress.max = Math.max(1, total);
    progress.value = done;
    status.textContent = importProgressLine(body.status, done, total);
    if (!PENDING.includes(body.status)) {
      if (body.status === "done") progress.value = progress.max;
      return body;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function reportLine(entry) {
  if (typeof entry === "string") return el("li", { text: entry });
  const parts = [entry.move_id !== undefined && entry.move_id !== null ? `move ${entry.move_id}` : null,
                 entry.line || entry.text || entry.type, entry.action ? `→ ${entry.action}` : null, entry.reason].filter(Boolean);
  return el("li", { class: entry.status || "", text: parts.join(" · ") });
}

function reportList(rows, className) {
  return el("ul", { class: `report ${className}` }, rows.map(reportLine));
}

function countOf(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// Moves are the players' decisions; chance draws (cards, dice) are events too but no one's move: said apart. The log
// entries are the progress line's ("447 of 447 log entries read"), each counted once as used, skipped or refused, so
// that they add up to it; an inferred move is an event no entry states, not an entry.
function summaryLine(summary) {
  const draws = summary.draws ? ` and ${countOf(summary.draws, "chance draw", "chance draws")}` : "";
  const from = summary.entries !== undefined ? ` from ${countOf(summary.entries, "log entry", "log entries")}` : "";
  return el("p", { id: "upload-summary", class: "report-summary" },
    el("strong", { text: `${countOf(summary.moves, "move", "moves")}${draws} imported${from}` }),
    `: ${summary.used} used`,
    ` · ${summary.skipped} skipped (silent or housekeeping)`,
    ` · ${summary.refused} refused`,
    ` · ${countOf(summary.inferred, "move", "moves")} inferred (not in the log)`);
}

function foldedReport(rows, label, className) {
  if (!rows.length) return null;
  return el("details", { class: `report-fold ${className}` }, el("summary", { text: `${rows.length} ${label}` }),
            reportList(rows, className));
}

export function reportSections(body) {
  const rows = body.report || [];
  const of = (status) => rows.filter((r) => r.status === status);
  const refused = of("refused"), inferred = of("inferred");
  return [
    body.summary && !body.linked ? summaryLine(body.summary) : null, // linked: nothing was imported to count
    refused.length ? el("h3", { text: "Refused lines" }) : null,
    refused.length ? reportList(refused, "report-refused") : null,
    inferred.length ? el("h3", { text: "Inferred lines" }) : null,
    inferred.length ? reportList(inferred, "report-inferred") : null,
    foldedReport(of("skipped"), "silent or skipped lines", "report-skipped"),
    foldedReport(of("used"), "lines used as they stand", "report-used"),
  ];
}

export function uploadSummary(body) {
  const kind = body.kind === "log-only" ? "log only: browse and annotate, no forks" : "full rules replay";
  return [body.game_name, kind, body.incomplete ? "incomplete (partial)" : null, body.linked ? "already here: linked to it" : null]
    .filter(Boolean).join(" · ");
}

export function uploadError(error) {
  const where = [error.move_id !== undefined ? `move ${error.move_id}` : null, error.line, error.rule].filter(Boolean);
  return `${error.message || error.code}${where.length ? ` (${where.join(" · ")})` : ""}`;
}

// The progress counts the log's entries read (not moves: the summary counts those), and only while it is known.
export function importProgressLine(state, done, total) {
  return total ? `Import ${state}: ${done} of ${countOf(total, "log entry", "log entries")} read` : `Import ${state}`;
}

