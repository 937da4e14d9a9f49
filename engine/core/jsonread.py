"""The one reader of stored JSON: typed reads of a field that name the field's path when they refuse it.

Every game's ``serialize.load_state`` and every component-set check reads its JSON through a
:class:`JsonReader`: a value together with where it sits (``players[2].plantations[5]``). Each read
checks one thing (an int in a range, a bool, a string among choices, a list of a length, an object
with exactly some fields) and returns a plain value, so a loader is a flat list of reads. A value
that does not fit raises :class:`~engine.core.errors.StateFormatError` whose message starts with the
reader's subject and names the path, what was expected and what was found::

    bad puerto rico state: players[2].plantations[5]: expected an int in 0..11, got "x"

A component-set check, whose callers expect a ``SetupError``, wraps its reads in :func:`as_setup_error`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from engine.core.errors import SetupError, StateFormatError

#: How much of a refused value a message quotes.
SHOWN_CHARS = 80


def shown(value: object) -> str:
    """A refused value as a message quotes it: JSON where it is JSON data, else its repr; cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def int_bounds(low: int | None, high: int | None) -> str:
    """``an int in 0..11``, ``an int of at least 1``, ``an int of at most 4`` or ``an int``."""
    if low is not None and high is not None:
        return f"an int in {low}..{high}"
    if low is not None:
        return f"an int of at least {low}"
    if high is not None:
        return f"an int of at most {high}"
    return "an int"


def length_bounds(low: int, high: int | None, of: str = "entries") -> str:
    """``3 ints``, ``2 to 4 ints``, ``at least 1 int`` or ``ints``: a list's length, its entries called ``of``
    (a plural ending in s, cut for one)."""
    one = of[:-1] if of.endswith("s") else of
    if high is not None and low == high:
        return f"{low} {one if low == 1 else of}"
    if high is not None:
        return f"{low} to {high} {of}"
    if low > 0:
        return f"at least {low} {one if low == 1 else of}"
    return of


def choices_text(choices: Collection[str]) -> str:
    """The choices of a string field, as a message lists them (at most ten, then a count)."""
    names = list(choices)
    listed = ", ".join(names[:10])
    return listed if len(names) <= 10 else f"{listed} (and {len(names) - 10} more)"


