"""Take-back requests at a table (issue 46 item 6): "take back my last move" where other people play.

At a table (a branch with seats) a take-back is not its owner's undo: it would undo other people's moves. So a seated
player asks (``POST …/branches/<bid>/takeback-request``) and the other people at the table (the seats' holders and
the owner, if the owner holds a seat) approve or decline it (``POST …/takeback-request/<id>/approve`` or ``/decline``);
the engine always agrees, so a table whose other seats are all the engine's grants it at once. One request is open per
table at a time; another move played expires it. The pages at the table see it live (the seats stream sends the seats
again, with the request, at every change of it) and the requester sees the outcome.

Granted, the take-back runs as ``POST …/takeback`` does (a new line forked just before the requester's last decision,
keeping the line's draws), but for the whole table: the new line is seated as the table was (:meth:`SeatStore.
carry_table`, before it is made), owned by the table's owner, with the table's chat, and the old line is closed to moves by the transaction
that grants the request (``append.lua`` refuses them: :mod:`service.store.takebacks`), so a move racing the last
approval either lands first (and the request expires) or is refused. The pages at the old line are sent to the new
one.

A grant outlives the process granting it: the new line's id is fixed when the request becomes ``granting`` and every
step is idempotent, so a request left ``granting`` past :data:`service.store.takebacks.GRANT_LEASE_S` (its granter
died) is finished by whoever next touches it: a GET of the request, an answer to it, a move refused on its closed line, or
the seats stream of a page at the table (which finishes it once it has seen it granting past the lease, so that a
table whose people only watch moves on by itself).
"""

from __future__ import annotations

import time

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from service.api.docs import documented
from service.api.errors import ApiError
from service.store.errors import ConflictError, StoreError
from service.store.games import Branch, GameRecord, closed_by_takeback
from service.store.seats import OWNER, USER, Seat
from service.store.takebacks import GRANTED, GRANTING, TakeBackRequest, new_request
from service.web.auth import readable_game, require_user
from service.web.context import api

bp = Blueprint("takeback_requests", __name__, url_prefix="/api/games/<gid>/branches/<bid>/takeback-request")

#: What the routes say when they refuse (one place).
NO_TABLE = ("branch {bid!r} has no seats assigned: its owner takes a move back with POST …/takeback; a request is for "
            "a table")
NOT_SEATED = "only a player seated at the table may ask to take a move back"
GAME_OVER = "the game of branch {bid!r} is over: nothing is played there any more to take back"
NOTHING = "you have made no move on branch {bid!r} since it was forked: nothing of yours to take back"


class TakeBackRequestSchema(Schema):
    """A take-back request and where it stands."""

    id = fields.String(required=True)
    requester = fields.String(required=True)
    head = fields.Integer(required=True, metadata={"description": "the head when asked: a move played expires it"})
    at = fields.Integer(required=True, metadata={"description": "the new line forks after this seq"})
    waiting = fields.List(fields.String(), required=True, metadata={"description": "who must still approve"})
    approved = fields.List(fields.String(), required=True)
    status = fields.String(required=True, metadata={"description": "open, granting, granted, declined, expired or "
                                                                   "failed"})
    answered_by = fields.String(allow_none=True, metadata={"description": "who declined it, or gave the last approval"})
    branch = fields.String(allow_none=True, metadata={"description": "once granted: the line the table plays on at "
                                                                     "(fixed, not yet made, while granting)"})
    asked = fields.Float(required=True, metadata={"description": "when it was asked (Unix time)"})
    granting_since = fields.Float(allow_none=True, metadata={"description": "when its last approval came (Unix time)"})


class TableRequestSchema(Schema):
    """The table's take-back request (none: null)."""

    request = fields.Nested(TakeBackRequestSchema, allow_none=True, required=True)


def request_json(request: TakeBackRequest | None) -> dict[str, object]:
    """``{"request": …}`` as the routes answer it."""
    return {"request": request.to_json() if request is not None else None}


