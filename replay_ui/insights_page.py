"""A user's mistakes (issue 49): ``/users/<name>/insights`` shows, per game kind, the decisions of the players they
claimed that an analysis judged, their mistakes (``?`` and ``??``) per 100 decisions by phase or role and by stage,
each with a small bar beside every analysed player's figure, the average loss, the ten worst moves (each a link to its
position) and each claimed game; and links to the puzzles cut from those decisions.

Plain HTML (no script): tables, links and bars drawn on the server, so the page works from the keyboard and without
JavaScript, and narrows to a phone's width. It reads what ``GET /api/users/<name>/insights`` answers, through the same
service (:func:`service.games.insights.insights_of`): the user sees every game they claimed, anyone else only their
public games.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import render_template
from flask.typing import ResponseReturnValue

from replay_ui.blueprint import page_blueprint
from replay_ui.explorer_page import STAGE_WORDS
from service.games.insights import insights_of
from service.games.titles import game_label
from service.i18n import _, current_locale
from service.i18n.games import language_of
from service.i18n.games.glossary import term_word
from service.store.errors import NotFoundError
from service.web.auth import current_user
from service.web.context import api

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("insights_page", __name__)
#: The kinds of glossary words a phase may be: the game's phases, else its roles (Puerto Rico's).
PHASE_KINDS = ("phase", "role")


def phase_label(game: str, phase: str) -> str:
    """A phase or role as the game's glossary words it in the reader's language (the English word where it has none)."""
    language = language_of(current_locale())
    for kind in PHASE_KINDS:
        word = term_word(game, kind, phase, language)
        if word != phase:
            return word
    return phase


def phase_label_for(game: str) -> Callable[[str], str]:
    """:func:`phase_label` of ``game``, as the page's tables call it with a row's key."""
    return lambda phase: phase_label(game, phase)


def stage_label(stage: str) -> str:
    """A stage (early, middle, late) in the reader's language."""
    return _(STAGE_WORDS[stage]) if stage in STAGE_WORDS else stage


def _scale(kind: dict[str, Any]) -> float:
    """The bars' full width: the largest mistakes-per-100 figure of the game kind's rows, the user's or everyone's."""
    rows = [*kind["by_phase"], *kind["by_stage"]]
    figures = [row["mistakes_per_100"] for row in rows] + [row["everyone"]["mistakes_per_100"] for row in rows]
    return max([f for f in figures if f is not None] + [1.0])


@bp.get("/users/<name>/insights")
def insights_page(name: str) -> ResponseReturnValue:
    """A user's insights as the caller may see them (404 for an unknown user)."""
    context = api()
    if not context.users.exists(name):
        raise NotFoundError(f"no user {name!r}", user=name)
    viewer = current_user()
    found = insights_of(context.games, context.stores.insights, context.stores.claims, name, viewer)
    kinds = [kind | {"label": game_label(kind["game"]), "scale": _scale(kind)} for kind in found["games"]]
    return render_template("insights.html", name=name, own=viewer == name, kinds=kinds, phase_label=phase_label,
                           phase_label_for=phase_label_for, stage_label=stage_label)
