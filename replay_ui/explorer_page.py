"""The explorer's pages (issue 49): ``/explore/<game>`` shows what players of the public finished games chose at one
stage, with counts, win rates, their 95 % Wilson intervals and a small bar per row (rate and interval); each row links
to ``/explore/<game>/games``, the public games that passed through that choice, each opened at the move that made it.

Plain forms and links (no script): the stage and the player count are a GET form, so the page works from the keyboard
and without JavaScript. It reads the same counters as ``GET /api/explorer/<game>`` (:mod:`service.games.explorer`).
"""

from __future__ import annotations

from flask import render_template, request
from flask.typing import ResponseReturnValue

from engine import get_rules
from replay_ui.blueprint import page_blueprint
from service.games.explorer import CHOICE_READERS, check_explorer, explorer_query, games_through
from service.games.titles import game_label
from service.store.errors import InvalidRequestError
from service.store.explorer import ALL_PLAYERS
from service.web.context import api

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("explorer_page", __name__)


def _players_arg() -> str:
    players = request.args.get("players") or ALL_PLAYERS
    if players != ALL_PLAYERS and not players.isdigit():
        raise InvalidRequestError(f"players: a player count or all, not {players[:20]!r}")
    return players


def _page_context(game: str, players: str) -> dict[str, object]:
    rules = get_rules(game)
    return {"game": game, "label": game_label(game), "players": players, "games": sorted(CHOICE_READERS),
            "player_counts": [str(n) for n in range(rules.min_players, rules.max_players + 1)],
            "labels": {name: game_label(name) for name in CHOICE_READERS}}


@bp.get("/explore/<game>")
def explorer_page(game: str) -> ResponseReturnValue:
    """One stage's choices for one player count (query ``players``, ``stage``; defaults: all, the first stage)."""
    players = _players_arg()
    table = explorer_query(api().stores.explorer, game, players, request.args.get("stage") or None)
    return render_template("explorer.html", table=table, **_page_context(game, players))


@bp.get("/explore/<game>/games")
def explorer_games_page(game: str) -> ResponseReturnValue:
    """The public games that passed through one choice (query ``stage``, ``choice``, ``players``)."""
    players = _players_arg()
    check_explorer(game, players)
    stage, choice = request.args.get("stage", ""), request.args.get("choice", "")
    found = games_through(api().games, api().stores.explorer, game, players, stage, choice)
    return render_template("explorer_games.html", stage=stage, choice=choice, found=found,
                           **_page_context(game, players))
