"""The tables a user sits at, as the home page lists them (``GET /api/me/tables``): those waiting for the user
first, longest waiting first, then the others, most recently moved first, then those whose game is over."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from engine import CHANCE
from service.store.errors import NotFoundError
from service.store.seats import Seat
from service.web.auth import can_read
from service.web.context import api
from service.web.seating import waiting_since


def table_url(gid: str, bid: str) -> str:
    """The page of branch ``bid`` (the replay UI's), where its players sit."""
    return f"/games/{quote(gid)}/b/{quote(bid)}"


def my_tables(user: str) -> list[dict[str, Any]]:
    """Every table ``user`` sits at (owns with seats assigned, or holds a seat of by invite) that they may still read,
    in the order the home page shows them."""
    rows = [row for gid, bid in api().stores.seats.tables_of(user) if (row := _table_row(gid, bid, user)) is not None]
    return sorted(rows, key=_table_order)


def _table_order(row: dict[str, Any]) -> tuple[int, float]:
    """Waiting for the user first (the longest wait first), then the games going on (the latest move first), then
    those over."""
    since = row["waiting_since"] or 0.0
    if row["your_turn"]:
        return 0, since
    return (2, 0.0) if row["over"] else (1, -since)


def _table_row(gid: str, bid: str, user: str) -> dict[str, Any] | None:
    """One table as listed, or None when it is gone or the user may no longer read it."""
    context = api()
    try:
        record = context.games.game(gid)
        branch = context.games.branch(gid, bid)
    except NotFoundError:
        return None
    if not can_read(record, user):
        return None
    seats = context.stores.seats.seats(gid, bid, len(record.setup.players))
    position = context.stores.reader.position(gid, bid)
    actor = position.rules.current_actor(position.state)
    seat: Seat | None = seats[actor] if isinstance(actor, int) and actor != CHANCE and 0 <= actor < len(seats) else None
    to_move = None if seat is None else {"seat": seat.seat, "player": record.setup.players[seat.seat],
                                         "holder": seat.describe(branch.owner)}
    return {
        "game": gid, "branch": bid, "title": record.title, "rules": record.game, "url": table_url(gid, bid),
        "your_turn": seat is not None and seat.held_by(user, branch.owner),
        "waiting_since": waiting_since(branch, gid, position.seq) if seat is not None else None,
        "to_move": to_move, "over": actor is None, "seq": position.seq,
        "your_seats": [s.seat for s in seats if s.held_by(user, branch.owner)],
    }
