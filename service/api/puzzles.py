"""Puzzles cut from real mistakes (issue 49): list them, ask one, answer it.

A puzzle is the decision of a real game where its player made a confirmed mistake and one move was clearly best
(:mod:`service.games.puzzles`). ``GET /api/puzzles/<id>`` shows the position **in the mover's seat view only** (never
another seat's hidden card, never a future draw) with the mover's legal moves, and no solution; ``POST …/answer``
says whether an answer was right, with the played and the best move's win chances and intervals.

Who may see a puzzle: anyone, for a public game's; only the game's owner, for a private or unlisted game's (everyone
else gets 404, as for an unknown puzzle, through every route, the list included: :mod:`service.web.puzzles`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api.docs import documented
from service.api.inputs import load_body, load_query
from service.api.schemas import LegalActionSchema, Strict
from service.games.puzzles import STAGES, answered, shown_puzzle
from service.i18n.games import move_text
from service.web.auth import current_user
from service.web.context import api
from service.web.game_language import request_language
from service.web.puzzles import may_see_puzzle, puzzle_store, visible_puzzle

bp = Blueprint("puzzles", __name__, url_prefix="/api/puzzles")

#: Puzzles listed at most per request.
LIST_LIMIT = 50


class PuzzleListQuery(Strict):
    """``GET /api/puzzles``: filters."""

    game = fields.String(load_default=None, metadata={"description": "only this game's puzzles (e.g. puerto_rico)"})
    theme = fields.String(load_default=None, metadata={
        "description": "only puzzles of this phase or role, as the game names it (Puerto Rico: builder, settler, ...)"})
    stage = fields.String(load_default=None, validate=validate.OneOf(STAGES), metadata={
        "description": "only puzzles from this third of their game"})
    mine = fields.Boolean(load_default=False, metadata={"description": "only puzzles from the caller's own games"})


class PuzzleSummarySchema(Schema):
    """A puzzle as lists show it."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    theme = fields.String(required=True)
    stage = fields.String(required=True)
    players = fields.Integer(required=True)


class PuzzleListSchema(Schema):
    """``GET /api/puzzles``."""

    puzzles = fields.List(fields.Nested(PuzzleSummarySchema), required=True)


class PuzzleSchema(PuzzleSummarySchema):
    """``GET /api/puzzles/<pid>``: the position as the mover saw it, no solution."""

    seat = fields.Integer(required=True, metadata={"description": "the seat to move: the view shown is this seat's"})
    state = fields.Raw(required=True, metadata={"description": "the state in the mover's seat view (rules.view)"})
    actions = fields.List(fields.Nested(LegalActionSchema), required=True, metadata={
        "description": "the mover's legal moves, as the move picker offers them"})


class AnswerSchema(Strict):
    """``POST /api/puzzles/<pid>/answer``."""

    action = fields.String(required=True, metadata={"description": "the move chosen, in the game's notation"})


class JudgedMoveSchema(Schema):
    """A move with its win chance for the mover and the 95 % interval."""

    action = fields.String(required=True)
    text = fields.String(required=True)
    win = fields.Float(required=True)
    ci = fields.List(fields.Float(), required=True)


class AnswerResultSchema(Schema):
    """The verdict on an answer."""

    correct = fields.Boolean(required=True)
    answer = fields.String(required=True, metadata={"description": "the answer, in canonical notation"})
    best = fields.Dict(required=True, metadata={
        "description": "the best move {action, text, win, ci, same: every move the game treats as it}"})
    played = fields.Dict(required=True, metadata={
        "description": "the move played in the game {action, text, win, ci, loss, loss_ci, mark}"})


def _listed(puzzle: dict[str, Any], query: dict[str, Any], user: str | None) -> bool:
    if not may_see_puzzle(puzzle, user):
        return False
    if query["mine"] and (user is None or api().games.game(puzzle["gid"]).owner != user):
        return False
    wanted = {"game": query["game"], "theme": query["theme"], "stage": query["stage"]}
    return all(value is None or puzzle[name] == value for name, value in wanted.items())


def _summary(puzzle: dict[str, Any]) -> dict[str, Any]:
    return {name: puzzle[name] for name in ("id", "game", "theme", "stage", "players")}


@bp.get("")
@documented("Puzzles cut from real mistakes: public games' and the caller's own", response=PuzzleListSchema,
            query=PuzzleListQuery, errors=(400,), tag="puzzles",
            description=f"At most {LIST_LIMIT}; a private or unlisted game's puzzles are listed to its owner only.")
def list_puzzles() -> ResponseReturnValue:
    """``{"puzzles": [{"id", "game", "theme", "stage", "players"}]}``."""
    query = load_query(PuzzleListQuery)
    user = current_user()
    store = puzzle_store()
    listed = [_summary(p) for p in store.get_many(store.all_ids()) if _listed(p, query, user)]
    return jsonify({"puzzles": listed[:LIST_LIMIT]})


@bp.get("/<pid>")
@documented("A puzzle: the position in the mover's seat view and the legal moves, without the solution",
            response=PuzzleSchema, errors=(404,), tag="puzzles",
            description="404 for a private or unlisted game's puzzle to anyone but the game's owner.")
def show_puzzle(pid: str) -> ResponseReturnValue:
    """``{"id", "game", "theme", "stage", "players", "seat", "state", "actions"}``."""
    puzzle = visible_puzzle(pid)
    position = api().stores.reader.position(puzzle["gid"], puzzle["bid"], puzzle["seq"])
    language = request_language()
    return jsonify(shown_puzzle(position.rules, position.state, puzzle,
                                lambda rules, state, action: move_text(rules, state, action, language)))


@bp.post("/<pid>/answer")
@documented("Answer a puzzle: right or wrong, with the played and the best move's win chances and intervals",
            response=AnswerResultSchema, body=AnswerSchema, errors=(400, 404, 422), tag="puzzles")
def answer_puzzle(pid: str) -> ResponseReturnValue:
    """``{"correct", "answer", "best", "played"}``."""
    body = load_body(AnswerSchema)  # a malformed body is 400 whatever the puzzle, as on every route
    puzzle = visible_puzzle(pid)
    position = api().stores.reader.position(puzzle["gid"], puzzle["bid"], puzzle["seq"])
    return jsonify(answered(position.rules, position.state, puzzle, body["action"]))
