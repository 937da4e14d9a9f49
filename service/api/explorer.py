"""The explorer's API (issue 49): what players of the public finished games chose, and how those who chose it fared.

``GET /api/explorer/<game>?players=&stage=`` answers the choices at one stage (default: the first) with their counts,
win rates and 95 % Wilson intervals, over the counted games of that player count (default: all);
``GET /api/explorer/<game>/games?stage=&choice=&players=`` lists the public games (and the move) that passed through
one choice. Both read counters kept as games end (:mod:`service.games.explorer`): nothing is scanned per request, and
only public games are ever counted or listed, whoever asks.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api.docs import documented
from service.api.inputs import load_query
from service.api.schemas import Strict
from service.games.explorer import check_explorer, explorer_query, games_through, table_json
from service.web.context import api

bp = Blueprint("explorer", __name__, url_prefix="/api/explorer/<game>")

_PLAYERS = fields.String(load_default="all", validate=validate.Regexp(r"^(all|[1-9])$"),
                         metadata={"description": "a player count (2 to 5), or all (the default)"})


class ExplorerQuery(Strict):
    """Which player count and which stage."""

    players = _PLAYERS
    stage = fields.String(validate=validate.Length(min=1, max=100),
                          metadata={"description": "a stage of the game's list (default: its first)"})


class ChoiceGamesQuery(Strict):
    """One choice at one stage, over which player count."""

    players = _PLAYERS
    stage = fields.String(required=True, validate=validate.Length(min=1, max=100))
    choice = fields.String(required=True, validate=validate.Length(min=1, max=100))


class ExplorerRowSchema(Schema):
    """One choice at the stage: how often, how often its chooser won, and the 95 % Wilson interval of the rate."""

    choice = fields.String()
    count = fields.Integer()
    wins = fields.Integer()
    rate = fields.Float()
    low = fields.Float()
    high = fields.Float()


class ExplorerSchema(Schema):
    """A game's explorer at one stage and player count."""

    game = fields.String()
    players = fields.String()
    games = fields.Integer(metadata={"description": "public finished games counted (every player count)"})
    stages = fields.List(fields.String())
    stage = fields.String(allow_none=True)
    rows = fields.List(fields.Nested(ExplorerRowSchema))


class ChoiceGameSchema(Schema):
    """A public game that passed through the choice, and the move that made it."""

    gid = fields.String()
    title = fields.String()
    players = fields.List(fields.String())
    seq = fields.Integer()


class ChoiceGamesSchema(Schema):
    """The newest public games that passed through one choice."""

    games = fields.List(fields.Nested(ChoiceGameSchema))


@bp.get("")
@documented("What players chose at one stage of a game, with counts, win rates and Wilson intervals",
            response=ExplorerSchema, query=ExplorerQuery, errors=(400, 404), tag="explorer",
            description="Counts over the public finished games only (private and unlisted games never count); kept "
                        "up to date as games end.")
def explore(game: str) -> ResponseReturnValue:
    """``{"game", "players", "games", "stages", "stage", "rows": [{choice, count, wins, rate, low, high}]}``."""
    query = load_query(ExplorerQuery)
    table = explorer_query(api().stores.explorer, game, query["players"], query.get("stage"))
    return jsonify(table_json(table))


@bp.get("/games")
@documented("The public games that passed through one choice (newest first, at most 50)", response=ChoiceGamesSchema,
            query=ChoiceGamesQuery, errors=(400, 404), tag="explorer")
def choice_games(game: str) -> ResponseReturnValue:
    """``{"games": [{gid, title, players, seq}]}``: ``seq`` is the move that made the choice."""
    query = load_query(ChoiceGamesQuery)
    check_explorer(game, query["players"])
    found = games_through(api().games, api().stores.explorer, game, query["players"], query["stage"], query["choice"])
    rows: list[dict[str, Any]] = [{"gid": record.id, "title": record.title, "players": list(record.setup.players),
                                   "seq": seq} for record, seq in found]
    return jsonify({"games": rows})
