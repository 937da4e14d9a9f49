"""Branches: their events, the state and legal actions at any seq, playing on, forking."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from engine import CHANCE, Event
from engine.core.visibility import events_as_seen
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body, load_query
from service.api.schemas import (
    ActionResultSchema,
    ActionSchema,
    AtQuery,
    EventsPageSchema,
    EventsQuery,
    ForkCreatedSchema,
    ForkSchema,
    LegalSchema,
    StateQuery,
    StateSchema,
)
from service.api.takeback_requests import resume_closed_line
from service.games.seating import refuse_copy_of_table
from service.i18n.games import move_text
from service.store.errors import ConflictError
from service.store.games import GameRecord
from service.web.auth import mover_check, readable_game, require_user
from service.web.context import api
from service.web.game_language import request_language
from service.web.viewing import branch_view, viewer_for_request

bp = Blueprint("branches", __name__, url_prefix="/api/games/<gid>/branches")

#: Games imported from a log without rules behind them: browsable and annotatable only.
IDEMPOTENCY_HEADER = "Idempotency-Key"
_IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._:~-]{1,128}")


def _refuse_log_only(record: GameRecord, what: str) -> None:
    if record.is_log_only:
        raise ApiError(422, "log_only", f"log-only games cannot be {what}", game=record.id)


@bp.get("/<bid>/events")
@documented("A branch's events after a seq (its parent's up to the fork point, then its own)", response=EventsPageSchema,
            query=EventsQuery, errors=(400, 404))
def list_events(gid: str, bid: str) -> ResponseReturnValue:
    """At most ``limit`` events with seq > ``after`` as ``view`` may see them, and the branch head."""
    record = readable_game(gid)
    query = load_query(EventsQuery)
    view = branch_view(record, [bid], query["view"])
    games = api().games
    branches = games.branches(gid)
    head = games.head(gid, bid)
    events = games.events(gid, bid, after=query["after"], limit=query["limit"], branches=branches)
    return jsonify({"events": events_json(record, bid, view, events, query["after"]), "head": head})


def events_json(record: GameRecord, bid: str, view: str, events: list[Event], after: int) -> list[dict[str, Any]]:
    """``events`` (seqs after ``after`` on branch ``bid``) as ``view`` may see them: the events route's and the live
    stream's one serializer."""
    if view == "full" or not events or record.is_log_only:  # a log-only game's events hold its public lines only
        return [e.to_json() for e in events]
    viewer = viewer_for_request(record, view)
    position = api().stores.reader.position(record.id, bid, max(1, after))
    return events_as_seen(position.rules, position.state, events, viewer)


@bp.get("/<bid>/state")
@documented("The state after any seq (default the head), in full or as a seat or spectator sees it", response=StateSchema,
            query=StateQuery, errors=(400, 404, 422),
            description="view=full (default) is the complete state (rules.dump_state): live games are played hot-seat by "
                        "their owner, so nothing is secret between users. view=spectator or view=<seat> hide what that "
                        "viewer may not see (rules.view), so that a decision can be studied with what its player knew.")
def show_state(gid: str, bid: str) -> ResponseReturnValue:
    """``{"seq", "head", "actor", "state", "outcome"}``."""
    record = readable_game(gid)
    query = load_query(StateQuery)
    viewer = viewer_for_request(record, branch_view(record, [bid], query["view"]))
    position = api().stores.reader.position(gid, bid, query.get("at"))
    rules, state = position.rules, position.state
    outcome = rules.outcome(state)
    return jsonify({
        "seq": position.seq, "head": position.head, "actor": rules.current_actor(state),
        "state": viewer.state(state), "outcome": outcome.to_json() if outcome is not None else None,
    })


@bp.get("/<bid>/legal")
@documented("The legal actions at a seq, each with its sentence (none when chance is to act or the game is over)",
            response=LegalSchema, query=AtQuery, errors=(400, 404, 422),
            description="With view=spectator or another seat than the one to act, the list is empty: a seat's choices "
                        "show what it holds (the cards it could build with, the bonus cards it looks through).")
