"""Seeded random legal games, 100 each at 3, 4 and 5 players: real ends, conservation, replay equals live play.

Digest: colonists 58/79/100, barrels 50, buildings 49, plantations 50 + 8 quarries are conserved
across the supply, the boards, the ships, the trading house, the stack and the discards.
"""

from __future__ import annotations

import pytest

from engine import Setup
from engine.puerto_rico import RULES
from engine.puerto_rico.captain import capacities
from engine.puerto_rico.components import BARRELS, BUILDINGS, PLANTATIONS, QUARRIES, SETUP
from engine.puerto_rico.state import State, city_spaces_used, colonists_of
from tests.engine.helpers import assert_ends_and_replays, random_game

GAMES_PER_COUNT = 100
MAX_ROUNDS = 40  # real games last about 15 rounds; random play is slower but must still end


def assert_conserved(state: State) -> None:
    """Every component is somewhere, exactly once; no game runs past MAX_ROUNDS."""
    n = state.n
    row = SETUP[n]
    players = state.players
    assert state.colonist_supply + state.colonist_ship + sum(colonists_of(p) for p in players) == (
        row.colonist_supply + row.colonist_ship)
    for g in range(5):
        on_ships = sum(load for kind, load in zip(state.ship_goods, state.ship_loads, strict=True) if kind == g)
        held = sum(p.goods[g] for p in players)
        assert state.goods_supply[g] + held + on_ships + state.trading_house.count(g) == BARRELS[g]
        tiles = state.stack[g] + state.face_up[g] + state.discards[g] + sum(p.island[g] for p in players)
        assert tiles == PLANTATIONS[g]
    assert state.quarries + sum(p.island[5] for p in players) == QUARRIES
    for b, building in enumerate(BUILDINGS):
        assert state.building_supply[b] + sum(1 for p in players if p.city[b] >= 0) == building.copies
    assert all(p.doubloons >= 0 for p in players)
    assert all(0 <= w <= c for p in players for w, c in zip(p.island_workers, p.island, strict=True))
    caps = capacities(state)
    assert all(0 <= load <= cap for load, cap in zip(state.ship_loads, caps, strict=True))
    assert len(state.trading_house) <= 4 and state.vp_bank >= 0
    assert state.round <= MAX_ROUNDS


def ended_by_a_real_trigger(state: State) -> bool:
    """The ship could not be refilled, a city is full, or the VP chips ran out."""
    return state.end_triggered and (
        state.colonist_supply == 0 or state.vp_bank == 0 or any(city_spaces_used(p) == 12 for p in state.players))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_games_end_conserve_and_replay(n):
    setup = Setup(tuple(f"P{i}" for i in range(n)))
    for seed in range(GAMES_PER_COUNT):
        playout = random_game(RULES, setup, seed, check=assert_conserved)
        assert ended_by_a_real_trigger(playout.state), f"{n} players, seed {seed}"
        assert_ends_and_replays(playout, f"{n} players, seed {seed}")
