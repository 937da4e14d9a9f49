"""Whose view a request asks for, checked once: ``full``, ``spectator`` or a seat of the game.

Every route that returns events, states, legal actions, sentences, timelines or exports asks
:func:`viewer_for_request` for a :class:`~engine.core.visibility.SeatView` and lets it decide
what the viewer may see, so no route has a rule of its own about hidden information.
"""

from __future__ import annotations

from engine import get_rules
from engine.core.visibility import SeatView, viewer_for
from service.store.games import GameRecord
from service.web.errors import ApiError
from service.web.viewnames import ViewError, parse_view

VIEW_HELP = "full (everything), spectator (hidden information removed) or a seat number (what that seat knew)"


def checked_view(record: GameRecord, view: str) -> str:
    """``view`` when it names full, spectator or one of the game's seats (:func:`service.web.viewnames.parse_view`);
    400 otherwise."""
    try:
        return parse_view(view, len(record.setup.players))
    except ViewError as exc:
        raise ApiError(400, "invalid", f"invalid query string: {exc.message}", **exc.details) from exc


def viewer_if_named(record: GameRecord, view: str) -> SeatView | None:
    """The viewer ``view`` names for ``record``, or None when it names none of the game's views (a page then draws
    no first board; its scripts ask the JSON endpoints, which answer the 400)."""
    try:
        return viewer_for(get_rules(record.game), len(record.setup.players), parse_view(view, len(record.setup.players)))
    except ViewError:
        return None


def viewer_for_request(record: GameRecord, view: str) -> SeatView:
    """The viewer ``view`` names for ``record`` (checked: 400 for a seat the game does not have)."""
    return viewer_for(get_rules(record.game), len(record.setup.players), checked_view(record, view))
