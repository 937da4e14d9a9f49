"""Pig, a tiny dice game that exists only to exercise the engine core and the service.

Players take turns; on a turn a player rolls a die (a chance event) as often as they
like, adding the pips to the turn total; a 1 loses the turn total and ends the turn;
holding banks the turn total. The first to reach the target (option ``target``,
default 20) wins. A player's turn total is shown to everyone, but each player also
holds a secret "bluff" number chosen by chance at the start, which ``view`` hides
from the other seats, so that the conformance suite has hidden information to check.
It is not shipped in ``engine/``: it is a test fixture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from engine import CHANCE, IllegalActionError, NotationError, Outcome, Setup, SetupError, StateFormatError
from engine.core.phased import distinct_players


class PigState(NamedTuple):
    """Immutable state of a Pig game."""

    scores: tuple[int, ...]
    bluffs: tuple[int | None, ...]
    seat: int
    turn_total: int
    rolling: bool
    target: int


ROLL, HOLD = "roll", "hold"
DIE_FACES = tuple(f"d{n}" for n in range(1, 7))
BLUFFS = tuple(f"b{n}" for n in range(1, 4))


class PigRules:
    """The rules of Pig (see the module docstring)."""

    name = "pig"
    version = "1"
    min_players = 2
    max_players = 4

    def initial_state(self, setup: Setup) -> PigState:
        """Everyone at zero, bluffs still to be drawn."""
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise SetupError(f"pig takes 2 to 4 players, got {n}")
        distinct_players(setup)  # seats are told apart by name in logs, like every game's
        unknown = sorted(set(setup.options) - {"target"})
        if unknown:
            raise SetupError(f"pig: unknown options {unknown}; known: target")
        target = int(setup.options.get("target", 20))
        return PigState((0,) * n, (None,) * n, 0, 0, False, target)

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
        return (ROLL, HOLD) if state.turn_total else (ROLL,)

    def chance_outcomes(self, state: PigState) -> Sequence[tuple[str, int]]:
        """A bluff draw (1-3) or a die face, uniform."""
        if self.current_actor(state) != CHANCE:
            return ()
        faces = BLUFFS if None in state.bluffs else DIE_FACES
        return tuple((face, 1) for face in faces)

    def check(self, state: PigState, action: Any) -> None:
        """Refuse what is not in the legal list, saying why."""
        if action not in self.legal_actions(state):
            reason = "nothing to hold: the turn total is 0" if action == HOLD else f"expected one of {list(self.legal_actions(state))}"
            raise IllegalActionError(str(action), reason, rule="pig: turn")

    def apply(self, state: PigState, action: str) -> PigState:
        """The state after ``action``."""
        if action in BLUFFS:
            bluffs = list(state.bluffs)
            bluffs[bluffs.index(None)] = int(action[1:])
            return state._replace(bluffs=tuple(bluffs))
        if action == ROLL:
            return state._replace(rolling=True)
        if action == HOLD:
            scores = list(state.scores)
            scores[state.seat] += state.turn_total
            return self._next_turn(state._replace(scores=tuple(scores)))
        pips = int(action[1:])
        if pips == 1:
            return self._next_turn(state)
        return state._replace(rolling=False, turn_total=state.turn_total + pips)

    def _next_turn(self, state: PigState) -> PigState:
        return state._replace(seat=(state.seat + 1) % len(state.scores), turn_total=0, rolling=False)

    def outcome(self, state: PigState) -> Outcome | None:
        """Scores; whoever reached the target wins."""
        if self.current_actor(state) is not None:
            return None
        return Outcome.ranked(state.scores, scores=state.scores)

    def view(self, state: PigState, seat: int | None) -> dict[str, Any]:
        """Everything, except other seats' bluffs."""
        data = self.dump_state(state)
        data["bluffs"] = [b if i == seat else None for i, b in enumerate(state.bluffs)]
        return data

    def parse_action(self, text: str) -> str:
        """Notation: roll, hold, d1..d6, b1..b3."""
        if text in (ROLL, HOLD) or text in DIE_FACES or text in BLUFFS:
            return text
        raise NotationError(text, "roll, hold, d1-d6 or b1-b3")

    def format_action(self, action: str) -> str:
        """Actions are their own notation."""
        return action

    def describe(self, state: PigState, action: str) -> str:
        """A sentence for the log."""
        if action in BLUFFS:
            return "A bluff number is drawn"
        if action in DIE_FACES:
            return f"The die shows {action[1:]}"
        return f"Seat {state.seat} {'rolls' if action == ROLL else f'holds {state.turn_total}'}"

    def dump_state(self, state: PigState) -> dict[str, Any]:
        """JSON-safe state."""
        return state._asdict() | {"scores": list(state.scores), "bluffs": list(state.bluffs)}

    def load_state(self, data: dict[str, Any]) -> PigState:
        """The state from :meth:`dump_state` data."""
        try:
            return PigState(tuple(data["scores"]), tuple(data["bluffs"]), int(data["seat"]), int(data["turn_total"]),
                            bool(data["rolling"]), int(data["target"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"not a pig state: {exc}") from exc


PIG = PigRules()
