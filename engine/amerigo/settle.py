"""Ending an action by itself when nothing is left to decide in it.

Planning, building and buying go on tile by tile until the player ends them; once the only
decision left would be to end (no AP for anything, no gold to spend, nothing to cash), the engine
ends the action itself, as a player has nothing to decide there.
"""

from __future__ import annotations

from engine.amerigo.building import build_open
from engine.amerigo.notation import END
from engine.amerigo.planning import legal_buy, legal_plan
from engine.amerigo.state import BUILD, BUY, PLAN, State
from engine.amerigo.turns import end_action


def settle(state: State) -> State:
    """``state``, or the action's end when the only option left is to end it."""
    phase = state.phase
    if phase == PLAN:
        done = legal_plan(state) == [END]
    elif phase == BUILD:
        done = not build_open(state)  # the same as legal_build(state) == [END], without writing every placement
    elif phase == BUY:
        done = legal_buy(state) == [END]
    else:
        return state
    return end_action(state) if done else state
