"""Rules assembled from a game's phase tables: the engine protocol, written once for every phased game.

A game's state waits in numbered phases (a role pick, a bid, a chance draw, the end). Given what
the game supplies (its phase tables and its modules' functions) and what it declares (its
:class:`~engine.core.declaration.Declaration`), :class:`PhasedRules` answers the whole :class:`~engine.core.protocol.Rules`
protocol but ``initial_state``: who acts (chance in a chance phase, nobody once over, else a
seat), the legal actions (the phase's legal-actions function), chance's outcomes, ``check`` (legal, or
the game's explanation of why not, raised as :class:`~engine.core.errors.IllegalActionError`),
``apply`` (the phase's apply function), the outcome once over, and the view, notation, sentence
and snapshot functions of the game's own modules, handed over in three bundles (:class:`Turns`, :class:`Words`,
:class:`Snapshots`) so that every game makes its rules object alike in one line. It also owns the setup checks every game
shares (:meth:`PhasedRules.seated_players`: the player count, distinct names, known options), and
:func:`apply_table` builds every game's phase → apply table the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Generic, TypeVar

from engine.core.declaration import Declaration
from engine.core.errors import IllegalActionError, SetupError
from engine.core.messages import Message, Template, english
from engine.core.protocol import CHANCE, A, Outcome, S, Setup
from engine.core.records import PhasedRecord

#: A phased game's state: a :class:`~engine.core.records.PhasedRecord` (bound, so that compiled, its phase and seat
#: are read from the record's layout).
PS = TypeVar("PS", bound=PhasedRecord)


def apply_table(decisions: Mapping[int, Callable[[S, A], S]], chance_phases: Collection[int],
                apply_chance: Callable[[S, A], S]) -> dict[int, Callable[[S, A], S]]:
    """A game's phase → apply table: its decision phases' functions, and ``apply_chance`` in every chance phase.

    A game whose decisions all go through one function passes ``dict.fromkeys(LEGAL, apply_decision)``.
    """
    overlap = set(decisions) & set(chance_phases)
    if overlap:
        raise ValueError(f"phases {sorted(overlap)} are both decision and chance phases")
    return {**dict.fromkeys(chance_phases, apply_chance), **decisions}


def distinct_players(setup: Setup) -> tuple[str, ...]:
    """The players' names in seat order; raises SetupError when two are the same."""
    names = tuple(setup.players)
    if len(set(names)) != len(names):
        raise SetupError(f"player names must be distinct, got {list(names)}")
    return names


class Turns(Generic[S, A]):
    """How a phased game's turns go, from its phase tables and the functions its chance and its end call.

    * ``legal``: phase → the legal actions of the seat to act, in a stable order (a phase not listed has
      none: chance phases and the end);
    * ``apply``: phase → the function that applies an action in that phase, chance phases included (assumed
      legal; it resolves whatever follows by itself), built with :func:`apply_table`;
    * ``chance_phases``, where chance acts, with ``chance_outcomes(state)`` (outcomes and weights);
    * ``over``, the phase of a finished game, with ``outcome(state)`` (called only then);
    * ``surely_legal(state, action)``, where the game has one: True for a legal action found without listing
      every legal action (a tuple action only; False means "compare with the list", never "illegal").

    (A plain class, not a dataclass: compiled by mypyc, a generic dataclass fails at import.)
    """

    def __init__(self, legal: Mapping[int, Callable[[S], Sequence[A]]], apply: Mapping[int, Callable[[S, A], S]],
                 chance_phases: Collection[int], chance_outcomes: Callable[[S], Sequence[tuple[A, int]]], over: int,
                 outcome: Callable[[S], Outcome], *, surely_legal: Callable[[S, Any], bool] | None = None) -> None:
        self.legal, self.apply, self.over = legal, apply, over
        self.chance_phases, self.chance_outcomes = chance_phases, chance_outcomes
        self.outcome, self.surely_legal = outcome, surely_legal


