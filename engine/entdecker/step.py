"""One action applied: chance outcomes to :mod:`chance`, decisions to :mod:`turn`."""

from __future__ import annotations

from engine.entdecker import chance, turn
from engine.entdecker.notation import Action
from engine.entdecker.state import CHANCE_PHASES, State


def step(state: State, action: Action) -> State:
    """The state after ``action`` (assumed legal)."""
    if state.phase in CHANCE_PHASES:
        return chance.apply(state, action)
    return turn.APPLY[action[0]](state, action)
