"""Amerigo's rollout policy, also its demo player: plays like a beginner with a plan, not like a random clicker.

Uniformly random play almost never sails to a free anchor, so its games end with an empty map:
nothing to look at in a demo. This player mostly takes the building colour when it holds
tiles, sails to anchors where a post can be founded, and founds, builds and plans whenever it
can; otherwise it picks at random. It decides nothing about the rules: it only chooses among
the legal actions it is given, with the randomness it is given. The search's playouts use it (the
strategy bots, :mod:`engine.amerigo.strategy`, are stronger but cost a greedy look-ahead per step).
"""

from __future__ import annotations

import random
from typing import Any

from engine.amerigo.components import BLUE, GREEN, RED
from engine.amerigo.sailing import can_found, node_of
from engine.amerigo.state import CHOOSE, SAIL, State

#: How often the player follows its plan at a colour choice (otherwise it picks at random).
PLAN_FOLLOWED = 0.8
#: Preferred verbs, best first, when any of them is legal.
GOOD_VERBS = ("found", "build", "plan")


def builder_player(state: State, actions: list[Any], rng: random.Random) -> Any:
    """Choose among ``actions``: build with tiles in stock, sail to free anchors, found, build, plan."""
    if state.phase == CHOOSE:
        wanted = _wanted_colour(state)
        if wanted in actions and rng.random() < PLAN_FOLLOWED:
            return wanted
    if state.phase == SAIL and state.board is not None:  # the board exists once the islands are laid
        board = state.board
        anchors = [a for a in actions if a[0] == "sail" and can_found(state, node_of(board, a[2], a[3]))]
        if anchors:
            return rng.choice(anchors)
    verbs = {a[0] for a in actions}
    for verb in GOOD_VERBS:
        if verb in verbs:
            return rng.choice([a for a in actions if a[0] == verb])
    return rng.choice(actions)


def _wanted_colour(state: State) -> tuple[str, int]:
    """Green (building) with tiles in stock; blue (sailing) while most posts are unplaced; else red (planning)."""
    if any(state.me.stock):
        return ("choose", GREEN)
    return ("choose", BLUE) if state.me.posts_left > 8 else ("choose", RED)


#: The search player's rollout policy and the demo games' player (see the module docstring).
rollout_player = builder_player
