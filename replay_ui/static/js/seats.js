// The seats card of a branch page (issue 33): the owner assigns each seat (me, the engine at a level, an invite
// link) and revokes an invite; everyone sees who holds which seat and how long the seat to move has waited. The card
// follows the branch's seats stream (issue 45): a seat taken or taken back shows at once, and a seated player whose
// seat the owner took back, or whose table the owner deleted, is told so on the page.

import { api } from "./api.js";
import { formatDateTime, formatList, formatNumber, t, tn, tParts } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const LEVELS = { easy: t("easy"), normal: t("normal"), strong: t("strong") };

function ago(seconds) {
  const unit = (value, name, display = "short") => formatNumber(value, { style: "unit", unit: name, unitDisplay: display });
  if (seconds < 90) return unit(Math.max(0, Math.round(seconds)), "second");
  if (seconds < 5400) return unit(Math.round(seconds / 60), "minute");
  if (seconds < 129600) return unit(Math.round(seconds / 3600), "hour");
  return unit(Math.round(seconds / 86400), "day", "long");
}

/** Who holds a seat, in words (the seats JSON's `who` is the API's English): the owner, the engine at its level, an
 *  invite, or a person's name. */
export function holderWords(seat, owner) {
  if (seat.holder === "owner") return t("%(owner)s (the owner)", { owner });
  if (seat.holder === "engine") return t("the engine (%(level)s)", { level: LEVELS[seat.level] || seat.level });
  if (seat.holder === "invited") return t("an invite not yet taken");
  return seat.who;
}

function showWaiting() {
  for (const node of document.querySelectorAll(".waiting-since[data-since]")) {
    const since = Number(node.dataset.since);
    node.textContent = t("for %(time)s", { time: ago(Date.now() / 1000 - since) });  // "waiting for 32 s", never "32 s ago"
    node.title = formatDateTime(since, { dateStyle: "medium", timeStyle: "medium" });
  }
}

async function assign(url, seat, choice) {
  const [holder, level] = choice.split(":");
  const body = level ? { holder, level } : { holder };
  return api(`${url}/${seat}`, { method: "PUT", body });
}

/** Where the invite link just made waits for the page loaded again after its assignment. */
const INVITE_KEY = "ludolog.newInvite";

/** The invite link made before the page was loaded again (if it was made for this branch), shown once. */
function showNewInvite(url, status) {
  const kept = JSON.parse(sessionStorage.getItem(INVITE_KEY) || "null");
  sessionStorage.removeItem(INVITE_KEY);
  if (!kept || kept.url !== url) return;
  $("invite-url").value = kept.link;
  $("invite-link").hidden = false;
  status.textContent = t("Seat %(n)s: send this link to the person you invite (it works once).", { n: kept.seat });
}

export function initSeats(page) {
  const card = $("seats-section");
  if (!card) return;
  showWaiting();
  setInterval(showWaiting, 30000);
  const url = `/api/games/${encodeURIComponent(page.gid)}/branches/${encodeURIComponent(page.bid)}/seats`;
  const status = $("seats-status");
  showNewInvite(url, status);
  for (const button of card.querySelectorAll(".seat-assign")) {
    button.addEventListener("click", async () => {
      const seat = button.dataset.seat;
      const choice = $(`seat-choice-${seat}`).value;
      if (!choice) { status.textContent = t("Seat %(n)s stays with its holder: choose who should take it instead.", { n: seat }); return; }
      try {
        const answer = await assign(url, seat, choice);
        // The page is loaded again after every assignment: the table's rules (the views it allows, the analysis, forks
        // and take-backs it refuses) may have changed with it. An invite's link is shown again once it has.
        if (answer.invite_url) sessionStorage.setItem(INVITE_KEY, JSON.stringify({ url, seat, link: answer.invite_url }));
        location.reload();
      } catch (error) {
        status.textContent = error.message;
      }
    });
  }
  for (const button of card.querySelectorAll(".seat-revoke")) {
    button.addEventListener("click", async () => {
      try { await api(`${url}/${button.dataset.seat}`, { method: "DELETE" }); location.reload(); }
      catch (error) { status.textContent = error.message; }
    });
  }
  $("copy-invite")?.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("invite-url").value); status.textContent = t("Invite link copied."); }
    catch { $("invite-url").select(); status.textContent = t("Select the link and copy it."); }
  });
}

/** After the branch moved on (the live stream, or a move played here): which seat is to move and since when, from
 *  the seats route, so the card never says a seat is waiting that has already moved. */
export async function refreshSeats(page) {
  const card = $("seats-section");
  if (!card) return;
  const url = `/api/games/${encodeURIComponent(page.gid)}/branches/${encodeURIComponent(page.bid)}/seats`;
  let answer;
  try { answer = await api(url); } catch { return; } // the card keeps what it showed; the next move tries again
  for (const seat of answer.seats) {
    const item = card.querySelector(`.seat[data-seat="${seat.seat}"]`);
    const waiting = item && item.querySelector(".seat-waiting");
    if (!waiting) continue;
    const time = waiting.querySelector(".waiting-since");
    waiting.hidden = seat.waiting_since === undefined;
    if (waiting.hidden) { delete time.dataset.since; time.textContent = ""; continue; }
    time.dataset.since = String(seat.waiting_since);
    time.setAttribute("datetime", String(seat.waiting_since));
  }
  showWaiting();
  showSeed(card, answer);
  showTakeBack(page, answer.takeback);
}

