"""Store speed (``ludolog bench store``), measured side by side in one run.

* appends/s through the store (the Lua script with the expected-seq check), against raw
  redis-py ``XADD`` on the same server with the same fsync policy: the price of the check,
  with one client and with 8 concurrent ones;
* the state at a random seq of a 1,000-event branch, p50 and p99, with and without
  snapshots, in-process (the StateReader, its cache off);
* the same over HTTP through gunicorn, and appends/s over HTTP with 8 clients;
* memory (issue 19): bytes per event and per game of each game's demo games, events and snapshots apart,
  by ``MEMORY USAGE`` over every key of a game, in the current encoding and in version 1 (the encoding of
  before issue 19, written here only to compare).

It starts its own embedded Redis (and gunicorn) in a temporary directory, so it never
touches a real database.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

from bench.processes import Gunicorn
from bench.table import percentiles
from engine import Event, Setup, action_event, get_rules, random_playout, registered_games
from service.games.demo import demo_games, load_demo
from service.runtime.redis_server import EmbeddedRedis, fsync_policy
from service.store.encoding import encode_pack
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore, StateReader
from service.store.users import UserStore
from workers.fold import fold_snapshots

Row = dict[str, Any]
SNAPSHOT_EVERY = 50


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "store", "metric": metric, "value": value, "unit": unit, "note": note}


def _store_appender(games: GameStore, gid: str, event: Event) -> Callable[[int], None]:
    """``n`` checked appends of ``event`` to game ``gid``, one after another (it remembers its head)."""
    head = [games.head(gid, MAIN)]

    def append(n: int) -> None:
        for _ in range(n):
            head[0] = games.append(gid, MAIN, [event], head[0]).last_seq

    return append


def _raw_appender(client: redis.Redis, stream: str, event: Event) -> Callable[[int], None]:
    """``n`` raw XADDs of ``event`` (encoded per append as the store encodes it: the same bytes) to ``stream``."""
    def append(n: int) -> None:
        for seq in range(n):
            client.xadd(stream, {"e": encode_pack([event.with_seq(seq)])})

    return append


def _rate(appenders: list[Callable[[int], None]], each: int) -> float:
    """Appends/s of ``appenders`` run at once, one thread each, ``each`` appends apiece."""
    threads = [threading.Thread(target=append, args=(each,)) for append in appenders]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(appenders) * each / (time.perf_counter() - started)


def bench_appends(client: redis.Redis, count: int, clients: int = 1, rounds: int = 10) -> list[Row]:
    """Single-event appends from ``clients`` concurrent clients: the store's checked append vs raw XADD, interleaved.

    Each client appends to its own game (the store) or its own stream (raw), on its own
    connection, so that nothing but the server is shared. Both sides serialise the same
    event per append (a raw client must too). They run in alternating rounds and the median
    round of each is reported, so that other load on the machine weighs on both alike.
    With ``appendfsync always`` Redis fsyncs once per event-loop turn for every client it
    served in that turn, so concurrent clients share the fsyncs.
    """
    event = action_event(0, 0, "pass")
    store_side, raw_side = [], []
    for i in range(clients):
        own = redis.Redis(connection_pool=redis.ConnectionPool(**client.connection_pool.connection_kwargs))
        gid = GameStore(own).create_game("puerto_rico", "bench", Setup(("A", "B", "C")), owner=None).id
        store_side.append(_store_appender(GameStore(own), gid, event))
        raw_side.append(_raw_appender(own, f"bench:raw:{clients}:{i}", event))
    each = max(1, count // rounds // clients)
    store_rates, raw_rates = [], []
    for _ in range(rounds):
        store_rates.append(_rate(store_side, each))
        raw_rates.append(_rate(raw_side, each))
    store_rate, raw_rate = statistics.median(store_rates), statistics.median(raw_rates)
    fsync = client.config_get("appendfsync")["appendfsync"]
    who = "one client" if clients == 1 else f"{clients} clients"
    note = f"{who}, appendfsync {fsync}, median of {rounds} rounds"
    return [_row(f"append (store, expected-seq Lua), {who}", store_rate, "appends/s", note),
            _row(f"append (raw XADD), {who}", raw_rate, "appends/s", note),
            _row(f"store / raw, {who}", store_rate / raw_rate, "ratio", "target >= 0.8")]


def long_game(min_events: int = 1000) -> tuple[str, Setup, list]:
    """A real game's history of at least ``min_events`` events (a seeded random playout)."""
    game = "puerto_rico" if "puerto_rico" in registered_games() else registered_games()[0]
    rules = get_rules(game)
    setup = Setup(tuple(f"P{i}" for i in range(rules.max_players)))
    best: list = []
    for seed in range(50):
        events = random_playout(rules, setup, random.Random(seed), check=False).events
        best = max(best, events, key=len)
        if len(best) >= min_events:
            break
    return game, setup, best[:min_events] if len(best) >= min_events else best


