"""Seeded random legal games, 150 each at 3 and 4 players: real ends, conservation, replay equals live play.

Digest: 35 coins, 6 key cards, 50 landscape cards, 8 goods cards, 8 bonus cards, 16 scoring cards and each
player's houses are conserved across the supplies, the piles, the layout, the players and the box.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Setup
from engine.golden_city import RULES
from engine.golden_city.state import BOX, GOODS_LIMIT, OVER, State
from tests.engine.helpers import assert_ends_and_replays, random_game

GAMES_PER_COUNT = 150
MAX_ROUNDS = 16  # "at most 16 rounds": one scoring card per round


def assert_conserved(state: State) -> None:
    """Every component is somewhere, exactly once, and no counter is negative."""
    components = state.components
    players = state.players
    assert state.coin_supply + sum(p.coins for p in players) == components.coins
    assert state.key_supply + sum(p.keys for p in players) + state.keys_used == components.key_cards
    laid = sum(1 for t in state.layout if t >= 0)
    assert sum(state.pile) + sum(state.discard) + sum(sum(p.hand) for p in players) + laid == sum(components.landscape)
    goods = Counter(state.goods_pile + state.goods_display + state.goods_boxed + sum((p.goods for p in players), ()))
    assert goods == Counter(components.goods_card_ids)
    assert Counter(state.bonus_pile + sum((p.bonus for p in players), ())) == Counter(components.bonus_ids)
    scoring = state.scoring_pile + state.scored + ((state.scoring_card,) if state.scoring_card else ())
    assert Counter(scoring) == Counter(components.scoring_ids)
    taken = 0
    for p in players:
        assert p.houses_left + p.houses.bit_count() == components.houses[state.n]
        assert not taken & p.houses & components.singles, "a harbour or suburb holds one house"
        taken |= p.houses & components.singles
        assert min(p.hand) >= 0 and p.coins >= 0 and p.keys >= 0 and p.letters >= 0 and p.houses_left >= 0
        assert len(p.goods) <= GOODS_LIMIT or (state.phase == BOX and len(p.goods) == GOODS_LIMIT + 1)
    assert taken == state.taken
    assert min(state.pile) >= 0 and min(state.discard) >= 0 and state.coin_supply >= 0 and state.key_supply >= 0
    assert len(state.goods_display) <= 3 and state.round <= MAX_ROUNDS


def ended_by_a_real_trigger(state: State) -> bool:
    """The last scoring card was scored, or a player placed their last house or became blocked."""
    last_house = any(p.houses_left == 0 for p in state.players)
    blocked = any(p.blocked for p in state.players)
    return state.phase == OVER and (not state.scoring_pile or (state.end_triggered and (last_house or blocked)))


@pytest.mark.parametrize("n", [3, 4])
def test_random_games_end_conserve_and_replay(n):
    for seed in range(GAMES_PER_COUNT):
        setup = Setup(tuple(f"P{i}" for i in range(n)), {"start_seat": seed % n})
        playout = random_game(RULES, setup, seed, check=assert_conserved)
        assert ended_by_a_real_trigger(playout.state), f"{n} players, seed {seed}"
        assert_ends_and_replays(playout, f"{n} players, seed {seed}")