@bp.get("")
@documented("The table's take-back request: open, or the last one's outcome", response=TableRequestSchema,
            errors=(404,), tag="seats")
def show_request(gid: str, bid: str) -> ResponseReturnValue:
    """``{"request": {...} | null}``; an open request made before the last move shows as expired."""
    record = readable_game(gid)
    return jsonify(request_json(_current_resumed(record, api().games.branch(gid, bid))))


@bp.post("")
@documented("Ask the other people at the table to let you take back your last move", response=TableRequestSchema,
            status=201, errors=(401, 403, 404, 409, 422), auth="required", tag="seats",
            description="Takes back your last decision on the branch and everything played after it. Granted at once "
                        "when every other seat is the engine's; else open until each other person at the table "
                        "approves (granted: the table plays on at a new line, its request's branch) or one declines, "
                        "and expired by the next move. 409 request_open while another request is open, 409 without "
                        "seats or once the game is over, 403 for someone not seated, 422 with no move of yours to "
                        "take back.")
def ask(gid: str, bid: str) -> ResponseReturnValue:
    """201 with the request (granted already when nobody else must agree)."""
    user = require_user()
    record = readable_game(gid)
    branch = api().games.branch(gid, bid)
    seats = _table_seats(record, bid)
    mine = [s.seat for s in seats if s.held_by(user, branch.owner)]
    if not mine:
        raise ApiError(403, "not_seated", NOT_SEATED, game=gid, branch=bid)
    head, at = _last_decision_of(record, branch, mine)
    request = api().stores.takebacks.ask(gid, bid, new_request(user, head, at, _others_at_table(seats, branch, user)))
    return jsonify(request_json(_grant_if_due(record, branch, request, user))), 201


@bp.post("/<rid>/approve")
@documented("Approve a take-back request at your table", response=TableRequestSchema, errors=(401, 403, 404, 409),
            auth="required", tag="seats",
            description="The last approval grants it: the table plays on at the new line (the answer's branch). 409 "
                        "once the request is no longer open (a move was played, declined, granted).")
def approve(gid: str, bid: str, rid: str) -> ResponseReturnValue:
    """200 with the request as it stands after the approval."""
    return _answer(gid, bid, rid, approve=True)


@bp.post("/<rid>/decline")
@documented("Decline a take-back request at your table", response=TableRequestSchema, errors=(401, 403, 404, 409),
            auth="required", tag="seats")
def decline(gid: str, bid: str, rid: str) -> ResponseReturnValue:
    """200 with the declined request."""
    return _answer(gid, bid, rid, approve=False)


def _answer(gid: str, bid: str, rid: str, *, approve: bool) -> ResponseReturnValue:
    user = require_user()
    record = readable_game(gid)
    branch = api().games.branch(gid, bid)
    _current_resumed(record, branch)  # a stuck grant first: the answer then finds it granted
    answered = api().stores.takebacks.answer(gid, bid, rid[:64], user, approve=approve)
    return jsonify(request_json(_grant_if_due(record, branch, answered, user)))


def _table_seats(record: GameRecord, bid: str) -> list[Seat]:
    stores = api().stores
    if record.is_log_only or not stores.seats.has_assignments(record.id, bid):
        raise ApiError(409, "no_table", NO_TABLE.format(bid=bid), game=record.id, branch=bid)
    return stores.seats.seats(record.id, bid, len(record.setup.players))


def _last_decision_of(record: GameRecord, branch: Branch, mine: list[int]) -> tuple[int, int]:
    """The branch's head, and the seq just before the last decision of a seat in ``mine`` on the branch's own line."""
    stores = api().stores
    position = stores.reader.position(record.id, branch.id)
    if position.rules.current_actor(position.state) is None:
        raise ApiError(409, "game_over", GAME_OVER.format(bid=branch.id), game=record.id, branch=branch.id)
    own = [e for e in api().games.events(record.id, branch.id, after=branch.fork_seq) if e.actor in mine]
    if not own:
        raise ApiError(422, "nothing_to_take_back", NOTHING.format(bid=branch.id), game=record.id, branch=branch.id)
    return position.seq, own[-1].seq - 1


