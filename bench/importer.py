"""Import speed (``ludolog bench import``): our own BGA exports of 4-player Puerto Rico games,
imported end to end into Redis with snapshots, the way the import job does it.

End to end means: the file's bytes → envelope parsing → notification rendering → mapping
to actions with every action checked by the rules → snapshots → one Redis transaction.
Targets (issue 4): a 600-event game in under 150 ms; bulk import at least 20 games/s.
It starts its own embedded Redis in a temporary directory, so it never touches a real database.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from engine import Event, Setup, get_rules, random_playout
from engine.bga import export_log
from service.imports.importer import content_digest, game_id_for, import_bytes
from service.runtime.redis_server import EmbeddedRedis

Row = dict[str, Any]
SNAPSHOT_EVERY = 50
NAMES = ("Anna", "Ben", "Cleo", "Dan")


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "import", "metric": metric, "value": value, "unit": unit, "note": note}


def games(count: int, seed: int = 0) -> list[tuple[list[Event], bytes]]:
    """``count`` seeded random 4-player games and our BGA export of each (as file bytes)."""
    rules = get_rules("puerto_rico")
    out = []
    for i in range(count):
        events = random_playout(rules, Setup(NAMES), random.Random(seed + i)).events
        out.append((events, json.dumps(export_log(events)).encode()))
    return out


def _import(client: redis.Redis, raw: bytes) -> float:
    """Import one file as a new game; returns the seconds it took."""
    gid = game_id_for(content_digest(raw, partial=False)) + f"{time.perf_counter_ns() % 10**9}"
    started = time.perf_counter()
    outcome = import_bytes(client, raw, gid=gid, owner=None, every=SNAPSHOT_EVERY)
    elapsed = time.perf_counter() - started
    if outcome.status != "done":
        raise RuntimeError(f"bench import failed: {outcome.error}")
    return elapsed


def bench_single(client: redis.Redis, target_events: int = 600, rounds: int = 15) -> list[Row]:
    """One game of about ``target_events`` events, imported ``rounds`` times: median and best."""
    candidates = games(40, seed=1000)
    events, raw = min(candidates, key=lambda g: abs(len(g[0]) - target_events))
    times = [_import(client, raw) for _ in range(rounds)]
    note = f"{len(events)} events, {len(raw) // 1024} KB; median of {rounds}; target < 150 ms"
    return [_row(f"one game, {len(events)} events (median)", statistics.median(times) * 1000, "ms", note),
            _row(f"one game, {len(events)} events (best)", min(times) * 1000, "ms", f"best of {rounds}")]


def bench_bulk(client: redis.Redis, count: int) -> list[Row]:
    """``count`` different games imported one after another: games/s and events/s."""
    batch = games(count, seed=5000)
    total_events = sum(len(e) for e, _ in batch)
    total_bytes = sum(len(r) for _, r in batch)
    started = time.perf_counter()
    for _, raw in batch:
        _import(client, raw)
    elapsed = time.perf_counter() - started
    note = f"{count} games, {total_events // count} events and {total_bytes // count // 1024} KB each on average"
    return [_row("bulk import", count / elapsed, "games/s", note + "; target >= 20"),
            _row("bulk import", total_events / elapsed, "events/s", note)]


def run(quick: bool = False) -> list[Row]:
    """Every import figure, on a fresh embedded Redis."""
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        client = redis.Redis.from_url(server.url)
        try:
            rows = bench_single(client, rounds=5 if quick else 15)
            rows += bench_bulk(client, 10 if quick else 60)
        finally:
            client.close()
    return rows
