"""Puzzles cut from real mistakes (issue 49): list them, ask one, answer it.

A puzzle is the decision of a real game where its player made a confirmed mistake and one move was clearly best
(:mod:`service.games.puzzles`). ``GET /api/puzzles/<id>`` shows the position **in the mover's seat view only** (never
another seat's hidden card, never a future draw) with the mover's legal moves, and no solution; ``POST …/answer``
says whether an answer was right, with the played and the best move's win chances and intervals.

Who may see a puzzle: anyone, for a public game's; only the game's owner, for a private or unlisted game's (everyone
else gets 404, as for an unknown puzzle, through every route, the list included: :mod:`service.web.puzzles`).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from engine.core.played import STAGES
from service.api.docs import documented
from service.api.inputs import load_body, load_query
from service.api.schemas import LegalActionSchema, Strict
from service.games.claims import claimed_seats
from service.games.glicko import rate_triples
from service.games.puzzles import answered, shown_puzzle
from service.i18n.games import move_text
from service.store.puzzles import START_RATING
from service.store.ratings import RatingStore
from service.web.auth import current_user, require_user
from service.web.context import api
from service.web.game_language import request_language
from service.web.puzzles import may_see_puzzle, puzzle_store, visible_puzzle

bp = Blueprint("puzzles", __name__, url_prefix="/api/puzzles")
me_bp = Blueprint("my_puzzles", __name__, url_prefix="/api/me")

#: Puzzles listed at most per request.
LIST_LIMIT = 50
#: Puzzles read on each side of the solver's rating before the filters (a list shows the nearest that pass them).
NEAR_FETCHED = 500


class PuzzleListQuery(Strict):
    """``GET /api/puzzles``: filters."""

    game = fields.String(load_default=None, metadata={"description": "only this game's puzzles (e.g. puerto_rico)"})
    theme = fields.String(load_default=None, metadata={
        "description": "only puzzles of this phase or role, as the game names it (Puerto Rico: builder, settler, ...)"})
    stage = fields.String(load_default=None, validate=validate.OneOf(STAGES), metadata={
        "description": "only puzzles from this third of their game"})
    mine = fields.Boolean(load_default=False, metadata={
        "description": "only puzzles from the caller's own decisions: the players of games they claimed (confirmed "
                       "claims, /api/me/claims)"})


class PuzzleSummarySchema(Schema):
    """A puzzle as lists show it."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    theme = fields.String(required=True)
    stage = fields.String(required=True)
    players = fields.Integer(required=True)
    rating = fields.Integer(required=True, metadata={"description": "the puzzle's Glicko-2 rating"})


class PuzzleListSchema(Schema):
    """``GET /api/puzzles``."""

    puzzles = fields.List(fields.Nested(PuzzleSummarySchema), required=True, metadata={
        "description": "the nearest to the caller's rating first"})
    rating = fields.Integer(required=True, metadata={"description": "the caller's puzzle rating (1500 when new or "
                                                                     "anonymous)"})


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
    rating = fields.Dict(required=True, allow_none=True, metadata={
        "description": "the signed-in solver's rating after the answer {rating, deviation, before, rated: false when "
                       "the puzzle was answered before (only a first answer is rated)}; null when anonymous"})


class SolverSchema(Schema):
    """``GET /api/me/puzzles``: the caller's puzzle rating and history."""

    rating = fields.Float(required=True)
    deviation = fields.Float(required=True)
    attempts = fields.Integer(required=True)
    history = fields.List(fields.Dict(), required=True, metadata={
        "description": "rated attempts, oldest first: {puzzle, correct, at, rating, deviation, before}"})


def _listed(puzzle: dict[str, Any], query: dict[str, Any], user: str | None, mine: set[tuple[str, int]]) -> bool:
    if not may_see_puzzle(puzzle, user):
        return False
    if query["mine"] and (puzzle["gid"], int(puzzle["seat"])) not in mine:
        return False
    wanted = {"game": query["game"], "theme": query["theme"], "stage": query["stage"]}
    return all(value is None or puzzle[name] == value for name, value in wanted.items())


def _summary(puzzle: dict[str, Any]) -> dict[str, Any]:
    rating = RatingStore(api().stores.redis).puzzle(puzzle["id"])[0][0]
    return {name: puzzle[name] for name in ("id", "game", "theme", "stage", "players")} | {"rating": round(rating)}


