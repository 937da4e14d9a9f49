"""Seeded random legal games, 100 each at 2, 3 and 4 players: every game ends after round 5, pieces and tokens are
conserved, no counter goes negative, and a checked replay of the events equals live play."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Setup
from engine.amerigo import RULES
from engine.amerigo import components as c
from engine.amerigo.board import ANCHOR
from engine.amerigo.state import EMPTY, OVER, TOWER, State, production_pool
from tests.engine.helpers import assert_ends_and_replays, random_game

GAMES_PER_COUNT = 100


def assert_conserved(state: State) -> None:
    """Every component is somewhere, exactly once; no counter is out of range."""
    components = state.components
    if state.round > 0 or state.phase == TOWER:
        for colour in range(7):
            cubes = state.tower[colour] + state.storage[colour] + state.field[colour] + state.stray[colour]
            assert cubes == c.CUBES_PER_COLOUR
    assert sorted(state.pirates + state.pirate_pool) == sorted(c.PIRATES)
    owned = [t for p in state.players for t in p.tokens]
    on_spaces = [t for t in state.progress_spaces if t != EMPTY]
    assert len(set(owned + on_spaces + list(state.progress_pool))) == len(owned) + len(on_spaces) + len(state.progress_pool)
    bought = [sum(p.production[k] for p in state.players) for k in range(15)]
    on_board = Counter(k for k in state.production_spaces if k != EMPTY)
    initial = production_pool(state.n)
    assert all(state.production_pool[k] + bought[k] + on_board[k] <= initial[k] for k in range(15))
    placed = Counter((kind, builder) for kind, builder, *_ in state.placements)
    for k in components.neutral_kinds:
        kind = components.kinds[k]
        in_stock = sum(p.stock[k] for p in state.players)
        assert state.neutral[k] + in_stock + sum(placed[(k, s)] for s in range(state.n)) == kind.copies
    for seat, player in enumerate(state.players):
        for i, k in enumerate(components.village_kinds):
            assert player.villages[i] + player.stock[k] + placed[(k, seat)] == components.kinds[k].copies
        posts = state.cover.count(-(seat + 1))
        assert player.posts_left + posts == c.POSTS_PER_PLAYER == player.posts_left + player.posts_founded
        assert player.vp >= 0 and 0 <= player.gold <= c.GOLD_MAX and 0 <= player.cannons <= c.CANNON_MAX
        assert 0 <= player.progress <= components.progress_last and 0 <= player.order_pos <= components.order_last
        assert player.chests >= 0 and all(v >= 0 for v in player.goods + player.stock + player.villages)
    assert state.ap >= 0 and all(left >= 0 for left in state.island_empty)
    board = state.board
    if board is not None:
        assert sum(state.chests) + sum(p.chests for p in state.players) <= sum(board.initial_chests)
        for g in range(5):
            spaces = [i for i, good in enumerate(board.goods) if good == g]
            uncovered = sum(1 for i in spaces if state.cover[i] == 0)
            assert uncovered + sum(p.goods[g] for p in state.players) == len(spaces) <= c.GOODS_TOKENS_PER_GOOD
        ships = Counter(node for p in state.players for node in p.ships if 0 <= node < board.cells)
        assert all(n == 1 for n in ships.values())
        assert all(board.terrain[node] <= ANCHOR for node in ships)
        for island, left in enumerate(state.island_empty):
            assert left == sum(1 for cell in board.islands[island].cells if state.cover[cell] == 0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_end_conserve_and_replay(n):
    setup = Setup(tuple(f"P{i}" for i in range(n)))
    for seed in range(GAMES_PER_COUNT):
        playout = random_game(RULES, setup, seed, check=assert_conserved, every=7 if seed < 10 else 97)
        final = playout.state
        assert final.phase == OVER and final.round == c.ROUNDS and len(final.pirates) == 5
        assert not final.progress_pool and not any(final.production_pool)
        assert_ends_and_replays(playout, f"{n} players, seed {seed}")
