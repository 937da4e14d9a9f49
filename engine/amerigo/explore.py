"""Amerigo's main choices for the explorer: the action each turn (a colour of the action field, its special action,
gold, or scoring the cubes with PT21), by third of the game (:mod:`engine.core.played`)."""

from __future__ import annotations

from engine.core.played import by_thirds


def choice(text: str) -> str | None:
    """The choice an action's notation makes, or None for an action that is not one of the game's main choices."""
    verb, _, rest = text.partition(" ")
    if verb == "choose":
        return rest
    return {"special": "special", "gold": "gold", "use PT21": "score cubes"}.get(verb if verb != "use" else text)


#: The game's main choices in a finished game's moves.
choices = by_thirds(choice)
