"""The all-games conformance suite (after OpenSpiel's): every registered game obeys the protocol.

Parametrised over every game the registry knows, plus the test-only Pig. Each check runs
on seeded random playouts over every supported player count.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import CHANCE, IllegalActionError, Setup, apply_event, fold, random_playout, replay
from engine.core.fold import check_action
from engine.core.phased import PhasedRules
from engine.players.offered import policy_for
from engine.players.picking import plan_of

SEEDS = (1, 2, 3)


def _setups(rules):
    for n in range(rules.min_players, rules.max_players + 1):
        yield Setup(tuple(f"P{i}" for i in range(n)))


def _cases():
    for name in engine.registered_games():
        rules = engine.get_rules(name)
        for setup in _setups(rules):
            for seed in SEEDS:
                yield pytest.param(name, setup, seed, id=f"{name}-{len(setup.players)}p-s{seed}")


CASES = list(_cases())
_playouts: dict = {}


def _playout(name, setup, seed):
    key = (name, setup.players, seed)
    if key not in _playouts:
        _playouts[key] = random_playout(engine.get_rules(name), setup, random.Random(seed))
    return _playouts[key]


def _states(playout):
    """Every state of a playout, from the initial one to the final one."""
    rules = playout.rules
    _, state = engine.start(playout.events[0])
    yield state
    for event in playout.events[1:]:
        state = apply_event(rules, state, event, check=False)
        yield state


def _dump(rules, state):
    return json.loads(json.dumps(rules.dump_state(state), sort_keys=True))


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_playout_ends_with_no_actor_and_an_outcome(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules = playout.rules
    assert rules.current_actor(playout.state) is None
    assert rules.legal_actions(playout.state) == () or list(rules.legal_actions(playout.state)) == []
    outcome = rules.outcome(playout.state)
    assert outcome is not None
    assert len(outcome.scores) == len(setup.players)
    assert outcome.winners and all(0 <= w < len(setup.players) for w in outcome.winners)
    json.dumps(outcome.to_json())


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_outcome_places_every_seat_and_the_winners_are_exactly_first_place(name, setup, seed):
    """Issue 16: every game fills the final places by its own rules; consumers read them as given."""
    outcome = _playout(name, setup, seed).rules.outcome(_playout(name, setup, seed).state)
    ranks = outcome.ranks
    assert len(ranks) == len(setup.players)
    assert outcome.winners == tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    # Places as results tables give them: a place r is preceded by exactly r - 1 seats placed better.
    assert all(sum(1 for other in ranks if other < rank) == rank - 1 for rank in ranks)


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_replay_with_checks_equals_live_play(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules, state = replay(playout.events, check=True)
    assert _dump(rules, state) == _dump(rules, playout.state)


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_resuming_from_a_dumped_snapshot_equals_full_replay(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules = playout.rules
    cut = random.Random(seed).randrange(1, len(playout.events))
    _, state = replay(playout.events[:cut], check=False)
    snapshot = json.loads(json.dumps(rules.dump_state(state)))
    resumed = fold(rules, rules.load_state(snapshot), playout.events[cut:], check=True)
    assert _dump(rules, resumed) == _dump(rules, playout.state)


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_every_state_round_trips_through_json(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules = playout.rules
    for state in _states(playout):
        dumped = _dump(rules, state)
        assert _dump(rules, rules.load_state(dumped)) == dumped


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_every_listed_action_applies_and_unlisted_ones_are_refused(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules = playout.rules
    universe = {rules.parse_action(e.action) for e in playout.events[1:]}
    for state in _states(playout):
        actor = rules.current_actor(state)
        if actor is None:
            continue
        if actor == CHANCE:
            listed = [a for a, w in rules.chance_outcomes(state)]
            assert all(isinstance(w, int) and w >= 0 for _, w in rules.chance_outcomes(state))
            assert rules.legal_actions(state) == () or not list(rules.legal_actions(state))
        else:
            listed = list(rules.legal_actions(state))
            assert listed, "a seat to act must have at least one legal action"
            assert len(set(listed)) == len(listed), "legal actions must be distinct"
        for action in listed:
            check_action(rules, state, actor, action)
            rules.apply(state, action)
        for action in universe.difference(listed):
            with pytest.raises(IllegalActionError):
                check_action(rules, state, actor, action)


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_notation_round_trips_and_describe_speaks(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules = playout.rules
    states = _states(playout)
    for event in playout.events[1:]:
        state = next(states)
        action = rules.parse_action(event.action)
        assert rules.format_action(action) == event.action
        assert rules.parse_action(rules.format_action(action)) == action
        sentence = rules.describe(state, action)
        assert isinstance(sentence, str) and sentence.strip()


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_views_are_json_and_seat_views_hide_no_more_than_needed(name, setup, seed):
    playout = _playout(name, setup, seed)
    rules = playout.rules
    for i, state in enumerate(_states(playout)):
        if i % 7:
            continue
        json.dumps(rules.view(state, None))
        for seat in range(len(setup.players)):
            json.dumps(rules.view(state, seat))


@pytest.mark.parametrize("name,setup,seed", CASES)
def test_playouts_are_deterministic(name, setup, seed):
    rules = engine.get_rules(name)
    again = random_playout(rules, setup, random.Random(seed))
    assert [e.to_json() for e in again.events] == [e.to_json() for e in _playout(name, setup, seed).events]


def test_a_player_moving_out_of_turn_is_refused_with_the_seq():
    playout = _playout("pig", Setup(("A", "B")), 1)
    seat_event = next(e for e in playout.events[1:] if e.type == engine.ACTION_TAKEN)
    rules, state = replay(playout.events[: seat_event.seq - 1])
    wrong_seat = 1 - seat_event.actor
    with pytest.raises(engine.EventMismatchError) as err:
        apply_event(rules, state, engine.Event(seat_event.seq, engine.ACTION_TAKEN, wrong_seat, "roll"))
    assert isinstance(err.value, IllegalActionError)
    assert f"at seq {seat_event.seq}" in str(err.value)
    assert f"seat {wrong_seat} acted but seat {seat_event.actor} is to act" in str(err.value)


def test_a_chance_draw_written_as_a_seat_s_action_is_an_event_mismatch():
    playout = _playout("pig", Setup(("A", "B")), 1)
    chance_event = next(e for e in playout.events[1:] if e.actor == CHANCE)
    rules, state = replay(playout.events[: chance_event.seq - 1])
    forged = engine.Event(chance_event.seq, engine.ACTION_TAKEN, CHANCE, chance_event.action)
    with pytest.raises(engine.EventMismatchError, match="event order"):
        apply_event(rules, state, forged)


@pytest.mark.parametrize("name", engine.registered_games())
@pytest.mark.parametrize("fault", ["gap", "repeat"])
def test_fold_refuses_events_whose_seqs_do_not_run_on(name, fault):
    """Seqs run 1, 2, 3 … with no gap within a branch: a lost or doubled event is an error, not a silent other state."""
    rules = engine.get_rules(name)
    events = _playout(name, next(_setups(rules)), SEEDS[0]).events[:6]
    broken = [*events[:3], events[4]] if fault == "gap" else [*events[:4], events[3]]
    with pytest.raises(engine.EventSequenceError, match=f"expected seq {4 if fault == 'gap' else 5}"):
        replay(broken, check=False)
    _, state = engine.start(events[0])
    with pytest.raises(engine.EventSequenceError, match="event seq 3 out of order: expected seq 2"):
        fold(rules, state, events[2:], after=events[0].seq)
    assert fold(rules, state, events[1:], after=events[0].seq) == replay(events)[1]


def test_unknown_game_names_the_known_ones():
    with pytest.raises(engine.UnknownGameError) as err:
        engine.get_rules("chess")
    assert "'chess'" in str(err.value) and "pig" in str(err.value)


@pytest.mark.parametrize("name", engine.registered_games())
def test_an_unknown_setup_option_is_a_setup_error_naming_it(name):
    rules = engine.get_rules(name)
    with pytest.raises(engine.SetupError, match="nosuch"):
        rules.initial_state(Setup(tuple(f"P{i}" for i in range(rules.min_players)), {"nosuch": 1}))


@pytest.mark.parametrize("name", engine.registered_games())
def test_a_player_count_the_game_does_not_take_and_twin_names_are_setup_errors(name):
    rules = engine.get_rules(name)
    for count in (rules.min_players - 1, rules.max_players + 1):
        with pytest.raises(engine.SetupError, match=f"takes {rules.min_players} to {rules.max_players} players, got {count}"):
            rules.initial_state(Setup(tuple(f"P{i}" for i in range(count))))
    with pytest.raises(engine.SetupError, match="distinct"):
        rules.initial_state(Setup(("Anna",) * rules.min_players))


@pytest.mark.parametrize("name", [n for n in engine.registered_games() if isinstance(engine.get_rules(n), PhasedRules)])
def test_an_action_of_no_known_shape_is_refused_by_notation_in_every_game(name):
    """One check for every phased game (issue 18): a shape none of the game's notation knows is "not a <game> action"."""
    rules = engine.get_rules(name)
    state = rules.initial_state(next(_setups(rules)))
    for shapeless in [("no such verb", 1), (), ("pass", "pass", "pass", "pass", "pass", "pass")]:
        with pytest.raises(IllegalActionError) as refused:
            rules.check(state, shapeless)
        assert refused.value.rule == "notation"
        assert str(refused.value).count(name.replace("_", " ") + " action") == 1


