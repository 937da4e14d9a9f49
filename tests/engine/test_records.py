"""The state records (engine.core.records.Record) of every game keep the contract the engine relies on.

A record lists its fields three times (``FIELDS``, ``__init__``, ``copy``) so that mypyc can compile it to a
native class; these tests catch the lists drifting apart: a field missing from ``copy`` or passed in another
order, a slot not in ``FIELDS``. They run on states from real play, compiled and pure (``make test`` runs
``tests/engine`` on both builds).
"""

from __future__ import annotations

import random

import pytest

import engine
from engine import Setup, random_playout
from engine.core.records import Record

GAMES = [name for name in engine.registered_games() if name != "pig"]


def _records_of(value: object, found: list[Record]) -> list[Record]:
    """Every record reachable from ``value`` through records and tuples (players inside a state)."""
    if isinstance(value, Record):
        found.append(value)
        for field in value.values():
            _records_of(field, found)
    elif isinstance(value, tuple):
        for item in value:
            _records_of(item, found)
    return found


def _hashable(record: Record) -> bool:
    """Whether ``record`` hashes: not when a field holds a dict (Amerigo's board keeps a lookup table)."""
    try:
        hash(record)
    except TypeError:
        return False
    return True


def _played_states(name: str) -> list[object]:
    rules = engine.get_rules(name)
    players = tuple(f"P{i}" for i in range(min(4, rules.max_players)))
    playout = random_playout(rules, Setup(players), random.Random(7), check=False)
    return [rules.initial_state(Setup(players)), playout.state]


@pytest.mark.parametrize("name", GAMES)
def test_a_copy_is_equal_distinct_and_keeps_every_field_in_its_place(name: str) -> None:
    for state in _played_states(name):
        for record in _records_of(state, []):
            twin = record.copy()
            assert twin is not record and twin == record
            if _hashable(record):
                assert hash(twin) == hash(record)
            assert twin.values() == record.values(), "copy() passes the fields in the order of FIELDS"
            assert type(record)(*record.values()) == record, "__init__ takes the fields in the order of FIELDS"


@pytest.mark.parametrize("name", GAMES)
def test_fields_are_the_slots_and_nothing_else_can_be_set(name: str) -> None:
    for record in _records_of(_played_states(name)[-1], []):
        kind = type(record)
        assert len(set(kind.FIELDS)) == len(kind.FIELDS) and [n for n, _ in record.items()] == list(kind.FIELDS)
        with pytest.raises(AttributeError):
            record.evolve(not_a_field=1)


@pytest.mark.parametrize("name", GAMES)
def test_evolve_changes_one_field_and_leaves_the_original_as_it_was(name: str) -> None:
    state = _played_states(name)[-1]
    assert isinstance(state, Record)
    before = state.values()
    later = state.evolve(round=state.round + 1)  # every game counts rounds
    assert later.round == state.round + 1 and state.values() == before and later != state
    assert [n for n, a, b in zip(state.FIELDS, state.values(), later.values(), strict=True) if a != b] == ["round"]
    assert repr(later).startswith(f"{type(state).__name__}(") and "round=" in repr(later)
