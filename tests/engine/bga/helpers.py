"""Helpers of the import tests: random Puerto Rico games, our BGA export of them, reading them back."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from engine import Event, Setup, get_rules, random_playout
from engine.bga import LogImport, detect_game, export_log, import_log, parse_document, parse_log

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve")


@cache
def playout(players: int, seed: int, game: str = "puerto_rico") -> tuple[Event, ...]:
    """A seeded random game's events (cached: tests must not change them)."""
    rules = get_rules(game)
    options = {"target": 30} if game == "pig" else {}
    return tuple(random_playout(rules, Setup(NAMES[:players], options), random.Random(seed)).events)


def export_doc(events: Any) -> dict[str, Any]:
    """Our BGA export, through JSON and back (as a file would carry it)."""
    return json.loads(json.dumps(export_log(list(events))))


def export_bytes(events: Any) -> bytes:
    """Our BGA export as the bytes of a file."""
    return json.dumps(export_log(list(events))).encode()


def read_back(doc: Any) -> LogImport:
    """Import a document (dict or bytes) in memory: game, seats and events."""
    bga = parse_log(doc) if isinstance(doc, (bytes, str)) else parse_document(doc)
    game = detect_game(bga)
    assert game is not None
    return import_log(bga, game)


def core(events: Any) -> list[tuple[Any, ...]]:
    """What must survive a round trip: seq, type, actor, action (meta is the importer's own)."""
    return [(e.seq, e.type, e.actor, e.action) for e in events]


def dumps_at_every_seq(events: Any) -> list[str]:
    """The dumped state after every event, as JSON text."""
    rules = get_rules(events[0].data["game"])
    state = rules.initial_state(Setup.from_json(events[0].data["setup"]))
    out = [json.dumps(rules.dump_state(state), sort_keys=True)]
    for event in events[1:]:
        state = rules.apply(state, rules.parse_action(event.action))
        out.append(json.dumps(rules.dump_state(state), sort_keys=True))
    return out
