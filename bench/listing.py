"""``ludolog bench list``: game listing and search over HTTP with many stored games.

Generates games through the store's one write path (so the listing indexes are written as in
production) on its own embedded Redis: four games with rules plus log-only logs, a pool of player
names with accents, 50 owners, a third of the games private or unlisted, imported games with BGA
table ids, titles of a few words. Then, through gunicorn, measures p50/p99 of ``GET /api/games``
for each filter alone and combined, on the first page and on a page deep in the results (a
cursor halfway back in time), and a search that matches nothing; and the memory the listing
indexes take per game (MEMORY USAGE of every index key).
"""

from __future__ import annotations

import http.client
import multiprocessing
import random
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import redis

from bench.store import Gunicorn
from engine import Setup, game_created, get_rules
from service.api.schemas import MAX_LIST_OFFSET
from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.games import GameStore
from service.store.results import GameResult
from service.store.users import UserStore

Row = dict[str, Any]
RULES_GAMES = ["puerto_rico", "golden_city", "amerigo", "entdecker"]
FIRST = ["Zoé", "Ánna", "Ben", "Cléo", "Dan", "Éve", "Márton", "Lili", "Bence", "Wei", "Jing", "Noah", "Ída", "Kata"]
WORDS = ["friday", "night", "rematch", "café", "league", "final", "practice", "weekend", "club", "cup"]
OWNERS = [f"owner{n}" for n in range(50)]
#: Processes that generate the games (each its own connection to the store).
GENERATORS = 2


def _player_pool(rng: random.Random, size: int = 2000) -> list[str]:
    return [f"{rng.choice(FIRST)}{n}" for n in range(size)]


def generate(games: GameStore, count: int, seed: int = 20, *, part: int = 0, parts: int = 1) -> None:
    """``count`` games of every kind through the store (this process's share: every ``parts``-th from ``part``);
    about half of them finished (an imported log that ends the game, a live game that ended after it was listed),
    each won by its first player. Each game is drawn from its own seeded generator, so the games do not depend on
    how many processes share the work."""
    pool = _player_pool(random.Random(seed))
    versions = {name: get_rules(name).version for name in RULES_GAMES}
    for n in range(part, count, parts):
        _generate_one(games, n, random.Random(f"{seed}:{n}"), pool, versions)


def _generate_one(games: GameStore, n: int, rng: random.Random, pool: list[str], versions: dict[str, str]) -> None:
    players = tuple(rng.sample(pool, rng.randint(2, 4)))
    owner = rng.choice(OWNERS)
    visibility = rng.choices(["public", "private", "unlisted"], [2, 0.8, 0.2])[0]
    title = " ".join(rng.sample(WORDS, 2))
    result = GameResult((players[0],)) if rng.random() < 0.5 else None
    kind = n % 3
    if kind == 2:  # a log-only log
        games.create_imported(f"g{n}", "tokaido", "", Setup(players), [game_created("tokaido", "", Setup(players))],
                              owner=owner, visibility=visibility, source="bga-log", title=title,
                              extra={"table_id": 100000 + n}, result=result)
        return
    game = RULES_GAMES[n % len(RULES_GAMES)]
    if kind == 1:  # imported with rules
        games.create_imported(f"g{n}", game, versions[game], Setup(players),
                              [game_created(game, versions[game], Setup(players))], owner=owner,
                              visibility=visibility, source="bga", title=title,
                              extra={"imported": {"format": "bga", "table_id": 100000 + n}}, result=result)
    else:
        games.create_game(game, versions[game], Setup(players), owner=owner, visibility=visibility, title=title,
                          gid=f"g{n}")
        if result is not None:  # as play's last append records it
            games.record_result(f"g{n}", result)


def _client(url: str) -> redis.Redis:
    """A client that waits as long as the server takes (redis-py gives up after 5 s; a loaded machine can take that
    while Redis forks to rewrite its log)."""
    return redis.Redis.from_url(url, socket_timeout=None)


def _generate_part(url: str, count: int, part: int, parts: int) -> None:
    client = _client(url)
    try:
        generate(GameStore(client), count, part=part, parts=parts)
    finally:
        client.close()


