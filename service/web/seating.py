"""Seats per request: the seats of a branch as the API and the branch page show them, and taking an invite.

The API (``service/api/seats.py``) and the invite page (``replay_ui``) share these, as they share the viewer rule
(:mod:`service.web.viewing`), which reads the same seats.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from engine import CHANCE, get_rules
from service.games.seating import LEVELS, ChatRights, chat_rights, engine_budget, is_live_multi_holder, table_hiding
from service.i18n import N_, _
from service.store.games import Branch, GameRecord
from service.store.seats import ENGINE, INVITED, OWNER, USER, Seat
from service.web.context import api


def seat_json(seat: Seat, *, waiting_since: float | None = None) -> dict[str, Any]:
    """A seat as the API shows it (``holder`` is the user's name for a seat taken by invite)."""
    shown: dict[str, Any] = {"seat": seat.seat, "holder": seat.user if seat.holder == USER else seat.holder}
    if seat.level is not None:
        shown["level"] = seat.level
    if waiting_since is not None:
        shown["waiting_since"] = waiting_since
    return shown


def seats_view(record: GameRecord, bid: str) -> dict[str, Any]:
    """The seats of a branch as ``GET …/seats`` answers them (the branch page shows the same)."""
    context = api()
    branch = context.games.branch(record.id, bid)  # 404 for an unknown branch
    seats = context.stores.seats.seats(record.id, bid, len(record.setup.players))
    position = context.stores.reader.position(record.id, bid)
    actor = position.rules.current_actor(position.state)
    waiting = waiting_since(branch, record.id, position.seq) if isinstance(actor, int) and actor != CHANCE else None
    shown = [seat_json(s, waiting_since=waiting if s.seat == actor else None) for s in seats]
    to_move = seats[actor] if isinstance(actor, int) and 0 <= actor < len(seats) else None
    if to_move is not None and to_move.holder == ENGINE:
        wait = context.stores.seats.engine_quota_wait(record.id, bid)
        if wait is not None:
            shown[actor]["waits_for_quota"] = quota_wait_json(wait)
    live = is_live_multi_holder(seats, actor is None, context.stores.seats.others_held(record.id, bid))
    engine = engine_json(record, bid, position.seq) if to_move is not None and to_move.holder == ENGINE else None
    return ({"seats": shown, "live": live, "engine": engine} | seed_commitment(branch, over=actor is None)
            | _take_backs(record.id, bid, position.seq))


def engine_json(record: GameRecord, bid: str, head: int, now: float | None = None) -> dict[str, Any] | None:
    """What the engine seat's move after ``head`` is doing, as the pages say it (issue 46 item 4), or None (nothing
    said of the move after ``head``: not started, or a status of an earlier move): ``state`` thinking (``elapsed``
    seconds so far, ``about``: its level's mean think time here, when measured) or failed (``reason``
    worker_stopped or error, ``retried``)."""
    status = api().stores.engine_status
    now = time.time() if now is None else now
    shown = status.shown(record.id, bid, now)
    if shown is None or shown.get("seq") != head:
        return None
    said = {k: shown[k] for k in ("state", "seat", "level", "seq") if k in shown}
    said["elapsed"] = max(0.0, round(now - float(shown["since"]), 1))
    if shown["state"] == "failed":
        return said | {"reason": shown["reason"], "retried": bool(shown["retried"])}
    measured = status.think_time(record.game, str(shown["level"]))
    if measured is not None:
        said["about"] = max(1, round(measured[0]))
    return said


def _take_backs(gid: str, bid: str, head: int) -> dict[str, Any]:
    """The table's take-back request (open, or the last one's outcome), and the line it plays on at if a granted one
    closed this one."""
    takebacks = api().stores.takebacks
    request = takebacks.current(gid, bid, head)
    shown: dict[str, Any] = {"takeback": request.to_json() if request is not None else None}
    moved_to = takebacks.closed_to(gid, bid)
    if moved_to:
        shown["moved_to"] = moved_to
    return shown


def seed_commitment(branch: Branch, *, over: bool) -> dict[str, Any]:
    """The branch's deal seed committed to (commit and reveal): its SHA-256 from the start, the seed itself once the
    line is over, so that every player can check that the draws were the seed's; and whether its maker named it."""
    shown: dict[str, Any] = {"seed_sha256": hashlib.sha256(branch.seed.encode()).hexdigest(),
                             "seed_chosen": branch.seed_chosen}
    if over:
        shown["seed"] = branch.seed
    return shown


def quota_wait_json(note: dict[str, Any]) -> dict[str, Any]:
    """Why an engine seat to move waits, as the seats view says it: its owner's work quota is used up until then."""
    retry_after = max(1, math.ceil(float(note["until"]) - time.time()))
    why = (f"this engine's level asks {note['asked']:,} rollouts a move, more than the {note['limit']:,} an hour the "
           "table's owner may use" if note.get("never_fits") else
           f"the table's owner has used their hour's work for engines and analysis ({note['limit']:,} rollouts)")
    return {"reason": "work_quota_used", "retry_after": retry_after, "until": float(note["until"]),
            "message": f"the engine waits: {why}; it moves in about {retry_after} s"}


def waiting_since(branch: Branch, gid: str, head: int) -> float | None:
    """Since when the seat to move has waited: the head event's time, or the branch's making when that is later or
    the head event has none (a fork's head is its parent's event, and a demo game's events carry no time), so that
    right after a fork the seat to move is named as waiting."""
    appended = _last_event_time(gid, branch.id, head)
    times = [t for t in (appended, branch.created or None) if t is not None]
    return max(times) if times else None


def _last_event_time(gid: str, bid: str, head: int) -> float | None:
    """When the head event was appended, if it says."""
    events = api().games.events(gid, bid, after=head - 1, limit=1)
    when = events[0].meta.get("time") if events else None
    return float(when) if isinstance(when, (int, float)) else None


def still_played(record: GameRecord, bid: str, seated: list[Seat]) -> list[Seat]:
    """``seated`` (seats of branch ``bid`` held by people other than its owner) while its game is not over: they play
    there, so it may not be deleted under them; none once it is over."""
    if not seated:
        return []
    position = api().stores.reader.position(record.id, bid)
    return [] if position.rules.current_actor(position.state) is None else seated


#: An engine seat's level in words (the seats' API says ``easy``, ``normal``, ``strong``).
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "strong": N_("strong")}


