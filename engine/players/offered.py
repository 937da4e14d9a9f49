"""What a game offers the tools around its rules, read from its declaration: the one way anything reaches its players.

A game declares its players once (:class:`engine.core.declaration.Declaration`); the search, the verdict, the
search player, the engine seat, the benchmarks and the demo read them here, so that a game that offers nothing
needs no special case: its rollout policy is uniform random play, it has no strategy bots, and its determiniser
leaves the state as it is.
"""

from __future__ import annotations

import random

from engine.core.declaration import Determinizer, Player
from engine.core.fold import uniform_player
from engine.core.protocol import Rules, State


def policy_for(rules: Rules) -> Player:
    """The game's rollout policy: its declared ``rollout_player``, else its ``demo_player``, else uniform random play."""
    offers = rules.declaration
    player = offers.rollout_player or offers.demo_player
    return player if player is not None else uniform_player


def demo_player_for(rules: Rules) -> Player:
    """The player the demo plays the game with: its declared ``demo_player``, else uniform random play."""
    player = rules.declaration.demo_player
    return player if player is not None else uniform_player


def strategy_players(rules: Rules) -> dict[str, Player]:
    """The game's strategy bots by name, strongest first (empty when the game declares none)."""
    return dict(rules.declaration.strategy_players)


def strongest_player(rules: Rules) -> Player:
    """The game's strongest bot (the first of :func:`strategy_players`), else its rollout policy."""
    bots = strategy_players(rules)
    return next(iter(bots.values())) if bots else policy_for(rules)


def _unchanged(state: State, seat: int, rng: random.Random) -> State:
    return state


def determinizer_for(rules: Rules) -> Determinizer:
    """The game's declared determiniser, or the identity for a game whose hidden parts the view fixes
    (:mod:`engine.players.dealing`)."""
    declared = rules.declaration.determinize
    return declared if declared is not None else _unchanged
