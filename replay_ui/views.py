"""The pages (home, game) and the UI-only JSON endpoints the game page steps with.

Pages are shells: the data comes from the JSON API and from the two endpoints here, which
exist for speed (one fold of a branch gives every sentence and score; one request gives a
window of states for the client cache). Both read through the same visibility check as the
API, so a private game stays invisible.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError

from engine import apply_event, get_rules, listed_games, registered_games
from engine.core.visibility import SeatView
from replay_ui.accounts import signed_in_user
from replay_ui.blueprint import blueprint, page_blueprint
from replay_ui.games import adapter_for
from replay_ui.log_page import log_page_data
from replay_ui.timeline import Line, cached_timeline, caption_at, moves_after
from service.games.analysis import analysis_budget
from service.games.titles import game_label
from service.i18n import N_, _
from service.store.games import MAIN, GameRecord
from service.web.auth import current_user, readable_game
from service.web.context import api
from service.web.csrf import csrf_token, sessions_enabled
from service.web.errors import ApiError
from service.web.game_language import request_language
from service.web.listing import GameListQuery, listing_page
from service.web.seating import chat_rights_of, table_for_page
from service.web.viewing import branch_view, viewer_for_request, viewer_if_named, views_allowed

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("pages", __name__)

MAX_STATES_WINDOW = 64


#: The cookie that keeps a browser's choice of theme (site.js writes it), read here so a page is drawn in it from the start.
THEME_COOKIE = "ludolog-theme"


@blueprint.app_context_processor
def page_globals() -> dict[str, Any]:
    """What every page's header needs: the signed-in user, the CSRF token and the theme chosen (None: the system's);
    and the words for a game's source (:data:`SOURCE_LABELS`) that the lists and the game pages show; the games'
    titles the scripts name games by (``gameTitle`` in ``static/js/i18n.js``)."""
    theme = request.cookies.get(THEME_COOKIE)
    return {"ui_user": signed_in_user(), "csrf_token": csrf_token, "sessions_enabled": sessions_enabled(),
            "ui_theme": theme if theme in ("light", "dark") else None,
            "source_labels": {source: _(label) for source, label in SOURCE_LABELS.items()},
            "game_titles": game_titles(), "game_label": game_label}


@cache
def game_titles() -> str:
    """Every game with rules by its title, as JSON: the title is the game's proper name, the same in every language
    (as its box prints it)."""
    return json.dumps({game: game_label(game) for game in registered_games()}, ensure_ascii=False)


def harden_pages(response: Any) -> Any:
    """No inline script runs on our pages, whatever text ends up in them; no framing (after every request of the UI's
    blueprints: ``replay_ui.BLUEPRINTS``)."""
    if response.mimetype == "text/html":
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
            "base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


#: How the games list names a game's source (the API's ``source`` values).
SOURCE_LABELS = {"live": N_("live"), "demo": N_("demo"), "bga": N_("BGA import"), "bga-log": N_("BGA log only")}

#: The home page's filters: the query string of the page and of its ``GET /api/games`` calls.
HOME_FILTERS = ("game", "player", "source", "q", "table", "result", "winner", "owner", "order")


@bp.get("/")
def home() -> ResponseReturnValue:
    """The tables the reader sits at, the games list with filters, the upload form and the new-table form."""
    games = listed_games()
    filters = {k: request.args.get(k, "") for k in HOME_FILTERS}
    counts = {game: [get_rules(game).min_players, get_rules(game).max_players] for game in games}
    return render_template("home.html", games=games, log_only_games=_log_only_games(games), filters=filters,
                           first_page=_first_page(filters), player_counts=counts)


def _first_page(filters: dict[str, str]) -> dict[str, Any] | None:
    """The listing's first page, rendered into the page (no empty table that fills and jumps a moment later);
    None when the filters are not valid (the script then shows the API's message for them)."""
    wanted = {k: v.strip() for k, v in filters.items() if v.strip()}
    try:
        query = GameListQuery().load(wanted)
    except ValidationError:
        return None
    return listing_page(query, current_user())


def _log_only_games(with_rules: list[str]) -> list[tuple[str, str]]:
    """(name, label) of the BGA games that log-only games stored here are of, for the home page's filter."""
    found = sorted(api().games.log_only_game_names() - set(with_rules))
    return [(name, game_label(name)) for name in found]


@bp.get("/games/<gid>")
def game_redirect(gid: str) -> ResponseReturnValue:
    """A game's address without a branch: its main branch at the head."""
    return redirect(url_for("pages.game_page", gid=gid, bid=MAIN))


@bp.get("/games/<gid>/b/<bid>")
@bp.get("/games/<gid>/b/<bid>/<int:seq>")
def game_page(gid: str, bid: str, seq: int | None = None) -> ResponseReturnValue:
    """The game page at a position (default: the branch's head)."""
    record = readable_game(gid)
    head = api().games.head(gid, bid)
    if seq is not None and not 1 <= seq <= head:
        # Past the end means the last position; 0 (or below) the first, as a position count from the start reads.
        return redirect(url_for("pages.game_page", gid=gid, bid=bid, seq=head if seq > head else 1))
    page = _page_data(record, bid, seq, head)
    if record.is_log_only:
        return render_template("log_game.html", record=record, page=page, log=log_page_data(record))
    if not page["log_only"]:
        page.update(_first_position(record, bid, seq or head, head))
        page["table"] = table_for_page(record, bid, current_user())
        page["chat"] = _chat_for_page(record, bid, page["table"])
        page["views"] = views_allowed(record, bid)  # the view menu offers only these (None: every view)
    return render_template("game.html", record=record, page=page, board_css=_board_stylesheet(page["renderer"]))


def _chat_for_page(record: GameRecord, bid: str, table: dict[str, Any]) -> dict[str, Any] | None:
    """What the reader may do with the table's chat (None: the branch is no table, or its chat is not theirs to read)."""
    if not table["assigned"]:
        return None
    rights = chat_rights_of(record, bid, table["owner"], current_user())
    return {"write": rights.write, "user": current_user(), "owner": table["owner"]} if rights.read else None


def _first_position(record: GameRecord, bid: str, seq: int, head: int) -> dict[str, Any]:
    """What the page needs to draw its first board without waiting for any data: the state at ``seq`` as the
    requested view sees it, the timeline's facts about that position, and the caption (rendered on the server).

    The whole timeline (every move's sentence) then loads in the background; it is built here once and cached,
    so its own request right after costs no second fold.
    """
    viewer = viewer_if_named(record, request.args.get("view", "full"))
    if viewer is None:
        return {}
    view = branch_view(record, [bid], request.args.get("view", "full"))
    viewer = viewer_for_request(record, view)
    timeline = _timeline(record, bid, head, view, viewer)
    position = api().stores.reader.position(record.id, bid, seq)
    return {"view": view, "state": viewer.state(position.state), "position": timeline["positions"][seq - 1],
            "caption": caption_at(timeline, seq), "outcome": timeline["outcome"] if seq == head else None}


def _timeline(record: GameRecord, bid: str, head: int, view: str, viewer: SeatView) -> dict[str, Any]:
    """The branch's timeline at ``head`` as ``view`` sees it (one fold, cached)."""
    reader = api().stores.reader
    line = Line(record.id, bid, view, record.created, request_language())
    return cached_timeline(line, head, get_rules(record.game), record.setup, viewer,
                           lambda upto, resume: reader.steps(record.id, bid, upto, resume))


def _board_stylesheet(renderer: str) -> str | None:
    """``css/boards/<renderer>.css`` under the static folder when the game's board has one."""
    relative = f"css/boards/{renderer}.css"
    folder = blueprint.static_folder
    return relative if folder and (Path(folder) / relative).is_file() else None


def _page_data(record: GameRecord, bid: str, seq: int | None, head: int) -> dict[str, Any]:
    """The JSON the game page's scripts start from (embedded with ``tojson``, so it is escaped)."""
    log_only = record.is_log_only
    adapter = adapter_for(record.game)
    players = list(record.setup.players)
    known = not log_only and record.game in registered_games()
    return {
        "gid": record.id, "bid": bid, "seq": seq, "head": head, "game": record.game, "title": record.title,
        "source": record.source, "owner": record.owner, "players": players, "user": current_user(),
        "log_only": log_only or not known, "renderer": adapter.renderer if known else "generic",
        "components": adapter.components(record.setup) if known else {},
        "base": url_for("pages.game_page", gid=record.id, bid=bid),
        "analysis_budget": analysis_budget(record.game) if known else None,
    }


def _view(record: GameRecord, bid: str) -> str:
    """The view the ``view`` query names (default full) as the caller may have it of the branch (the seats' rule:
    :func:`service.web.viewing.branch_view`); anything else is the web layer's 400 or 403 (replay_ui.errors)."""
    return branch_view(record, [bid], request.args.get("view", "full"))


@bp.get("/games/<gid>/b/<bid>/timeline.json")
def timeline_json(gid: str, bid: str) -> ResponseReturnValue:
    """Every move's sentence, round and role; per position the caption facts and scores; the view they are in.

    With ``after=N`` only the moves and positions after position N: a page that has the timeline to N (in the
    same view) takes in new moves without loading the whole game again."""
    record = readable_game(gid)
    head = api().games.head(gid, bid)
    view = _view(record, bid)
    after = _after(head)
    timeline = {**_timeline(record, bid, head, view, viewer_for_request(record, view)), "view": view}
    response = jsonify(timeline if after is None else moves_after(timeline, after))
    response.headers["Cache-Control"] = "no-cache"
    return response


def _after(head: int) -> int | None:
    """The ``after`` query (a position 0 to ``head``; 0: every move), None when absent; anything else is a 400 that
    says why."""
    text = request.args.get("after")
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 12) or int(text) > head:
        raise ApiError(400, "invalid", f"invalid query string: after {text!r}: expected a position 0 to {head}",
                       after=text, head=head)
    return int(text)


@bp.get("/games/<gid>/b/<bid>/states.json")
def states_json(gid: str, bid: str) -> ResponseReturnValue:
    """The states after seqs ``from``…``to`` (at most 64) as ``view`` sees them: one fold, one request."""
    record = readable_game(gid)
    viewer = viewer_for_request(record, _view(record, bid))
    first = request.args.get("from", type=int) or 1
    position = api().stores.reader.position(gid, bid, max(1, first))
    last = min(request.args.get("to", type=int) or position.seq, position.head, position.seq + MAX_STATES_WINDOW - 1)
    rules, state = position.rules, position.state
    states = {position.seq: viewer.state(state)}
    for event in api().games.events_between(gid, bid, position.seq, last):
        state = apply_event(rules, state, event, check=False)
        states[event.seq] = viewer.state(state)
    return jsonify({"head": position.head, "states": states})
