"""Restart time of the store (``ludolog bench restart``): how long Redis takes to load N games.

A restart of ``ludolog serve`` is ready when Redis has read its data: the web answers 503
``starting`` until then. This suite fills an embedded Redis with N short games through the
real store (``GameStore.create_game`` + one ``append`` of the first moves of a Puerto Rico demo
game, so the AOF holds exactly what ludolog writes), stops it cleanly and restarts it twice:

* from the AOF as appended (every command replayed: what a store gets when the AOF is never
  rewritten, e.g. with Redis's default ``auto-aof-rewrite-min-size 64mb`` below that size);
* after ``BGREWRITEAOF`` with ``aof-use-rdb-preamble yes`` (deploy/redis.conf): a compact RDB
  image plus the commands since, what our rewrite settings keep the file close to.

Each restart is timed from starting redis-server to the first PING answered without LOADING.
It runs in a temporary directory and never touches a real database.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis

from engine import Setup, get_rules
from service.games.demo import demo_playout, demo_setup
from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN, GameStore

Row = dict[str, Any]
#: Moves stored per game after game_created: keeps a game near the ~1 KB of AOF per game of the report.
MOVES_PER_GAME = 6
GAME = "puerto_rico"


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "restart", "metric": metric, "value": value, "unit": unit, "note": note}


def fill(client: redis.Redis, count: int) -> float:
    """Store ``count`` short games through the real store; returns games/s."""
    games = GameStore(client)
    version = get_rules(GAME).version
    setup: Setup = demo_setup(GAME, 1)
    moves = demo_playout(GAME, 1).events[1:1 + MOVES_PER_GAME]
    started = time.perf_counter()
    for n in range(count):
        record = games.create_game(GAME, version, setup, owner=None, source="bench", title=f"Bench #{n}")
        games.append(record.id, MAIN, moves, 1)
    return count / (time.perf_counter() - started)


def aof_bytes(data_dir: Path) -> int:
    """Bytes of every AOF file in the data directory (Redis 6.2: one file; 7: a folder of parts)."""
    return sum(p.stat().st_size for p in data_dir.rglob("*.aof*") if p.is_file())


def timed_start(data_dir: Path) -> tuple[float, EmbeddedRedis]:
    """Seconds from starting redis-server on ``data_dir`` until it answers PING (data loaded)."""
    server = EmbeddedRedis(data_dir)
    started = time.perf_counter()
    server.start(timeout=3600)
    return time.perf_counter() - started, server


@contextmanager
def running(data_dir: Path) -> Iterator[EmbeddedRedis]:
    """An embedded Redis on ``data_dir`` for the length of the block, never rewriting its AOF by itself.

    Automatic rewrites are off while filling so that the first restart replays every command as
    appended: the worst case the rewrite settings exist to avoid.
    """
    server = EmbeddedRedis(data_dir, extra={"auto-aof-rewrite-percentage": "0"}).start()
    try:
        yield server
    finally:
        server.stop()


def rewrite_aof(client: redis.Redis, timeout: float = 3600) -> None:
    """BGREWRITEAOF and wait for it to finish (after any automatic rewrite already under way)."""
    deadline = time.monotonic() + timeout
    _wait_for_rewrite(client, deadline)
    client.bgrewriteaof()
    _wait_for_rewrite(client, deadline)


def _wait_for_rewrite(client: redis.Redis, deadline: float) -> None:
    while time.monotonic() < deadline:
        info = client.info("persistence")
        if not info.get("aof_rewrite_in_progress") and not info.get("aof_rewrite_scheduled"):
            return
        time.sleep(0.1)
    raise RuntimeError("the AOF rewrite did not finish")


def bench_size(count: int) -> list[Row]:
    """Fill, then time a restart from the appended AOF and from the rewritten one."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="ludolog-bench-restart-") as tmp:
        data_dir = Path(tmp)
        with running(data_dir) as server:
            rate = fill(redis.Redis.from_url(server.url), count)
        rows.append(_row(f"{count:,} games: filled through the store", rate, "games/s"))
        appended = aof_bytes(data_dir)
        seconds, server = timed_start(data_dir)
        rows.append(_row(f"{count:,} games: restart from the appended AOF", seconds, "s",
                         f"{appended / 1e6:.1f} MB of AOF ({appended / count:,.0f} B/game)"))
        try:
            rewrite_aof(redis.Redis.from_url(server.url))
        finally:
            server.stop()
        rewritten = aof_bytes(data_dir)
        seconds, server = timed_start(data_dir)
        server.stop()
        rows.append(_row(f"{count:,} games: restart after a rewrite (RDB preamble)", seconds, "s",
                         f"{rewritten / 1e6:.1f} MB of AOF"))
    return rows


def run(*, quick: bool = False) -> list[Row]:
    """Restart times at 20,000 and 200,000 games (quick: 2,000 and 20,000)."""
    rows: list[Row] = []
    for count in ((2_000, 20_000) if quick else (20_000, 200_000)):
        rows += bench_size(count)
    return rows
