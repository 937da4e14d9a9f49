"""Your tables: ``GET /api/me/tables`` lists the tables the caller sits at, those waiting for them first (and apart,
the finished ones, the latest first, ``finished`` of them at a time), and
``GET /api/me/tables/stream`` tells the home page when one of them changed (a move, a seat, a deletion), so that it
reads the list again."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api import sse
from service.api.docs import documented
from service.api.inputs import load_query
from service.api.schemas import Strict
from service.store.live import Batch
from service.web.auth import require_user
from service.web.context import api
from service.web.tables import FINISHED_SHOWN, my_tables

bp = Blueprint("tables", __name__, url_prefix="/api/me/tables")


class ToMoveSchema(Schema):
    """Whose turn it is at a table."""

    seat = fields.Integer(required=True)
    player = fields.String(required=True, metadata={"description": "the seat's player name in the game"})
    holder = fields.String(required=True, metadata={"description": "who holds the seat, in words"})


class TableSchema(Schema):
    """A table the caller sits at."""

    game = fields.String(required=True, metadata={"description": "the game's id"})
    branch = fields.String(required=True)
    title = fields.String(required=True)
    rules = fields.String(required=True, metadata={"description": "the game's rules name (puerto_rico …)"})
    url = fields.String(required=True, metadata={"description": "the table's page"})
    your_turn = fields.Boolean(required=True, metadata={"description": "the seat to move is the caller's"})
    waiting_since = fields.Float(required=True, allow_none=True, metadata={
        "description": "since when the seat to move has waited (Unix time); null when the game is over"})
    ended = fields.Float(required=True, allow_none=True, metadata={
        "description": "when its game ended (Unix time of its last event); null while it is played"})
    to_move = fields.Nested(ToMoveSchema, required=True, allow_none=True, metadata={"description": "null when over"})
    over = fields.Boolean(required=True)
    seq = fields.Integer(required=True, metadata={"description": "the table's head"})
    your_seats = fields.List(fields.Integer(), required=True)


class TablesSchema(Schema):
    """``GET /api/me/tables``."""

    tables = fields.List(fields.Nested(TableSchema), required=True, metadata={
        "description": "the tables being played: waiting for the caller first (the longest wait first), then the "
                       "others (the latest move first)"})
    finished = fields.List(fields.Nested(TableSchema), required=True, metadata={
        "description": "the tables whose game is over, the latest ended first: as many as the query's finished asks"})
    finished_total = fields.Integer(required=True, metadata={"description": "how many finished tables there are in all"})


class TablesQuery(Strict):
    """How many finished tables to list."""

    finished = fields.Integer(load_default=FINISHED_SHOWN, validate=validate.Range(min=0, max=200), metadata={
        "description": f"how many of the finished tables to list, the latest first (default {FINISHED_SHOWN})"})


@bp.get("")
@documented("The tables you sit at: those waiting for you first, with whose turn it is; the finished ones apart",
            response=TablesSchema, query=TablesQuery, errors=(400, 401), auth="required", tag="seats",
            description="A table is a branch with seats assigned that you own, or of which you hold a seat by invite; "
                        "a table you may no longer read (made private, deleted) is left out. A table whose game is over "
                        "is listed under finished (the latest ended first), not among the tables being played.")
def list_my_tables() -> ResponseReturnValue:
    """``{"tables": [...], "finished": [...], "finished_total"}``."""
    user = require_user()
    return jsonify(my_tables(user, load_query(TablesQuery)["finished"]))


@bp.get("/stream")
@sse.documented_stream("Follow your tables live: a notice when one of them changed", errors=(401, 503), tag="seats",
                       description="Server-Sent Events: 'event: tables' with data {\"game\", \"branch\"} when a move is "
                                   "made at a table you sit at, one of its seats changes or it is deleted (or you are "
                                   "seated at a new one); the home page then reads GET /api/me/tables again.")
def stream_my_tables() -> ResponseReturnValue:
    """``text/event-stream`` of notices of the caller's tables that changed."""
    user = require_user()
    hub = api().stores.live
    feed = sse.NoticeFeed("following your tables", _table_notices(user))
    return sse.open_stream(hub, hub.tables_changed_stream(), feed, notices=True)


def _table_notices(user: str) -> Callable[[list[Batch]], str]:
    """One message per changed table ``user`` sat at before the change (as far as this stream knows: the tables the
    page lists) or sits at after it; only the changed tables are looked up, never every table of the user's."""
    seats = api().stores.seats
    known = set(seats.tables_of(user)) | {(gid, bid) for gid, bid, _ in seats.finished_tables_of(user, FINISHED_SHOWN)[0]}

    def render(batches: list[Batch]) -> str:
        changed = list(dict.fromkeys((n["gid"], n["bid"]) for batch in batches for n in batch.notices))
        mine = []
        for table in changed:
            sits = seats.sits_at(user, *table)
            if sits or table in known:
                mine.append(table)
            if sits:
                known.add(table)
            else:
                known.discard(table)
        return "".join(sse.message("tables", {"game": gid, "branch": bid}) for gid, bid in mine)
    return render
