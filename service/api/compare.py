"""Comparing two branches of a game at the same move: both states, both scores, and where they differ.

``GET /api/games/<gid>/compare?a=<bid>&b=<bid>&at=<seq>&view=`` answers with each branch's state at ``at``
(default: the last move both branches have) as ``view`` may see it, through the same seat view as the state
route (:func:`service.web.viewing.viewer_for_request`, :mod:`engine.core.visibility`), the scores so far, and
the paths of the state's JSON where the two differ (``players.2.city.14``). The differences are computed on the
viewed states, so a seat's view never learns a hidden field through the list of differences.

Running scores are presentation, not rules (the engine's ``outcome`` scores only a finished game): the app
factory wires in the UI's score function (:data:`SCORES_EXTENSION`, set when the replay UI is registered); without
it a position's scores are the outcome's when the game is over, else null.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_query
from service.api.schemas import MAX_NUMBER, Strict, _view_field
from service.store.games import GameRecord
from service.web.auth import readable_game
from service.web.context import SCORES_EXTENSION, api
from service.web.viewing import branch_view, viewer_for_request

bp = Blueprint("compare", __name__, url_prefix="/api/games/<gid>")

#: At most this many differing paths are listed (a whole different board is still one answer).
MAX_DIFFERENCES = 2000


class CompareQuery(Strict):
    """Two branches of one game, the move to compare them at, seen by whom."""

    a = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={"description": "one branch"})
    b = fields.String(required=True, validate=validate.Length(min=1, max=200), metadata={"description": "the other branch"})
    at = fields.Integer(validate=validate.Range(min=1, max=MAX_NUMBER),
                        metadata={"description": "the seq both are shown after (default: the last one both have)"})
    view = _view_field()


class CompareSideSchema(Schema):
    """One branch at the compared move."""

    branch = fields.String()
    head = fields.Integer()
    actor = fields.Raw(metadata={"description": "who is to act: a seat, 'chance', or null when the game is over"})
    scores = fields.List(fields.Integer(allow_none=True), allow_none=True)
    state = fields.Dict()


class CompareSchema(Schema):
    """Both branches at one move and the fields where they differ."""

    at = fields.Integer()
    view = fields.String()
    a = fields.Nested(CompareSideSchema)
    b = fields.Nested(CompareSideSchema)
    differences = fields.List(fields.String(), metadata={"description": "paths of the state JSON that differ, e.g. players.2.gold"})
    truncated = fields.Boolean()


def differing_paths(a: Any, b: Any, path: str = "", out: list[str] | None = None) -> list[str]:
    """Every path (dot-joined keys and list indexes) where ``a`` and ``b`` differ, leaves first found first."""
    out = [] if out is None else out
    if a == b or len(out) >= MAX_DIFFERENCES:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            differing_paths(a.get(key), b.get(key), f"{path}.{key}" if path else str(key), out)
    elif isinstance(a, list) and isinstance(b, list):
        for index in range(max(len(a), len(b))):
            differing_paths(a[index] if index < len(a) else None, b[index] if index < len(b) else None,
                            f"{path}.{index}" if path else str(index), out)
    else:
        out.append(path)
    return out


def _scores_of(record: GameRecord, rules: Any, state: Any) -> list[int] | None:
    scores: Callable[[str, Any], list[int] | None] | None = current_app.extensions.get(SCORES_EXTENSION)
    if scores is not None:
        return scores(record.game, state)
    outcome = rules.outcome(state)
    return list(outcome.scores) if outcome is not None else None


def _side(record: GameRecord, bid: str, at: int, viewer: Any, hidden: tuple[int, ...]) -> dict[str, Any]:
    position = api().stores.reader.position(record.id, bid, at)
    rules, state = position.rules, position.state
    actor = rules.current_actor(state)
    scores = _scores_of(record, rules, state)
    if scores is not None:
        scores = [None if seat in hidden else score for seat, score in enumerate(scores)]
    return {"branch": bid, "head": position.head, "actor": "chance" if actor is not None and not isinstance(actor, int) else actor,
            "scores": scores, "state": viewer.state(state)}


@bp.get("/compare")
@documented("Two branches at the same move: both states and scores, and the fields that differ", response=CompareSchema,
            query=CompareQuery, errors=(400, 404, 422),
            description="at defaults to the last move both branches have; a move one of them lacks is a 400 naming it. "
                        "view hides what that viewer may not see in both states, and the differences are those of the "
                        "viewed states.")
def compare_branches(gid: str) -> ResponseReturnValue:
    """``{"at", "view", "a": {...}, "b": {...}, "differences": [...], "truncated"}``."""
    record = readable_game(gid)
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games have no states to compare", game=record.id)
    query = load_query(CompareQuery)
    games = api().games
    heads = {side: games.head(gid, query[side]) for side in ("a", "b")}
    at = query.get("at", min(heads.values()))
    for side, head in heads.items():
        if at > head:
            raise ApiError(400, "invalid", f"invalid query string: at {at}: branch {query[side]!r} ({side}) has moves 1 to {head}",
                           fields={"at": [f"beyond branch {side}'s head {head}"]}, location="query")
    view = branch_view(record, [query["a"], query["b"]], query["view"])
    viewer = viewer_for_request(record, view)
    hidden = () if viewer.full else tuple(s for s in range(len(record.setup.players)) if s != viewer.seat)
    a, b = (_side(record, query[side], at, viewer, hidden) for side in ("a", "b"))
    differences = differing_paths(a["state"], b["state"])
    return jsonify({"at": at, "view": view, "a": a, "b": b, "differences": differences,
                    "truncated": len(differences) >= MAX_DIFFERENCES})