def legal_actions(gid: str, bid: str) -> ResponseReturnValue:
    """``{"seq", "actor", "actions": [{"action", "text"}]}``."""
    record = readable_game(gid)
    query = load_query(AtQuery)
    viewer = viewer_for_request(record, branch_view(record, [bid], query["view"]))
    position = api().stores.reader.position(gid, bid, query.get("at"))
    rules, state = position.rules, position.state
    actor = rules.current_actor(state)
    hidden = not viewer.full and actor != viewer.seat
    language = request_language()
    actions = [] if actor is None or actor == CHANCE or hidden else [
        {"action": rules.format_action(a), "text": move_text(rules, state, a, language)} for a in rules.legal_actions(state)
    ]
    return jsonify({"seq": position.seq, "actor": actor, "actions": actions})


def _idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` (None without one), else a 400 that names the header and does not echo it
    (the server joins repeated headers into one value, which the pattern refuses)."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(400, "invalid", f"{IDEMPOTENCY_HEADER} header: expected 1 to 128 letters, digits or . _ : ~ -",
                       header=IDEMPOTENCY_HEADER)
    return key


@bp.post("/<bid>/actions")
@documented("Play: append the action of the seat to move (by its holder) after expected_seq, and the chance events "
            "the server draws after it",
            response=ActionResultSchema, status=201, body=ActionSchema, errors=(400, 403, 404, 409, 413, 422), auth="required",
            headers=((IDEMPOTENCY_HEADER, "a key is the caller's own on the branch: a retry by the same user with the same "
                                          "key and body returns the first answer (as a new one would be: the caller must "
                                          "still hold the seat, and sees the events in their own view) and stores nothing "
                                          "more, even when copies race or the head has moved on since; the same key from "
                                          "anyone else is a new request"),),
            description="409 when expected_seq is not the head (details.head says where it is); 422 when the rules refuse "
                        "the action (the message names the rule and the seq), or idempotency_key_reused when the caller's "
                        "Idempotency-Key was used for another action or expected_seq. A refused request appends nothing. "
                        "The events answered are in the caller's view of the branch (their seat's at a table).")
def play_action(gid: str, bid: str) -> ResponseReturnValue:
    """201 ``{"seq": new head, "events": [...]}``, the events as the caller may see them."""
    user = require_user()
    record = readable_game(gid)
    may_move = mover_check(record, bid, user)
    _refuse_log_only(record, "played on")
    key = _idempotency_key()
    body = load_body(ActionSchema)
    view = branch_view(record, [bid], request.args.get("view", "full"))
    try:
        events = api().play.play(gid, bid, body["action"], body["expected_seq"], author=user, idempotency_key=key,
                                 may_move=may_move)
    except ConflictError as refused:
        raise resume_closed_line(record, bid, refused) from None
    return jsonify({"seq": events[-1].seq, "events": events_json(record, bid, view, events, events[0].seq - 1)}), 201


@bp.post("")
@documented("Fork: a new branch (the caller's) from any seq of a branch", response=ForkCreatedSchema, status=201,
            body=ForkSchema, errors=(400, 404, 409, 413, 422), auth="required",
            description="Anyone who can read the game may fork it. If chance is due at the fork point, the new branch "
                        "draws it from its own seed, so a fork can explore other dice (chance: redraw, the default); with "
                        "chance: keep it replays the parent line's later chance outcomes in order wherever they are still "
                        "possible, falling back to its seed. The seed is random unless the request names one, as a new "
                        "game's may be (a lesson or a test that wants the same draws every time; whoever names it can know the "
                        "draws, so a branch with a named seed or chance: keep seats the engine only, never an invited person: "
                        "a table with people is dealt from a seed the server draws, committed by its SHA-256 in "
                        "GET …/seats and revealed at the end). Log-only games cannot "
                        "be forked (422); a branch played with seats held by others than its owner cannot be forked until "
                        "its game is over (409: the fork, read in full, would show every seat's hidden information).")
def fork_branch(gid: str) -> ResponseReturnValue:
    """201 ``{"branch": id, "seq": head}``."""
    user = require_user()
    record = readable_game(gid)
    _refuse_log_only(record, "forked")
    body = load_body(ForkSchema)
    context = api()
    stores = context.stores
    refuse_copy_of_table(stores.games, stores.seats, stores.reader, gid, body["source"], "forked")
    branch, head = context.play.fork(gid, body["source"], body["at"], owner=user, name=body["name"], chance=body["chance"],
                                        seed=body.get("seed"))
    return jsonify({"branch": branch.id, "seq": head}), 201