def _mine_near(mine: set[tuple[str, int]], rating: float) -> list[str]:
    """The puzzles kept from the games of the caller's claims, the nearest to ``rating`` first (their seats are
    checked by :func:`_listed`)."""
    store, ratings = puzzle_store(), RatingStore(api().stores.redis)
    pids = [pid for gid in sorted({gid for gid, _ in mine}) for pid in store.kept_in(gid)]
    return sorted(pids, key=lambda pid: abs(ratings.puzzle(pid)[0][0] - rating))


@bp.get("")
@documented("Puzzles cut from real mistakes: public games' and the caller's own (mine: from the caller's claimed "
            "players' decisions)", response=PuzzleListSchema,
            query=PuzzleListQuery, errors=(400,), tag="puzzles",
            description=f"At most {LIST_LIMIT}; a private or unlisted game's puzzles are listed to its owner only.")
def list_puzzles() -> ResponseReturnValue:
    """``{"puzzles": [{"id", "game", "theme", "stage", "players"}]}``."""
    query = load_query(PuzzleListQuery)
    user = current_user()
    store = puzzle_store()
    rating = RatingStore(api().stores.redis).solver(user)[0][0] if user is not None else START_RATING
    mine = claimed_seats(api().stores.claims, user) if query["mine"] and user is not None else set()
    near = _mine_near(mine, rating) if query["mine"] else store.ids_near(rating, NEAR_FETCHED)
    listed = [_summary(p) for p in store.get_many(near) if _listed(p, query, user, mine)]
    return jsonify({"puzzles": listed[:LIST_LIMIT], "rating": round(rating)})


@bp.get("/<pid>")
@documented("A puzzle: the position in the mover's seat view and the legal moves, without the solution",
            response=PuzzleSchema, errors=(404,), tag="puzzles",
            description="404 for a private or unlisted game's puzzle to anyone but the game's owner.")
def show_puzzle(pid: str) -> ResponseReturnValue:
    """``{"id", "game", "theme", "stage", "players", "rating", "seat", "state", "actions"}``."""
    puzzle = visible_puzzle(pid)
    position = api().stores.reader.position(puzzle["gid"], puzzle["bid"], puzzle["seq"])
    language = request_language()
    shown = shown_puzzle(position.rules, position.state, puzzle,
                         lambda rules, state, action: move_text(rules, state, action, language))
    return jsonify(shown | {"rating": round(RatingStore(api().stores.redis).puzzle(pid)[0][0])})


@bp.post("/<pid>/answer")
@documented("Answer a puzzle: right or wrong, with the played and the best move's win chances and intervals",
            response=AnswerResultSchema, body=AnswerSchema, errors=(400, 404, 422), tag="puzzles")
def answer_puzzle(pid: str) -> ResponseReturnValue:
    """``{"correct", "answer", "best", "played", "rating"}``: a signed-in solver's answer also updates their and the
    puzzle's Glicko-2 ratings, in one transaction (:mod:`service.store.ratings`)."""
    body = load_body(AnswerSchema)  # a malformed body is 400 whatever the puzzle, as on every route
    puzzle = visible_puzzle(pid)
    position = api().stores.reader.position(puzzle["gid"], puzzle["bid"], puzzle["seq"])
    result = answered(position.rules, position.state, puzzle, body["action"])
    user = current_user()
    return jsonify(result | {"rating": _rated(user, pid, result["correct"]) if user is not None else None})


def _rated(user: str, pid: str, correct: bool) -> dict[str, Any]:
    """Rate the answer (the first to this puzzle only) and say the solver's rating after it."""
    ratings = RatingStore(api().stores.redis)
    entry = ratings.attempt(user, pid, correct, rate_triples, time.time())
    if entry is not None:
        return {"rating": entry["rating"], "deviation": entry["deviation"], "before": entry["before"], "rated": True}
    (rating, deviation, _), _ = ratings.solver(user)
    return {"rating": round(rating, 2), "deviation": round(deviation, 2), "before": round(rating, 2), "rated": False}


@me_bp.get("/puzzles")
@documented("Your puzzle rating and the history of your rated answers", response=SolverSchema, errors=(401,),
            auth="required", tag="puzzles")
def my_puzzles() -> ResponseReturnValue:
    """``{"rating", "deviation", "attempts", "history": [...]}``."""
    user = require_user()
    ratings = RatingStore(api().stores.redis)
    (rating, deviation, _), attempts = ratings.solver(user)
    history = [{k: entry[k] for k in ("puzzle", "correct", "at", "rating", "deviation", "before")}
               for entry in ratings.history(user)]
    return jsonify({"rating": round(rating, 2), "deviation": round(deviation, 2), "attempts": attempts,
                    "history": history})
