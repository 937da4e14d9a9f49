"""Entdecker's main choices for the explorer: the tiles bought for an expedition and the pieces built (scout, fort,
settlement), by third of the game (:mod:`engine.core.played`)."""

from __future__ import annotations

from engine.core.played import by_thirds


def choice(text: str) -> str | None:
    """The choice an action's notation makes, or None for an action that is not one of the game's main choices."""
    verb, _, rest = text.partition(" ")
    if verb == "buy":
        return f"buy {rest} tiles"
    if verb == "build":
        return f"build {rest.split(' ')[0]}"
    return None


#: The game's main choices in a finished game's moves.
choices = by_thirds(choice)
