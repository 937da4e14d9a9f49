// Following a branch live: the stream route's Server-Sent Events. EventSource reconnects by itself after the
// stream's retry hint and sends the last id it saw (Last-Event-ID), from which the server resumes with no gap and
// no duplicate; the query's last_event_id is only the first connection's starting point. Events that come together
// (a move and the chance drawn after it) are handed over as one batch.

import { t } from "./i18n.js";

const EVENT_TYPES = ["game_created", "action_taken", "chance_drawn"];
const BATCH_MS = 60;
/** After a refused stream the page waits this long, doubled at each refusal in a row up to the most, then a random
 *  share of it more, before it opens the stream again. */
const REOPEN_FIRST_MS = 2000;
const REOPEN_MOST_MS = 60000;

/** Open a live stream at `url()` with `listeners` ({ eventType: handler }), and open it again when the server refused
 *  it. EventSource reconnects by itself after a stream that ended (at the server's jittered retry hint), but gives up
 *  for good on an answer that is not a stream: a 429 when this address holds too many streams, a 503 while the store
 *  is loading. Then a new one is opened after a growing, jittered pause, so that pages refused together do not all
 *  come back in the same instant. Returns a handle: close() it. */
export function openStream(url, listeners) {
  let source = null;
  let closed = false;
  let refusals = 0;
  let timer = null;
  const open = () => {
    source = new EventSource(url(), { withCredentials: true });
    source.addEventListener("open", () => { refusals = 0; });
    source.addEventListener("error", () => {
      if (closed || source.readyState !== EventSource.CLOSED) return;  // reconnecting by itself
      const pause = Math.min(REOPEN_MOST_MS, REOPEN_FIRST_MS * 2 ** refusals);
      refusals += 1;
      timer = setTimeout(open, pause + Math.random() * pause);
    });
    for (const [type, handler] of Object.entries(listeners)) source.addEventListener(type, handler);
  };
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source.close();
    },
  };
}

/** Follow `branchApi`'s stream as `view` from seq `after`: `onEvents(events)` with each batch of new events (as the
 *  events route gives them), `onEnd()` when the server says the line is over, `onViewWithdrawn(views)` when seats
 *  changed so that `view` is no longer the reader's (`views`: those they may have now, null for every view), `onOpen()`
 *  each time the stream is open (the server accepted the view). Returns
 *  its handle (close() it). */
export function followBranch(branchApi, { view, after, onEvents, onEnd = () => {}, onViewWithdrawn = () => {},
                                          onOpen = () => {} }) {
  let last = after;  // a stream opened again after a refusal resumes after the last event seen
  const url = () => `${branchApi}/stream?view=${encodeURIComponent(view)}&last_event_id=${last}`;
  let pending = [];
  let timer = null;
  const flush = () => {
    timer = null;
    const batch = pending;
    pending = [];
    if (batch.length) onEvents(batch);
  };
  const take = (message) => {
    pending.push(JSON.parse(message.data));
    if (message.lastEventId) last = message.lastEventId;
    if (timer === null) timer = setTimeout(flush, BATCH_MS);
  };
  const listeners = Object.fromEntries(EVENT_TYPES.map((type) => [type, take]));
  const ended = () => { stream.close(); flush(); onEnd(); };
  // "view": the stream ended because its view was withdrawn; reconnecting in it would be refused (a 403), so the
  // stream is closed here and the page opens another in a view it may have.
  const withdrawn = (message) => { stream.close(); flush(); onViewWithdrawn(JSON.parse(message.data).views); };
  // "deleted": the branch went while the stream was open (the seats stream tells the page why): stop following it
  const stream = openStream(url, { ...listeners, open: onOpen, end: ended, view: withdrawn,
                                   deleted: () => stream.close() });
  return stream;
}

/** Whose turn it is at the head, in words: "your turn" when the viewer's seat is to act (`view` is a seat number for
 *  now), else the player's name; null when nobody (chance, or the game is over). */
export function turnText(actor, players, view) {
  if (typeof actor !== "number") return null;
  return String(actor) === String(view) ? t("Your turn") : t("%(player)s's turn", { player: players[actor] });
}

/** The tab title with whose turn it is in front (the page's own title kept once, on first use). */
export function showTurnInTitle(text) {
  if (!document.documentElement.dataset.baseTitle) document.documentElement.dataset.baseTitle = document.title;
  const base = document.documentElement.dataset.baseTitle;
  document.title = text ? `${text} · ${base}` : base;
}
