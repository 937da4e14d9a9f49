"""What ``GET /api/me/tables`` costs (``ludolog bench tables``): a user with 3 tables being played and 0, 10, then N
finished ones (issue 46 item 2 follow-up).

The list reads the user's index of tables being played, each whole (its position says whose turn it is), and the few
finished ones it shows (10 by default) without their positions; the finished tables beyond those are never read. So
the call should cost about the same with 10 or with hundreds of finished tables (0 reads no finished row at all):
before the finished ones were kept apart, each of them was read (position included) on every call. The tables are Die
goldene Stadt games of the engine's random playouts (stored whole: finished, or half: being played), each with seat 1
the engine's.

It starts its own embedded Redis in a temporary directory and never touches a real database. ``--quick``: 40 finished
tables and fewer calls, a smoke run.
"""

from __future__ import annotations

import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from engine import Setup, get_rules, random_playout
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN
from service.store.seats import Seat
from service.store.users import UserStore

Row = dict[str, Any]
USER = "bench-tables"
PLAYING = 3


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "tables", "metric": metric, "value": value, "unit": unit, "note": note}


def _table(app: Flask, n: int, *, finished: bool) -> None:
    """A Die goldene Stadt table of the bench user's (seat 1 the engine's): the whole playout, or its first half."""
    stores = app.extensions["ludolog"].stores
    rules = get_rules("golden_city")
    events = random_playout(rules, Setup(("Anna", "Ben", "Cleo")), random.Random(n)).events
    record = stores.games.create_game("golden_city", rules.version, Setup(("Anna", "Ben", "Cleo")), owner=USER,
                                      title=f"bench table {n}")
    kept = events[1:] if finished else events[1:len(events) // 2]
    stores.games.append(record.id, MAIN, kept, 1)
    stores.seats.assign(record.id, MAIN, Seat(1, "engine", level="easy"), owner=USER)


def _per_call_ms(app: Flask, token: str, calls: int) -> tuple[float, dict[str, Any]]:
    """The median time of a call (after a first one: it moves finished tables out of those played, once)."""
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    body = client.get("/api/me/tables", headers=headers).get_json()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        body = client.get("/api/me/tables", headers=headers).get_json()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), body


def run(create_app: Callable[[Config], Flask], *, quick: bool = False) -> list[Row]:
    """Rows: the median call with 0 finished tables, with as many as are listed (10), and with N; N against 10."""
    sizes, calls = ((10, 40), 10) if quick else ((10, 300), 30)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp)) as server:
        app = create_app(Config(redis_url=server.url, queue_redis_url=None, secret_key=secrets.token_urlsafe(48),
                                queue_name="bench-tables"))
        token = UserStore(server.client()).add(USER)
        for n in range(PLAYING):
            _table(app, n, finished=False)
        made = 0
        timed: dict[int, float] = {}
        for finished in (0, *sizes):
            for n in range(made, finished):
                _table(app, PLAYING + n, finished=True)
            made = finished
            timed[finished], body = _per_call_ms(app, token, calls)
            assert len(body["tables"]) == PLAYING and body["finished_total"] == finished, body
            rows.append(_row(f"GET /api/me/tables, {PLAYING} played, {finished} finished ({len(body['finished'])} listed)",
                             round(timed[finished], 1), "ms"))
        low, high = sizes
        rows.append(_row(f"the same, {high} finished / {low} finished", round(timed[high] / timed[low], 2), "x",
                         "target <= 1.5 x: the same rows are read (those beyond the 10 listed never are; the process "
                         "holds more games' states after the first call moved them, which costs a little)"))
    return rows