class JsonReader:
    """A JSON value and its path, with typed reads that raise StateFormatError naming the path."""

    __slots__ = ("value", "subject", "path")

    def __init__(self, value: object, subject: str, path: str = "") -> None:
        self.value = value
        self.subject = subject
        self.path = path

    # Errors ------------------------------------------------------------------------------------

    def fail(self, why: str) -> StateFormatError:
        """The error for this field: ``subject: path: why`` (the path left out at the root)."""
        where = f"{self.path}: " if self.path else ""
        return StateFormatError(f"{self.subject}: {where}{why}")

    def expected(self, what: str) -> StateFormatError:
        """The error ``expected <what>, got <the value>`` for this field."""
        return self.fail(f"expected {what}, got {shown(self.value)}")

    # Moving down -------------------------------------------------------------------------------

    def at(self, name: str) -> JsonReader:
        """The field ``name`` of this object (which must be an object that has it)."""
        data = self.value
        if not isinstance(data, dict):
            raise self.expected("an object")
        path = f"{self.path}.{name}" if self.path else name
        if name not in data:
            raise JsonReader(None, self.subject, path).fail("is missing")
        return JsonReader(data[name], self.subject, path)

    def item(self, index: int) -> JsonReader:
        """The entry at ``index`` of this list (which must be a list that long)."""
        data = self.value
        if not isinstance(data, list) or not 0 <= index < len(data):
            raise self.expected(f"a list of more than {index} entries")
        return JsonReader(data[index], self.subject, f"{self.path}[{index}]")

    def items(self, low: int = 0, high: int | None = None, of: str = "entries") -> list[JsonReader]:
        """The entries of this list, whose length must be in ``low..high`` (``high`` None: no upper bound);
        ``of`` names the entries in the message (``ints``)."""
        data = self.value
        if not isinstance(data, list) or len(data) < low or (high is not None and len(data) > high):
            raise self.expected(f"a list of {length_bounds(low, high, of)}")
        return [JsonReader(value, self.subject, f"{self.path}[{i}]") for i, value in enumerate(data)]

    def fields(self, names: Collection[str], optional: Collection[str] = ()) -> JsonReader:
        """This field, checked to be an object with every name of ``names`` and nothing outside
        ``names`` and ``optional``; says which fields are missing and which are unknown."""
        data = self.value
        if not isinstance(data, dict):
            raise self.expected("an object")
        missing = [name for name in names if name not in data]
        unknown = sorted(str(key) for key in data if key not in names and key not in optional)
        if missing or unknown:
            parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(unknown)}"] if unknown else [])
            raise self.fail(f"expected the fields {', '.join(names)}: {'; '.join(parts)}")
        return self

    def has(self, name: str) -> bool:
        """Whether this object has the field ``name`` (for an optional field)."""
        data = self.value
        if not isinstance(data, dict):
            raise self.expected("an object")
        return name in data

    def entries(self) -> list[tuple[str, JsonReader]]:
        """The ``(key, field)`` pairs of this object, in its order."""
        data = self.value
        if not isinstance(data, dict):
            raise self.expected("an object")
        return [(str(key), self.at(str(key))) for key in data]

    # Leaves ------------------------------------------------------------------------------------

    def is_null(self) -> bool:
        """Whether this field is JSON null."""
        return self.value is None

    def integer(self, low: int | None = None, high: int | None = None) -> int:
        """This field as an int in ``low..high`` (either bound None: open); a bool is not an int."""
        value = self.value
        if type(value) is not int or (low is not None and value < low) or (high is not None and value > high):
            raise self.expected(int_bounds(low, high))
        return value

    def boolean(self) -> bool:
        """This field as a bool (``true`` or ``false``, not 0 or 1)."""
        value = self.value
        if type(value) is not bool:
            raise self.expected("true or false")
        return value

    def text(self, choices: Collection[str] | None = None) -> str:
        """This field as a string, one of ``choices`` when given."""
        value = self.value
        if not isinstance(value, str):
            raise self.expected("a string" if choices is None else f"one of {choices_text(choices)}")
        if choices is not None and value not in choices:
            raise self.expected(f"one of {choices_text(choices)}")
        return value

    def choice(self, choices: Sequence[str]) -> int:
        """The index in ``choices`` of this field's string."""
        return list(choices).index(self.text(choices))

    # Lists of leaves ---------------------------------------------------------------------------

    def integers(self, length: int | None = None, low: int | None = None, high: int | None = None) -> tuple[int, ...]:
        """This field as a list of ``length`` ints (None: any length), each in ``low..high``."""
        entries = self.items(0 if length is None else length, length, "ints")
        return tuple(entry.integer(low, high) for entry in entries)

    def booleans(self, length: int | None = None) -> tuple[bool, ...]:
        """This field as a list of ``length`` bools (None: any length)."""
        entries = self.items(0 if length is None else length, length, "bools")
        return tuple(entry.boolean() for entry in entries)

    def texts(self, choices: Collection[str] | None = None, *, low: int = 0, high: int | None = None,
              unique: bool = False) -> tuple[str, ...]:
        """This field as a list of ``low..high`` strings, each one of ``choices`` when given, none twice when ``unique``."""
        values = tuple(entry.text(choices) for entry in self.items(low, high, "strings"))
        if unique and len(set(values)) != len(values):
            twice = next(value for i, value in enumerate(values) if value in values[:i])
            raise self.fail(f"lists {shown(twice)} twice")
        return values

    def nested(self) -> NestedValue:
        """This field as nested tuples: every list a tuple, all the way down, with ints, bools and
        strings as leaves (for a field whose shape the caller checks after)."""
        value = self.value
        if isinstance(value, list):
            return tuple(entry.nested() for entry in self.items())
        if isinstance(value, bool | int | str):
            return value
        raise self.expected("ints, bools, strings and lists of them")


#: What :meth:`JsonReader.nested` returns.
NestedValue = int | bool | str | tuple[object, ...]


def as_setup_error(error: StateFormatError) -> SetupError:
    """The same message as a SetupError: a component set is part of a game's setup, refused as one."""
    return SetupError(str(error))
