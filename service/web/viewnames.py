"""The one parser of the ``view`` parameter: ``full``, ``spectator`` or a seat number of the game.

Every route, page and command that takes a view (the API's events, states, legal actions, compare, export,
analysis and log; the game page and its ``timeline.json`` and ``states.json``; ``ludolog export``) reads it
here, so they all accept the same texts. A seat is ASCII digits only: ``str.isdigit`` is true for ``²`` or
``١`` and ``int`` then fails or reads a digit of another script, which put a 500 and a non-Latin-1
``Content-Disposition`` header within reach of any query string (issue 29).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from service.store.errors import InvalidRequestError

#: The words a view may be besides a seat.
VIEW_WORDS = ("full", "spectator")
#: The shape of a view, before the game's seats are known (schemas check it at the edge): a word or 1–3 ASCII digits.
VIEW_SHAPE = re.compile(r"^(?:[a-z]{1,16}|[0-9]{1,3})$", re.ASCII)


class ViewError(InvalidRequestError):
    """A ``view`` that names no viewer of the game; ``details`` say which texts would."""


def parse_view(text: str, seats: int, words: Collection[str] = VIEW_WORDS) -> str:
    """``text`` as a checked view: one of ``words``, or a seat ``0`` … ``seats - 1`` written without a leading zero.

    Raises :class:`ViewError` (a 400 at the API's edge, one line on the command line) for anything else.
    """
    if text in words:
        return text
    if VIEW_SHAPE.match(text) and text.isdecimal() and int(text) < seats:
        return str(int(text))
    expected = " or ".join(filter(None, [", ".join(words), f"a seat 0 to {seats - 1}" if seats else ""]))
    raise ViewError(f"view {_shown(text)}: expected {expected}", fields={"view": [f"no such view for a game of {seats} seats"]},
                    location="query")


def _shown(text: str) -> str:
    """The text quoted for a message, cut short: a 20,000-character view is not worth echoing."""
    return repr(text if len(text) <= 40 else text[:40] + "…")
