"""The search player (engine.analysis): determinism, result shape, sense, and respect of hidden information."""

from __future__ import annotations

import random

import pytest

from engine import CHANCE, Outcome, Setup, get_rules
from engine.analysis import DEFAULT_ROLLOUTS, default_rollouts, search, wilson_interval, win_shares
from engine.core.fold import draw_chance, uniform_player
from engine.players.offered import policy_for
from tests.games.pig import PIG, PigState


def _pig(scores=(0, 0), turn_total=0, target=20) -> PigState:
    return PigState(tuple(scores), (1,) * len(scores), 0, turn_total, False, target)


def _advance(rules, state, rng, steps):
    """``state`` after up to ``steps`` random legal moves, then on to the next seat's decision."""
    for _ in range(steps):
        if rules.current_actor(state) is None:
            break
        state = _random_step(rules, state, rng)
    while rules.current_actor(state) == CHANCE:
        state = _random_step(rules, state, rng)
    return state


def _random_step(rules, state, rng):
    if rules.current_actor(state) == CHANCE:
        return rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
    return rules.apply(state, rng.choice(list(rules.legal_actions(state))))


def test_same_seed_same_analysis_and_another_seed_may_differ():
    state = _pig((10, 12), turn_total=4)
    first = search(PIG, state, seat=0, rollouts=60, seed=7)
    assert first == search(PIG, state, seat=0, rollouts=60, seed=7)
    assert first != search(PIG, state, seat=0, rollouts=60, seed=8)


def test_result_shape_actions_visits_probabilities_and_intervals():
    analysis = search(PIG, _pig((5, 5), turn_total=3), seat=0, rollouts=40, seed=1)
    assert analysis.actor == 0 and analysis.rollouts == 40
    assert sorted(a.action for a in analysis.actions) == ["hold", "roll"]
    assert sum(a.visits for a in analysis.actions) == 40
    assert sum(analysis.win) == pytest.approx(1.0)
    for stats in analysis.actions:
        assert 0 <= stats.low <= stats.win <= stats.high <= 1
    assert analysis.best == analysis.actions[0]
    data = analysis.to_json(PIG.format_action)
    assert set(data) == {"seat", "actor", "rollouts", "seed", "win", "actions"}
    assert set(data["actions"][0]) == {"action", "n", "win", "ci"}


def test_a_winning_hold_is_found_and_rated_a_sure_win():
    analysis = search(PIG, _pig((18, 19), turn_total=3), seat=0, rollouts=40, seed=3)
    assert analysis.best is not None and analysis.best.action == "hold"
    assert analysis.best.win == 1.0


def test_a_finished_game_reports_its_result_and_no_actions():
    analysis = search(PIG, _pig((20, 7)), seat=1, rollouts=10, seed=0)
    assert analysis.win == (1.0, 0.0) and analysis.actions == () and analysis.actor is None


def test_a_seat_not_to_act_gets_chances_but_not_the_movers_options():
    analysis = search(PIG, _pig((5, 5), turn_total=3), seat=1, rollouts=20, seed=0)
    assert analysis.actions == () and len(analysis.win) == 2


def test_budget_below_one_is_refused():
    with pytest.raises(ValueError, match="rollouts must be at least 1"):
        search(PIG, _pig(), seat=0, rollouts=0, seed=0)


def test_a_shared_first_place_counts_one_kth_for_each_sharer():
    assert win_shares(Outcome.ranked((5, 5, 3), scores=(5, 5, 3))) == (0.5, 0.5, 0.0)
    assert win_shares(Outcome.ranked((1, 9), scores=(1, 9))) == (0.0, 1.0)


def test_wilson_interval_matches_the_textbook_values():
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_each_game_has_a_rollout_policy_better_informed_than_uniform():
    for game in ("puerto_rico", "amerigo", "entdecker", "golden_city"):
        assert policy_for(get_rules(game)) is not uniform_player, game
    assert policy_for(PIG) is uniform_player


def _golden_city_midgame(seed: int):
    rules = get_rules("golden_city")
    state = _advance(rules, rules.initial_state(Setup(("a", "b", "c", "d"))), random.Random(seed), 90)
    return rules, state


def test_golden_city_determinisation_keeps_the_seats_view_and_redeals_the_rest():
    rules, state = _golden_city_midgame(5)
    seat = rules.current_actor(state)
    changed = False
    for draw in range(5):
        sample = rules.declaration.determinize(state, seat, random.Random(draw))
        assert rules.view(sample, seat) == rules.view(state, seat)
        changed = changed or sample.players != state.players or sample.pile != state.pile
    assert changed, "the others' hands and the pile were never re-dealt"


def test_states_differing_only_in_what_the_seat_cannot_see_give_identical_analyses():
    """"A játékosok titokban tartják egymás előtt ..." (players keep their holdings secret from each other):
    the hint for a seat is the same whatever the hidden cards are."""
    rules, state = _golden_city_midgame(11)
    seat = rules.current_actor(state)
    other = rules.declaration.determinize(state, seat, random.Random(99))
    assert rules.view(other, seat) == rules.view(state, seat)
    assert other != state
    assert search(rules, state, seat=seat, rollouts=12, seed=4) == search(rules, other, seat=seat, rollouts=12, seed=4)


def test_a_games_default_budget_is_its_rules_own_else_two_hundred():
    """A game names a larger budget where its marks need more samples to repeat under a second seed."""
    assert DEFAULT_ROLLOUTS == 200 and default_rollouts(PIG) == 200
    budgets = {game: default_rollouts(get_rules(game)) for game in ("puerto_rico", "amerigo", "entdecker", "golden_city")}
    assert budgets == {"puerto_rico": 200, "amerigo": 200, "entdecker": 400, "golden_city": 400}
