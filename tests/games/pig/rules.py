"""The Pig rules object: the engine protocol over Pig's modules (see the package docstring for the game)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import CHANCE, IllegalActionError, Outcome, Setup, SetupError
from engine.core.declaration import Declaration
from engine.core.messages import Message, Template, text_message
from engine.core.phased import distinct_players
from tests.games.pig import chance, describe, scoring, serialize, turn
from tests.games.pig.notation import HOLD, ROLL, format_action, parse_action
from tests.games.pig.state import PigState, initial_state

#: Pig as the tools read it: it offers no players of its own, so the search and the demo play it at random.
DECLARATION = Declaration(name="pig", title="Pig", version="1", min_players=2, max_players=4, known_options=("target",))


class PigRules:
    """The rules of Pig (see the package docstring)."""

    declaration = DECLARATION
    name = DECLARATION.name
    title = DECLARATION.title
    version = DECLARATION.version
    min_players = DECLARATION.min_players
    max_players = DECLARATION.max_players
    #: Pig's sentences are not worded in messages: every language shows them in English.
    templates: dict[str, Template] = {}

    def initial_state(self, setup: Setup) -> PigState:
        """Everyone at zero, bluffs still to be drawn."""
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(f"pig takes 2 to 4 players, got {n}")
        distinct_players(setup)  # seats are told apart by name in logs, like every game's
        unknown = sorted(set(setup.options) - set(self.declaration.known_options))
        if unknown:
            raise SetupError(f"pig: unknown options {unknown}; known: target")
        return initial_state(n, int(setup.options.get("target", 20)))

    def current_actor(self, state: PigState) -> int | str | None:
        """Chance while bluffs are undrawn or a die is rolling, else the seat; None at the end."""
        if max(state.scores) >= state.target:
            return None
        if None in state.bluffs or state.rolling:
            return CHANCE
        return state.seat

    def legal_actions(self, state: PigState) -> Sequence[str]:
        """Roll, and hold once the turn total is positive."""
        if self.current_actor(state) in (None, CHANCE):
            return ()
        return turn.legal_actions(state)

    def chance_outcomes(self, state: PigState) -> Sequence[tuple[str, int]]:
        """A bluff draw (1-3) or a die face, uniform."""
        if self.current_actor(state) != CHANCE:
            return ()
        return chance.outcomes(state)

    def check(self, state: PigState, action: Any) -> None:
        """Refuse what is not in the legal list, saying why."""
        if action not in self.legal_actions(state):
            reason = "nothing to hold: the turn total is 0" if action == HOLD else f"expected one of {list(self.legal_actions(state))}"
            raise IllegalActionError(str(action), reason, rule="pig: turn")

    def apply(self, state: PigState, action: str) -> PigState:
        """The state after ``action``."""
        if action in (ROLL, HOLD):
            return turn.apply(state, action)
        return chance.apply(state, action)

    def outcome(self, state: PigState) -> Outcome | None:
        """Scores; whoever reached the target wins."""
        if self.current_actor(state) is not None:
            return None
        return scoring.outcome(state)

    def view(self, state: PigState, seat: int | None) -> dict[str, Any]:
        """Everything, except other seats' bluffs."""
        return serialize.view(state, seat)

    def parse_action(self, text: str) -> str:
        """Notation: roll, hold, d1..d6, b1..b3."""
        return parse_action(text)

    def format_action(self, action: str) -> str:
        """Actions are their own notation."""
        return format_action(action)

    def describe(self, state: PigState, action: str) -> str:
        """A sentence for the log."""
        return describe.describe(state, action)

    def describe_message(self, state: PigState, action: str) -> Message:
        """The sentence, untranslated (Pig is a test game)."""
        return text_message(self.describe(state, action))

    def dump_state(self, state: PigState) -> dict[str, Any]:
        """JSON-safe state."""
        return serialize.dump_state(state)

    def load_state(self, data: dict[str, Any]) -> PigState:
        """The state from :meth:`dump_state` data."""
        return serialize.load_state(data)


#: The rules object.
RULES = PigRules()
