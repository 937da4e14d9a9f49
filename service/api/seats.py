"""Seats of a branch and invites: play a fork with friends or against the engine.

``GET …/branches/<bid>/seats`` lists who holds each seat; the branch's owner assigns one with ``PUT …/seats/<n>``
(``{"holder": "me"}``, ``{"holder": "engine", "level": …}`` or ``{"holder": "invite"}``, which answers an
``invite_url`` whose last segment is the token) and takes it back with ``DELETE …/seats/<n>`` (the same as
``me``; an open invite to the seat is revoked). ``POST /api/invites/<token>`` gives the signed-in caller the
seat the invite names, once. ``GET …/branches/<bid>/seats/stream`` follows the seats live (Server-Sent Events): the
seats as the page shows them on opening and again after every change (a seat taken, handed on or taken back: a
seated player whose seat was taken back learns it at once), and ``deleted`` when the branch is deleted. The store
keeps the books (:mod:`service.store.seats`), the rules of who moves and
what the engine plays are :mod:`service.games.seating`'s.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from service.api import sse
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body
from service.api.schemas import AssignSchema
from service.api.takeback_requests import TakeBackRequestSchema, resume_stuck_grant
from service.jobs import EngineMoveScheduler, engine_queue
from service.store.engine_status import ENGINE_CHANGED, THINKING
from service.store.errors import NotFoundError, StoreError
from service.store.games import Branch, GameRecord
from service.store.live import Batch
from service.store.seats import BRANCH_DELETED, ENGINE, TABLE_MOVED, Seat
from service.store.takebacks import GRANTING
from service.web.auth import current_user, owned_branch, readable_game, require_user
from service.web.context import api
from service.web.seating import engine_json, redeem, seat_json, seats_view, table_for_page

bp = Blueprint("seats", __name__)
log = logging.getLogger(__name__)

_BRANCH = "/api/games/<gid>/branches/<bid>"
#: The invite's page (the replay UI's), whose last path segment is the token.
INVITE_PATH = "/invite/"


class SeatSchema(Schema):
    """Who holds one seat."""

    seat = fields.Integer(required=True)
    holder = fields.String(required=True, metadata={"description": "owner, engine, invited (a link not yet taken) or "
                                                                   "the name of the user who took the invite"})
    level = fields.String(metadata={"description": "the engine's level: easy, normal or strong"})
    waiting_since = fields.Float(metadata={"description": "the seat is to move: since when (Unix time of the last event)"})
    waits_for_quota = fields.Dict(metadata={"description": "an engine seat to move that waits because the table's "
                                                           "owner has used their hour's work quota (engine moves and "
                                                           "analysis share it): reason, message, retry_after (seconds), "
                                                           "until (Unix time)"})
    invite_url = fields.String(metadata={"description": "after PUT holder=invite only: the link to send; its last path "
                                                        "segment is the invite's token"})


class SeatsSchema(Schema):
    """A branch's seats."""

    seats = fields.List(fields.Nested(SeatSchema), required=True)
    live = fields.Boolean(required=True, metadata={"description": "true while a seat is held by someone other than "
                                                                  "the owner, or a person other than the owner has "
                                                                  "held one, and the game is not over: hidden "
                                                                  "information is kept per seat, analysis is refused"})
    engine = fields.Dict(allow_none=True, metadata={
        "description": "what the engine seat to move is doing, or null: {state: thinking|failed, seat, level, seq (the "
                       "head it moves after), elapsed (seconds since it started), about? (its level's mean think time "
                       "here, seconds), reason? (worker_stopped, error), retried?}"})
    seed_sha256 = fields.String(required=True, metadata={"description": "the SHA-256 (hex) of the branch's deal seed, "
                                                                        "shown from the start (commit and reveal)"})
    seed_chosen = fields.Boolean(required=True, metadata={"description": "true when whoever made the branch named its "
                                                                         "seed (then a seat may go to the engine only)"})
    seed = fields.String(metadata={"description": "the deal seed, once the line is over: its SHA-256 is seed_sha256, "
                                                  "and every chance event at seq s is the draw of sha256(seed:s)"})
    takeback = fields.Nested(TakeBackRequestSchema, allow_none=True, required=True,
                             metadata={"description": "the table's take-back request: open, or the last one's outcome "
                                                      "(…/takeback-request)"})
    moved_to = fields.String(metadata={"description": "a granted take-back closed this line: the table plays on there"})


