"""Immutable records changed a field or an element at a time: the games' states.

A state is a :class:`Record`: a class with one slot per field, compared, hashed and shown by its
fields like a NamedTuple. A move replaces only what it touches and shares the rest with the state
before (structural sharing), which is what makes folding fast.

Records are values: a state that anyone else may hold is never changed. A move makes its new state
with ``copy()`` and sets fields on that copy before handing it on, or with ``evolve(**changes)`` where
speed does not matter. Why not a NamedTuple (what the states were until issue 23): compiled with
mypyc, a class with typed slots reads a field with one memory load and copies itself with one
constructor call, where a tuple subclass takes CPython's generic paths for both (a Puerto Rico state
copy cost about 4,400 instructions, a third of a random playout).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Final, TypeVar

R = TypeVar("R", bound="Record")


class Record:
    """A value with named fields (``FIELDS``, in order), made and copied by its subclass.

    A subclass lists its fields in ``FIELDS`` and ``__slots__``, annotates them, takes them all in
    ``__init__`` (in that order) and implements ``copy``; equality, hashing, ``repr``, ``values`` and
    ``evolve`` come from here. Equal records are of the same class with equal fields.
    """

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def copy(self: R) -> R:
        """A new record with the same fields, for a move to change before it hands it on."""
        raise NotImplementedError

    def evolve(self: R, **changes: object) -> R:
        """A copy with ``changes`` (by field name; an unknown name raises AttributeError)."""
        new = self.copy()
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def values(self) -> tuple[Any, ...]:
        """The fields' values, in the order of ``FIELDS``."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def items(self) -> Iterator[tuple[str, Any]]:
        """``(name, value)`` for every field, in order."""
        for name in self.FIELDS:
            yield name, getattr(self, name)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={value!r}' for name, value in self.items())})"


#: The fields a :class:`PhasedRecord` holds itself.
PHASED_FIELDS: Final = ("phase", "turn")


class PhasedRecord(Record):
    """A game's state that waits in a phase (``phase``, of the game's ``Phase``) at a seat (``turn``): the two fields
    :class:`~engine.core.phased.PhasedRules` reads first for every question, declared here once.

    A subclass lists them in its ``FIELDS`` where they stand in its order, leaves them out of its own ``__slots__``
    (:func:`own_slots`) and sets them in ``__init__`` as its other fields. Compiled, the rules read them from this
    class's layout with one load each, whichever game's state it is.
    """

    __slots__ = PHASED_FIELDS
    phase: Any  # the game's Phase (an IntEnum): typed Any so that compiled, it stays one (an int field would not)
    turn: int


def own_slots(fields: tuple[str, ...]) -> tuple[str, ...]:
    """The ``__slots__`` of a :class:`PhasedRecord` subclass with these ``FIELDS``: all but the two of the base."""
    return tuple(name for name in fields if name not in PHASED_FIELDS)


def add_at(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """``values`` with ``delta`` added at ``index``."""
    # A list copy changed in place: a quarter faster than joining two slices, pure or compiled.
    changed = list(values)
    changed[index] += delta
    return tuple(changed)


def set_at(values: tuple[Any, ...], index: int, value: object) -> tuple[Any, ...]:
    """``values`` with ``value`` at ``index``."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)
