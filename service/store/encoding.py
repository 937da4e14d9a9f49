"""How a branch's events sit in its Redis stream, per stored encoding version, and how any version reads back.

**Entry ids.** An entry holds ``count`` events in a row and has the id ``<last seq>-<count>``: it holds seqs
``last - count + 1`` to ``last``. So entries are ordered by seq, ``XRANGE key <s> +`` starts at the entry that
holds seq ``s`` (the first whose last seq is at least ``s``), and an entry's events are known from its id alone.

**Versions.** The first byte of the field ``e`` says which encoding an entry is in (a marker per entry, so a
stream may mix them: old entries are never rewritten unless ``ludolog migrate`` does it), and each version has
its upcaster, which reads an entry into :class:`engine.Event` values:

* version 1 (before issue 19), first byte ``{``: one event per entry, id ``<seq>-1``, the event's whole JSON
  (``seq``, ``type``, ``actor``, ``action``, ``v``, ``meta``; ``data`` on ``game_created``): about 114 bytes an event;
* version 2, first byte ``[``: a JSON array with one record per event of the entry, in seq order. A record is
  ``[actor, action]`` or ``[actor, action, meta]`` (actor a seat, ``-1`` for chance, ``null`` for none; the type
  follows from the actor as :func:`engine.action_event` makes it; ``meta`` is an object, ``[author, time]`` for
  live play's ``{"author", "time"}``, or ``0`` for "the same as the record before", which the chance events drawn
  after a move share). Any other event (``game_created``,
  another event schema version) is its JSON object without ``seq``. The seq is the entry id's; several events
  share an entry (the events of one append, up to :data:`PACK_EVENTS`), since Redis spends about 20 bytes on
  every entry of a stream whatever it holds. About 21 bytes of value an event, 26-31 with what Redis
  adds (the demo games: docs/PERFORMANCE.md, issue 19).

Writing always uses the newest version; readers never need to know which one they read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine import Event
from engine.core.events import ACTION_TAKEN, CHANCE_DRAWN, EVENT_VERSION
from engine.core.protocol import CHANCE

#: The one field of every entry.
FIELD = b"e"
#: The most events one entry holds: enough that Redis's per-entry cost nearly vanishes, few enough that a read
#: of one seq decodes little it does not need.
PACK_EVENTS = 32
#: An entry stops growing past this many bytes, so that a stream node (4 KB by default) holds several entries.
PACK_BYTES = 1000
#: ``actor`` of a chance record (a seat is never negative).
_CHANCE_CODE = -1
#: ``meta`` of a record that has the same meta as the record before it.
_SAME_META = 0
#: The meta of every event of live play, in this order: stored as an array of the values.
_LIVE_META = ["author", "time"]
_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def entry_id(last_seq: int, count: int) -> str:
    """The id of the entry holding the ``count`` events that end at ``last_seq``."""
    return f"{last_seq}-{count}"


def parse_entry_id(raw: bytes) -> tuple[int, int]:
    """``(last seq, count)`` of an entry id (``<last seq>-<count>``)."""
    last, _, count = raw.partition(b"-")
    return int(last), int(count)


# -- writing (version 2) ---------------------------------------------------------------------------------------

def _record(event: Event, before: Event | None) -> Any:
    """An event's version-2 record (a positional array where it fits, else its JSON object without seq)."""
    actor = event.actor
    if (event.data is None and event.v == EVENT_VERSION
            and (actor is None or actor == CHANCE or (type(actor) is int and actor >= 0))
            and event.type == (CHANCE_DRAWN if actor == CHANCE else ACTION_TAKEN)):
        code = _CHANCE_CODE if actor == CHANCE else actor
        if not event.meta:
            return [code, event.action]
        if before is not None and before.meta == event.meta:
            return [code, event.action, _SAME_META]
        if list(event.meta) == _LIVE_META:  # live play's shape: its field names need not be stored
            return [code, event.action, [event.meta[name] for name in _LIVE_META]]
        return [code, event.action, dict(event.meta)]
    whole = event.to_json()
    del whole["seq"]
    return whole


def encode_pack(events: Sequence[Event]) -> str:
    """The version-2 value of one entry holding ``events`` (consecutive seqs)."""
    return _DUMPS([_record(event, events[i - 1] if i else None) for i, event in enumerate(events)])


