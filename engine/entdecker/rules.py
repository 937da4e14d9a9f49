"""The Entdecker rules object: the engine protocol over the phase modules.

Every apply resolves automatic steps (a tile that fits nowhere, the end of an expedition with
nothing left to decide, filling holes, scoring islands without chips, the next turn) before
returning, so a state always waits for a decision, for chance, or for nobody (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.core.errors import SetupError
from engine.core.phased import PhasedRules
from engine.core.protocol import Setup
from engine.entdecker import chance, scoring, serialize, turn
from engine.entdecker.catalog import compile_components
from engine.entdecker.describe import describe
from engine.entdecker.explain import explain
from engine.entdecker.notation import Action, format_action, parse_action
from engine.entdecker.rollout import rollout_player
from engine.entdecker.state import BUY, CHANCE_PHASES, EXPLORE, NATIVES, OVER, PLACE, START, State, initial_state
from engine.entdecker.step import step

OPTIONS: dict[int, Callable[[State], list[Action]]] = {
    START: turn.start_options,
    BUY: turn.buy_options,
    EXPLORE: turn.explore_options,
    PLACE: turn.place_options,
    NATIVES: turn.natives_options,
}
#: Every phase applies through :func:`~engine.entdecker.step.step`, which sends a decision by its kind.
APPLY = dict.fromkeys((*CHANCE_PHASES, *OPTIONS), step)
#: The setup options this game understands.
KNOWN_OPTIONS = ("components", "income_each_turn")


def _check_options(options: Mapping[str, Any]) -> None:
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise SetupError(f"unknown entdecker options {unknown}: expected some of {', '.join(KNOWN_OPTIONS)}")
    flag = options.get("income_each_turn", False)
    if type(flag) is not bool:
        raise SetupError(f"option income_each_turn must be true or false, got {flag!r}")


class EntdeckerRules(PhasedRules[State, Action]):
    """Entdecker for 2 to 4 players, after the Hungarian rulebook (see the package docstring)."""

    name = "entdecker"
    version = "1"
    min_players = 2
    max_players = 4
    #: The search player's rollout policy (engine.analysis).
    rollout_player = staticmethod(rollout_player)

    def __init__(self) -> None:
        super().__init__(
            options=OPTIONS, apply=APPLY, chance_phases=CHANCE_PHASES, chance_outcomes=chance.outcomes,
            over=OVER, outcome=scoring.outcome, explain=explain, parse_action=parse_action,
            format_action=format_action, describe=describe, view=serialize.view, dump_state=serialize.dump_state,
            load_state=serialize.load_state,
        )

    def initial_state(self, setup: Setup) -> State:
        """The set-up game; chance first turns up the backs of the stacks' top tiles, then spins the wheel."""
        names = self.seated_players(setup)
        options = setup.options or {}
        _check_options(options)
        cat = compile_components(options.get("components"))
        return initial_state(cat, names, bool(options.get("income_each_turn", False)))


RULES = EntdeckerRules()
