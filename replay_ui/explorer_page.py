"""The explorer's pages (issue 49): ``/explore/<game>`` shows what players of the public finished games chose at one
stage, with counts, win rates, their 95 % Wilson intervals and a small bar per row (rate and interval); each row links
to ``/explore/<game>/games``, the public games that passed through that choice, each opened at the move that made it.

Plain forms and links (no script): the stage and the player count are a GET form, so the page works from the keyboard
and without JavaScript. It reads the same counters as ``GET /api/explorer/<game>`` (:mod:`service.games.explorer`).
"""

from __future__ import annotations

import re

from flask import render_template, request
from flask.typing import ResponseReturnValue

from engine import get_rules
from replay_ui.blueprint import page_blueprint
from replay_ui.games import adapter_for
from service.games.explorer import check_explorer, explored_games, explorer_query, games_through
from service.games.titles import game_label
from service.i18n import N_, _, current_locale
from service.i18n.games import language_of
from service.i18n.games.glossary import term_word
from service.store.errors import InvalidRequestError
from service.store.explorer import ALL_PLAYERS
from service.web.context import api

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("explorer_page", __name__)


#: The stages' words (the stage keys are the counters' own English, the same in every language's data).
STAGE_WORDS = {"early": N_("early game"), "middle": N_("middle game"), "late": N_("late game")}


def stage_label(stage: str) -> str:
    """A stage in the reader's language: "round 3 · place 2", "building 1", "early" as the counters key them."""
    if stage in STAGE_WORDS:
        return _(STAGE_WORDS[stage])
    if found := re.fullmatch(r"round (\d+) · place (\d+)", stage):
        return _("round %(round)s · place %(place)s", round=found[1], place=found[2])
    if found := re.fullmatch(r"building (\d+)", stage):
        return _("building %(n)s", n=found[1])
    return stage


def choice_label(game: str, stage: str, choice: str) -> str:
    """A choice in the reader's language: as the game's UI adapter words it (``explorer_choice``: Amerigo's actions,
    Entdecker's purchases and pieces, Die goldene Stadt's sites and bonus cards), or the glossary's word where the
    adapter's ``explorer_terms`` name the stage's kind (Puerto Rico's roles and buildings)."""
    adapter = adapter_for(game)
    said = adapter.explorer_choice(stage, choice)
    if said is not None:
        return said
    kind = next((kind for prefix, kind in adapter.explorer_terms if stage.startswith(prefix)), None)
    return choice if kind is None else term_word(game, kind, choice, language_of(current_locale()))


def _players_arg() -> str:
    players = request.args.get("players") or ALL_PLAYERS
    if players != ALL_PLAYERS and not players.isdigit():
        raise InvalidRequestError(f"players: a player count or all, not {players[:20]!r}")
    return players


def _page_context(game: str, players: str) -> dict[str, object]:
    rules = get_rules(game)
    return {"game": game, "label": game_label(game), "players": players, "games": sorted(explored_games()),
            "player_counts": [str(n) for n in range(rules.min_players, rules.max_players + 1)],
            "labels": {name: game_label(name) for name in explored_games()}, "stage_label": stage_label,
            "choice_label": choice_label}


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
