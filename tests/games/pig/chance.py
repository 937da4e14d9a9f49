"""Chance in Pig: each seat's secret bluff at the start, then the die of every roll."""

from __future__ import annotations

from collections.abc import Sequence

from tests.games.pig.notation import BLUFFS, DIE_FACES
from tests.games.pig.state import PigState, next_turn


def outcomes(state: PigState) -> Sequence[tuple[str, int]]:
    """A bluff draw (1-3) while a seat has none, else a die face: uniform."""
    faces = BLUFFS if None in state.bluffs else DIE_FACES
    return tuple((face, 1) for face in faces)


def apply(state: PigState, action: str) -> PigState:
    """The next seat's bluff; or the die: a 1 ends the turn with nothing, any other adds its pips."""
    if action in BLUFFS:
        bluffs = list(state.bluffs)
        bluffs[bluffs.index(None)] = int(action[1:])
        return state._replace(bluffs=tuple(bluffs))
    pips = int(action[1:])
    if pips == 1:
        return next_turn(state)
    return state._replace(rolling=False, turn_total=state.turn_total + pips)
