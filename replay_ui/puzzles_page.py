"""The puzzles pages (issue 49): ``/puzzles`` lists the puzzles the caller may see, filterable by game, theme and stage;
``/puzzles/<pid>`` asks one: the board in the mover's seat view (drawn by the game's own renderer from
``GET /api/puzzles/<pid>``), "what would you play?" with the mover's legal moves, and after an answer the verdict.

The pages are shells: the position comes from the API, which applies the one viewer rule, never from the page's data
(which holds the puzzle's id, its game's renderer and its components). Who may see a puzzle: :mod:`service.web.puzzles`.
"""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from engine import get_rules, listed_games
from engine.core.played import STAGES
from replay_ui.blueprint import page_blueprint
from replay_ui.games import adapter_for
from replay_ui.views import _board_stylesheet
from service.i18n import N_, _
from service.web.auth import current_user
from service.web.context import api
from service.web.puzzles import visible_puzzle

#: The stages' names as the filter shows them.
STAGE_NAMES = {"early": N_("early game"), "middle": N_("middle game"), "late": N_("late game")}
#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("puzzles_page", __name__)


@bp.get("/puzzles")
def puzzles() -> ResponseReturnValue:
    """The list of puzzles, with its filters (the list itself comes from ``GET /api/puzzles``)."""
    page = {"games": list(listed_games()), "stages": list(STAGES), "user": current_user()}
    return render_template("puzzles.html", page=page, stage_names={stage: _(STAGE_NAMES[stage]) for stage in STAGES})


@bp.get("/puzzles/<pid>")
def puzzle(pid: str) -> ResponseReturnValue:
    """One puzzle: 404 (the error page) where the caller may not see it."""
    found = visible_puzzle(pid)
    record = api().games.game(found["gid"])
    adapter = adapter_for(record.game)
    page = {"id": pid, "game": record.game, "renderer": adapter.renderer, "components": adapter.components(record.setup),
            "players": list(record.setup.players), "rules_version": get_rules(record.game).version,
            "user": current_user()}
    return render_template("puzzle.html", page=page, game=record.game, board_css=_board_stylesheet(adapter.renderer))
