"""``ludolog bench explore``: what the explorer costs (issue 49).

On its own embedded Redis: the demo games (every game with rules, ``per_game`` of each), then

- the update per finished game: :func:`service.games.explorer.count_game` on each (its replay of the main line and
  the one script that adds its choices), CPU and wall time per game, by game;
- the rebuild over the same games (``ludolog explorer rebuild``'s work) after the counters are dropped;
- a query: :func:`service.games.explorer.explorer_table` for Puerto Rico's first stage, p50 and p99.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import redis

from bench.table import Row, format_rows, timed
from service.games.demo import load_demo
from service.games.explorer import count_game, explorer_table, rebuild
from service.runtime.redis_server import EmbeddedRedis
from service.store.explorer import ExplorerStore
from service.store.games import GameStore


def _update_rows(games: GameStore, explorer: ExplorerStore, gids: list[str]) -> list[Row]:
    by_game: dict[str, list[tuple[float, float]]] = {}
    for gid in gids:
        wall, cpu = time.perf_counter(), time.process_time()
        count_game(games, explorer, gid)
        by_game.setdefault(games.game(gid).game, []).append((time.process_time() - cpu, time.perf_counter() - wall))
    return [{"suite": "explore", "game": game, "metric": "update per finished game",
             "value": round(1000 * statistics.mean(c for c, _ in times), 1), "unit": "ms CPU",
             "note": f"wall {1000 * statistics.mean(w for _, w in times):.1f} ms; mean of {len(times)} demo games"}
            for game, times in sorted(by_game.items())]


def run(*, quick: bool = False) -> list[Row]:
    """The explorer's rows: update per finished game by game, the rebuild over the demo games, a query."""
    per_game = 2 if quick else 5
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(Path(folder) / "redis").start()
        try:
            client = redis.Redis.from_url(server.url)
            games, explorer = GameStore(client), ExplorerStore(client)
            gids = load_demo(games, per_game)
            rows = _update_rows(games, explorer, gids)
            client.delete(*client.keys("ll:ex:*"))  # the bench's own Redis: start the rebuild from nothing
            wall, cpu = time.perf_counter(), time.process_time()
            counted = rebuild(games, explorer)
            rows.append({"suite": "explore", "metric": "rebuild over the demo games", "unit": "s CPU",
                         "value": round(time.process_time() - cpu, 2),
                         "note": f"{counted} games; wall {time.perf_counter() - wall:.2f} s"})
            p50, p99 = timed(lambda: explorer_table(explorer, "puerto_rico"), 50 if quick else 500)
            rows.append({"suite": "explore", "game": "puerto_rico", "metric": "query p99", "unit": "ms",
                         "value": round(p99, 2),
                         "note": f"p50 {p50:.2f} ms; in process, one stage's table; target <= 50 ms"})
            return rows
        finally:
            server.stop()


if __name__ == "__main__":
    print(format_rows(run()))