/** The deal seed, once the game is over (commit and reveal): the card has shown its SHA-256 from the start. */
function showSeed(card, answer) {
  const reveal = card.querySelector("#seed-commitment .seed-reveal");
  if (!reveal || answer.seed === undefined || reveal.querySelector(".seed")) return;
  const seed = document.createElement("code");
  seed.className = "seed";
  seed.textContent = answer.seed;
  reveal.replaceChildren(t("; revealed: "), seed);
}

/** Follow the branch's seats live (its seats stream) while seats are assigned: the card's holders are kept current,
 *  and the page is told when the viewer's own seat was taken back (`onReleased(text, seats)`), the branch was
 *  deleted (`onDeleted(text)`) or what the engine seat to move does changed (`onEngine(status)`: thinking, failed, or
 *  null). Returns the EventSource, or null when there is no table to follow. */
export function followSeats(page, { onReleased, onDeleted, onEngine = () => {} }) {
  const table = page.table;
  if (!table || !table.assigned) return null;
  const url = `/api/games/${encodeURIComponent(page.gid)}/branches/${encodeURIComponent(page.bid)}/seats/stream`;
  const source = new EventSource(url, { withCredentials: true });
  let mine = table.mine || [];
  source.addEventListener("seats", (message) => {
    const now = JSON.parse(message.data);
    document.body.dataset.seatsFollowed = "true";  // the stream has read the table once: it is followed from here on
    showHolders(now);
    onEngine(now.engine || null);
    showTakeBack(page, now.takeback);
    const lost = mine.filter((seat) => !now.mine.includes(seat));
    mine = now.mine;
    if (lost.length) onReleased(releaseText(now, lost), lost);
  });
  source.addEventListener("engine", (message) => onEngine(JSON.parse(message.data).engine || null));
  source.addEventListener("end", () => { source.close(); onEngine(null); }); // the game is over: nobody sits there
  source.addEventListener("moved", (message) => { source.close(); goToMovedTable(page, JSON.parse(message.data).to); });
  source.addEventListener("deleted", () => {
    source.close();
    onDeleted(t("This branch was deleted by its owner, %(owner)s: there is nothing more to play here", { owner: table.owner }));
  });
  return source;
}

/** What the owner did with the viewer's seats, in words: took them back, gave them to the engine or invited someone
 *  else to them. */
function releaseText(now, lost) {
  const seats = lost.map((seat) => now.seats[seat]);
  const names = seats.map((seat) => seat.name).join(", "), count = lost.length, owner = now.owner;
  const holders = new Set(seats.map((seat) => seat.who));
  const holder = holders.size === 1 ? seats[0].holder : "owner";
  if (holder === "engine") {
    return tn("%(owner)s gave your seat (%(names)s) to %(holder)s: you are watching now",
              "%(owner)s gave your seats (%(names)s) to %(holder)s: you are watching now", count,
              { owner, names, holder: holderWords(seats[0], owner) });
  }
  if (holder === "invited") {
    return tn("%(owner)s invited someone else to your seat (%(names)s): you are watching now",
              "%(owner)s invited someone else to your seats (%(names)s): you are watching now", count, { owner, names });
  }
  return tn("%(owner)s took back your seat (%(names)s): you are watching now",
            "%(owner)s took back your seats (%(names)s): you are watching now", count, { owner, names });
}

function showHolders(now) {
  const card = $("seats-section");
  if (!card) return;
  for (const seat of now.seats) {
    const item = card.querySelector(`.seat[data-seat="${seat.seat}"]`);
    if (!item) continue;
    item.dataset.holder = seat.holder;
    item.querySelector(".seat-holder").textContent = holderWords(seat, now.owner);
    item.querySelector(".seat-you").hidden = !now.mine.includes(seat.seat);
    showChoice(item, seat);
  }
}

/** The owner's menu of a seat names its holder now, so that Assign without a choice never changes who holds it (a
 *  person's seat by invite has its own entry: taking it back is a choice, never the menu's default). */
function showChoice(item, seat) {
  const select = item.querySelector(".seat-choice");
  if (!select) return;
  let held = select.querySelector('option[value=""]');
  if (!["owner", "engine", "invited"].includes(seat.holder)) {
    if (!held) { held = document.createElement("option"); held.value = ""; select.prepend(held); }
    held.textContent = t("%(who)s (holds it)", { who: seat.who });
    select.value = "";
    return;
  }
  if (held) held.remove();
  select.value = seat.holder === "engine" ? `engine:${seat.level}` : seat.holder === "invited" ? "invite" : "me";
}

// ---- take-back requests (issue 46) --------------------------------------------------------------------------------
// A seated player asks to take back their last move; the other people at the table see the request on their pages
// (from the seats stream) with Approve and Decline; the requester sees the outcome. Granted, the table plays on at a
// new line, to which every page at the table goes (the seats stream's `moved`).