def generate_in_parallel(url: str, count: int, processes: int = GENERATORS) -> None:
    """:func:`generate` split over ``processes`` processes, each with its own connection: a game's writes are a few
    round trips, so several writers keep Redis busy where one would mostly wait."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(processes, mp_context=context) as pool:
        for done in [pool.submit(_generate_part, url, count, part, processes) for part in range(processes)]:
            done.result()


def index_bytes_per_game(client: redis.Redis, count: int) -> float:
    """MEMORY USAGE of every listing index key (and the creation-order list), per game."""
    total = 0
    for key in client.scan_iter(match=f"{keys.PREFIX}:ix:*", count=1000):
        total += int(client.memory_usage(key, samples=0) or 0)
    return total / max(count, 1)


def queries(count: int) -> list[tuple[str, dict[str, str], bool]]:
    """(label, query, signed in as owner7) for each filter alone and combined."""
    named = _player_pool(random.Random(20))  # the pool :func:`generate` draws from: these names play
    return [
        ("no filter", {}, False),
        ("no filter, signed in (public + own)", {}, True),
        ("game", {"game": "golden_city"}, False),
        ("player prefix (2 letters)", {"player": "zo"}, False),
        ("player full name", {"player": named[10]}, False),
        ("owner (own games, signed in)", {"owner": "owner7"}, True),
        ("source", {"source": "imported"}, False),
        ("BGA table", {"table": str(100000 + count // 2 + 1)}, False),
        ("title word", {"q": "friday"}, False),
        ("title words (2)", {"q": "friday cafe"}, False),
        ("game + player prefix", {"game": "puerto_rico", "player": "an"}, False),
        ("player + source + title", {"player": "be", "source": "live", "q": "night"}, False),
        ("owner + game + title, signed in", {"owner": "owner7", "game": "amerigo", "q": "cup"}, True),
        ("result: finished", {"result": "finished"}, False),
        ("result: unfinished", {"result": "unfinished"}, False),
        ("winner prefix (2 letters)", {"winner": "an"}, False),
        ("winner full name", {"winner": named[11]}, False),
        ("finished + game + player prefix", {"result": "finished", "game": "amerigo", "player": "be"}, False),
        ("winner + source + title, signed in", {"winner": "zo", "source": "imported", "q": "club"}, True),
        ("player matching nothing", {"player": "Zed"}, False),
        ("winner matching nothing", {"winner": "Zed"}, False),
        ("player + owner, no game has both", {"player": "zzz", "owner": "owner3"}, False),
        ("oldest first", {"order": "oldest"}, False),
    ]


def _time(web: Gunicorn, conn: http.client.HTTPConnection, path: str, token: str | None, times: int) -> list[float]:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        status, _ = web.request("GET", path, token=token, conn=conn)
        samples.append((time.perf_counter() - start) * 1000)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
    return samples


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_queries(web: Gunicorn, token: str, count: int, times: int) -> list[Row]:
    """p50/p99 of each query's first page and of a page halfway back in time."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    rows: list[Row] = []
    for label, query, signed in queries(count):
        auth = token if signed else None
        for page, extra in (("first page", {}), ("deep page", {"cursor": str(count // 2)})):
            if query.get("order") == "oldest" and extra:
                extra = {"cursor": str(count // 2)}
            path = "/api/games?" + urlencode({**query, **extra, "limit": "20"})
            samples = _time(web, conn, path, auth, times)
            rows.append({"suite": "list", "metric": f"{count:,} games: {label}, {page} p50/p99",
                         "value": _p(samples, 0.5), "unit": "ms", "note": f"p99 {_p(samples, 0.99):.1f} ms"})
    samples = _time(web, conn, "/api/games?" + urlencode({"offset": str(MAX_LIST_OFFSET), "limit": "20"}), None, times)
    rows.append({"suite": "list", "metric": f"{count:,} games: offset={MAX_LIST_OFFSET} (the cap) p50/p99", "value": _p(samples, 0.5),
                 "unit": "ms", "note": f"p99 {_p(samples, 0.99):.1f} ms"})
    conn.close()
    return rows


def run(quick: bool = False, sizes: tuple[int, ...] = (20_000,)) -> list[Row]:
    """Every listing figure for each store size, on a fresh embedded Redis each."""
    rows: list[Row] = []
    for count in ((2_000,) if quick else sizes):
        # No append-only file: its rewrites (a fork of a multi-gigabyte server) are not what this measures.
        with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp), appendfsync="no",
                                                                 extra={"appendonly": "no"}) as server:
            client = _client(server.url)
            started = time.perf_counter()
            generate_in_parallel(server.url, count)
            rows.append({"suite": "list", "metric": f"{count:,} games generated (through the store, {GENERATORS} writers)",
                         "value": time.perf_counter() - started, "unit": "s"})
            rows.append({"suite": "list", "metric": f"{count:,} games: listing index memory per game",
                         "value": index_bytes_per_game(client, count), "unit": "bytes"})
            token = UserStore(client).add("owner7")
            web = Gunicorn(server.url)
            try:
                rows += bench_queries(web, token, count, 30 if quick else 200)
            finally:
                web.stop()
    return rows
