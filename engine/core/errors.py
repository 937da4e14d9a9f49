"""The engine's error tree.

Every error the engine raises is an :class:`EngineError`. Each concrete error also
derives from the builtin it refines (``ValueError``, ``LookupError``) so that callers
who only know the builtins still catch them, the way python-chess does.

Messages are lower case, quote the input, and say what was expected and where:
``illegal action 'build harbor' at seq 212: seat 2 has 4 doubloons, needs 5``.
"""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Root of every error the engine raises."""


class UnknownGameError(EngineError, LookupError):
    """No rules are registered under the requested game name."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown game {name!r}: expected one of {', '.join(known) or '(none)'}")


class SetupError(EngineError, ValueError):
    """A game setup (players, options, component set) is not acceptable."""


class NotationError(EngineError, ValueError):
    """A text does not parse as an action in the game's notation."""

    def __init__(self, text: str, expected: str) -> None:
        self.text = text
        self.expected = expected
        super().__init__(f"cannot parse action {text!r}: expected {expected}")


class StateFormatError(EngineError, ValueError):
    """A dumped state (a snapshot) cannot be loaded."""


class IllegalActionError(EngineError, ValueError):
    """An action breaks the rules in the state it was tried in.

    ``reason`` says why in the rule's terms; ``rule`` optionally names the rule
    (``"builder: no duplicates"``); ``seq`` is the event position once known.
    """

    def __init__(self, action: str, reason: str, *, rule: str | None = None, seq: int | None = None) -> None:
        self.action = action
        self.reason = reason
        self.rule = rule
        self.seq = seq
        super().__init__(self._message())

    def _message(self) -> str:
        where = f" at seq {self.seq}" if self.seq is not None else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"illegal action {self.action!r}{where}: {self.reason}{rule}"

    def at_seq(self, seq: int) -> IllegalActionError:
        """The same error (of the same class), placed at event ``seq``."""
        return type(self)(self.action, self.reason, rule=self.rule, seq=seq)


class EventMismatchError(IllegalActionError):
    """An event does not fit the state it is applied to: its actor is not the one to act (a player
    moved out of turn, or after the end), or its type does not fit (a chance draw by a seat, a second
    ``game_created``)."""


class EventSequenceError(EngineError, ValueError):
    """A history's events are not numbered 1, 2, 3 … without a gap or a repeat: ``seq`` came where
    ``expected`` should have."""

    def __init__(self, seq: int, expected: int) -> None:
        self.seq = seq
        self.expected = expected
        super().__init__(f"event seq {seq} out of order: expected seq {expected} (seqs run on without a gap)")


class LogMismatchError(EngineError, ValueError):
    """An imported log and the rules disagree: ``move_id``, the log ``line``, the ``rule`` and the ``reason``.

    Raised by :mod:`engine.bga` when a line states an action the rules refuse (or a result they
    do not reach); ``seq``, ``action`` and ``index`` (the note's position) place it once known.
    """

    def __init__(self, reason: str, *, move_id: int | None, line: str, rule: str | None, seq: int | None = None,
                 action: str | None = None, index: int | None = None) -> None:
        self.reason = reason
        self.move_id = move_id
        self.line = line
        self.rule = rule
        self.seq = seq
        self.action = action
        self.index = index
        where = f"move {move_id}" if move_id is not None else "a line outside any move"
        rule_text = f" [rule: {rule}]" if rule else ""
        super().__init__(f"log and rules disagree at {where}, line {line[:200]!r}: {reason}{rule_text}")

    def to_json(self) -> dict[str, Any]:
        """JSON-safe details for reports and API errors."""
        return {"move_id": self.move_id, "line": self.line[:500], "rule": self.rule, "reason": self.reason, "seq": self.seq,
                "action": self.action, "message": str(self)}
