"""Request fields read alike by the API's schemas and the pages' forms: strict schemas and integers, and what text a
person may type into a name, title or note."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields

#: Characters no name, title or note may hold: C0/C1 controls and the bidirectional embeddings, overrides and
#: isolates, which can make a name read as something else ("evil\u202egnp.exe") or break a log line.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _is_refused(char: str, allow_newlines: bool) -> bool:
    if char in _BIDI_CONTROLS:
        return True
    if allow_newlines and char in "\n\r\t":
        return False
    return ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0


def first_refused(value: str, allow_newlines: bool = False) -> tuple[int, str] | None:
    """(position, character) of the first control character or bidirectional override in ``value``, None if none."""
    return next(((position, char) for position, char in enumerate(value) if _is_refused(char, allow_newlines)), None)


def plain_text(allow_newlines: bool = False) -> Any:
    """A validator refusing control characters and bidirectional overrides, naming the first and where it is."""

    def check(value: str) -> None:
        refused = first_refused(value, allow_newlines)
        if refused:
            position, char = refused
            kind = "bidirectional override" if char in _BIDI_CONTROLS else "control character"
            raise ValidationError(f"{kind} U+{ord(char):04X} at position {position} is not allowed")

    return check


class StrictInt(fields.Integer):
    """An integer that must be a JSON number: no strings, floats or booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid")
        result: int = super()._validated(value)
        return result


class Strict(Schema):
    """Base of request schemas: unknown fields are refused."""

    class Meta:
        unknown = RAISE
