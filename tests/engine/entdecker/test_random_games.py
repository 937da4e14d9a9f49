"""Seeded random legal games, 100 each at 2, 3 and 4 players: real ends, conservation, replay equals live play.

Conserved: the draw tiles (stacks + discarded + on the map + in hand), the chips (pool + held), every
player's units (supply + map); the reserve stacks only shrink by the tiles laid from them (R11: an
empty stack lends a copy). No counter goes negative and gold stays within 0-12.
"""

from __future__ import annotations

import pytest

from engine import Setup
from engine.entdecker import RULES
from engine.entdecker.scoring import is_over_now
from engine.entdecker.state import EMPTY, NO_UNIT, OVER, State, unit_kind, unit_part, unit_seat
from tests.engine.helpers import assert_ends_and_replays, random_game

GAMES_PER_COUNT = 100
MAX_ROUNDS = 60  # every turn but a pass turns over at least one of the 82 tiles


def assert_conserved(state: State) -> None:
    """Every component is somewhere, exactly once; no counter is negative; no game runs past MAX_ROUNDS."""
    components = state.components
    draw_on_map = [0] * components.draw_kinds
    reserve_on_map = [0] * 6
    for code in state.board:
        if code != EMPTY:
            kind = components.kinds[code >> 2]
            if kind.reserve:
                reserve_on_map[kind.reserve - 1] += 1
            else:
                draw_on_map[code >> 2] += 1
    for t in range(components.draw_kinds):
        in_hand = 1 if state.tile == t else 0
        assert state.undrawn[t] + state.discarded[t] + draw_on_map[t] + in_hand == components.draw_counts[t]
    assert sum(state.stacks) == sum(state.undrawn)
    for b in range(6):
        assert state.reserve[b] == max(0, components.reserve_counts[b] - reserve_on_map[b])
    for v, value in enumerate(components.chip_values):
        held = sum(chips.count(value) for chips in state.chips)
        assert state.pool[v] + held == components.chip_counts[v]
    on_map = [[0, 0, 0] for _ in range(state.n)]
    for cell, code in enumerate(state.units):
        if code != NO_UNIT:
            on_map[unit_seat(code)][unit_kind(code)] += 1
            assert state.board[cell] != EMPTY and unit_part(code) < len(components.faces[state.board[cell]].parts)
    for seat in range(state.n):
        assert all(state.supply[seat][u] + on_map[seat][u] == components.unit_copies[u] for u in range(3))
        assert 0 <= state.gold[seat] <= components.gold_max and state.score[seat] >= 0
    counters = (*state.stacks, *state.undrawn, *state.pool, *state.reserve, state.draws_left, *state.discarded)
    assert min(counters) >= 0
    assert state.round <= MAX_ROUNDS


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_end_conserve_and_replay(n):
    setup = Setup(tuple(f"P{i}" for i in range(n)))
    for seed in range(GAMES_PER_COUNT):
        playout = random_game(RULES, setup, seed, check=assert_conserved)
        final = playout.state
        assert final.phase == OVER and is_over_now(final), f"{n} players, seed {seed}"
        assert all(code == -1 for code in final.units), "every unit comes home at the end"
        assert_ends_and_replays(playout, f"{n} players, seed {seed}")
