"""Die goldene Stadt's main choices for the explorer: the landscape of each site built on (or the inner city) and the
bonus cards kept, by third of the game (:mod:`engine.core.played`)."""

from __future__ import annotations

from engine.core.played import by_thirds


def choice(text: str) -> str | None:
    """The choice an action's notation makes, or None for an action that is not one of the game's main choices."""
    verb, _, rest = text.partition(" ")
    if verb == "bonus":
        return f"bonus {rest}"
    if verb == "build":
        site = rest.split(" ")[0]
        return "build inner city" if site.startswith("C-") else f"build {site.rstrip('0123456789')}"
    return None


#: The game's main choices in a finished game's moves.
choices = by_thirds(choice)
