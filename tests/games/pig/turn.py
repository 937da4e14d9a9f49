"""A Pig player's decisions: roll, or hold to bank the turn total."""

from __future__ import annotations

from collections.abc import Sequence

from tests.games.pig.notation import HOLD, ROLL
from tests.games.pig.state import PigState, next_turn


def legal_actions(state: PigState) -> Sequence[str]:
    """Roll, and hold once the turn total is positive."""
    return (ROLL, HOLD) if state.turn_total else (ROLL,)


def apply(state: PigState, action: str) -> PigState:
    """Roll (chance shows the die next), or bank the turn total and pass the turn."""
    if action == ROLL:
        return state._replace(rolling=True)
    scores = list(state.scores)
    scores[state.seat] += state.turn_total
    return next_turn(state._replace(scores=tuple(scores)))
