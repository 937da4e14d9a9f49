"""Helpers shared by every game's engine tests.

``play(rules, state, "notation", ...)`` checks and applies actions the way the service does (turn
order, chance outcomes against their list, the rules); ``legal`` and ``chance`` list the legal
actions and the chance outcomes in notation. ``random_game`` plays a seeded random legal game,
checking invariants as it goes, and ``assert_ends_and_replays`` checks that it ended with an
outcome and that a checked replay of its events equals live play. Each game's ``helpers`` binds
the first three to its rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import CHANCE, Event, Rules, Setup, action_event, draw_chance, fold, game_created
from engine.core.fold import Playout, check_action


def play(rules: Rules, state: Any, *notations: str) -> Any:
    """Check (turn order, chance's list, the rules) and apply each action in turn."""
    for text in notations:
        action = rules.parse_action(text)
        check_action(rules, state, rules.current_actor(state), action)
        state = rules.apply(state, action)
    return state


def legal(rules: Rules, state: Any) -> list[str]:
    """The legal actions in notation."""
    return [rules.format_action(a) for a in rules.legal_actions(state)]


def chance(rules: Rules, state: Any) -> dict[str, int]:
    """The chance outcomes in notation, with their weights."""
    return {rules.format_action(a): w for a, w in rules.chance_outcomes(state)}


def random_game(rules: Rules, setup: Setup, seed: int, *, check: Callable[[Any], None] | None = None,
                every: int = 1) -> Playout:
    """A seeded random legal game: chance draws by its weights, a seat picks uniformly among its legal
    actions (it must have one). ``check(state)`` runs after every ``every``-th event and at the end."""
    rng = random.Random(seed)
    state = rules.initial_state(setup)
    events = [game_created(rules.name, rules.version, setup)]
    while (actor := rules.current_actor(state)) is not None:
        if actor == CHANCE:
            action = draw_chance(rules.chance_outcomes(state), rng.random())
        else:
            actions = rules.legal_actions(state)
            assert actions, "a seat to act always has a legal action"
            action = rng.choice(actions)
        state = rules.apply(state, action)
        events.append(action_event(len(events) + 1, actor, rules.format_action(action)))
        if check is not None and len(events) % every == 0:
            check(state)
    if check is not None and len(events) % every:
        check(state)
    return Playout(rules, events, state)


def replay_checked(rules: Rules, events: list[Event]) -> Any:
    """Fold a game's events again with every check (as ``engine.replay`` does for a registered game)."""
    setup = Setup.from_json(events[0].data["setup"])
    return fold(rules, rules.initial_state(setup), events[1:], check=True)


def assert_ends_and_replays(playout: Playout, note: str = "") -> None:
    """The game ended with an outcome, and a checked replay of its events equals live play."""
    rules = playout.rules
    assert rules.outcome(playout.state) is not None, note
    assert replay_checked(rules, playout.events) == playout.state, note
