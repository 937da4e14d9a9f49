"""The Die goldene Stadt rules object: the engine protocol over the phase modules.

Every apply resolves automatic steps (rewards of coins, keys and letters, scoring, the start key,
the end) before returning, so a state always waits for a decision, for chance, or for nobody.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core.errors import IllegalActionError, SetupError
from engine.core.protocol import CHANCE, Outcome, Setup
from engine.golden_city import bidding, building, chance, rewards, scoring, serialize
from engine.golden_city.component_set import check_for_players, component_set
from engine.golden_city.describe import describe
from engine.golden_city.explain import explain
from engine.golden_city.notation import Action, format_action, parse_action
from engine.golden_city.state import (
    BID,
    BONUS_CHOICE,
    BOX,
    BUILD,
    CARD_CHOICE,
    CHANCE_PHASES,
    DISCARD,
    GOODS_CHOICE,
    OVER,
    State,
    initial_state,
)

OPTIONS: dict[int, Callable[[State], tuple[Action, ...]]] = {
    BID: bidding.options,
    BUILD: building.options,
    CARD_CHOICE: rewards.card_options,
    BONUS_CHOICE: rewards.bonus_options,
    GOODS_CHOICE: rewards.goods_options,
    BOX: rewards.box_options,
    DISCARD: building.discard_options,
}
APPLY: dict[int, Callable[[State, Action], State]] = {
    BID: bidding.apply,
    BUILD: building.apply,
    CARD_CHOICE: rewards.apply_card_choice,
    BONUS_CHOICE: rewards.apply_bonus_choice,
    GOODS_CHOICE: rewards.apply_goods_choice,
    BOX: rewards.apply_box,
    DISCARD: building.apply_discard,
}
for _phase in CHANCE_PHASES:
    APPLY[_phase] = chance.apply


def _start_seat(options: Any, n: int) -> int:
    seat = options.get("start_seat", 0)
    if type(seat) is not int or not 0 <= seat < n:
        raise SetupError(f"golden city: start_seat must be a seat from 0 to {n - 1} (the youngest player), got {seat!r}")
    return seat


class GoldenCityRules:
    """Die goldene Stadt for 3 or 4 players, after the Hungarian rulebook (see the package docstring)."""

    name = "golden_city"
    version = "1"
    min_players = 3
    max_players = 4

    def initial_state(self, setup: Setup) -> State:
        """The rulebook's setup; the game opens with chance dealing each player a landscape card.

        Options: ``start_seat`` (who takes the start key: the youngest player, default 0) and
        ``components`` (another component set, see :mod:`engine.golden_city.component_set`).
        """
        names = tuple(setup.players)
        if not self.min_players <= len(names) <= self.max_players:
            raise SetupError(f"golden city takes 3 or 4 players, got {len(names)}")
        if len(set(names)) != len(names):
            raise SetupError(f"player names must be distinct, got {list(names)}")
        unknown = sorted(set(setup.options) - {"start_seat", "components"})
        if unknown:
            raise SetupError(f"golden city: unknown options {unknown}; known: start_seat, components")
        comp = component_set(setup.options.get("components"))
        check_for_players(comp, len(names))
        return initial_state(comp, names, _start_seat(setup.options, len(names)))

    def current_actor(self, state: State) -> int | str | None:
        """The seat to decide, CHANCE while a pile is drawn from, None when the game is over."""
        phase = state.phase
        if phase == OVER:
            return None
        if phase in CHANCE_PHASES:
            return CHANCE
        return state.turn

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the seat to act, in a stable order; () for chance and at the end."""
        options = OPTIONS.get(state.phase)
        return options(state) if options is not None else ()

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, int]]:
        """Draws weighted by what the pile really holds (see :mod:`engine.golden_city.chance`)."""
        if state.phase in CHANCE_PHASES:
            return chance.outcomes(state)
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
        """Scores with the bonus cards, tie-breaks and winners once the game is over, else None."""
        return scoring.outcome(state) if state.phase == OVER else None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it, JSON-safe."""
        return serialize.view(state, seat)

    def parse_action(self, text: str) -> Action:
        """The action written ``text`` (see :mod:`engine.golden_city.notation`)."""
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


RULES = GoldenCityRules()
