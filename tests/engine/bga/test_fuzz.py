"""Mutations of the three real logs: reading either succeeds or raises BgaLogError, nothing else.

A read that succeeds must also give a log-only record that survives a JSON round trip,
since that is what the import stores. Samples are decoded once per module; mutations
copy only the containers on the path they change, so each example stays cheap.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bga import BgaLog, BgaLogError, LogOnlyRecord, parse_document, parse_log, to_log_only
from tests.engine.bga import samples
from tests.engine.bga.samples import ALL

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

_DOCS: dict[str, Any] = {}


def _doc(name: str) -> Any:
    """The sample's decoded JSON, shared by every example of the module: never mutate it."""
    if name not in _DOCS:
        _DOCS[name] = samples.doc(name)
    return _DOCS[name]


def _packets_of(doc: Any) -> list[Any]:
    return doc["data"]["logs"] if isinstance(doc, dict) else doc


def _with_packets(doc: Any, packets: list[Any]) -> Any:
    """``doc`` with its packet list replaced (the envelope copied, not changed)."""
    if isinstance(doc, list):
        return packets
    return {**doc, "data": {**doc["data"], "logs": packets}}


def _survives(read: Callable[[], BgaLog]) -> None:
    """Run ``read``: a BgaLogError (a client's error: the API answers 4xx) with JSON-safe details, or a storable record."""
    try:
        log = read()
    except BgaLogError as err:
        assert err.message
        json.dumps(err.details, allow_nan=False)
        assert str(err)
        return
    record = to_log_only(log)
    text = json.dumps(record.to_json(), allow_nan=False)
    assert LogOnlyRecord.from_json(text) == record


NASTY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["", "12", "-1", "1e9", "/player/p", "/table/t1", "/player/p123", "${player_name}", "<b>", "&amp;", "9" * 5000]),
    st.sampled_from(["x" * 1_000_000, "${a}" * 50_000, '<a href="' * 20_000, "<" * 100_000, "&#" * 100_000]),  # huge strings
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.sampled_from(["log", "args", "id", "result", "i18n", "player_id", "player_name"]), st.text(max_size=10), max_size=3),
    st.just({"log": "${a} ${a}", "args": {"a": {"log": "${b}", "args": {"b": "deep"}}}}),
)


@st.composite
def _path_mutation(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with one value somewhere inside replaced by a nasty one, or deleted."""

    def mutate(node: Any, depth: int) -> Any:
        if not isinstance(node, (dict, list)) or not node or (depth > 0 and draw(st.integers(0, 5)) == 0):
            return draw(NASTY)
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        copy: Any = dict(node) if isinstance(node, dict) else list(node)
        if draw(st.integers(0, 9)) == 0:
            del copy[key]  # a missing field, or a lost packet / notification
        else:
            copy[key] = mutate(node[key], depth + 1)
        return copy

    return mutate(doc, 0)


@FUZZ
@given(name=st.sampled_from(ALL), data=st.data())
def test_truncated_at_any_byte(name: str, data: st.DataObject) -> None:
    raw = samples.raw(name)
    cut = data.draw(st.integers(0, len(raw)))
    _survives(lambda: parse_log(raw[:cut]))


@FUZZ
@given(name=st.sampled_from(ALL), data=st.data())
def test_bytes_overwritten(name: str, data: st.DataObject) -> None:
    raw = bytearray(samples.raw(name))
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    _survives(lambda: parse_log(bytes(raw)))


@FUZZ
@given(name=st.sampled_from(ALL), data=st.data())
def test_packets_deleted(name: str, data: st.DataObject) -> None:
    doc = _doc(name)
    packets = _packets_of(doc)
    gone = data.draw(st.sets(st.integers(0, len(packets) - 1), max_size=len(packets)))
    kept = [p for i, p in enumerate(packets) if i not in gone]
    _survives(lambda: parse_document(_with_packets(doc, kept)))


@FUZZ
@given(name=st.sampled_from(ALL), rng=st.randoms(use_true_random=False))
def test_packets_shuffled(name: str, rng: random.Random) -> None:
    doc = _doc(name)
    packets = list(_packets_of(doc))
    rng.shuffle(packets)
    _survives(lambda: parse_document(_with_packets(doc, packets)))
    # Shuffling never changes what a person saw: packet ids restore the order.
    assert to_log_only(parse_document(_with_packets(doc, packets))).moves == to_log_only(parse_document(doc)).moves


@settings(FUZZ, max_examples=300)
@given(name=st.sampled_from(ALL), data=st.data())
def test_wrong_types_nulls_and_huge_strings_anywhere(name: str, data: st.DataObject) -> None:
    mutated = data.draw(_path_mutation(_doc(name)))
    _survives(lambda: parse_document(mutated))


@FUZZ
@given(name=st.sampled_from(ALL), data=st.data())
def test_mutations_through_the_bytes_path(name: str, data: st.DataObject) -> None:
    mutated = data.draw(_path_mutation(_doc(name)))
    try:
        raw = json.dumps(mutated).encode()
    except ValueError:  # a float the mutation put in that JSON cannot hold
        return
    _survives(lambda: parse_log(raw))


@FUZZ
@given(name=st.sampled_from(ALL), data=st.data())
def test_packets_in_other_envelopes(name: str, data: st.DataObject) -> None:
    packets = _packets_of(_doc(name))
    envelope = data.draw(st.sampled_from(["scraper", "gamelogs", "bare", "status0", "odd"]))
    wrapped: Any = {
        "scraper": {"data": {"data": {"data": packets}}},
        "gamelogs": {"data": {"data": packets}},
        "bare": packets,
        "status0": {"status": 0, "data": {"data": packets}},
        "odd": {"data": {"data": {"logs": packets}}},
    }[envelope]
    _survives(lambda: parse_document(data.draw(_path_mutation(wrapped))))


@settings(FUZZ, max_examples=200)
@given(text=st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    _survives(lambda: parse_log(text))
    _survives(lambda: parse_log("Move 1 : x\n" + text))
