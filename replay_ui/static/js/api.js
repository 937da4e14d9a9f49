// fetch() for the JSON API: same-origin cookies, the page's CSRF token on every write, and
// the API's error shape ({"error": {"code", "message", "details"}}) turned into an Error.
//
// The API's `error` codes are stable English identifiers and its `message`s English sentences with the facts (they are
// written where the error is raised, in the engine and the stores); a page in another language says the error from
// its code instead (CODE_MESSAGES). The English message stays on the error as `apiMessage`.

import { locale, t } from "./i18n.js";

const CSRF = document.querySelector('meta[name="csrf-token"]')?.content || "";

/** The languages a log may be said to be in (the API's `log_language` error, engine/bga/language.py), by tag. */
const LANGUAGE_NAMES = {
  en: t("English"), de: t("German"), hu: t("Hungarian"), fr: t("French"), es: t("Spanish"), it: t("Italian"),
  pt: t("Portuguese"), nl: t("Dutch"), pl: t("Polish"), ja: t("Japanese"), ko: t("Korean"), ru: t("Russian"),
  zh: t("Chinese"),
};

/** What a page says for each of the API's error codes, in the page's language (a function of the error's details where
 *  the words need them). */
const CODE_MESSAGES = {
  bad_notation: t("That move is written in a way the game cannot read."),
  illegal_action: t("The rules do not allow that move now."),
  unknown_game: t("This server does not know that game."),
  bad_setup: t("The game's setup is not valid: check the players and the settings."),
  rules_error: t("The rules refuse this."),
  not_found: t("Not found: it may have been deleted, or it is not shown to you."),
  conflict: t("This conflicts with what is there already: reload the page and try again."),
  seats_held: t("People sit at this table: it cannot be deleted while they play."),
  gone: t("This is gone: the invite was used or revoked."),
  bad_request: t("The request is not valid."),
  invalid: t("The request is not valid."),
  forbidden: t("This is not yours to see or change."),
  csrf: t("The page is out of date: reload it and try again."),
  unauthorized: t("Sign in first."),
  hidden_while_played: t("This table is being played: its hidden information is shown when the game is over."),
  analysis_refused_while_played: t("This table is being played: it can be analysed when the game is over."),
  analysis_quota_used: t("Your hour's share of analysis is used up: try again later."),
  too_much_work: t("That asks for more work than one request may."),
  private_game: t("A private game needs an account: sign in first."),
  nothing_to_take_back: t("There is no move of yours to take back."),
  draws_foreseeable: t("A seed may only be named when every other seat is the engine's."),
  log_only: t("A log-only game cannot do this: no rules engine can continue it."),
  not_log_only: t("This game is not a log-only game."),
  too_large: t("That is too large for this server."),
  bad_json: t("That is not readable JSON."),
  unknown_envelope: t("That file is no log this site can read."),
  bad_log: t("That log cannot be read or breaks the game's rules."),
  // One literal, however long: the catalog's extraction and the English scan read a message whole.
  log_language: (details) => t("This log seems to be in %(language)s: ludolog reads Board Game Arena's log text in English only. Upload the game's archive JSON from Board Game Arena, or send the game with the bookmarklet (see the help page on BGA logs): both carry BGA's log templates, which are the same in every language.",
    { language: LANGUAGE_NAMES[details.language] || details.language_name || details.language }),
  idempotency_key_reused: t("This request was already sent with other content."),
  unavailable: t("The server cannot reach its store just now: try again shortly."),
  too_many_requests: t("Too many requests: try again in a moment."),
  internal_error: t("Something went wrong on the server."),
};

/** An error as a page says it: the API's English `message` to an English reader, else the words for its `code`. */
export function errorText(status, code, message, details = {}) {
  if (locale === "en" && message) return message;
  const said = CODE_MESSAGES[code];
  if (typeof said === "function") return said(details || {});
  return said || t("The request failed (%(status)s).", { status });
}

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(errorText(status, code, message, details));
    this.apiMessage = message;
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

async function errorFrom(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON: fall through */ }
  const error = body && body.error ? body.error : {};
  return new ApiError(response.status, error.code || String(response.status),
                      error.message || `${response.status} ${response.statusText}`, error.details);
}

/** JSON from `url`; `body` (an object) is sent as JSON, a FormData or string as is. */
export async function api(url, { method = "GET", body, headers = {} } = {}) {
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json", ...headers } };
  if (method !== "GET" && method !== "HEAD") init.headers["X-CSRF-Token"] = CSRF;
  if (body !== undefined) {
    if (body instanceof FormData || typeof body === "string") init.body = body;
    else { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
  }
  const response = await fetch(url, init);
  if (!response.ok) throw await errorFrom(response);
  return response.status === 204 ? null : response.json();
}

/** A query string from an object, leaving out empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, value);
  }
  const text = search.toString();
  return text ? "?" + text : "";
}
