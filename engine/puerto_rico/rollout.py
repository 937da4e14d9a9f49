"""The search player's default rollout policy for Puerto Rico: cheap, and better than random clicks.

Uniform random play passes as often as it builds, ships or sells, and buys a small indigo plant as
readily as a city hall. This policy mostly (:data:`FOLLOWED` of the time) does what a beginner
with a plan does: picks the role with the most doubloons on it, builds the building worth the most
victory points it can afford, sells and plants the most valuable kind, loads and takes its
privileges, and passes only when nothing else is legal. It decides nothing about the rules: it only
picks among the legal actions it is given, with the randomness it is given.
"""

from __future__ import annotations

import random
from typing import Any

from engine.puerto_rico.components import COLUMNS
from engine.puerto_rico.state import State

#: How often the policy follows its plan (otherwise it picks any action but a pass, at random).
FOLLOWED = 0.85
#: Verbs taken whenever legal, best first.
TAKEN = ("load", "extra", "hacienda", "place")


def rollout_player(state: State, actions: list[Any], rng: random.Random) -> Any:
    """Choose among ``actions`` (see the module docstring)."""
    if rng.random() < FOLLOWED:
        by_verb: dict[str, list[Any]] = {}
        for action in actions:
            by_verb.setdefault(action[0], []).append(action)
        if "role" in by_verb:
            return _best(by_verb["role"], lambda a: state.role_coins[a[1]] if a[1] < len(state.role_coins) else 0, rng)
        if "build" in by_verb:
            return _best(by_verb["build"], lambda a: COLUMNS[a[1]], rng)
        if "sell" in by_verb:
            return _best(by_verb["sell"], lambda a: a[1], rng)
        if "plant" in by_verb or "quarry" in by_verb:
            options = by_verb.get("plant", []) + by_verb.get("quarry", [])
            return _best(options, lambda a: a[1] if a[0] == "plant" else 2.5, rng)
        for verb in TAKEN:
            if verb in by_verb:
                return rng.choice(by_verb[verb])
    active = [a for a in actions if a[0] != "pass"]
    return rng.choice(active or actions)


def _best(actions: list[Any], value: Any, rng: random.Random) -> Any:
    """A random one of the ``actions`` of the highest ``value``."""
    top = max(value(a) for a in actions)
    return rng.choice([a for a in actions if value(a) == top])
