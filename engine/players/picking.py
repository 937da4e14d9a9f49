"""How a game's bots and rollout policies pick: the pieces the games build their players from.

A player (:data:`engine.core.declaration.Player`) picks one of the legal actions it is given, with the randomness it
is given. The games' rollout policies and strategy bots (``engine/<game>/rollout.py``, ``strategy.py``) are made of
these pieces: a cheap uniform :func:`pick`, the prologue every bot shares (:func:`forced_or_explored`), a player
that prefers some verbs (:func:`verb_preference_player`) and a one-ply greedy player (:class:`GreedyPlayer`).

A player may also plan (:class:`PlanningPlayer`, read with :func:`plan_of`): several actions the seat to act takes
in a row, each legal in turn and each picked as the player would pick it. A playout applies a plan without asking
the rules for the legal actions between its steps: worth it where a decision is many small actions (Puerto Rico's
colonist placements).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.declaration import Player
from engine.core.protocol import Action, State


def pick(actions: Sequence[Any], rng: random.Random) -> Any:
    """A uniformly random one of ``actions``, from one ``rng.random()`` draw.

    Rollouts pick hundreds of times each; ``rng.choice`` runs two Python functions per pick, this one
    multiplication (``int(u * n) < n`` for every ``u < 1``: the product rounds below ``n``).
    """
    return actions[int(rng.random() * len(actions))]


def forced_or_explored(actions: Sequence[Action], rng: random.Random, explore: float) -> Action | None:
    """What a bot plays before it weighs anything: the only legal action; else, with probability ``explore``, a
    uniformly random one (variety for rollouts, one ``rng.random()`` draw, none when ``explore`` is 0); else None,
    and the bot decides. No game's action is None."""
    if len(actions) == 1:
        return actions[0]
    if explore and rng.random() < explore:
        explored: Action = pick(actions, rng)
        return explored
    return None


def _verb(action: Any) -> Any:
    return action[0] if isinstance(action, tuple) and action else action


def verb_preference_player(preferred: Sequence[str], avoided: Sequence[str], *, followed: float = 0.85) -> Player:
    """A cheap player for tuple actions ``(verb, …)``: usually a random action of the best preferred verb present.

    With probability ``followed`` it takes a random action of the first verb of ``preferred`` that is
    legal; otherwise (or when none is) a random action whose verb is not in ``avoided`` (a pass, an
    end of turn), and an avoided one only when nothing else is legal. The randomness keeps the
    rollouts varied, which a Monte Carlo estimate needs. One scan of the actions decides (no list per
    verb): it runs at every step of every rollout.
    """
    rank_of = {verb: rank for rank, verb in reversed(list(enumerate(preferred)))}
    unranked = len(preferred)
    avoided_set = frozenset(avoided)

    def player(state: Any, actions: list[Any], rng: random.Random) -> Any:
        if rng.random() < followed:
            best_rank, candidates = unranked, []
            for action in actions:
                rank = rank_of.get(_verb(action), unranked)
                if rank < best_rank:
                    best_rank, candidates = rank, [action]
                elif rank == best_rank < unranked:
                    candidates.append(action)
            if candidates:
                return pick(candidates, rng)
        active = [a for a in actions if _verb(a) not in avoided_set]
        return pick(active or actions, rng)

    player.__doc__ = f"Prefers {', '.join(preferred)}; avoids {', '.join(avoided)} while anything else is legal."
    return player


#: A position's worth for one seat (higher is better), as a strategy sees it.
Evaluate = Callable[[State, int], float]


class GreedyPlayer:
    """A one-ply greedy player: applies each legal action and takes the one whose result ``evaluate`` likes best.

    The seat judged is the one to act (``actor(state)``); ties are broken with the rng, and with probability
    ``explore`` it plays a uniformly random legal action instead (variety for rollouts). The rules' ``apply``
    and ``current_actor`` are passed in, so that a game's strategy module need not import its rules object.
    """

    def __init__(self, apply: Callable[[State, Action], State], actor: Callable[[State], Any], evaluate: Evaluate,
                 explore: float = 0.0, name: str = "greedy") -> None:
        self.apply = apply
        self.actor = actor
        self.evaluate = evaluate
        self.explore = explore
        self.name = name

    def __call__(self, state: State, actions: list[Action], rng: random.Random) -> Action:
        """The legal action whose result is worth most to the seat to act."""
        chosen: Action | None = forced_or_explored(actions, rng, self.explore)
        if chosen is not None:
            return chosen
        seat = int(self.actor(state))
        best_value, best = -math.inf, [actions[0]]
        for action in actions:
            value = self.evaluate(self.apply(state, action), seat)
            if value > best_value + 1e-9:
                best_value, best = value, [action]
            elif value > best_value - 1e-9:
                best.append(action)
        greedy: Action = best[0] if len(best) == 1 else pick(best, rng)
        return greedy


#: A player's plan: the actions the seat to act takes next, in order (empty: no plan at this state).
Plan = Callable[[State, random.Random], Sequence[Action]]


class PlanningPlayer:
    """A player that can also plan (see the module docstring): a game's policy or bot subclasses it and defines both
    ``__call__`` (the pick among the legal actions) and :meth:`plan`."""

    def __call__(self, state: State, actions: list[Action], rng: random.Random) -> Action:
        """The pick among ``actions``, as a :data:`~engine.core.declaration.Player` makes it."""
        raise NotImplementedError(f"{type(self).__name__} must define __call__")

    def plan(self, state: State, rng: random.Random) -> Sequence[Action]:
        """The actions the seat to act takes next, each picked as :meth:`__call__` would pick it; empty for none."""
        raise NotImplementedError(f"{type(self).__name__} must define plan")


def plan_of(player: Player) -> Plan | None:
    """The player's plan where it is a :class:`PlanningPlayer`, else None."""
    return player.plan if isinstance(player, PlanningPlayer) else None