def _planners(rules):
    """The game's players that plan (its rollout policy and strategy bots), with their names."""
    players = {"rollout policy": policy_for(rules), **rules.declaration.strategy_players}
    return [(name, plan) for name, player in players.items() if (plan := plan_of(player)) is not None]


@pytest.mark.parametrize("name,setup,seed", [c for c in CASES if engine.get_rules(c.values[0]).declaration.apply_plan])
def test_a_declared_apply_plan_leaves_what_its_actions_one_by_one_leave(name, setup, seed):
    """A game's ``apply_plan`` is a shortcut for a playout: every plan of its planning players, and every prefix of
    one, applied at once must leave the very state that applying its actions in turn leaves."""
    playout = _playout(name, setup, seed)
    rules = playout.rules
    apply_plan = rules.declaration.apply_plan
    checked = 0
    for index, state in enumerate(_states(playout)):
        for player_name, plan in _planners(rules):
            actions = list(plan(state, random.Random(index)))
            for end in range(1, len(actions) + 1):
                one_by_one = state
                for action in actions[:end]:
                    one_by_one = rules.apply(one_by_one, action)
                at_once = apply_plan(state, actions[:end])
                assert _dump(rules, at_once) == _dump(rules, one_by_one), (player_name, index, actions[:end])
                checked += 1
    assert checked, "no state of the playout had a plan to check"
