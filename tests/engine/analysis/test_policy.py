"""The rollout policies and the playout loop: cheap, and choosing what their plans say."""

from __future__ import annotations

import random
from collections import Counter

from engine import CHANCE, Setup, get_rules
from engine.analysis import search
from engine.analysis.search import play_out
from engine.core.fold import draw_chance
from engine.players.picking import pick, verb_preference_player
from engine.puerto_rico.mayor import free_circles, placement_slots
from engine.puerto_rico.notation import PLACE_ACTIONS
from engine.puerto_rico.rollout import baseline_player as puerto_rico_player
from engine.puerto_rico.state import PLACE


class FixedDraws(random.Random):
    """An rng whose ``random()`` returns the given numbers in turn (the rest of the API as usual)."""

    def __init__(self, *draws: float) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def random(self) -> float:
        return self.draws.pop(0)


def test_pick_is_uniform_and_stays_in_range_at_the_top_of_the_unit_interval():
    actions = ["a", "b", "c"]
    assert pick(actions, FixedDraws(1 - 2 ** -53)) == "c"
    assert pick(actions, FixedDraws(0.0)) == "a"
    for size in range(1, 40):
        assert pick(list(range(size)), FixedDraws(1 - 2 ** -53)) == size - 1
    counts = Counter(pick(actions, random.Random(s)) for s in range(3000))
    assert all(900 < counts[a] < 1100 for a in actions)


def test_verb_preference_takes_the_first_preferred_verb_present_and_avoids_the_avoided():
    player = verb_preference_player(("build", "take"), ("pass",))
    actions = [("pass",), ("take", 1), ("build", 2), ("move", 3), ("build", 4)]
    followed = {player(None, actions, FixedDraws(0.0, u)) for u in (0.0, 0.6)}
    assert followed == {("build", 2), ("build", 4)}
    without_build = [a for a in actions if a[0] != "build"]
    assert player(None, without_build, FixedDraws(0.0, 0.0)) == ("take", 1)
    # not followed (a draw above 0.85): anything but a pass
    unplanned = {player(None, actions, FixedDraws(0.9, u / 4)) for u in range(4)}
    assert unplanned == {("take", 1), ("build", 2), ("move", 3), ("build", 4)}
    assert player(None, [("pass",)], FixedDraws(0.9, 0.5)) == ("pass",)


class CountingForced:
    """Puerto Rico's rules, counting the decisions with a single legal action and the placements listed."""

    def __init__(self) -> None:
        self.rules, self.forced, self.placements_listed = get_rules("puerto_rico"), 0, 0

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def legal_actions(self, state):
        actions = self.rules.legal_actions(state)
        self.forced += len(actions) == 1
        self.placements_listed += state.phase == PLACE
        return actions


def test_the_playout_asks_the_policy_only_when_there_is_a_choice():
    """A forced move is taken without the policy: only real choices cost a policy call."""
    asked: list[int] = []

    def policy(state, actions, rng):
        asked.append(len(actions))
        return rng.choice(actions)

    rules = CountingForced()
    shares = play_out(rules, rules.initial_state(Setup(("a", "b", "c", "d"))), policy, random.Random(3))
    assert shares is not None and sum(shares) == 1
    assert rules.forced > 50 and asked and min(asked) >= 2


def _puerto_rico_decisions(games: int):
    """(state, legal actions) at every decision of a few seeded random Puerto Rico games."""
    rules, rng = get_rules("puerto_rico"), random.Random(8)
    for game in range(games):
        state = rules.initial_state(Setup(tuple("abcde"[:3 + game % 3])))
        while (actor := rules.current_actor(state)) is not None:
            if actor == CHANCE:
                action = draw_chance(rules.chance_outcomes(state), rng.random())
            else:
                actions = list(rules.legal_actions(state))
                yield state, actions
                action = rng.choice(actions)
            state = rules.apply(state, action)