class RedeemedSchema(Schema):
    """The seat an invite gave the caller."""

    game = fields.String(required=True)
    branch = fields.String(required=True)
    seat = fields.Integer(required=True)


def _seat_number(record: GameRecord, text: str) -> int:
    count = len(record.setup.players)
    if not (text.isascii() and text.isdecimal() and len(text) <= 3 and int(text) < count):
        raise ApiError(404, "not_found", f"no seat {text[:20]!r}: this game has seats 0 to {count - 1}",
                       game=record.id, seats=count)
    return int(text)


@bp.get(f"{_BRANCH}/seats")
@documented("Who holds each seat of a branch, and since when the seat to move has waited", response=SeatsSchema,
            errors=(404,), tag="seats")
def list_seats(gid: str, bid: str) -> ResponseReturnValue:
    """``{"seats": [...], "live"}``; a branch with no seat assigned shows every seat as the owner's."""
    record = readable_game(gid)
    return jsonify(seats_view(record, bid))


@bp.put(f"{_BRANCH}/seats/<seat>")
@documented("Assign a seat of your branch: yourself, the engine at a level, or an invite link", response=SeatSchema,
            body=AssignSchema, errors=(400, 403, 404, 422), auth="required", tag="seats",
            description="holder=me takes the seat back (an open invite to it is revoked), holder=engine with level "
                        "easy, normal or strong lets the engine play it (it moves by itself within seconds of its "
                        "turn), holder=invite answers invite_url: a single-use link for the person who is to hold "
                        "the seat (a new invite revokes the seat's previous one). An invite is 422 draws_foreseeable "
                        "on a branch made with a named seed or with chance: keep (its owner could foresee its draws): "
                        "such a branch seats the engine only. Once a person has sat, taking seats back does not give "
                        "the owner their views before the game is over.")
def assign_seat(gid: str, bid: str, seat: str) -> ResponseReturnValue:
    """200 with the seat (and ``invite_url`` for an invite)."""
    user = require_user()
    record = readable_game(gid)
    branch = owned_branch(gid, bid, user)
    number = _seat_number(record, seat)
    body = load_body(AssignSchema)
    _refuse_unplayable(record, body["holder"])
    if body["holder"] == "invite":
        _refuse_foreseeable_draws(branch)
    return jsonify(_assign(record, bid, number, body["holder"], body.get("level"), user))


@bp.delete(f"{_BRANCH}/seats/<seat>")
@documented("Take a seat of your branch back (the same as PUT holder=me: an open invite to it is revoked)",
            response=SeatSchema, errors=(403, 404, 422), auth="required", tag="seats")
def take_seat_back(gid: str, bid: str, seat: str) -> ResponseReturnValue:
    """200 with the seat, now the owner's."""
    user = require_user()
    record = readable_game(gid)
    owned_branch(gid, bid, user)
    number = _seat_number(record, seat)
    _refuse_unplayable(record, "me")
    return jsonify(_assign(record, bid, number, "me", None, user))


def _refuse_unplayable(record: GameRecord, holder: str) -> None:
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games cannot be played on: they have no seats to assign", game=record.id)
    if holder == "invite" and record.visibility == "private":
        raise ApiError(422, "private_game", "a private game can be read by its owner only: make it unlisted or public "
                                            "before inviting someone to a seat", game=record.id)