def store_long_game(games: GameStore, snapshots: SnapshotStore) -> tuple[str, int]:
    """Store the long game, fold its snapshots; returns its id and head."""
    game, setup, events = long_game()
    rules = get_rules(game)
    gid = games.create_game(game, rules.version, setup, owner="bench").id
    games.append(gid, MAIN, events[1:], 1)
    fold_snapshots(games, snapshots, gid, MAIN, SNAPSHOT_EVERY)
    return gid, len(events)


def bench_state_reads(games: GameStore, snapshots: SnapshotStore, gid: str, head: int, reads: int) -> list[Row]:
    """State at random seqs, p50/p99, with and without snapshots (in-process, no cache)."""
    rows = []
    for label, use in (("with snapshots", True), ("without snapshots", False)):
        reader = StateReader(games, snapshots, use_snapshots=use, cache_size=0)
        rng, samples = random.Random(7), []
        for _ in range(reads):
            seq = rng.randint(1, head)
            started = time.perf_counter()
            reader.position(gid, MAIN, seq)
            samples.append((time.perf_counter() - started) * 1000)
        p50, p99 = percentiles(samples)
        rows += [_row(f"state at random seq of {head} ({label}) p50", p50, "ms"),
                 _row(f"state at random seq of {head} ({label}) p99", p99, "ms", "target <= 5 ms" if use else "")]
    return rows


def bench_fixed_reads(games: GameStore, snapshots: SnapshotStore, gid: str, head: int, reads: int) -> list[Row]:
    """A read's own cost at fixed seqs, best and median (in-process, no cache): the worst case (the most events after
    a snapshot) and one event after a snapshot. Load moves the median less than a p99 of random seqs."""
    reader = StateReader(games, snapshots, cache_size=0)
    worst = (head - 1) // SNAPSHOT_EVERY * SNAPSHOT_EVERY - 1 if head > SNAPSHOT_EVERY else head
    rows = []
    for seq, label in ((worst, f"{SNAPSHOT_EVERY - 1} events after its snapshot"), (worst - SNAPSHOT_EVERY + 2, "one event after")):
        samples = []
        for _ in range(reads):
            started = time.perf_counter()
            reader.position(gid, MAIN, seq)
            samples.append((time.perf_counter() - started) * 1000)
        rows += [_row(f"state at seq {seq} ({label}) best / median", min(samples), "ms",
                      f"median {statistics.median(samples):.2f} ms, {reads} reads")]
    return rows