def holder_words(seat: Seat, owner: str | None) -> str:
    """Who holds ``seat``, in the page's language (:meth:`Seat.describe` is the API's English; seats.js says the
    same with ``holderWords``)."""
    if seat.holder == OWNER:
        return _("%(owner)s (the owner)", owner=owner)
    if seat.holder == ENGINE:
        return _("the engine (%(level)s)", level=_(LEVEL_WORDS.get(seat.level or "", seat.level or "")))
    if seat.holder == INVITED:
        return _("an invite not yet taken")
    return str(seat.user)


def redeem(token: str, user: str) -> dict[str, Any]:
    """Give ``user`` the seat of the invite ``token``: the API's and the invite page's one way."""
    seats = api().stores.seats
    invite = seats.find_invite(token)
    seats.check_usable(invite)  # an invite to a deleted branch says so (410), before the branch is looked for
    branch = api().games.branch(invite.game, invite.branch)
    taken = seats.redeem(token, user, owner=branch.owner)
    return {"game": taken.game, "branch": taken.branch, "seat": taken.seat}


def table_for_page(record: GameRecord, bid: str, user: str | None) -> dict[str, Any]:
    """What the branch page shows of its seats: each seat with its player's name and holder (and, for the seat to
    move, since when it waits: the page keeps that current from its live stream), the seats the caller moves for
    (``mine``), and why analysis is refused, if it is. Whose turn it is in words is the page's turn banner."""
    context = api()
    branch = context.games.branch(record.id, bid)
    shown = seats_view(record, bid)
    held = context.stores.seats.seats(record.id, bid, len(record.setup.players))
    mine = [s.seat for s in held if s.held_by(user, branch.owner)]
    for seat, row in zip(held, shown["seats"], strict=True):
        row["name"] = record.setup.players[seat.seat]
        row["who"] = holder_words(seat, branch.owner)
    stores = context.stores
    assigned = context.stores.seats.has_assignments(record.id, bid)
    return shown | {"mine": mine, "owner": branch.owner, "assigned": assigned, "levels": engine_levels(record),
                    "analysis_refused": table_hiding(stores.games, stores.seats, stores.reader, record.id, bid)}


def engine_levels(record: GameRecord) -> list[dict[str, Any]]:
    """The engine's levels for this game as the seats card explains them: what each plays (the search player or the
    tree search, at how many rollouts a move) and how long a move takes here (``think``: the running mean of its
    measured moves, None before any). Their strength against the game's bots is the game's UI adapter's
    (``engine_strength``: the strength bench's figures)."""
    rules = get_rules(record.game)
    think_times = api().stores.engine_status
    levels = []
    for name, level in LEVELS.items():
        measured = think_times.think_time(record.game, name)
        levels.append({"level": name, "rollouts": engine_budget(rules, name), "search_player": level.search_player,
                       "think": None if measured is None else round(measured[0], 1),
                       "moves": 0 if measured is None else measured[1]})
    return levels


def chat_rights_of(record: GameRecord, bid: str, owner: str | None, user: str | None) -> ChatRights:
    """What ``user`` may do with the chat of branch ``bid`` (owned by ``owner``): the API's and the page's one rule
    (:func:`service.games.seating.chat_rights`) over the branch's seats now."""
    seats = api().stores.seats
    held = seats.seats(record.id, bid, len(record.setup.players))
    return chat_rights(held, owner, user, assigned=seats.has_assignments(record.id, bid),
                       public=record.visibility == "public")