def _refuse_foreseeable_draws(branch: Branch) -> None:
    """422 for an invite to a branch whose draws its owner can foresee: a seed they named, or a fork that keeps its
    parent line's draws (which anyone who reads the parent knows). Such a branch is played against the engine only;
    a table with people at it is dealt from a seed the server draws and keeps secret until the end."""
    why = ("its seed was named when it was made" if branch.seed_chosen else
           "it keeps its parent line's draws (chance: keep)" if branch.chance == "keep" else None)
    if why is not None:
        raise ApiError(422, "draws_foreseeable",
                       f"branch {branch.id!r} cannot seat a person: {why}, so its owner can foresee its draws; give its "
                       f"seats to the engine, or fork it without a seed and with chance: redraw to play with people",
                       branch=branch.id, seed_chosen=branch.seed_chosen, chance=branch.chance)


def _assign(record: GameRecord, bid: str, number: int, holder: str, level: str | None, owner: str) -> dict[str, Any]:
    seats = api().stores.seats
    if holder == "invite":
        invited, token = seats.invite(record.id, bid, number, owner=owner)
        return seat_json(invited) | {"invite_url": invite_url(token)}
    seat = Seat(number, ENGINE, level=level) if holder == "engine" else Seat(number)
    assigned = seats.assign(record.id, bid, seat, owner=owner)
    if holder == "engine":  # the engine may be to move already
        EngineMoveScheduler(api().stores, engine_queue(api().stores))(record.id, bid)
    return seat_json(assigned)


def invite_url(token: str) -> str:
    """The link an invite is sent as: the invite page of this server, the token its last path segment."""
    return request.host_url.rstrip("/") + INVITE_PATH + token


@bp.post("/api/invites/<token>")
@documented("Take the seat an invite link offers (signed in; once: a used or revoked invite is 410)",
            response=RedeemedSchema, errors=(401, 403, 404, 409, 410), auth="required", tag="seats",
            description="404 for a token no invite has (mistyped or forged), 410 for one already used or revoked, "
                        "409 for the branch's owner (who holds its seats already), 409 branch_closing while its owner "
                        "deletes the branch, 410 branch_deleted once it is deleted.")
def redeem_invite(token: str) -> ResponseReturnValue:
    """200 ``{"game", "branch", "seat"}``."""
    return jsonify(redeem(token, require_user()))


@bp.get(f"{_BRANCH}/seats/stream")
@sse.documented_stream("Follow a branch's seats live: who holds each, again after every change, and the branch's "
                       "deletion", tag="seats",
                       description="Server-Sent Events: 'event: seats' on opening and after every change of a seat "
                                   "(taken, handed on, taken back), data as the branch page shows its seats: {seats: "
                                   "[{seat, holder, name, who, waiting_since?}], mine (the caller's seats), owner, live, "
                                   "assigned, analysis_refused, takeback, engine, levels}, again at each change of the "
                                   "table's take-back request; 'event: engine' with data {engine, head} when only what "
                                   "the engine seat's move does changed (it starts thinking, its move is stored, it "
                                   "failed; also after a quiet spell when its search stopped renewing its lease); "
                                   "'event: moved' with data {branch, to} when a granted take-back moved the table to "
                                   "line 'to', and 'event: deleted' with data {branch} when the branch is deleted, and "
                                   "the stream ends. A page that reconnects gets the seats as they are now: "
                                   "nothing to resume. A line that is over (or a log-only game) gets its seats and one "
                                   "'end' message, and the stream closes.")
def stream_seats(gid: str, bid: str) -> ResponseReturnValue:
    """``text/event-stream`` of the branch's seats."""
    record = readable_game(gid)
    api().games.branch(gid, bid)  # 404 for a branch that is not (or no longer) there
    hub = api().stores.live
    return sse.open_stream(hub, hub.seat_changes_stream(gid), SeatsFeed(record, bid, current_user()), notices=True)


