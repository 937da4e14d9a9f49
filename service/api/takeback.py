"""Taking back on a fork, and deleting a leaf fork: an owner's second thoughts about their own line.

Nothing is deleted by a take-back. ``POST …/branches/<bid>/takeback`` forks a new line from the owner's branch
just before the last ``decisions`` decisions of its own (the line as it was is kept, and the tree shows the
two continuations side by side, as lichess shows a variation). The new line keeps the draws
(``chance="keep"``): playing the same move again gives the same dice, as an undo would. Only the branch's
own decisions (after its fork point; all of them on a live game's main line) can be taken back. A branch played
with seats held by others than its owner (issue 33) cannot be taken back until its game is over: a take-back is
the owner's undo of their own line, and there it would undo other people's moves.

``DELETE …/branches/<bid>`` removes a branch of the caller's that nobody forked from; main never goes. A table
others sit at is not deleted under them (issue 45): while a person other than the owner holds a seat and the game is
not over, the answer is 409 ``seats_held``, naming who sits where; the owner takes the seats back first (which tells
the seated players at once, on the branch's seats stream) or the game ends. A deletion tells the pages that follow
the branch's seats that it is gone. The check and the deletion let no seat in between: the branch is first marked
closing (``SeatStore.close``, which answers who sits there at that moment); an invite redeemed or a seat given while
it is closing is refused (409 ``branch_closing``), and after it is gone (410 ``branch_deleted``). A deletion refused
after the mark (409 for a branch with forks) lifts it and leaves the seats as they were.
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body
from service.api.schemas import Strict, StrictInt
from service.games.seating import refuse_copy_of_table
from service.jobs import analysis_queue, cancel_branch_analysis
from service.store.games import GameRecord
from service.store.seats import Seat
from service.web.auth import owned_branch, readable_game, require_user
from service.web.context import api
from service.web.seating import still_played

bp = Blueprint("takeback", __name__, url_prefix="/api/games/<gid>/branches")

#: A take-back goes back at most this many decisions at once.
MAX_TAKE_BACK = 200


class TakeBackSchema(Strict):
    """``POST …/takeback``: how many of the branch's last decisions to take back."""

    decisions = StrictInt(load_default=1, validate=validate.Range(min=1, max=MAX_TAKE_BACK),
                          metadata={"description": "the last n decisions of the branch's own (default 1)"})


class TakenBackSchema(Schema):
    """The line forked just before the taken-back decisions."""

    branch = fields.String(required=True, metadata={"description": "the new line, the caller's to play on"})
    seq = fields.Integer(required=True, metadata={"description": "its head: the position before the first decision taken back"})
    source = fields.String(required=True, data_key="from", metadata={"description": "the branch taken back (kept as it was)"})


def _refuse_log_only(record: GameRecord) -> None:
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games have no decisions to take back", game=record.id)


@bp.post("/<bid>/takeback")
@documented("Take back the last decision(s) of your branch: a new line forked just before them (nothing is deleted)",
            response=TakenBackSchema, status=201, body=TakeBackSchema, errors=(400, 401, 403, 404, 409, 422), auth="required",
            description="409 while the branch is played with seats held by others than its owner (a take-back there "
                        "would undo their moves and copy their hidden information into a line of the owner's): "
                        "take-backs are the owner's alone, on a line nobody else plays, or after its game is over.")
def take_back(gid: str, bid: str) -> ResponseReturnValue:
    """201 ``{"branch", "seq", "from"}``."""
    user = require_user()
    record = readable_game(gid)
    _refuse_log_only(record)
    branch = owned_branch(gid, bid, user)
    stores = api().stores
    refuse_copy_of_table(stores.games, stores.seats, stores.reader, gid, bid, "taken back")
    count = load_body(TakeBackSchema)["decisions"]
    games = api().games
    own = [e for e in games.events(gid, bid, after=branch.fork_seq) if isinstance(e.actor, int) and not isinstance(e.actor, bool)]
    if len(own) < count:
        raise ApiError(422, "nothing_to_take_back",
                       f"branch {bid!r} has {len(own)} decision(s) of its own after its fork point {branch.fork_seq}: "
                       f"cannot take back {count}", game=gid, branch=bid, decisions=len(own))
    at = own[-count].seq - 1
    name = f"{branch.name} (take-back at {at})"[:80]
    new, head = api().play.fork(gid, bid, at, owner=user, name=name, chance="keep")
    return jsonify({"branch": new.id, "seq": head, "from": bid}), 201


@bp.delete("/<bid>")
@documented("Delete a branch of yours that nobody forked from (main cannot be deleted)", response=None, status=204,
            errors=(400, 401, 403, 404, 409), auth="required",
            description="409 when other branches fork from it, and 409 seats_held while people other than you hold "
                        "seats of it and its game is not over (take their seats back first: they are told at once). "
                        "Atomic against seats being taken: an invite redeemed or a seat given while the deletion runs "
                        "is refused (409 branch_closing), after it 410 branch_deleted.")
def delete_branch(gid: str, bid: str) -> ResponseReturnValue:
    """204; 409 when other branches fork from it or others sit at it, 400 for main. Its analysis goes with it: results
    and queued jobs; its chat and take-back request too."""
    user = require_user()
    record = readable_game(gid)
    owned_branch(gid, bid, user)
    context = api()
    seats = context.stores.seats
    seated = seats.close(gid, bid)  # from here on, nobody takes a seat of it until it is gone or reopened
    try:
        _refuse_while_seated(record, bid, seated)
        context.games.delete_branch(gid, bid)
    except BaseException:
        seats.reopen(gid, bid)
        raise
    seats.delete_branch(gid, bid, owner=user)
    context.stores.chat.delete_branch(gid, bid)
    context.stores.takebacks.delete_branch(gid, bid)
    cancel_branch_analysis(analysis_queue(context.stores), gid, bid)
    return "", 204


def _refuse_while_seated(record: GameRecord, bid: str, seated: list[Seat]) -> None:
    """409 while people other than the owner sit at the branch (``seated``) and its game is not over, saying who and
    what allows the deletion."""
    seated = still_played(record, bid, seated)
    if not seated:
        return
    who = ", ".join(f"{s.user} at seat {s.seat} ({record.setup.players[s.seat]})" for s in seated)
    raise ApiError(409, "seats_held",
                   f"branch {bid!r} cannot be deleted while others sit at it ({who}): take their seats back first "
                   f"(they are told at once), or delete it once the game is over",
                   game=record.id, branch=bid, seated=[{"seat": s.seat, "user": s.user} for s in seated])
