"""The compare page: two branches of a game at the same move, side by side (stacked on a phone).

``/games/<gid>/compare?a=<bid>&b=<bid>&at=<seq>`` is a shell like the game page; its script
(``static/js/compare.js``) asks ``GET /api/games/<gid>/compare`` for both states and the fields where they
differ, draws both boards with the game's renderer, highlights the differences, overlays both score charts
and steps both boards together. This module also hands the API the UI's running scores (the game
adapters' :meth:`~replay_ui.games.GenericAdapter.scores`), wired in when the blueprint is registered.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue

from engine import get_rules
from replay_ui.blueprint import blueprint, page_blueprint
from replay_ui.errors import error_page
from replay_ui.games import adapter_for
from replay_ui.views import _board_stylesheet
from service.i18n import N_
from service.store.games import MAIN
from service.web.auth import current_user, readable_game
from service.web.context import SCORES_EXTENSION, api
from service.web.viewing import branch_view

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("compare_page", __name__)


def running_scores(game: str, state: Any) -> list[int] | None:
    """Every seat's score so far at ``state``, as the game's UI adapter counts it (None: no running score)."""
    return adapter_for(game).scores(state)


@blueprint.record_once
def _wire_scores(setup: BlueprintSetupState) -> None:
    setup.app.extensions[SCORES_EXTENSION] = running_scores


@bp.get("/games/<gid>/compare")
def compare_page(gid: str) -> ResponseReturnValue:
    """Both branches at move ``at`` (default: the last both have); ``a`` defaults to the main branch."""
    record = readable_game(gid)
    a = request.args.get("a") or MAIN
    b = request.args.get("b") or MAIN
    heads = {a: api().games.head(gid, a), b: api().games.head(gid, b)}
    branches = api().games.branches(gid)
    if record.is_log_only:
        return error_page(404, N_("Not found"), "a log-only game has no branches to compare")
    adapter = adapter_for(record.game)
    common = min(heads.values())
    at = min(max(1, request.args.get("at", type=int) or common), common)
    page = {
        "gid": record.id, "a": a, "b": b, "at": at, "common": common, "heads": heads, "game": record.game,
        "players": list(record.setup.players), "user": current_user(), "renderer": adapter.renderer,
        "components": adapter.components(record.setup), "rules_version": get_rules(record.game).version,
        "game_url": url_for("pages.game_redirect", gid=record.id),
        # The view the caller may have of both (a seat holder's own seat while several play one of them).
        "view": branch_view(record, [a, b], request.args.get("view", "full")),
        # Each side is labelled by its branch's name (the id only when the branch has none).
        "names": {side: branches[bid].name or bid if bid in branches else bid for side, bid in (("a", a), ("b", b))},
    }
    return render_template("compare.html", record=record, page=page, board_css=_board_stylesheet(adapter.renderer))