def pack(events: Sequence[Event]) -> list[tuple[int, str]]:
    """``events`` (consecutive seqs) cut into entries: ``(count, value)`` each, at most :data:`PACK_EVENTS`
    events and, unless one event alone is bigger, :data:`PACK_BYTES` bytes an entry."""
    entries: list[tuple[int, str]] = []
    start = 0
    while start < len(events):
        end = min(start + PACK_EVENTS, len(events))
        value = encode_pack(events[start:end])
        while end - start > 1 and len(value) > PACK_BYTES:  # shrink to fit (rare: events with long meta)
            end = start + max(1, (end - start) * PACK_BYTES // len(value))
            value = encode_pack(events[start:end])
        entries.append((end - start, value))
        start = end
    return entries


def packed_entries(events: Sequence[Event]) -> list[tuple[str, str]]:
    """``(entry id, value)`` of every entry of ``events`` (consecutive seqs), ready to XADD in order."""
    out, last = [], events[0].seq - 1 if events else 0
    for count, value in pack(events):
        last += count
        out.append((entry_id(last, count), value))
    return out


# -- reading (every version) ----------------------------------------------------------------------------------

def _read_v1(last: int, count: int, value: bytes) -> list[Event]:
    """Version 1: the whole event as a JSON object (its own ``seq`` equals the entry's)."""
    return [Event.from_json(json.loads(value))]


def _meta(stored: Any, before: Event | None) -> dict[str, Any]:
    if isinstance(stored, list):
        return dict(zip(_LIVE_META, stored, strict=True))
    if stored == _SAME_META and before is not None:
        return dict(before.meta)
    return dict(stored)


def _event(seq: int, record: Any, before: Event | None) -> Event:
    if isinstance(record, dict):
        return Event.from_json({**record, "seq": seq})
    code, action, *rest = record
    actor = CHANCE if code == _CHANCE_CODE else code
    meta = {} if not rest else _meta(rest[0], before)
    return Event(seq, CHANCE_DRAWN if actor == CHANCE else ACTION_TAKEN, actor, action, EVENT_VERSION, meta)


def _read_v2(last: int, count: int, value: bytes) -> list[Event]:
    """Version 2: positional records, seqs from the entry id."""
    records = json.loads(value)
    if len(records) != count:
        raise ValueError(f"stream entry {last}-{count} holds {len(records)} events, its id says {count}")
    events: list[Event] = []
    for offset, record in enumerate(records):
        events.append(_event(last - count + 1 + offset, record, events[-1] if events else None))
    return events


#: The upcaster of each stored version, by the first byte of the entry's value.
UPCASTERS: dict[int, Callable[[int, int, bytes], list[Event]]] = {ord("{"): _read_v1, ord("["): _read_v2}
#: The stored version each first byte stands for (what ``ludolog migrate`` counts and rewrites).
VERSIONS = {ord("{"): 1, ord("["): 2}
CURRENT_VERSION = 2


def entry_version(value: bytes) -> int:
    """The stored encoding version of an entry's value."""
    version = VERSIONS.get(value[0]) if value else None
    if version is None:
        raise ValueError(f"unknown stored event encoding: an entry starting {value[:12]!r}")
    return version


def decode_entry(raw_id: bytes, fields: dict[bytes, bytes]) -> list[Event]:
    """The events of one stream entry, whatever version wrote it."""
    value = fields[FIELD]
    last, count = parse_entry_id(raw_id)
    upcaster = UPCASTERS.get(value[0]) if value else None
    if upcaster is None:
        raise ValueError(f"unknown stored event encoding in entry {raw_id!r}: {value[:12]!r}")
    return upcaster(last, count, value)


def decode_entries(rows: Sequence[tuple[bytes, dict[bytes, bytes]]], low: int, high: int | None) -> Iterator[Event]:
    """The events with ``low`` ≤ seq ≤ ``high`` held by ``rows`` (entries read by XRANGE; the first and last may
    hold events outside the range)."""
    for raw_id, fields in rows:
        for event in decode_entry(raw_id, fields):
            if event.seq < low:
                continue
            if high is not None and event.seq > high:
                return
            yield event
