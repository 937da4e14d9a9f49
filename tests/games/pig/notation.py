"""Pig's actions are their own notation: ``roll``, ``hold``, the die's ``d1``-``d6`` and the bluffs' ``b1``-``b3``."""

from __future__ import annotations

from engine import NotationError

ROLL, HOLD = "roll", "hold"
DIE_FACES = tuple(f"d{n}" for n in range(1, 7))
BLUFFS = tuple(f"b{n}" for n in range(1, 4))


def parse_action(text: str) -> str:
    """Notation: roll, hold, d1..d6, b1..b3."""
    if text in (ROLL, HOLD) or text in DIE_FACES or text in BLUFFS:
        return text
    raise NotationError(text, "roll, hold, d1-d6 or b1-b3")


def format_action(action: str) -> str:
    """Actions are their own notation."""
    return action
