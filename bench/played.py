"""Games played position by position: what the analysis benches judge and time.

One loop for the benches that play a seeded game and look at its positions (:mod:`bench.analysis`'s strength,
calibration and speed games, :mod:`bench.reproducibility`'s bot games, :mod:`bench.verdict_hash`): chance drawn from
the game's own ``rng``, every decision (forced ones too) taken by its seat's player from the legal actions, so that a
seed always gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine import CHANCE, Setup, draw_chance
from engine.core.fold import Player
from engine.core.protocol import Rules
from engine.players.offered import policy_for

#: The seats of the benches' games.
SEATS = 4
#: The seed of the game the speed figures judge (:func:`opening`).
SPEED_GAME_SEED = 4

#: One position: (event number, state, the action taken there, the legal actions or None at chance).
Position = tuple[int, Any, Any | None, list[Any] | None]


def seated_positions(rules: Rules, players: Sequence[Player], rng: random.Random) -> Iterator[Position]:
    """Every position of a game with ``players[seat]`` in each seat, and last (the number of events, the final state,
    None, None)."""
    state = rules.initial_state(Setup(tuple(f"P{i}" for i in range(len(players)))))
    events = 0
    while (actor := rules.current_actor(state)) is not None:
        if actor == CHANCE:
            action, actions = draw_chance(rules.chance_outcomes(state), rng.random()), None
        else:
            actions = list(rules.legal_actions(state))
            action = players[int(actor)](state, actions, rng)
        yield events, state, action, actions
        state = rules.apply(state, action)
        events += 1
    yield events, state, None, None


def game_positions(rules: Rules, player: Player, rng: random.Random, seats: int = SEATS) -> Iterator[Position]:
    """Every position of a game ``player`` plays in every seat (:func:`seated_positions`)."""
    return seated_positions(rules, [player] * seats, rng)


def opening(rules: Rules, events: int) -> Iterator[Position]:
    """The positions among the first ``events`` events of the speed figures' game: seed :data:`SPEED_GAME_SEED`, its
    moves by the game's rollout policy in every seat."""
    for position in game_positions(rules, policy_for(rules), random.Random(SPEED_GAME_SEED)):
        if position[0] >= events or position[2] is None:
            return
        yield position
