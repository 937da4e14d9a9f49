"""The engine seat's levels (service.games.seating): the strong engine is the search player whose strength the
strength bench measures, at the game's analysis budget; easy and normal are the tree search at 16 and 64 rollouts.
An engine move's seed is the position as its seat sees it."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import CHANCE, Setup, get_rules
from engine.analysis import default_rollouts, search
from engine.analysis.player import choose
from engine.core.fold import draw_chance
from engine.core.protocol import Rules, State
from engine.players.offered import determinizer_for
from service.games.seating import LEVELS, choose_engine_move, engine_seed
from service.store.seats import ENGINE_LEVELS
from tests.engine.analysis.test_player import WatchedPig, _pig
from tests.games.pig import PIG


def test_every_level_a_seat_may_take_is_defined():
    assert set(LEVELS) == set(ENGINE_LEVELS)


@pytest.mark.parametrize(("level", "rollouts"), [("easy", 16), ("normal", 64)])
def test_easy_and_normal_play_the_trees_most_visited_move(level, rollouts):
    rules, state = WatchedPig(), _pig()
    best = search(rules, state, seat=0, rollouts=rollouts, seed=4).best
    assert best is not None and choose_engine_move(rules, state, 0, level, 4) == best.action


def test_strong_plays_the_search_player_at_the_games_own_budget(monkeypatch):
    rules, state = WatchedPig(), _pig()
    monkeypatch.setattr(WatchedPig, "declaration", property(lambda pig: replace(PIG.declaration, analysis_rollouts=60)))
    assert default_rollouts(rules) == 60
    assert choose_engine_move(rules, state, 0, "strong", 4) == choose(WatchedPig(), state, 0, rollouts=60, seed=4)


def _dealt(game: str, players: int, seed: int) -> tuple[Rules, State]:
    """A real game's first position where a seat is to act (its setup's chance drawn from ``seed``)."""
    rules = get_rules(game)
    rng, state = random.Random(seed), rules.initial_state(Setup(tuple("ABCD"[:players])))
    while rules.current_actor(state) == CHANCE:
        state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
    return rules, state


def test_strong_plays_a_legal_move_of_a_real_game_from_its_seats_view():
    rules, state = _dealt("golden_city", 4, 3)
    seat = rules.current_actor(state)
    assert choose_engine_move(rules, state, seat, "strong", 11) in rules.legal_actions(state)


def test_the_engine_seed_takes_nothing_from_what_its_seat_cannot_see():
    """The seed of an engine move is a hash of the seat's view: full states that differ only in what the seat cannot see
    (Die goldene Stadt's other hands, drawn again by the game's own determinizer) give the same seed, so the engine's
    move tells nothing of hidden parts."""
    rules, state = _dealt("golden_city", 3, 5)
    seat = rules.current_actor(state)
    others = [determinizer_for(rules)(state, seat, random.Random(i)) for i in range(6)]
    hidden_differs = [o for o in others if rules.dump_state(o) != rules.dump_state(state)]
    assert hidden_differs, "no draw of the hidden parts differed (the test would prove nothing)"
    assert {engine_seed(rules, other, seat) for other in hidden_differs} == {engine_seed(rules, state, seat)}


@pytest.mark.parametrize("game", ["puerto_rico", "entdecker", "amerigo", "golden_city"])
def test_the_engine_seed_is_the_same_for_the_same_position_and_another_for_another(game):
    """The same deal gives the same seed (a test, a retried job, another table at the same point: the same move);
    another seat or the next position another seed."""
    rules, state = _dealt(game, 3, 5)
    seat = rules.current_actor(state)
    _, same_deal = _dealt(game, 3, 5)
    assert engine_seed(rules, same_deal, seat) == engine_seed(rules, state, seat)
    assert engine_seed(rules, state, (seat + 1) % 3) != engine_seed(rules, state, seat)
    after = rules.apply(state, rules.legal_actions(state)[0])
    assert engine_seed(rules, after, seat) != engine_seed(rules, state, seat)
