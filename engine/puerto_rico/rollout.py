"""Puerto Rico's rollout policies: the search player's (:data:`rollout_player`), and a cheap baseline.

Since search version 3 the game declares :data:`rollout_player`, the shipping strategy bot
(:mod:`engine.puerto_rico.strategy`) with a tenth of its moves random. :data:`baseline_player`, the
search player's rollout policy up to version 2, stays as the cheapest sensible policy (a benchmark
baseline, and the plan mechanism's reference); the rest of this docstring is about it.

Uniform random play passes as often as it builds, ships or sells, and buys a small indigo plant as
readily as a city hall. This policy mostly (:data:`FOLLOWED` of the time) does what a beginner
with a plan does: picks the role with the most doubloons on it, builds the building worth the most
victory points it can afford, sells and plants the most valuable kind, loads and takes its
privileges, and passes only when nothing else is legal. It decides nothing about the rules: it only
picks among the legal actions it is given, with the randomness it is given.

Three in four steps of a rollout place a colonist, one per action. So the policy also offers a
:meth:`~RolloutPlayer.plan` (see :mod:`engine.players.picking`): a player's remaining placements chosen
at once, each as the policy would choose it (any placement the rules offer, alike), so that the
playout does not ask the rules for the legal placements after every colonist. It follows the
mayor's enumeration through :func:`engine.puerto_rico.mayor.placement_slots` (slots in order, a slot offered
while the circles from it on can take every colonist left); a test checks every planned placement
against the rules.
"""

from __future__ import annotations

import random
from typing import Any, Final

from engine.players.picking import PlanningPlayer, pick
from engine.puerto_rico.components import COLUMNS
from engine.puerto_rico.mayor import free_circles, placement_slots
from engine.puerto_rico.notation import PLACE_ACTIONS
from engine.puerto_rico.state import PLACE, State
from engine.puerto_rico.strategy import SHIPPING, StrategyBot

#: How often the policy follows its plan (otherwise it picks any action but a pass, at random).
FOLLOWED: Final = 0.85
#: The plan's verbs, best first (plant and quarry alike): a decision's candidates are its actions of the best verb.
RANKS: Final = {"role": 0, "build": 1, "sell": 2, "plant": 3, "quarry": 3, "load": 4, "extra": 5, "hacienda": 6, "place": 7}
UNRANKED: Final = 8
#: Verbs among which the most valuable action is taken (the others' candidates are all alike).
VALUED: Final = frozenset(("role", "build", "sell", "plant", "quarry"))
#: A quarry's worth beside the plantations valued by kind (corn 0 ... coffee 4).
QUARRY_VALUE: Final = 2.5


class RolloutPlayer(PlanningPlayer):
    """The policy: a :data:`engine.core.declaration.Player` (call it) with a :meth:`plan` for the mayor's placements."""

    def __call__(self, state: State, actions: list[Any], rng: random.Random) -> Any:
        """Choose among ``actions`` (see the module docstring)."""
        if state.phase == PLACE:
            # Both branches below pick any placement alike.
            return pick(actions, rng)
        if rng.random() < FOLLOWED:
            candidates = _planned(state, actions)
            if candidates:
                return pick(candidates, rng)
        active = [a for a in actions if a[0] != "pass"]
        return pick(active or actions, rng)

    def plan(self, state: State, rng: random.Random) -> list[Any]:
        """The placements left to the seat placing colonists, each picked like ``self(...)`` would; else none."""
        if state.phase != PLACE:
            return []
        free = free_circles(state.players[state.turn])
        left, slot, placed = state.players[state.turn].san_juan, state.last_slot, []
        while left:
            options = placement_slots(free, slot, left)
            slot = options[0] if len(options) == 1 else pick(options, rng)  # a forced move takes no draw
            free[slot] -= 1
            left -= 1
            placed.append(PLACE_ACTIONS[slot])
        return placed


#: The baseline policy (see :class:`RolloutPlayer`).
baseline_player = RolloutPlayer()
#: How often the rollout policy plays a random legal move instead of the shipping bot's (rollouts need variety).
ROLLOUT_EXPLORE: Final = 0.1
#: The search player's rollout policy: the shipping bot, exploring (a strong rollout policy is the search's
#: biggest lever in such games; the bench measured it, see docs/PERFORMANCE.md).
rollout_player = StrategyBot(SHIPPING, ROLLOUT_EXPLORE)


def _planned(state: State, actions: list[Any]) -> list[Any]:
    """The actions of the best-ranked verb present, only the most valuable ones of a valued verb; one scan."""
    best_rank, best_value, candidates = UNRANKED, 0.0, []
    for action in actions:
        rank = RANKS.get(action[0], UNRANKED)
        if rank > best_rank:
            continue
        value = _value(state, action) if action[0] in VALUED else 0.0
        if rank < best_rank or value > best_value:
            best_rank, best_value, candidates = rank, value, [action]
        elif value == best_value:
            candidates.append(action)
    return candidates if best_rank < UNRANKED else []


def _value(state: State, action: Any) -> float:
    """How much the plan wants ``action`` among those of its verb."""
    verb = action[0]
    if verb == "role":
        return float(state.role_coins[action[1]]) if action[1] < len(state.role_coins) else 0.0
    if verb == "build":
        return float(COLUMNS[action[1]])
    if verb == "quarry":
        return QUARRY_VALUE
    return float(action[1])  # sell, plant: the kind's index, dearest last
