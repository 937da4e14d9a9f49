// Which senders the BGA import tab listens to: the origin patterns of LUDOLOG_BGA_ORIGINS
// (service/runtime/config.py checks their shape when the server starts).

// One pattern: the origin itself, or "scheme://*.domain" for any subdomain of domain (the same scheme and port,
// one label or more before the domain; never the bare domain, which is listed on its own).
function matches(origin, pattern) {
  if (origin === pattern) return true;
  const star = /^(https?):\/\/\*\.([^:/]+)(:\d+)?$/.exec(pattern);
  if (!star) return false;
  let url;
  try { url = new URL(origin); } catch { return false; }
  return url.origin === origin && url.protocol === `${star[1]}:` && (url.port ? `:${url.port}` : "") === (star[3] || "")
    && url.hostname.endsWith(`.${star[2]}`);
}

/** True when `origin` (a MessageEvent's) is one that `patterns` accept. */
export function originAllowed(origin, patterns) {
  return patterns.some((pattern) => matches(origin, pattern));
}
