"""The game-log sentence of a Pig action."""

from __future__ import annotations

from tests.games.pig.notation import BLUFFS, DIE_FACES, ROLL
from tests.games.pig.state import PigState


def describe(state: PigState, action: str) -> str:
    """A sentence for the log."""
    if action in BLUFFS:
        return "A bluff number is drawn"
    if action in DIE_FACES:
        return f"The die shows {action[1:]}"
    return f"Seat {state.seat} {'rolls' if action == ROLL else f'holds {state.turn_total}'}"
