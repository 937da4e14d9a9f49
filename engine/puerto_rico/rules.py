"""The Puerto Rico rules object: the engine protocol over the phase modules.

Every apply resolves automatic steps (production, forced placements, storage without a choice,
players with nothing to decide) before returning, so a state always waits for a decision,
for chance, or for nobody (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.errors import IllegalActionError, SetupError
from engine.core.protocol import CHANCE, Outcome, Setup
from engine.puerto_rico import builder, captain, craftsman, mayor, roles, scoring, serialize, settler, trader
from engine.puerto_rico.describe import describe
from engine.puerto_rico.explain import explain
from engine.puerto_rico.notation import Action, format_action, parse_action
from engine.puerto_rico.state import (
    BUILD,
    CRAFT,
    DRAW,
    HACIENDA_DRAW,
    LOAD,
    OVER,
    PLACE,
    ROLE,
    SETTLE,
    STORE,
    TRADE,
    State,
    initial_state,
)

OPTIONS: dict[int, Callable[[State], tuple[Action, ...]]] = {
    ROLE: roles.options,
    SETTLE: settler.options,
    PLACE: mayor.options,
    BUILD: builder.options,
    CRAFT: craftsman.options,
    TRADE: trader.options,
    LOAD: captain.options,
    STORE: captain.storage_options,
}
APPLY: dict[int, Callable[[State, Action], State]] = {
    ROLE: roles.apply,
    SETTLE: settler.apply,
    PLACE: mayor.apply,
    BUILD: builder.apply,
    CRAFT: craftsman.apply,
    TRADE: trader.apply,
    LOAD: captain.apply,
    STORE: captain.apply_storage,
    DRAW: settler.apply_chance,
    HACIENDA_DRAW: settler.apply_chance,
}
CHANCE_PHASES = (DRAW, HACIENDA_DRAW)


class PuertoRicoRules:
    """Puerto Rico for 3 to 5 players, after the Hungarian rulebook (see the package docstring)."""

    name = "puerto_rico"
    version = "2"
    min_players = 3
    max_players = 5

    def initial_state(self, setup: Setup) -> State:
        """The rulebook's setup; the game opens with chance turning up the face-up row."""
        if len(set(setup.players)) != len(setup.players):
            raise SetupError(f"player names must be distinct, got {list(setup.players)}")
        return initial_state(tuple(setup.players))

    def current_actor(self, state: State) -> int | str | None:
        """The seat to decide, CHANCE while plantations are drawn, None when the game is over."""
        phase = state.phase
        if phase == OVER:
            return None
        if phase == DRAW or phase == HACIENDA_DRAW:
            return CHANCE
        return state.turn

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the seat to act, in a stable order; () for chance and at the end."""
        options = OPTIONS.get(state.phase)
        return options(state) if options is not None else ()

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, int]]:
        """Draws weighted by what is really left in the stack, or the reshuffle."""
        if state.phase in CHANCE_PHASES:
            return settler.chance_outcomes(state)
        return ()

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalActionError naming the rule unless ``action`` is legal for the seat to act."""
        if action in self.legal_actions(state):
            return
        reason, rule = explain(state, action)
        raise IllegalActionError(self._notation(action), reason, rule=rule)

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action`` (assumed legal: use :meth:`check` on untrusted input)."""
        return APPLY[state.phase](state, action)

    def outcome(self, state: State) -> Outcome | None:
        """Scores, tie-breaks and winners once the game is over, else None."""
        return scoring.outcome(state) if state.phase == OVER else None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it, JSON-safe."""
        return serialize.view(state, seat)

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` (see :mod:`engine.puerto_rico.notation`)."""
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


RULES = PuertoRicoRules()