def _others_at_table(seats: list[Seat], branch: Branch, user: str) -> list[str]:
    """The people at the table but ``user``: the seats' holders, and the owner where the owner holds a seat."""
    people = {s.user for s in seats if s.holder == USER and s.user} | (
        {branch.owner} if branch.owner and any(s.holder == OWNER for s in seats) else set())
    return sorted(people - {user})


def _grant_if_due(record: GameRecord, branch: Branch, request: TakeBackRequest, user: str) -> TakeBackRequest:
    """Run the take-back of a request this caller's answer (or ask) made ``granting`` (the table moves to a new line),
    or the rest of one whose granter is presumed dead."""
    if request.status == GRANTING and request.answered_by in (None, user):
        return _grant(record, branch, request)
    return _resume_if_stuck(record, branch, request)


def _resume_if_stuck(record: GameRecord, branch: Branch, request: TakeBackRequest) -> TakeBackRequest:
    """A request left ``granting`` past the lease (its granter died: a SIGKILL, a deploy): this caller runs the rest."""
    if request.branch is None or not request.stuck(time.time()):
        return request
    return _grant(record, branch, request)


def resume_closed_line(record: GameRecord, bid: str, refused: ConflictError) -> ConflictError:
    """A move refused on a line a take-back closed while its new line was still being made: resume that take-back if
    its granter is presumed dead, and the refusal names the line the table went to once there is one."""
    if refused.details.get("reason") != "taken_back" or refused.details.get("moved_to"):
        return refused
    done = _current_resumed(record, api().games.branch(record.id, bid))
    return closed_by_takeback(bid, done.branch) if done and done.status == GRANTED and done.branch else refused


def resume_stuck_grant(record: GameRecord, bid: str) -> TakeBackRequest | None:
    """The table's request as it stands, its grant finished first if its granter is presumed dead: what the seats stream
    does for the pages that only watch a table (:class:`service.api.seats.SeatsFeed`)."""
    return _current_resumed(record, api().games.branch(record.id, bid))


def _current_resumed(record: GameRecord, branch: Branch) -> TakeBackRequest | None:
    """The table's request as it stands, its grant finished first if its granter is presumed dead."""
    request = api().stores.takebacks.current(record.id, branch.id, api().games.head(record.id, branch.id))
    return None if request is None else _resume_if_stuck(record, branch, request)


def _grant(record: GameRecord, branch: Branch, request: TakeBackRequest) -> TakeBackRequest:
    """The take-back, every step idempotent (run again by whoever resumes it, or by two at once): seat the new line
    (whose id the request fixed when granting began), make it, carry the chat, move the table, settle the request."""
    stores, new = api().stores, str(request.branch)
    stores.seats.carry_table(record.id, branch.id, new)
    try:
        _fork_line(record, branch, request, new)
    except StoreError:
        stores.seats.delete_branch(record.id, new)
        stores.takebacks.settle(record.id, branch.id, request.id, branch=None)
        raise
    stores.chat.carry(record.id, branch.id, new)
    stores.seats.table_moved_on(record.id, branch.id, new, branch.owner)
    return stores.takebacks.settle(record.id, branch.id, request.id, branch=new)


def _fork_line(record: GameRecord, branch: Branch, request: TakeBackRequest, new: str) -> None:
    """Make line ``new``, unless this request made it already (the same parent and fork point). The fork point is just
    before a decision, so no chance is due there: the fork is made whole by its one write."""
    try:
        api().play.fork(record.id, branch.id, request.at, owner=branch.owner, chance="keep", bid=new,
                        name=f"{branch.name} (take-back at {request.at})"[:80])
    except ConflictError:
        made = api().games.branch(record.id, new)
        if (made.parent, made.fork_seq) != (branch.id, request.at):
            raise
