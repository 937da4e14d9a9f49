"""The Amerigo rules object: the engine protocol over the step modules.

Every apply resolves automatic steps (throws with nothing to throw, skipped phases, pirates,
actions with nothing left to decide) before returning, so a state always waits for a decision,
for chance, or for nobody (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.amerigo import building, choose, flow, planning, sailing, scoring, serialize, tracks
from engine.amerigo.catalog import catalog_for
from engine.amerigo.describe import describe
from engine.amerigo.explain import explain
from engine.amerigo.notation import CASH_CHEST, END, SPEND, USE_PT10, USE_PT16, Action, format_action, parse_action
from engine.amerigo.players import builder_player
from engine.amerigo.settle import settle
from engine.amerigo.setup import initial_state
from engine.amerigo.state import (
    ADVANCE,
    BUILD,
    BUY,
    CANNONS,
    CHANCE_STEPS,
    CHOOSE,
    FOUND,
    MOVE_ORDER,
    OVER,
    PLACE_SHIPS,
    PLAN,
    SAIL,
    TAKE_TOKEN,
    State,
)
from engine.amerigo.turns import apply_cash, apply_spend, end_action
from engine.core.errors import IllegalActionError, SetupError
from engine.core.protocol import CHANCE, Outcome, Setup

OPTIONS: dict[int, Callable[[State], list[Action]]] = {
    CHOOSE: choose.options,
    PLACE_SHIPS: sailing.place_options,
    SAIL: sailing.sail_options,
    FOUND: sailing.found_options,
    CANNONS: tracks.cannon_options,
    ADVANCE: tracks.advance_options,
    TAKE_TOKEN: tracks.token_options,
    MOVE_ORDER: tracks.order_options,
    PLAN: planning.plan_options,
    BUILD: building.build_options,
    BUY: planning.buy_options,
}
APPLY: dict[int, Callable[[State, Action], State]] = {
    CHOOSE: choose.apply,
    PLACE_SHIPS: sailing.apply_place,
    SAIL: sailing.apply_sail,
    FOUND: sailing.apply_found,
    CANNONS: tracks.apply_cannons,
    ADVANCE: tracks.apply_advance,
    TAKE_TOKEN: tracks.apply_take,
    MOVE_ORDER: tracks.apply_move,
    PLAN: planning.apply_plan,
    BUILD: building.apply_build,
    BUY: planning.apply_buy,
}


def apply_decision(state: State, action: Action) -> State:
    """A player's decision, then whatever follows by itself."""
    op = action[0]
    if op == "cash" or action == CASH_CHEST:
        return apply_cash(state, action)
    if action == SPEND:
        state = apply_spend(state)
    elif action == END:
        return end_action(state)
    elif action == USE_PT10:
        state = sailing.apply_pt10(state)
    elif action == USE_PT16:
        return tracks.apply_pt16(state)
    else:
        state = APPLY[state.step](state, action)
    return settle(state)


class AmerigoRules:
    """Amerigo for 2 to 4 players, after the Hungarian rulebook (see the package docstring)."""

    name = "amerigo"
    version = "1"
    min_players = 2
    max_players = 4
    #: Demo games are played by this player rather than a uniform random one (which leaves the map empty).
    demo_player = staticmethod(builder_player)

    def initial_state(self, setup: Setup) -> State:
        """The rulebook's setup; the game opens with chance laying the island tiles."""
        if len(set(setup.players)) != len(setup.players):
            raise SetupError(f"player names must be distinct, got {list(setup.players)}")
        unknown = sorted(set(setup.options) - {"components"})
        if unknown:
            raise SetupError(f"unknown amerigo options {unknown}: expected only 'components'")
        return initial_state(tuple(setup.players), catalog_for(setup.options.get("components")))

    def current_actor(self, state: State) -> int | str | None:
        """The seat to decide, CHANCE at a chance step, None when the game is over."""
        step = state.step
        if step == OVER:
            return None
        if step in CHANCE_STEPS:
            return CHANCE
        return state.turn_order[state.turn]

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the seat to act, in a stable order; () for chance and at the end."""
        options = OPTIONS.get(state.step)
        return tuple(options(state)) if options is not None else ()

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, int]]:
        """Every outcome of the chance step under way, with its weight; () otherwise."""
        return flow.chance_outcomes(state) if state.step in CHANCE_STEPS else ()

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalActionError naming the rule unless ``action`` is legal for the seat to act."""
        if state.step not in CHANCE_STEPS and action in self.legal_actions(state):
            return
        reason, rule = explain(state, action)
        raise IllegalActionError(self._notation(action), reason, rule=rule)

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action`` (assumed legal: use :meth:`check` on untrusted input)."""
        if state.step in CHANCE_STEPS:
            return flow.apply_chance(state, action)
        return apply_decision(state, action)

    def outcome(self, state: State) -> Outcome | None:
        """Scores, tie-breaks and winners once the game is over, else None."""
        return scoring.outcome(state) if state.step == OVER else None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it, JSON-safe (the tower's contents hidden)."""
        return serialize.view(state, seat)

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` (see :mod:`engine.amerigo.notation`)."""
        return parse_action(text)

    def format_action(self, action: Action) -> str:
        """The notation of ``action``."""
        return format_action(action)

    def describe(self, state: State, action: Action) -> str:
        """A game-log sentence for ``action`` taken in ``state``."""
        return describe(state, action)

    def dump_state(self, state: State) -> dict[str, Any]:
        """The full state, JSON-safe."""
        return serialize.dump_state(state)

    def load_state(self, data: Any) -> State:
        """The state from :meth:`dump_state` data."""
        return serialize.load_state(data)

    @staticmethod
    def _notation(action: Action) -> str:
        try:
            return format_action(action)
        except Exception:  # an action of no known shape still gets a message
            return repr(action)


RULES = AmerigoRules()
