"""The fast legality checks never call an unlisted action legal.

Entdecker's ``turn.surely_legal`` and Golden City's ``building.build_listed`` and ``bidding.bid_listed`` let the
rules' ``check`` accept a logged action without listing every legal action (issue 23). They are a second form of
the rules, so they must never say yes where the list says no. The conformance suite offers every action of a
whole game at every state; this test adds near misses: each listed action with one number moved by one, at every
decision of seeded games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import engine
from engine import CHANCE, Setup, random_playout
from engine.entdecker import turn
from engine.golden_city import bidding, building
from engine.golden_city.state import BID, BUILD


def _golden_city_listed(state: Any, action: Any) -> bool:
    if state.phase == BUILD:
        return building.build_listed(state, action)
    return state.phase == BID and bidding.bid_listed(state, action)


FAST_CHECKS: dict[str, Callable[[Any, Any], bool]] = {"entdecker": turn.surely_legal, "golden_city": _golden_city_listed}


def _near_misses(action: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """``action`` with one of its numbers one more or one less (a bool is left alone)."""
    for i, part in enumerate(action):
        if type(part) is int:
            for moved in (part - 1, part + 1):
                yield action[:i] + (moved,) + action[i + 1 :]


def _decisions(name: str, seed: int) -> Iterator[tuple[Any, list[Any]]]:
    rules = engine.get_rules(name)
    playout = random_playout(rules, Setup(("A", "B", "C", "D")), random.Random(seed), check=False)
    state = rules.initial_state(Setup(("A", "B", "C", "D")))
    for event in playout.events[1:]:
        if rules.current_actor(state) not in (None, CHANCE):
            yield state, list(rules.legal_actions(state))
        state = rules.apply(state, rules.parse_action(event.action))


@pytest.mark.parametrize("name", sorted(FAST_CHECKS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fast_check_says_legal_only_of_listed_actions(name: str, seed: int) -> None:
    fast = FAST_CHECKS[name]
    recognised = 0
    for state, listed in _decisions(name, seed):
        offered = set(listed)
        for action in listed:
            recognised += fast(state, action)
            for miss in _near_misses(action):
                assert miss in offered or not fast(state, miss), f"{miss} called legal, not listed"
    assert recognised > 0, "the fast check recognised no legal action at all"
