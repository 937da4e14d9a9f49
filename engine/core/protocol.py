"""The Rules protocol every game implements, and the value objects it speaks in.

A rules object is stateless: all game state lives in the ``state`` values it takes
and returns. States are treated as immutable; ``apply`` returns a new one, which lets
a game share structure between successive states instead of copying them. The contract
of each method is in :class:`GameRules`' docstrings (:data:`Rules` is the protocol where the
game is not known); :class:`engine.core.phased.PhasedRules`
implements all of it but ``initial_state`` from a game's phase tables.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeAlias, TypeVar, runtime_checkable

from engine.core.declaration import Declaration
from engine.core.messages import Message, Template

#: The actor of a chance event (a draw, a shuffle, a spin): nobody's decision. Final, so that the compiled engine
#: reads it as a constant rather than a module global (a playout compares every step's actor with it).
CHANCE: Final = "chance"

#: A seat number (0 = first player), :data:`CHANCE`, or ``None`` when the game is over.
Actor: TypeAlias = "int | str | None"

#: Whatever a game uses for a move: hashable and immutable. Events carry its notation.
Action: TypeAlias = Hashable
#: Whatever a game uses for a state, where the game is not known (the fold loop, the service).
State: TypeAlias = Any
#: JSON-safe data: dicts with string keys, lists, strings, numbers, booleans and None.
JSON: TypeAlias = Any

#: A game's state type (an immutable record, see :mod:`engine.core.records`).
S = TypeVar("S")
#: A game's action type (hashable: tuples or small named records of tuples).
A = TypeVar("A")


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
class GameRules(Protocol[S, A]):
    """One game's rules: a stateless object, generic over the game's state type ``S`` and action type ``A``.

    The contract every game keeps (``tests/engine/test_conformance.py`` checks it for every
    registered game):

    * **Stateless and pure.** All game state lives in the ``S`` values the methods take and
      return; states are immutable, ``apply`` returns a new one (sharing unchanged parts). No
      method does I/O, reads a clock or draws a random number: every random outcome (a shuffle,
      a draw, a spin) is a chance action in the log, chosen by whoever appends it. Replaying the
      same actions from the same setup therefore always gives the same states.
    * **Whose turn.** :meth:`current_actor` is a seat (0 = first player), :data:`CHANCE`, or
      ``None`` once the game is over; then and only then :meth:`outcome` is not None.
    * **Enumerable decisions.** :meth:`legal_actions` lists every legal action of the seat to act,
      finite and in a stable order (empty for chance and at the end); :meth:`chance_outcomes`
      lists chance's outcomes with positive integer weights (empty unless chance acts). A decision
      made in several steps (placing colonists, loading ships, bidding) is a sequence of small
      actions, so every decision point is enumerable for random playouts, the UI and forks.
    * **Checked and unchecked.** :meth:`check` raises :class:`~engine.core.errors.IllegalActionError`
      naming the rule for anything not listed (chance outcomes are checked by the fold loop
      against :meth:`chance_outcomes`); :meth:`apply` assumes a legal action and resolves
      everything that follows by itself, so a state always waits for a decision, for chance or
      for nobody.
    * **Notation round-trips.** ``parse_action(format_action(a)) == a`` for every action, and
      ``format_action`` writes one canonical spelling (events store it: it must never change for
      an existing action). Parsing reads through :func:`engine.core.notation.normal_notation`
      (spacing and the verb's case are forgiven) and raises
      :class:`~engine.core.errors.NotationError` saying what was expected.
    * **Snapshots round-trip.** ``load_state(dump_state(s)) == s``; the dump is JSON-safe and
      deterministic (snapshots in Redis are compared and reused). A change to what ``dump_state``
      writes, or to what a stored action means, needs a new :attr:`version`.
    * **Versions.** :attr:`version` is written into every game's ``game_created`` event; a game
      replays with the rules version it was written by (:mod:`engine.core.versions`).
    * **Declared.** :attr:`declaration` states the game's identity once (``name``, ``title``, ``version`` and the
      player counts below equal its fields) and what the game offers the tools around its rules: a demo player, a
      rollout policy, strategy bots, a determiniser, the analysis's budget and verdict settings, the setups of
      older versions (:class:`engine.core.declaration.Declaration`). Tools read the declaration; none probes the
      rules object for optional attributes.
    """

    #: The game's registry name (``puerto_rico``), also written into ``game_created``.
    name: str
    #: The game's name as people read it (``Puerto Rico``): lists, page headers, titles.
    title: str
    #: The rules version, a string of digits; bumped when stored games would replay differently.
    version: str
    #: The fewest and the most players the game takes.
    min_players: int
    max_players: int
    #: The game's declaration: its identity and what it offers (:mod:`engine.core.declaration`).
    declaration: Declaration
    #: The game's English message templates by id: the source of its catalog (``service/i18n/games``).
    templates: Mapping[str, Template]

    def initial_state(self, setup: Setup) -> S:
        """The state before the first move; raises SetupError for a bad setup.

        A bad setup: a player count outside ``min_players``-``max_players``, two players of the same
        name, an option the game does not know, or a bad option value. Most games open with chance
        acting (laying out the board, dealing).
        """

    def current_actor(self, state: S) -> Actor:
        """Whose decision it is: a seat, CHANCE, or None when the game is over."""

    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action of the seat to act, finite and in a stable order; empty for chance and at the end."""

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, int]]:
        """When chance acts: every possible outcome with its integer weight (by what is really left); else empty."""

    def apply(self, state: S, action: A) -> S:
        """The new state after ``action`` and whatever follows by itself; assumes it is legal (see :meth:`check`)."""

    def check(self, state: S, action: A) -> None:
        """Raise IllegalActionError naming the rule and saying why if the seat to act may not take ``action`` now."""

    def outcome(self, state: S) -> Outcome | None:
        """Scores, tie-breaks, winners and final places once the game is over, else None."""

    def view(self, state: S, seat: int | None) -> JSON:
        """The state as ``seat`` may see it (None: as a spectator), JSON-safe: hidden information left out."""

    def parse_action(self, text: str) -> A:
        """The action written as ``text`` (spacing and the verb's case forgiven); raises NotationError."""

    def format_action(self, action: A) -> str:
        """The canonical notation of ``action``: what events store, so fixed once written; parse_action inverts it."""

    def describe(self, state: S, action: A) -> str:
        """A sentence for people about ``action`` taken in ``state`` ("Anna builds a harbor for 5 doubloons"), in
        English: what exports and the log's records say."""

    def describe_message(self, state: S, action: A) -> Message:
        """The sentence of :meth:`describe` as a message (a template id and its arguments, :mod:`engine.core.messages`):
        what the service renders in the reader's language. Rendered with :attr:`templates` it reads as ``describe``."""

    def dump_state(self, state: S) -> JSON:
        """The full state as deterministic JSON-safe data (for snapshots); load_state inverts it."""

    def load_state(self, data: JSON) -> S:
        """The state from :meth:`dump_state` data; raises StateFormatError naming what is wrong."""


#: The rules of some game, not known where they are used (the registry, the fold loop, the service):
#: :class:`GameRules` over any state type and hashable actions. A game's own code names its types,
#: ``GameRules[State, Action]`` (or ``PhasedRules[State, Action]``).
Rules: TypeAlias = GameRules[Any, Action]
