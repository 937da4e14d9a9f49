// An upload's import as people read it: the progress line while it runs, then the summary, the error and the
// report. The report opens with counts (moves imported; lines inferred, refused, skipped), then lists the
// lines a person should look at (refused, inferred); the many silent or merely used lines are
// folded away behind their count. Shared by the home page's upload form and the BGA import tab.

import { api, errorText } from "./api.js";
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";

/** The states of an upload still on its way. */
const PENDING = ["queued", "running", "started", "pending"];
const POLL_MS = 400;
/** An upload's state (the API's `status`) in words. */
const STATES = { queued: t("queued"), running: t("running"), started: t("started"), pending: t("pending"), done: t("done"),
                 failed: t("failed") };

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
  const parts = [entry.move_id !== undefined && entry.move_id !== null ? t("move %(n)s", { n: entry.move_id }) : null,
                 entry.line || entry.text || entry.type, entry.action ? `→ ${entry.action}` : null, entry.reason].filter(Boolean);
  return el("li", { class: entry.status || "", text: parts.join(" · ") });
}

function reportList(rows, className) {
  return el("ul", { class: `report ${className}` }, rows.map(reportLine));
}

// Moves are the players' decisions; chance draws (cards, dice) are events too but no one's move: said apart. The log
// entries are the progress line's ("447 of 447 log entries read"), each counted once as used, skipped or refused, so
// that they add up to it; an inferred move is an event no entry states, not an entry.
function summaryLine(summary) {
  const moves = tn("%(num)d move", "%(num)d moves", summary.moves);
  const draws = summary.draws ? tn("%(num)d chance draw", "%(num)d chance draws", summary.draws) : null;
  const entries = summary.entries !== undefined ? tn("%(num)d log entry", "%(num)d log entries", summary.entries) : null;
  const imported = draws && entries ? t("%(moves)s and %(draws)s imported from %(entries)s", { moves, draws, entries })
    : draws ? t("%(moves)s and %(draws)s imported", { moves, draws })
    : entries ? t("%(moves)s imported from %(entries)s", { moves, entries })
    : t("%(moves)s imported", { moves });
  return el("p", { id: "upload-summary", class: "report-summary" },
    el("strong", { text: imported }),
    t(": %(used)s used · %(skipped)s skipped (silent or housekeeping) · %(refused)s refused · %(inferred)s inferred (not in the log)",
      { used: summary.used, skipped: summary.skipped, refused: summary.refused,
        inferred: tn("%(num)d move", "%(num)d moves", summary.inferred) }));
}

function foldedReport(rows, label, className) {
  if (!rows.length) return null;
  return el("details", { class: `report-fold ${className}` }, el("summary", { text: label }), reportList(rows, className));
}

export function reportSections(body) {
  const rows = body.report || [];
  const of = (status) => rows.filter((r) => r.status === status);
  const refused = of("refused"), inferred = of("inferred");
  return [
    body.summary && !body.linked ? summaryLine(body.summary) : null, // linked: nothing was imported to count
    refused.length ? el("h3", { text: t("Refused lines") }) : null,
    refused.length ? reportList(refused, "report-refused") : null,
    inferred.length ? el("h3", { text: t("Inferred lines") }) : null,
    inferred.length ? reportList(inferred, "report-inferred") : null,
    foldedReport(of("skipped"), t("%(count)s silent or skipped lines", { count: of("skipped").length }), "report-skipped"),
    foldedReport(of("used"), t("%(count)s lines used as they stand", { count: of("used").length }), "report-used"),
  ];
}

export function uploadSummary(body) {
  const kind = body.kind === "log-only" ? t("log only: browse and annotate, no forks") : t("full rules replay");
  return [body.game_name, kind, body.incomplete ? t("incomplete (partial)") : null, body.linked ? t("already here: linked to it") : null]
    .filter(Boolean).join(" · ");
}

export function uploadError(error) {
  const where = [error.move_id !== undefined ? t("move %(n)s", { n: error.move_id }) : null, error.line, error.rule].filter(Boolean);
  const said = errorText(422, error.code, error.message || error.code, error.details);
  return where.length ? t("%(error)s (%(where)s)", { error: said, where: where.join(" · ") }) : said;
}

// The progress counts the log's entries read (not moves: the summary counts those), and only while it is known.
export function importProgressLine(state, done, total) {
  const words = STATES[state] || state;
  return total ? t("Import %(state)s: %(done)s of %(total)s read", { state: words, done, total: tn("%(num)d log entry", "%(num)d log entries", total) })
    : t("Import %(state)s", { state: words });
}