class Words(Generic[S, A]):
    """How a game writes and tells its moves: its notation (``parse_action`` / ``format_action``), why a move is
    not legal (``explain(state, action)``: ``(reason, rule)``) and a game-log sentence per move, as a
    :class:`~engine.core.messages.Message` its English ``templates`` render: ``message(state, action)``, or
    ``message_after(state, action, after)`` for a game whose sentence also says what followed by itself (it is
    given the state the action leads to). Exactly one of the two: TypeError otherwise."""

    def __init__(self, parse_action: Callable[[object], A], format_action: Callable[[A], str],
                 explain: Callable[[S, A], tuple[str, str]], templates: Mapping[str, Template], *,
                 message: Callable[[S, A], Message] | None = None,
                 message_after: Callable[[S, A, S], Message] | None = None) -> None:
        if (message is None) == (message_after is None):
            raise TypeError("a game's Words take exactly one of message and message_after")
        self.parse_action, self.format_action, self.explain, self.templates = parse_action, format_action, explain, templates
        self.message, self.message_after = message, message_after


class Snapshots(Generic[S]):
    """How a game's state is shown and stored: ``view(state, seat)`` (the state as a seat may see it, None for a
    spectator), ``dump_state`` (the full state, JSON-safe) and ``load_state`` (back from that data)."""

    def __init__(self, view: Callable[[S, int | None], dict[str, Any]], dump_state: Callable[[S], dict[str, Any]],
                 load_state: Callable[[Any], S]) -> None:
        self.view, self.dump_state, self.load_state = view, dump_state, load_state


