"""Pig's immutable state, and the state before the first chance event."""

from __future__ import annotations

from typing import NamedTuple


class PigState(NamedTuple):
    """Immutable state of a Pig game."""

    scores: tuple[int, ...]
    bluffs: tuple[int | None, ...]
    seat: int
    turn_total: int
    rolling: bool
    target: int


def initial_state(players: int, target: int) -> PigState:
    """Everyone at zero, bluffs still to be drawn (the rules object has checked the setup)."""
    return PigState((0,) * players, (None,) * players, 0, 0, False, target)


def next_turn(state: PigState) -> PigState:
    """The next seat's turn, its total at zero."""
    return state._replace(seat=(state.seat + 1) % len(state.scores), turn_total=0, rolling=False)