def _planned(state, actions):
    """What the policy's plan takes (docs of engine.puerto_rico.rollout), written out the long way."""
    def of(*verbs):
        return [a for a in actions if a[0] in verbs]

    if state.phase == PLACE:
        return actions
    if of("role"):
        return _most(of("role"), lambda a: state.role_coins[a[1]] if a[1] < len(state.role_coins) else 0)
    if of("build"):
        from engine.puerto_rico.components import COLUMNS
        return _most(of("build"), lambda a: COLUMNS[a[1]])
    if of("sell"):
        return _most(of("sell"), lambda a: a[1])
    if of("plant", "quarry"):
        return _most(of("plant", "quarry"), lambda a: a[1] if a[0] == "plant" else 2.5)
    for verb in ("load", "extra", "hacienda"):
        if of(verb):
            return of(verb)
    return [a for a in actions if a[0] != "pass"] or actions


def _most(actions, value):
    top = max(value(a) for a in actions)
    return [a for a in actions if value(a) == top]


def test_puerto_rico_policy_follows_its_plan_at_every_kind_of_decision():
    """Followed (a first draw below 0.85), every pick is one of the plan's actions and each is reachable;
    otherwise any action but a pass."""
    checked = 0
    for state, actions in _puerto_rico_decisions(3):
        if len(actions) < 2:
            continue
        plan = sorted(_planned(state, actions))
        draws = [(k + 0.5) / len(plan) for k in range(len(plan))]
        if state.phase == PLACE:  # one draw only: every placement is alike
            picked = sorted(puerto_rico_player(state, actions, FixedDraws(u)) for u in draws)
        else:
            picked = sorted(puerto_rico_player(state, actions, FixedDraws(0.0, u)) for u in draws)
            loose = [a for a in actions if a[0] != "pass"] or actions
            assert {puerto_rico_player(state, actions, FixedDraws(0.9, u)) for u in (0.0, 0.99)} <= set(loose)
        assert picked == plan, (state.phase, actions)
        checked += 1
    assert checked > 300


def test_the_playout_applies_puerto_rico_placements_from_the_policys_plan():
    rules = CountingForced()
    shares = play_out(rules, rules.initial_state(Setup(("a", "b", "c", "d"))), puerto_rico_player, random.Random(5))
    assert shares is not None and sum(shares) == 1
    assert rules.placements_listed == 0


def test_puerto_rico_plan_places_every_colonist_left_among_exactly_the_placements_the_rules_offer():
    """"Az üres karikákat a lehetőségek határáig fel kell tölteni" (empty circles must be filled as far as
    possible): the plan places every colonist the seat has left, each step choosing among the rules' own
    placements (mayor.legal_actions), so planned rollouts play as if they asked the rules at every colonist."""
    rules, checked = get_rules("puerto_rico"), 0
    for state, _ in _puerto_rico_decisions(4):
        if state.phase != PLACE:
            continue
        seat = state.turn
        plan = puerto_rico_player.plan(state, random.Random(checked))
        assert len(plan) == state.players[seat].san_juan
        for action in plan:
            player = state.players[seat]
            offered = [PLACE_ACTIONS[s] for s in placement_slots(free_circles(player), state.last_slot, player.san_juan)]
            assert offered == list(rules.legal_actions(state)) and action in offered
            state = rules.apply(state, action)
        assert state.phase != PLACE or state.turn != seat
        checked += 1
    assert checked > 100
    assert puerto_rico_player.plan(rules.initial_state(Setup(("a", "b", "c"))), random.Random(0)) == []


def test_the_placement_plan_changes_no_analysis_only_what_it_costs():
    """The plan draws the same numbers for the same choices as the policy asked at every colonist."""
    rules = get_rules("puerto_rico")
    state, _ = next(d for k, d in enumerate(_puerto_rico_decisions(1)) if k >= 40 and d[0].phase != PLACE)
    seat = rules.current_actor(state)

    def without_plan(state, actions, rng):
        return puerto_rico_player(state, actions, rng)

    planned = search(rules, state, seat=seat, rollouts=30, seed=2, policy=puerto_rico_player)
    assert planned == search(rules, state, seat=seat, rollouts=30, seed=2, policy=without_plan)
