"""Ending an action by itself when nothing is left to decide in it.

Planning, building and buying go on tile by tile until the player ends them; once the only
decision left would be to end (no AP for anything, no gold to spend, nothing to cash), the engine
ends the action itself, as a player has nothing to decide there.
"""

from __future__ import annotations

from engine.amerigo.building import build_options
from engine.amerigo.notation import END
from engine.amerigo.planning import buy_options, plan_options
from engine.amerigo.state import BUILD, BUY, PLAN, State
from engine.amerigo.turns import end_action

_OPTIONS = {PLAN: plan_options, BUILD: build_options, BUY: buy_options}


def settle(state: State) -> State:
    """``state``, or the action's end when the only option left is to end it."""
    options = _OPTIONS.get(state.step)
    if options is not None and options(state) == [END]:
        return end_action(state)
    return state
