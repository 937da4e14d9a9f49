// fetch() for the JSON API: same-origin cookies, the page's CSRF token on every write, and
// the API's error shape ({"error": {"code", "message", "details"}}) turned into an Error.

const CSRF = document.querySelector('meta[name="csrf-token"]')?.content || "";

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
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
