"""The tables a user sits at, as the home page lists them (``GET /api/me/tables``): those being played, waiting for
the user first (longest waiting first), then the others (most recently moved first); and apart, the finished ones, the
latest first, a few at a time.

What a call reads is the user's own tables: their index of tables being played (``SeatStore.tables_of``), each read
whole, and the first few of their finished tables (``SeatStore.finished_tables_of``). A table leaves the first for the
second when its game ends (:class:`service.games.seating.TableMoves`, after the last move); one found over in the first
(ended before that listener existed) is moved when it is listed."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import quote

from engine import CHANCE
from service.store.errors import NotFoundError
from service.store.games import Branch, GameRecord
from service.store.seats import Seat
from service.web.auth import can_read
from service.web.context import api
from service.web.seating import waiting_since


def table_url(gid: str, bid: str) -> str:
    """The page of branch ``bid`` (the replay UI's), where its players sit."""
    return f"/games/{quote(gid)}/b/{quote(bid)}"


#: Finished tables listed at first (the home page asks for more on "more").
FINISHED_SHOWN = 10


def my_tables(user: str, finished: int = FINISHED_SHOWN) -> dict[str, Any]:
    """``{"tables", "finished", "finished_total"}``: the tables ``user`` sits at and may still read, those being played
    in the order the home page shows them, then the ``finished`` whose games ended last (the latest first) and how many
    finished tables they have in all. A table being played is read whole (its position says whose turn it is); a
    finished one without its position (nobody is to move there), so the few listed cost little beside them."""
    seats = api().stores.seats
    playing = []
    for gid, bid in seats.tables_of(user):
        row = _table_row(gid, bid, user)
        if row is not None and row["over"]:
            seats.table_over(gid, bid, owner=row.pop("owner"), when=row["ended"] or time.time())
        elif row is not None:
            playing.append(row)
    recent, total = seats.finished_tables_of(user, finished)
    ended = [row for gid, bid, when in recent if (row := _finished_row(gid, bid, user, when)) is not None]
    return {"tables": [_shown(row) for row in sorted(playing, key=_table_order)], "finished": [_shown(row) for row in ended],
            "finished_total": total}


def _shown(row: dict[str, Any]) -> dict[str, Any]:
    """A table's row as listed (without what only the listing needed)."""
    return {name: value for name, value in row.items() if name != "owner"}


def _table_order(row: dict[str, Any]) -> tuple[int, float]:
    """Waiting for the user first (the longest wait first), then the others (the latest move first)."""
    since = row["waiting_since"] or 0.0
    return (0, since) if row["your_turn"] else (1, -since)


def _readable(gid: str, bid: str, user: str) -> tuple[GameRecord, Branch, list[Seat]] | None:
    """The table's game, branch and seats, or None when it is gone or the user may no longer read it."""
    context = api()
    try:
        record = context.games.game(gid)
        branch = context.games.branch(gid, bid)
    except NotFoundError:
        return None
    if not can_read(record, user):
        return None
    return record, branch, context.stores.seats.seats(gid, bid, len(record.setup.players))


def _row(record: GameRecord, branch: Branch, seats: list[Seat], user: str, **state: Any) -> dict[str, Any]:
    """A table's row: what it is and the user's seats at it, with ``state`` (seq, to_move, your_turn, waiting_since,
    over, ended)."""
    return {"game": record.id, "branch": branch.id, "title": record.title, "rules": record.game,
            "url": table_url(record.id, branch.id), **state,
            "your_seats": [s.seat for s in seats if s.held_by(user, branch.owner)], "owner": branch.owner}


def _table_row(gid: str, bid: str, user: str) -> dict[str, Any] | None:
    """One table among those played, as listed (whose turn it is, from its position), or None (gone, unreadable)."""
    found = _readable(gid, bid, user)
    if found is None:
        return None
    record, branch, seats = found
    position = api().stores.reader.position(gid, bid)
    actor = position.rules.current_actor(position.state)
    seat: Seat | None = seats[actor] if isinstance(actor, int) and actor != CHANCE and 0 <= actor < len(seats) else None
    to_move = None if seat is None else {"seat": seat.seat, "player": record.setup.players[seat.seat],
                                         "holder": seat.describe(branch.owner)}
    last = waiting_since(branch, gid, position.seq) if seat is not None or actor is None else None
    return _row(record, branch, seats, user, your_turn=seat is not None and seat.held_by(user, branch.owner),
                waiting_since=last if seat is not None else None, ended=last if actor is None else None,
                to_move=to_move, over=actor is None, seq=position.seq)


def _finished_row(gid: str, bid: str, user: str, ended: float) -> dict[str, Any] | None:
    """One finished table as listed (``ended``: when, as its index keeps it), read without its position."""
    found = _readable(gid, bid, user)
    if found is None:
        return None
    return _row(*found, user, your_turn=False, waiting_since=None, ended=ended, to_move=None, over=True,
                seq=api().games.head(gid, bid))
