// The seats card of a branch page (issue 33): the owner assigns each seat (me, the engine at a level, an invite
// link) and revokes an invite; everyone sees who holds which seat and how long the seat to move has waited.

import { api } from "./api.js";

const $ = (id) => document.getElementById(id);

function ago(seconds) {
  if (seconds < 90) return `${Math.max(0, Math.round(seconds))} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}

function showWaiting() {
  for (const node of document.querySelectorAll(".waiting-since[data-since]")) {
    const since = Number(node.dataset.since);
    node.textContent = `${ago(Date.now() / 1000 - since)} ago`;
    node.title = new Date(since * 1000).toLocaleString();
  }
}

async function assign(url, seat, choice) {
  const [holder, level] = choice.split(":");
  const body = level ? { holder, level } : { holder };
  return api(`${url}/${seat}`, { method: "PUT", body });
}

export function initSeats(page) {
  const card = $("seats-section");
  if (!card) return;
  showWaiting();
  setInterval(showWaiting, 30000);
  const url = `/api/games/${encodeURIComponent(page.gid)}/branches/${encodeURIComponent(page.bid)}/seats`;
  const status = $("seats-status");
  for (const button of card.querySelectorAll(".seat-assign")) {
    button.addEventListener("click", async () => {
      const seat = button.dataset.seat;
      try {
        const answer = await assign(url, seat, $(`seat-choice-${seat}`).value);
        if (answer.invite_url) {
          $("invite-url").value = answer.invite_url;
          $("invite-link").hidden = false;
          status.textContent = `Seat ${seat}: send this link to the person you invite (it works once).`;
        } else {
          location.reload();
        }
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
    try { await navigator.clipboard.writeText($("invite-url").value); status.textContent = "Invite link copied."; }
    catch { $("invite-url").select(); status.textContent = "Select the link and copy it."; }
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
}
