"""Whose view a request asks for, checked once: ``full``, ``spectator`` or a seat of the game.

Every route that returns events, states, legal actions, sentences, timelines or exports asks
:func:`viewer_for_request` for a :class:`~engine.core.visibility.SeatView` and lets it decide
what the viewer may see, so no route has a rule of its own about hidden information; and every route that
reads a branch first asks :func:`branch_view` which view the caller may have of it (the seats' rule: a seat
holder sees a branch played by several as its seat, everyone else as a spectator, until the game is over).
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import request

from engine import get_rules
from engine.core.visibility import SeatView, viewer_for
from service.games.seating import is_live_multi_holder, views_of_seats
from service.store.games import GameRecord
from service.web.auth import current_user
from service.web.context import api
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


def branch_view(record: GameRecord, bids: Sequence[str], view: str) -> str:
    """The view a request may have of branches ``bids`` of ``record``: ``view`` checked, under the seats' rule.

    The one rule of hidden information at a table (issue 33): while a branch is played by more than its owner
    (a seat held by a person, an invite or the engine: :func:`service.games.seating.is_live_multi_holder`),

    * the holder of a seat sees it in that seat's view: by default (no ``view`` asked), and may ask only for that
      seat (or another seat it holds) or the spectator view; ``full`` or another's seat is 403; once a person other
      than the owner has sat, the owner's views are those of the owner's own seats, never of a seat others have
      held, whatever the owner does with the seats (:func:`service.games.seating.views_of_seats`);
    * anyone else (the anonymous included) sees the spectator view, by default and as the only view they may ask.

    A branch whose seats are all its owner's, or whose game is over, is read as before: ``view`` as asked, ``full``
    by default. A request naming several branches (compare) gets the views allowed on every one of them.
    """
    checked = checked_view(record, view)
    if record.is_log_only:
        return checked
    allowed = _views_allowed(record, bids, current_user())
    if allowed is None:
        return checked
    if not _view_asked():
        return allowed[0]
    if checked not in allowed:
        shown = " or ".join(f"seat {v}" if v.isdigit() else v for v in allowed)
        raise ApiError(403, "hidden_while_played",
                       f"view {checked!r}: this branch is being played with its hidden information kept per seat, and "
                       f"you may see it as {shown} until the game is over", view=checked, allowed=list(allowed))
    return checked


def views_allowed(record: GameRecord, bid: str) -> list[str] | None:
    """The views the caller may have of branch ``bid`` (their own seats first, then spectator), or None when every
    view is allowed: what the branch page offers in its view menu."""
    allowed = None if record.is_log_only else _views_allowed(record, [bid], current_user())
    return None if allowed is None else list(allowed)


def _views_allowed(record: GameRecord, bids: Sequence[str], user: str | None) -> tuple[str, ...] | None:
    """The views ``user`` may have of all of ``bids`` (their own seats first, then spectator), or None when no
    branch of them is being played by more than its owner (every view allowed)."""
    context = api()
    allowed: set[str] | None = None
    for bid in bids:
        if not context.stores.seats.has_assignments(record.id, bid):
            continue
        seats = context.stores.seats.seats(record.id, bid, len(record.setup.players))
        others = context.stores.seats.others_held(record.id, bid)
        position = context.stores.reader.position(record.id, bid)
        if not is_live_multi_holder(seats, position.rules.current_actor(position.state) is None, others):
            continue
        owner = context.games.branch(record.id, bid).owner
        here = {str(seat) for seat in views_of_seats(seats, owner, user, others)} | {"spectator"}
        allowed = here if allowed is None else allowed & here
    if allowed is None:
        return None
    return tuple(sorted(allowed, key=lambda v: (not v.isdigit(), v)))


def _view_asked() -> bool:
    """True when the request names a view (the query string's ``view``)."""
    return "view" in request.args