def bench_http_reads(web: Gunicorn, gid: str, head: int, reads: int) -> list[Row]:
    """State at random seqs over HTTP, one keep-alive client."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    rng, samples = random.Random(11), []
    for _ in range(reads):
        seq = rng.randint(1, head)
        started = time.perf_counter()
        status, _ = web.request("GET", f"/api/games/{gid}/branches/{MAIN}/state?at={seq}", conn=conn)
        samples.append((time.perf_counter() - started) * 1000)
        assert status == 200, status
    p50, p99 = percentiles(samples)
    return [_row(f"HTTP state at random seq of {head} p50", p50, "ms"),
            _row(f"HTTP state at random seq of {head} p99", p99, "ms", "target <= 15 ms")]


def bench_http_appends(web: Gunicorn, token: str, clients: int, seconds: float) -> list[Row]:
    """Appends/s over HTTP: ``clients`` threads, each playing its own game (GET legal, POST the first)."""
    game = "puerto_rico" if "puerto_rico" in registered_games() else registered_games()[0]
    counts = [0] * clients
    deadline = time.monotonic() + seconds

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
        _, created = web.request("POST", "/api/games", {"game": game, "players": ["A", "B", "C", "D"]}, token, conn)
        gid = created["id"]
        while time.monotonic() < deadline:
            _, legal = web.request("GET", f"/api/games/{gid}/branches/main/legal", conn=conn)
            if not legal["actions"]:
                return
            status, done = web.request("POST", f"/api/games/{gid}/branches/main/actions",
                                       {"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]}, token, conn)
            assert status == 201, done
            counts[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    return [_row(f"HTTP appends with {clients} clients", sum(counts) / elapsed, "appends/s",
                 "each after a GET of the legal moves; 2 gunicorn workers")]


def _game_bytes(client: redis.Redis, gid: str) -> dict[str, int]:
    """``MEMORY USAGE`` of every key of game ``gid``, summed by kind: events, snapshots, the rest."""
    sums = {"events": 0, "snapshots": 0, "other": 0}
    for key in client.scan_iter(match=f"ll:g:{{{gid}}}:*", count=1000):
        kind = "events" if key.endswith(b":events") else "snapshots" if key.endswith((b":snaps", b":snapseqs")) else "other"
        sums[kind] += int(client.memory_usage(key, samples=0) or 0)
    return sums


def store_as_version_1(client: redis.Redis, gid: str) -> None:
    """Rewrite game ``gid``'s main branch as the code before issue 19 stored it (version 1: an entry per event holding
    its whole JSON, plain JSON snapshots), to compare; the store reads it all the same."""
    games, snapshots = GameStore(client), SnapshotStore(client)
    key, events = f"ll:g:{{{gid}}}:b:{MAIN}:events", games.events(gid, MAIN)
    client.delete(key)
    for event in events:
        client.xadd(key, {"e": json.dumps(event.to_json(), separators=(",", ":"))}, id=f"{event.seq}-1")
    for seq in snapshots.seqs(gid, MAIN):
        snap = snapshots.get(gid, MAIN, seq)
        assert snap is not None
        client.hset(f"ll:g:{{{gid}}}:b:{MAIN}:snaps", str(seq),
                    json.dumps({"v": snap.rules_version, "state": snap.state}, separators=(",", ":")))


def bench_memory(client: redis.Redis, per_game: int = 2) -> list[Row]:
    """Bytes per event and per game of each game's demo games (snapshots every 50 events, as served)."""
    games, snapshots = GameStore(client), SnapshotStore(client)
    gids = load_demo(games, per_game)
    for gid in gids:
        fold_snapshots(games, snapshots, gid, MAIN, SNAPSHOT_EVERY)
    now = {gid: (_game_bytes(client, gid), games.head(gid, MAIN)) for gid in gids}
    for gid in gids:
        store_as_version_1(client, gid)
    before = {gid: _game_bytes(client, gid) for gid in gids}
    rows = []
    for name in demo_games():
        mine = [gid for gid in gids if gid.startswith(f"demo-{name.replace('_', '-')}-")]
        events = sum(now[g][1] for g in mine)
        rows += _memory_rows(name, len(mine), events, [now[g][0] for g in mine], [before[g] for g in mine])
    pr = "demo-puerto-rico-2"
    if pr in now:
        total = sum(now[pr][0].values())
        rows.append(_row(f"puerto_rico demo #2 ({now[pr][1]} events): whole game", total / 1000, "KB",
                         f"events {now[pr][0]['events'] / 1000:.1f} KB, snapshots {now[pr][0]['snapshots'] / 1000:.1f} KB; "
                         f"version 1: {sum(before[pr].values()) / 1000:.1f} KB; target <= 25 KB"))
    return rows


def _memory_rows(name: str, count: int, events: int, now: list[dict[str, int]], before: list[dict[str, int]]) -> list[Row]:
    def total(sums: list[dict[str, int]], kind: str | None = None) -> int:
        return sum(s[kind] if kind else sum(s.values()) for s in sums)

    note = f"{count} demo games, {events} events; version 1: "
    return [
        _row(f"{name}: events per event", total(now, "events") / events, "bytes",
             note + f"{total(before, 'events') / events:.0f}; target <= 35"),
        _row(f"{name}: snapshots per game", total(now, "snapshots") / count / 1000, "KB",
             note + f"{total(before, 'snapshots') / count / 1000:.1f} KB"),
        _row(f"{name}: whole game (events, snapshots, meta, branches)", total(now) / count / 1000, "KB",
             note + f"{total(before) / count / 1000:.1f} KB"),
    ]


def run(quick: bool = False) -> list[Row]:
    """Every store figure, on a fresh embedded Redis."""
    # The store's own fsync policy (LUDOLOG_FSYNC, default always), on both sides of every comparison.
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp), appendfsync=fsync_policy()) as server:
        client = redis.Redis.from_url(server.url)
        games, snapshots = GameStore(client), SnapshotStore(client)
        rows = bench_memory(client)
        rows += [row for clients in (1, 8) for row in bench_appends(client, 2000 if quick else 20000, clients)]
        gid, head = store_long_game(games, snapshots)
        rows += bench_state_reads(games, snapshots, gid, head, 200 if quick else 2000)
        rows += bench_fixed_reads(games, snapshots, gid, head, 100 if quick else 300)
        token = UserStore(client).add("bench")
        web = Gunicorn(server.url)
        try:
            rows += bench_http_reads(web, gid, head, 200 if quick else 2000)
            rows += bench_http_appends(web, token, 8, 2 if quick else 10)
        finally:
            web.stop()
    return rows
