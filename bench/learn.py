"""``ludolog bench learn``: what learning from games costs (issue 49 item 6), on an embedded Redis of its own.

- **The explorer at scale**: one stage table of Puerto Rico read (:func:`service.games.explorer.explorer_table`, in
  process), p50 and p99, with 200, 2,000 and 20,000 games counted. The games are the demo games' own choices counted
  again under new ids (:meth:`ExplorerStore.count_game`, the script a finished game runs): the counters a service
  holding that many games would hold. A read's cost should not grow with the games.
- **Serving a puzzle**: ``GET /api/puzzles/<id>`` through the app in process (the position read, its mover's seat view
  and legal moves with their sentences), p50 and p99, over puzzles at the decisions of a Puerto Rico demo game.
- **Generating puzzles**: on a demo game's first decisions, the analysis's CPU (each decision judged as the analysis
  job judges it) and the generator's on top of it (its criteria and its confirming judgements at four times the
  budget): the share the generator adds (target: at most 50 %).
"""

from __future__ import annotations

import itertools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

from bench.puzzle_yield import game_yield
from bench.table import Row, timed
from engine import CHANCE, apply_event, start
from service.games.demo import demo_id, demo_playout, load_demo
from service.games.explorer import explorer_table, picks_of
from service.games.puzzles import puzzle_id, theme_of
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.context import Stores
from service.store.explorer import ExplorerStore
from service.store.games import MAIN, GameStore
from service.store.puzzles import PuzzleStore

SCALES = (200, 2_000, 20_000)
QUICK_SCALES = (200, 2_000)
#: The game whose explorer and puzzles are read, and the one whose decisions are generated from.
READ_GAME, GENERATE_GAME = "puerto_rico", "golden_city"


def explorer_rows(client: redis.Redis, games: GameStore, scales: tuple[int, ...], reads: int) -> list[Row]:
    """The explorer's query at each number of counted games (the demo games' choices counted again under new ids)."""
    explorer = ExplorerStore(client)
    demos = [games.game(demo_id(READ_GAME, n)) for n in (1, 2, 3)]
    sources = [(len(record.setup.players), picks_of(games, record)) for record in demos]
    rows: list[Row] = []
    counted = 0
    for scale in scales:
        started = time.process_time()
        for index in range(counted, scale):
            players, picks = sources[index % len(sources)]
            explorer.count_game(READ_GAME, f"bench-{index}", players, picks or [])
        per_game = 1000 * (time.process_time() - started) / max(1, scale - counted)
        counted = scale
        p50, p99 = timed(lambda: explorer_table(explorer, READ_GAME), reads)
        rows.append({"suite": "learn", "metric": f"explorer query p99, {scale:,} games", "value": round(p99, 2),
                     "unit": "ms", "note": f"p50 {p50:.2f} ms; {per_game:.2f} ms CPU to count a game; target <= 50 ms"})
    return rows


def _stored_puzzles(games: GameStore, puzzles: PuzzleStore, most: int) -> list[str]:
    """Puzzles at the first ``most`` decisions of Puerto Rico's demo game 1 (their verdict is not read in serving)."""
    gid = demo_id(READ_GAME, 1)
    events = demo_playout(READ_GAME, 1).events
    rules, state = start(events[0])
    kept: list[str] = []
    for event in events[1:]:
        actor = rules.current_actor(state)
        if actor is not None and actor != CHANCE and len(rules.legal_actions(state)) > 1 and len(kept) < most:
            pid = puzzle_id(gid, MAIN, event.seq - 1)
            move = {"action": str(event.action), "text": "", "win": 0.5, "ci": [0.4, 0.6]}
            puzzles.keep(gid, f"{MAIN} {event.seq - 1}", {
                "id": pid, "gid": gid, "bid": MAIN, "seq": event.seq - 1, "game": READ_GAME, "seat": actor,
                "players": len(games.game(gid).setup.players), "theme": theme_of(rules, state, actor),
                "stage": "early", "best": [move["action"]], "best_move": move,
                "played": move | {"loss": 0.2, "loss_ci": [0.15, 0.25], "mark": "??"}, "judged": {}})
            kept.append(pid)
        state = apply_event(rules, state, event, check=False)
    return kept


def serving_rows(create_app: Callable[..., Any], redis_url: str, games: GameStore, client: redis.Redis,
                 reads: int) -> list[Row]:
    """``GET /api/puzzles/<id>`` through the app (``create_app``: the composition root's), in process, over puzzles
    of a demo game."""
    pids = _stored_puzzles(games, PuzzleStore(client), 40)
    config = Config(redis_url=redis_url, queue_redis_url=None, secret_key="bench-learn", queue_name="bench-learn")
    web = create_app(config, Stores(config)).test_client()
    cycle = itertools.cycle(pids)
    for pid in pids:  # each position's fold once, as a served puzzle's is after its first reader
        assert web.get(f"/api/puzzles/{pid}").status_code == 200
    p50, p99 = timed(lambda: web.get(f"/api/puzzles/{next(cycle)}"), reads)
    return [{"suite": "learn", "metric": "serving a puzzle p99", "value": round(p99, 2), "unit": "ms",
             "note": f"p50 {p50:.2f} ms; GET /api/puzzles/<id> in process over {len(pids)} puzzles; target <= 30 ms"}]


def generation_rows(decisions: int, rollouts: int) -> list[Row]:
    """The generator's CPU on top of the analysis's, on the first ``decisions`` decisions of a demo game."""
    counts, analysis_cpu, generation_cpu = game_yield(GENERATE_GAME, rollouts, most=decisions)
    share = 100 * generation_cpu / analysis_cpu if analysis_cpu else 0.0
    return [{"suite": "learn", "game": GENERATE_GAME, "metric": "puzzle generation over the analysis",
             "value": round(share, 1), "unit": "%",
             "note": f"analysis {analysis_cpu:.1f} CPU-s, generator {generation_cpu:.1f} CPU-s on {sum(counts.values())} "
                     f"decisions at {rollouts} rollouts ({counts['kept']} kept); target <= 50 %"}]


def run(create_app: Callable[..., Any], *, quick: bool = False) -> list[Row]:
    """The rows of ``ludolog bench learn`` (``create_app``: the app factory, to serve puzzles through)."""
    with tempfile.TemporaryDirectory() as folder:
        server = EmbeddedRedis(Path(folder) / "redis").start()
        try:
            client = redis.Redis.from_url(server.url)
            games = GameStore(client)
            load_demo(games, 3)
            rows = explorer_rows(client, games, QUICK_SCALES if quick else SCALES, 50 if quick else 500)
            rows += serving_rows(create_app, server.url, games, client, 50 if quick else 500)
        finally:
            server.stop()
    return rows + generation_rows(4 if quick else 40, 50 if quick else 200)


