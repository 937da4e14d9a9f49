"""The engine seat's levels (service.games.seating): the strong engine is the search player whose strength the
strength bench measures, at the game's analysis budget; easy and normal are the tree search at 16 and 64 rollouts."""

from __future__ import annotations

import random

import pytest

from engine import CHANCE, Setup, get_rules
from engine.analysis import default_rollouts, search
from engine.analysis.player import choose
from engine.core.fold import draw_chance
from service.games.seating import LEVELS, choose_engine_move
from service.store.seats import ENGINE_LEVELS
from tests.engine.analysis.test_player import WatchedPig, _pig


def test_every_level_a_seat_may_take_is_defined():
    assert set(LEVELS) == set(ENGINE_LEVELS)


@pytest.mark.parametrize(("level", "rollouts"), [("easy", 16), ("normal", 64)])
def test_easy_and_normal_play_the_trees_most_visited_move(level, rollouts):
    rules, state = WatchedPig(), _pig()
    best = search(rules, state, seat=0, rollouts=rollouts, seed=4).best
    assert best is not None and choose_engine_move(rules, state, 0, level, 4) == best.action


def test_strong_plays_the_search_player_at_the_games_own_budget(monkeypatch):
    rules, state = WatchedPig(), _pig()
    monkeypatch.setattr(WatchedPig, "analysis_rollouts", 60, raising=False)
    assert default_rollouts(rules) == 60
    assert choose_engine_move(rules, state, 0, "strong", 4) == choose(WatchedPig(), state, 0, rollouts=60, seed=4)


def test_strong_plays_a_legal_move_of_a_real_game_from_its_seats_view():
    rules = get_rules("golden_city")
    rng, state = random.Random(3), rules.initial_state(Setup(("A", "B", "C", "D")))
    while rules.current_actor(state) == CHANCE:
        state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
    seat = rules.current_actor(state)
    assert choose_engine_move(rules, state, seat, "strong", 11) in rules.legal_actions(state)