class PhasedRules(Generic[PS, A]):
    """A game's rules object, assembled from its declaration, its phase tables and its modules' functions: a
    :class:`~engine.core.protocol.GameRules` over the game's state type ``PS`` and action type ``A``.

    A game's state is a :class:`~engine.core.records.PhasedRecord` (its ``phase`` and ``turn``, where every question
    starts: :meth:`phase_of`, :meth:`seat_of`). The game subclasses this class with ``initial_state`` (which starts
    with :meth:`seated_players`) and makes its rules object from four things: its
    :class:`~engine.core.declaration.Declaration` (its name, version, player counts and known options, and what it
    offers the tools), its :class:`Turns` (the phase tables, chance and the end), its :class:`Words` (notation,
    explanations, sentences) and its :class:`Snapshots` (view, dump, load).
    """

    declaration: Declaration
    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    #: The ``Setup.options`` keys the game understands; :meth:`seated_players` refuses any other.
    known_options: tuple[str, ...]

    def __init__(self, declaration: Declaration, turns: Turns[PS, A], words: Words[PS, A], snapshots: Snapshots[PS]) -> None:
        self.declaration = declaration
        self.name, self.title, self.version = declaration.name, declaration.title, declaration.version
        self.min_players, self.max_players = declaration.min_players, declaration.max_players
        self.known_options = declaration.known_options
        # Unpacked into attributes of their own: the hot path (a playout's legal actions and applies) reads one
        # attribute, not two.
        self._legal = dict(turns.legal)
        self._apply = dict(turns.apply)
        self._chance_phases = frozenset(turns.chance_phases)
        self._chance_outcomes = turns.chance_outcomes
        self._over = turns.over
        self._outcome = turns.outcome
        self._surely_legal = turns.surely_legal
        self._explain = words.explain
        self._parse_action = words.parse_action
        self._format_action = words.format_action
        self._message = words.message
        self._message_after = words.message_after
        self.templates: Mapping[str, Template] = dict(words.templates)
        self._view = snapshots.view
        self._dump_state = snapshots.dump_state
        self._load_state = snapshots.load_state

    def phase_of(self, state: PS) -> int:
        """The phase ``state`` waits in, where every question starts. Compiled, ``state`` is known to be a
        :class:`~engine.core.records.PhasedRecord`, so this is one load from its layout (read by name through a
        generic getter, as a state of unknown type must be, it took a twentieth of a compiled Puerto Rico playout)."""
        phase: int = state.phase  # the game's Phase, an IntEnum: read as the int it is
        return phase

    def seat_of(self, state: PS) -> int:
        """The seat to decide outside chance phases: the state's ``turn`` (Amerigo's is the ``turn``-th seat of its
        turn order: it says so itself)."""
        return state.turn

    def initial_state(self, setup: Setup) -> PS:
        """The state before the first move; raises SetupError for a bad setup (the game's own)."""
        raise NotImplementedError(f"{type(self).__name__} must define initial_state")

    def seated_players(self, setup: Setup) -> tuple[str, ...]:
        """The players' names in seat order, after the setup checks every game shares.

        SetupError unless the number of players is one the game takes, no two names are alike and
        every option is one of :attr:`known_options` (the options' values are the game's to check).
        """
        game = self.name.replace("_", " ")
        count = len(setup.players)
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"{game} takes {self.min_players} to {self.max_players} players, got {count}")
        unknown = sorted(set(setup.options) - set(self.known_options))
        if unknown:
            known = ", ".join(self.known_options) or "(none)"
            raise SetupError(f"unknown {game} options {unknown}: expected some of {known}")
        return distinct_players(setup)

    def current_actor(self, state: PS) -> int | str | None:
        """The seat to decide, CHANCE in a chance phase, None when the game is over."""
        phase = self.phase_of(state)
        if phase in self._chance_phases:
            return CHANCE
        if phase == self._over:
            return None
        return self.seat_of(state)

    def legal_actions(self, state: PS) -> Sequence[A]:
        """Every legal action of the seat to act, in a stable order; () for chance and at the end."""
        legal = self._legal.get(self.phase_of(state))
        return legal(state) if legal is not None else ()

    def chance_outcomes(self, state: PS) -> Sequence[tuple[A, int]]:
        """Every outcome of the chance phase under way with its weight; () otherwise."""
        if self.phase_of(state) in self._chance_phases:
            return self._chance_outcomes(state)
        return ()

    def check(self, state: PS, action: A) -> None:
        """Raise IllegalActionError naming the rule unless ``action`` is legal for the seat to act: legal when the
        game's ``surely_legal`` says so (where it has one), else when it is in the list of legal actions."""
        surely_legal = self._surely_legal
        if surely_legal is not None and type(action) is tuple and surely_legal(state, action):
            return
        if action in self.legal_actions(state):
            return
        try:
            notation = self._format_action(action)
        except (ValueError, TypeError, IndexError, KeyError):  # any shape that is none of this game's actions
            raise IllegalActionError(repr(action), f"not {self._game_words()} action", rule="notation") from None
        reason, rule = self._explain(state, action)
        raise IllegalActionError(notation, reason, rule=rule)

    def apply(self, state: PS, action: A) -> PS:
        """The state after ``action`` (assumed legal: use :meth:`check` on untrusted input)."""
        return self._apply[self.phase_of(state)](state, action)

    def outcome(self, state: PS) -> Outcome | None:
        """Scores, tie-breaks and winners once the game is over, else None."""
        return self._outcome(state) if self.phase_of(state) == self._over else None

    def view(self, state: PS, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (None: as a spectator), JSON-safe."""
        return self._view(state, seat)

    def parse_action(self, text: object) -> A:
        """The action written ``text`` (see the game's notation module); raises NotationError."""
        return self._parse_action(text)

    def format_action(self, action: A) -> str:
        """The notation of ``action``."""
        return self._format_action(action)

    def describe(self, state: PS, action: A) -> str:
        """A game-log sentence for ``action`` taken in ``state``, in English."""
        return english(self.describe_message(state, action), self.templates)

    def describe_message(self, state: PS, action: A) -> Message:
        """The game-log sentence for ``action`` taken in ``state`` as a message (the game's templates render it)."""
        if self._message is not None:
            return self._message(state, action)
        assert self._message_after is not None  # Words take one of the two (checked when the rules are made)
        return self._message_after(state, action, self.apply(state, action))

    def dump_state(self, state: PS) -> dict[str, Any]:
        """The full state, JSON-safe."""
        return self._dump_state(state)

    def load_state(self, data: Any) -> PS:
        """The state from :meth:`dump_state` data; raises StateFormatError."""
        return self._load_state(data)

    def _game_words(self) -> str:
        """The game's name as words with its article: "a puerto rico", "an amerigo"."""
        words = self.name.replace("_", " ")
        return ("an " if words[:1] in "aeiou" else "a ") + words
