"""The Rules protocol every game implements, and the value objects it speaks in.

A rules object is stateless: all game state lives in the ``state`` values it takes
and returns. States are treated as immutable; ``apply`` returns a new one, which lets
a game share structure between successive states instead of copying them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, runtime_checkable

#: The actor of a chance event (a draw, a shuffle, a spin): nobody's decision.
CHANCE = "chance"

#: A seat number (0 = first player), :data:`CHANCE`, or ``None`` when the game is over.
Actor: TypeAlias = "int | str | None"

#: Whatever a game uses for a move: hashable and immutable. Events carry its notation.
Action: TypeAlias = Hashable
State: TypeAlias = Any
JSON: TypeAlias = Any


@dataclass(frozen=True)
class Setup:
    """What a game starts from: the players' names in seat order, and game options."""

    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The setup as JSON-safe data."""
        return {"players": list(self.players), "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        """The setup from :meth:`to_json` data."""
        return cls(players=tuple(data["players"]), options=dict(data.get("options") or {}))


def places(keys: Sequence[Any]) -> tuple[int, ...]:
    """Final places from per-seat ranking keys (higher ranks higher): 1 = first, equal keys share a place.

    Places skip after a shared one, as results tables do: keys ``(5, 5, 3)`` give ``(1, 1, 3)``.
    """
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``scores`` per seat; ``tiebreaks`` per seat (compared after the score, for display);
    ``winners`` the seats that share first place; ``details`` a per-seat breakdown;
    ``ranks`` each seat's final place as the game's own rules decide it (1 = first, shared places
    allowed). A game may rank by more than score and tie-break (in Die goldene Stadt a blocked player
    is last whatever their letters), so consumers read ``ranks`` and never re-derive them.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tiebreaks: tuple[int, ...] = ()
    details: tuple[Mapping[str, int], ...] = ()
    ranks: tuple[int, ...] = ()

    @classmethod
    def ranked(cls, keys: Sequence[Any], *, scores: Sequence[int], tiebreaks: Sequence[int] = (),
               details: Sequence[Mapping[str, int]] = ()) -> Outcome:
        """The outcome whose places and winners follow per-seat ranking ``keys`` (higher ranks higher)."""
        ranks = places(keys)
        return cls(scores=tuple(scores), winners=tuple(seat for seat, rank in enumerate(ranks) if rank == 1),
                   tiebreaks=tuple(tiebreaks), details=tuple(details), ranks=ranks)

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON-safe data."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "tiebreaks": list(self.tiebreaks),
            "details": [dict(d) for d in self.details],
            "ranks": list(self.ranks),
        }


@runtime_checkable
class Rules(Protocol):
    """One game's rules. See DESIGN.md § Engine for the contract of each method.

    Optional, outside the protocol: ``demo_player``, a :data:`engine.core.fold.Player` that
    the demo plays with instead of uniform random play, for games whose random games show
    little (it chooses only among the legal actions it is given); ``legacy_options``, per older
    rules version the setup options that keep its behaviour for its games
    (see :mod:`engine.core.versions`); for the search player (:mod:`engine.analysis`),
    ``rollout_player``, a cheap Player its playouts use (else ``demo_player``, else uniform), and
    ``determinize(state, seat, rng) -> state``, a state ``seat`` cannot tell from ``state``, with
    everything it cannot see (other hands, face-down tiles, a pile's make-up) re-dealt from the
    unseen pool by the visible sizes; it must depend on ``view(state, seat)`` and ``rng`` only.
    A game needs it only when its view hides something the view does not fix
    (see :mod:`engine.analysis.hidden`).
    """

    name: str
    version: str
    min_players: int
    max_players: int

    def initial_state(self, setup: Setup) -> State:
        """The state before the first move; raises SetupError for a bad setup."""

    def current_actor(self, state: State) -> Actor:
        """Whose decision it is: a seat, CHANCE, or None when the game is over."""

    def legal_actions(self, state: State) -> Sequence[Action]:
        """Every legal action of the current (non-chance) actor, in a stable order."""

    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, int]]:
        """When chance acts: every possible outcome with its integer weight."""

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``; assumes it is legal (see :meth:`check`)."""

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalActionError naming the rule if ``action`` is not legal now."""

    def outcome(self, state: State) -> Outcome | None:
        """Scores and winners once the game is over, else None."""

    def view(self, state: State, seat: int | None) -> JSON:
        """The state as ``seat`` may see it (None: as a spectator), JSON-safe."""

    def parse_action(self, text: str) -> Action:
        """The action written as ``text``; raises NotationError."""

    def format_action(self, action: Action) -> str:
        """The compact notation of ``action``; parse_action inverts it."""

    def describe(self, state: State, action: Action) -> str:
        """A sentence for people about ``action`` taken in ``state``."""

    def dump_state(self, state: State) -> JSON:
        """The full state as JSON-safe data (for snapshots)."""

    def load_state(self, data: JSON) -> State:
        """The state from :meth:`dump_state` data; raises StateFormatError."""
