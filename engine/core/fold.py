"""The generic loop: check events against the rules and fold them into states.

Every game shares this code; a game only supplies its :class:`Rules`. Folding with
``check=True`` is what the importer and the API use on untrusted input; folding
without checks is for events already accepted once (snapshots, replays).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.core.declaration import Player as Player  # re-exported: a playout's player, where callers found it first
from engine.core.errors import EventMismatchError, EventSequenceError, IllegalActionError, SetupError
from engine.core.events import ACTION_TAKEN, CHANCE_DRAWN, GAME_CREATED, Event, action_event, game_created
from engine.core.protocol import CHANCE, Action, Actor, Rules, Setup, State
from engine.core.registry import get_rules
from engine.core.versions import setup_for_version


def describe_actor(actor: Actor) -> str:
    """``seat 2``, ``chance`` or ``nobody`` (game over), for messages."""
    if actor is None:
        return "nobody (the game is over)"
    return CHANCE if actor == CHANCE else f"seat {actor}"


def check_chance(rules: Rules, state: State, action: Action) -> None:
    """Raise IllegalActionError unless ``action`` is a possible chance outcome now."""
    for outcome, weight in rules.chance_outcomes(state):
        if outcome == action and weight > 0:
            return
    possible = ", ".join(rules.format_action(o) for o, w in rules.chance_outcomes(state) if w > 0)
    raise IllegalActionError(rules.format_action(action), f"not a possible chance outcome; possible: {possible}", rule="chance")


def check_action(rules: Rules, state: State, actor: Actor, action: Action) -> None:
    """Raise unless ``actor`` may take ``action`` now (turn order, then the rules)."""
    to_act = rules.current_actor(state)
    if to_act is None:
        raise EventMismatchError(rules.format_action(action), "the game is over", rule="turn order")
    if actor != to_act:
        raise EventMismatchError(rules.format_action(action), f"{describe_actor(actor)} acted but {describe_actor(to_act)} is to act",
                                 rule="turn order")
    if actor == CHANCE:
        check_chance(rules, state, action)
    else:
        rules.check(state, action)


def _event_kind_matches(event: Event) -> bool:
    return (event.type == CHANCE_DRAWN) == (event.actor == CHANCE)


def apply_event(rules: Rules, state: State, event: Event, *, check: bool = True) -> State:
    """The state after one action event; with ``check``, raises errors placed at its seq."""
    if event.type not in (ACTION_TAKEN, CHANCE_DRAWN) or event.action is None:
        raise EventMismatchError(event.action or "", f"a {event.type!r} event cannot follow the start", rule="event order", seq=event.seq)
    action = rules.parse_action(event.action)
    if check:
        if not _event_kind_matches(event):
            raise EventMismatchError(event.action, f"a {event.type} event by {describe_actor(event.actor)}",
                                     rule="event order", seq=event.seq)
        try:
            check_action(rules, state, event.actor, action)
        except IllegalActionError as exc:
            raise exc.at_seq(event.seq) from None
    return rules.apply(state, action)


def start(first: Event) -> tuple[Rules, State]:
    """The rules and initial state named by a ``game_created`` event."""
    if first.type != GAME_CREATED or first.data is None:
        raise SetupError(f"a game must start with {GAME_CREATED!r}, not {first.type!r} at seq {first.seq}")
    rules = get_rules(first.data["game"])
    setup = setup_for_version(rules, first.data.get("rules_version"), Setup.from_json(first.data["setup"]))
    return rules, rules.initial_state(setup)


def fold(rules: Rules, state: State, events: Iterable[Event], *, check: bool = True, after: int | None = None) -> State:
    """``state`` after every event of ``events`` in order.

    The events' seqs must run on by one (EventSequenceError otherwise: a gap means a lost event, a
    repeat a doubled one, and either would fold into a state nobody played); ``after``, when given,
    is the seq ``state`` stands at, so that the first event must be the next one.
    """
    expected = None if after is None else after + 1
    for event in events:
        if expected is not None and event.seq != expected:
            raise EventSequenceError(event.seq, expected)
        state = apply_event(rules, state, event, check=check)
        expected = event.seq + 1
    return state


def replay(events: Sequence[Event], *, check: bool = True) -> tuple[Rules, State]:
    """The rules and the state after a whole history starting with ``game_created``."""
    if not events:
        raise SetupError("an empty history has no game")
    rules, state = start(events[0])
    return rules, fold(rules, state, events[1:], check=check, after=events[0].seq)


def draw_chance(outcomes: Sequence[tuple[Action, int]], u: float) -> Action:
    """The outcome that a uniform number ``u`` in [0, 1) picks, by weight."""
    total = sum(weight for _, weight in outcomes)
    target = u * total
    for action, weight in outcomes:
        if target < weight:
            return action
        target -= weight
    return next(action for action, weight in reversed(outcomes) if weight > 0)


@dataclass
class Playout:
    """A played game: its events and its final state."""

    rules: Rules
    events: list[Event] = field(default_factory=list)
    state: State = None


def uniform_player(state: State, actions: list[Action], rng: random.Random) -> Action:
    """The random legal player: every legal action alike."""
    return rng.choice(actions)


def next_random_action(rules: Rules, state: State, rng: random.Random,
                       player: Player = uniform_player) -> tuple[Actor, Action]:
    """The actor to move and an action for it: a weighted chance draw or the player's pick."""
    actor = rules.current_actor(state)
    if actor == CHANCE:
        return actor, draw_chance(rules.chance_outcomes(state), rng.random())
    return actor, player(state, list(rules.legal_actions(state)), rng)


def random_playout(rules: Rules, setup: Setup, rng: random.Random, *, check: bool = True, max_steps: int = 200_000,
                   player: Player = uniform_player) -> Playout:
    """Play a whole game with random legal moves (or ``player``'s picks); randomness comes from ``rng``."""
    state = rules.initial_state(setup)
    playout = Playout(rules, [game_created(rules.name, rules.version, setup)])
    for seq in range(2, max_steps + 2):
        if rules.current_actor(state) is None:
            break
        actor, action = next_random_action(rules, state, rng, player)
        if check:
            check_action(rules, state, actor, action)
        state = rules.apply(state, action)
        playout.events.append(action_event(seq, actor, rules.format_action(action)))
    else:
        raise RuntimeError(f"{rules.name}: no end after {max_steps} steps")
    playout.state = state
    return playout
