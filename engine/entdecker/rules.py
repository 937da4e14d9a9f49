"""The Entdecker rules object: the engine protocol over the phase modules.

Every apply resolves automatic steps (a tile that fits nowhere, the end of an expedition with
nothing left to decide, filling holes, scoring islands without chips, the next turn) before
returning, so a state always waits for a decision, for chance, or for nobody (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core.errors import IllegalActionError, SetupError
from engine.core.protocol import CHANCE, Outcome, Setup
from engine.entdecker import chance, scoring, serialize, turn
from engine.entdecker.catalog import compile_components
from engine.entdecker.describe import describe
from engine.entdecker.explain import explain
from engine.entdecker.notation import Action, format_action, parse_action
from engine.entdecker.state import BUY, CHANCE_PHASES, EXPLORE, NATIVES, OVER, PLACE, START, State, initial_state
from engine.entdecker.step import step

OPTIONS: dict[int, Callable[[State], list[Action]]] = {
    START: turn.start_options,
    BUY: turn.buy_options,
    EXPLORE: turn.explore_options,
    PLACE: turn.place_options,
    NATIVES: turn.natives_options,
}
#: The setup options this game understands.
KNOWN_OPTIONS = ("components", "income_each_turn")


def _check_options(options: Mapping[str, Any]) -> None:
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise SetupError(f"unknown entdecker options {unknown}: expected some of {', '.join(KNOWN_OPTIONS)}")
    flag = options.get("income_each_turn", False)
    if type(flag) is not bool:
        raise SetupError(f"option income_each_turn must be true or false, got {flag!r}")


class EntdeckerRules:
    """Entdecker for 2 to 4 players, after the Hungarian rulebook (see the package docstring)."""

    name = "entdecker"
    version = "1"
    min_players = 2
    max_players = 4

    def initial_state(self, setup: Setup) -> State:
        """The set-up game; chance first turns up the backs of the stacks' top tiles, then spins the wheel."""
        names = tuple(setup.players)
        if not self.min_players <= len(names) <= self.max_players:
            raise SetupError(f"entdecker takes 2 to 4 players, got {len(names)}")
        if len(set(names)) != len(names):
            raise SetupError(f"player names must be distinct, got {list(names)}")
        options = setup.options or {}
        _check_options(options)
        cat = compile_components(options.get("components"))
        return initial_state(cat, names, bool(options.get("income_each_turn", False)))

    def current_actor(self, state: State) -> int | str | None:
        """The active seat, CHANCE while chance decides, None when the game is over."""
        phase = state.phase
        if phase in CHANCE_PHASES:
            return CHANCE
        return None if phase == OVER else state.turn

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the seat to act, in a stable order; () for chance and at the end."""
        options = OPTIONS.get(state.phase)
        return options(state) if options is not None else ()

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, int]]:
        """The chance outcomes now with their weights (see :mod:`engine.entdecker.chance`)."""
        return chance.outcomes(state)

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalActionError naming the rule unless ``action`` is legal for the seat to act."""
        if action in self.legal_actions(state):
            return
        reason, rule = explain(state, action)
        raise IllegalActionError(self._notation(action), reason, rule=rule)

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action`` (assumed legal: use :meth:`check` on untrusted input)."""
        return step(state, action)

    def outcome(self, state: State) -> Outcome | None:
        """Scores and winners once the game is over, else None."""
        return scoring.outcome(state) if state.phase == OVER else None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it, JSON-safe."""
        return serialize.view(state, seat)

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` (see :mod:`engine.entdecker.notation`)."""
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


RULES = EntdeckerRules()
