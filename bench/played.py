"""Games a player plays in every seat, position by position: what the analysis benches judge.

One loop for the benches that play a seeded game and look at its positions (:mod:`bench.analysis`'s speed game,
:mod:`bench.reproducibility`'s bot games, :mod:`bench.verdict_hash`): chance drawn from the game's own ``rng``, every
decision (forced ones too) taken by the player from the legal actions, so that a seed always gives the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine import CHANCE, Setup, draw_chance
from engine.core.fold import Player
from engine.core.protocol import Rules

#: The seats of the benches' games.
SEATS = 4


def game_positions(rules: Rules, player: Player, rng: random.Random,
                   seats: int = SEATS) -> Iterator[tuple[int, Any, Any | None, list[Any] | None]]:
    """(event number, state, the action taken there, the legal actions or None at chance) at every position of a game
    ``player`` plays in every seat, and last (the number of events, the final state, None, None)."""
    state = rules.initial_state(Setup(tuple(f"P{i}" for i in range(seats))))
    events = 0
    while (actor := rules.current_actor(state)) is not None:
        if actor == CHANCE:
            action, actions = draw_chance(rules.chance_outcomes(state), rng.random()), None
        else:
            actions = list(rules.legal_actions(state))
            action = player(state, actions, rng)
        yield events, state, action, actions
        state = rules.apply(state, action)
        events += 1
    yield events, state, None, None
