"""Chance in Puerto Rico: the face-down plantations drawn to refill the face-up row after the settler
phase (players + 1 of them), the hacienda's draw, and the reshuffle of the discards when the stack runs out.

Each draw is weighted by the count of its kind left in the stack; applying one hands the state back to
the settler phase (:mod:`engine.puerto_rico.settler`), which ends once the row is full or no tile is left.
"""

from __future__ import annotations

from engine.core.records import add_at
from engine.puerto_rico.notation import DRAW_ACTIONS, RESHUFFLE, Action
from engine.puerto_rico.settler import advance, resolve_draws
from engine.puerto_rico.state import HACIENDA_DRAW, SETTLE, State, with_player


def draw_for_hacienda(state: State, good: int) -> State:
    """The hacienda's face-down plantation goes onto the island (no hospice colonist)."""
    seat = state.turn
    player = state.players[seat].copy()
    player.island = add_at(player.island, good, 1)
    new = with_player(state, seat, player)
    new.phase, new.stack = SETTLE, add_at(state.stack, good, -1)
    return advance(new)


def outcomes(state: State) -> tuple[tuple[Action, int], ...]:
    """Each kind left in the stack weighted by its count; a reshuffle when the stack is empty."""
    if state.phase == HACIENDA_DRAW or any(state.stack):
        return tuple((DRAW_ACTIONS[g], count) for g, count in enumerate(state.stack) if count)
    return ((RESHUFFLE, 1),)


def apply(state: State, action: Action) -> State:
    """Turn up a drawn plantation (row or hacienda), or reshuffle the discards into the stack."""
    if action[0] == "reshuffle":
        new = state.copy()
        new.stack, new.discards = state.discards, (0,) * 5
        return resolve_draws(new)
    good = action[1]
    if state.phase == HACIENDA_DRAW:
        return draw_for_hacienda(state, good)
    new = state.copy()
    new.stack, new.face_up = add_at(state.stack, good, -1), add_at(state.face_up, good, 1)
    new.to_draw = state.to_draw - 1
    return resolve_draws(new)
