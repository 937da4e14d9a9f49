// Following a branch live: the stream route's Server-Sent Events. EventSource reconnects by itself after the
// stream's retry hint and sends the last id it saw (Last-Event-ID), from which the server resumes with no gap and
// no duplicate; the query's last_event_id is only the first connection's starting point. Events that come together
// (a move and the chance drawn after it) are handed over as one batch.

const EVENT_TYPES = ["game_created", "action_taken", "chance_drawn"];
const BATCH_MS = 60;

/** Follow `branchApi`'s stream as `view` from seq `after`: `onEvents(events)` with each batch of new events (as the
 *  events route gives them), `onEnd()` when the server says the line is over. Returns the EventSource (close() it). */
export function followBranch(branchApi, { view, after, onEvents, onEnd = () => {} }) {
  const url = `${branchApi}/stream?view=${encodeURIComponent(view)}&last_event_id=${after}`;
  const source = new EventSource(url, { withCredentials: true });
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
    if (timer === null) timer = setTimeout(flush, BATCH_MS);
  };
  for (const type of EVENT_TYPES) source.addEventListener(type, take);
  source.addEventListener("end", () => { source.close(); flush(); onEnd(); });
  return source;
}

/** Whose turn it is at the head, in words: "your turn" when the viewer's seat is to act (`view` is a seat number for
 *  now), else the player's name; null when nobody (chance, or the game is over). */
export function turnText(actor, players, view) {
  if (typeof actor !== "number") return null;
  return String(actor) === String(view) ? "Your turn" : `${players[actor]}'s turn`;
}

/** The tab title with whose turn it is in front (the page's own title kept once, on first use). */
export function showTurnInTitle(text) {
  if (!document.documentElement.dataset.baseTitle) document.documentElement.dataset.baseTitle = document.title;
  const base = document.documentElement.dataset.baseTitle;
  document.title = text ? `${text} · ${base}` : base;
}