/** Every string of the take-back card (one place), in the page's language. */
const TAKEBACK_TEXT = {
  asked: (r) => t("You asked to take back your last move: waiting for %(people)s to answer.",
                  { people: formatList(r.waiting) }),
  asks: (r) => t("%(user)s asks to take back their last move (and what was played after it).", { user: r.requester }),
  approvedWaiting: (r) => t("You approved. Waiting for %(people)s.", { people: formatList(r.waiting) }),
  granting: () => t("The take-back was approved: making the new line…"),
  granted: (r, mine) => (mine ? t("Your take-back was granted: the table plays on at the new line.")
    : t("%(user)s's take-back was granted: the table plays on at the new line.", { user: r.requester })),
  declined: (r, mine) => (mine ? t("%(user)s declined your take-back.", { user: r.answered_by })
    : t("%(user)s declined %(requester)s's take-back.", { user: r.answered_by, requester: r.requester })),
  expired: (r, mine) => (mine ? t("Your take-back request expired: a move was played.")
    : t("%(user)s's take-back request expired: a move was played.", { user: r.requester })),
  failed: (r, mine) => (mine ? t("Your take-back could not be made: the table plays on here.")
    : t("%(user)s's take-back could not be made: the table plays on here.", { user: r.requester })),
  movedTo: (link) => tParts("A take-back closed this line: the table plays on at %(branch)s.", { branch: link }),
  arrived: () => t("The take-back was granted: the table plays on here."),
};
const ARRIVED_KEY = "ludolog.takebackArrived";
let shownTakeBack = null;

function takebackKey(request) {
  return request ? `${request.id}:${request.status}:${request.waiting.join(",")}` : "";
}

function takebackUrl(page) {
  return `/api/games/${encodeURIComponent(page.gid)}/branches/${encodeURIComponent(page.bid)}/takeback-request`;
}

function takebackWords(request, user) {
  const mine = request.requester === user;
  if (request.status === "open") {
    if (mine) return TAKEBACK_TEXT.asked(request);
    return request.approved.includes(user) ? TAKEBACK_TEXT.approvedWaiting(request) : TAKEBACK_TEXT.asks(request);
  }
  return TAKEBACK_TEXT[request.status](request, mine);
}

/** Show the table's take-back request: the question (with Approve and Decline for those it waits for) or its outcome.
 *  `fresh`: an outcome just heard of (an old one is not shown again when the page opens). */
export function showTakeBack(page, request, { fresh = true } = {}) {
  const text = $("takeback-text");
  if (!text || (page.table && page.table.moved_to)) return;
  const seen = takebackKey(request);
  if (seen === shownTakeBack) return;  // told already (every move asks for the seats again)
  shownTakeBack = seen;
  const user = page.user;
  const answers = $("takeback-answers");
  const current = request && (request.status === "open" || request.status === "granting" || fresh) ? request : null;
  answers.hidden = !(current && current.status === "open" && current.waiting.includes(user));
  answers.dataset.request = current ? current.id : "";
  text.textContent = current ? takebackWords(current, user) : "";
  document.body.dataset.takeback = current ? current.status : "";
}

function showMovedTo(page) {
  const text = $("takeback-text");
  const moved = page.table && page.table.moved_to;
  if (!text || !moved) return false;
  const link = document.createElement("a");
  link.href = `/games/${encodeURIComponent(page.gid)}/b/${encodeURIComponent(moved)}`;
  link.textContent = moved;
  text.replaceChildren(...TAKEBACK_TEXT.movedTo(link));
  return true;
}

/** The take-back card: asking, answering, and what the table's request is when the page opens. */
export function initTakeBack(page) {
  if (!$("takeback") || showMovedTo(page)) return;
  if (sessionStorage.getItem(ARRIVED_KEY) === `${page.gid}/${page.bid}`) {
    sessionStorage.removeItem(ARRIVED_KEY);
    $("takeback-text").textContent = TAKEBACK_TEXT.arrived();
    shownTakeBack = takebackKey(page.table.takeback);  // the new line's own request (none yet): said as it changes
  } else {
    showTakeBack(page, page.table.takeback, { fresh: false });
  }
  const url = takebackUrl(page);
  const send = async (path) => {
    try { showTakeBack(page, (await api(path, { method: "POST", body: {} })).request); }
    catch (error) { $("takeback-text").textContent = error.message; }
  };
  $("takeback-ask")?.addEventListener("click", () => send(url));
  $("takeback-approve").addEventListener("click", () => send(`${url}/${$("takeback-answers").dataset.request}/approve`));
  $("takeback-decline").addEventListener("click", () => send(`${url}/${$("takeback-answers").dataset.request}/decline`));
}

/** A granted take-back moved the table: go to the line it plays on at. */
export function goToMovedTable(page, to) {
  sessionStorage.setItem(ARRIVED_KEY, `${page.gid}/${to}`);
  location.assign(`/games/${encodeURIComponent(page.gid)}/b/${encodeURIComponent(to)}`);
}