@dataclass
class SeatsFeed:
    """The seats of one branch as one reader's page shows them: on opening, then after each change of them, until
    the branch goes (:class:`service.api.sse.Feed`)."""

    record: GameRecord
    bid: str
    user: str | None
    about: str = field(init=False)
    #: The engine's status this stream said last (None: nothing), so that a quiet spell says only what changed.
    engine_said: dict[str, Any] | None = field(init=False, default=None)
    #: Whether the seats said last showed a take-back being granted: until it is done, the stream finishes it if its
    #: granter died (:meth:`_resume_grant`).
    granting: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.about = f"following the seats of {self.record.id}/{self.bid}"

    def opening(self) -> tuple[str, bool]:
        """The seats now (a page that reconnects is current at once); then ``end`` when the line is over (nobody plays
        there any more: no stream stays open for it, as the branch's own stream)."""
        if self.record.is_log_only:
            return sse.message("end", {"branch": self.bid}), False
        text, more = self._seats()
        if more and self._over():
            return text + sse.message("end", {"branch": self.bid}), False
        self._resume_grant()
        return text, more

    def step(self, batches: list[Batch], lagged: bool) -> tuple[str, bool]:
        """The seats again after a change of this branch's (or notices dropped), ``deleted`` when it is gone; after a
        change of the engine's status alone, that status (``engine``: no need to read the seats again)."""
        notices = [n for batch in batches for n in batch.notices if n.get("branch") == self.bid]
        changes = {n.get("change", "") for n in notices}
        if BRANCH_DELETED in changes:
            return sse.message("deleted", {"branch": self.bid}), False
        moved = [n.get("to", "") for n in notices if n.get("change") == TABLE_MOVED]
        if moved:  # a granted take-back: the table plays on at another line, which the page goes to
            return sse.message("moved", {"branch": self.bid, "to": moved[-1]}), False
        if changes == {ENGINE_CHANGED} and not lagged:
            return self._engine(), True
        text, more = self._seats() if changes or lagged else ("", True)
        if more:
            self._resume_grant()
        return text, more

    def quiet(self) -> str:
        """After a quiet spell: a take-back whose granter died is finished (the table's pages are then moved to its new
        line); the engine's status again if time alone changed it (a search whose lease lapsed, its process gone
        without a word, is said to have stopped), then the keep-alive."""
        self._resume_grant()
        if self.engine_said is None or self.engine_said.get("state") != THINKING:
            return sse.KEEP_ALIVE
        return self._engine(only_if_changed=True) + sse.KEEP_ALIVE

    def _engine(self, *, only_if_changed: bool = False) -> str:
        """``event: engine`` with what the engine seat's move after the head is doing (null: nothing)."""
        head = api().stores.games.head(self.record.id, self.bid)
        engine = engine_json(self.record, self.bid, head)
        same = engine is not None and self.engine_said is not None and all(
            engine.get(k) == self.engine_said.get(k) for k in ("state", "seq", "reason"))
        if only_if_changed and same:
            return ""
        self.engine_said = engine
        return sse.message("engine", {"engine": engine, "head": head})

    def _resume_grant(self) -> None:
        """A take-back this stream showed being granted, left granting past its lease (its granter died), is finished
        here (idempotent, as every resumer's: :mod:`service.api.takeback_requests`); its notices then move every
        page at the table to the new line."""
        if not self.granting:
            return
        try:
            request = resume_stuck_grant(self.record, self.bid)
        except NotFoundError:
            raise
        except StoreError as exc:  # the take-back failed (and is settled so): its notice sends the seats again
            log.warning("seats stream: the take-back of %s/%s could not be finished: %s", self.record.id, self.bid, exc)
            return
        self.granting = request is not None and request.status == GRANTING

    def _over(self) -> bool:
        position = api().stores.reader.position(self.record.id, self.bid)
        return position.rules.current_actor(position.state) is None

    def _seats(self) -> tuple[str, bool]:
        try:
            shown = table_for_page(self.record, self.bid, self.user)
        except NotFoundError:  # deleted between the notice and this read
            return sse.message("deleted", {"branch": self.bid}), False
        self.engine_said = shown.get("engine")
        self.granting = (shown.get("takeback") or {}).get("status") == GRANTING
        return sse.message("seats", shown), True
