"""An upload's wait while analysis runs (``ludolog bench queue``): one real worker, the real API.

Issue 30 saw an upload stay queued for minutes, and a re-import take 60 s instead of 0.2 s, while an
analysis ran on the one queue. This suite measures what an upload waits for now, end to end (POST
``/api/uploads`` until its status reads ``done``), with one ``ludolog worker`` (what ``make run``
starts): first with the worker idle, then while it analyses a 4-player Puerto Rico game at the
default budget. Analysis runs on its own queue after imports and folds, and a running analysis job
steps aside between two positions (:func:`service.jobs.step_aside`), so the busy figure is the
idle one plus at most one position's search. Also reported: how many positions were analysed while
an upload waited (one is the design; a job's worth, 12, would mean the job did not step aside), and
how long a second user waits for a first result of their own analysis while the first one's runs
(the running job steps aside after a time slice, ``LUDOLOG_ANALYSIS_TURN_SECONDS``; in arrival order
they would wait for all of the first user's decisions).

It starts its own embedded Redis in a temporary directory and never touches a real database.
``--quick`` uses fewer uploads and a small budget: a smoke run, not figures for the record.
"""

from __future__ import annotations

import secrets
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from bench.importer import games
from bench.processes import start_worker, stop_worker, wait_for
from engine.analysis import DEFAULT_ROLLOUTS
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.users import UserStore

Row = dict[str, Any]
QUEUE = "bench-queue"
SUITE = "bench queue"


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "queue", "metric": metric, "value": value, "unit": unit, "note": note}


#: The app factory (``ludolog.app.create_app``), taking the app's settings.
AppFactory = Callable[[Config], Flask]


class Site:
    """The API of a fresh app on the bench's Redis, signed in as one user."""

    def __init__(self, url: str, data_dir: Path, create_app: AppFactory) -> None:
        config = Config(redis_url=url, queue_redis_url=None, secret_key=secrets.token_urlsafe(48), queue_name=QUEUE,
                        data_dir=data_dir, analysis_work_per_hour=10**12)
        app = create_app(config)
        app.testing = True
        self.client: FlaskClient = app.test_client()
        users = UserStore(redis.Redis.from_url(url))
        self.tokens = {name: users.add(name) for name in ("bench", "other")}
        self.headers = self.as_user("bench")

    def as_user(self, name: str) -> dict[str, str]:
        """The Authorization header of user ``name``."""
        return {"Authorization": f"Bearer {self.tokens[name]}"}

    def upload(self, raw: bytes) -> tuple[float, str]:
        """POST the file and wait until its import is done: (seconds, game id)."""
        started = time.perf_counter()
        answer = self.client.post("/api/uploads", data=raw, headers=self.headers).get_json()
        status_url = f"/api/uploads/{answer['id']}"
        wait_for(lambda: self.client.get(status_url).get_json()["status"] in ("done", "failed"), "an import", suite=SUITE)
        took = time.perf_counter() - started
        status = self.client.get(status_url).get_json()
        if status["status"] != "done":
            raise RuntimeError(f"bench queue: import failed: {status}")
        return took, str(status["game"])

    def analyse(self, gid: str, rollouts: int, user: str = "bench") -> int:
        """Ask, as ``user``, for the analysis of ``gid``'s main line; the number of decisions."""
        answer = self.client.post(self._analysis(gid), json={"rollouts": rollouts}, headers=self.as_user(user)).get_json()
        return int(answer["total"])

    def analysed(self, gid: str, rollouts: int) -> int:
        """Decisions of ``gid`` analysed so far."""
        return int(self.client.get(f"{self._analysis(gid)}?rollouts={rollouts}").get_json()["done"])

    @staticmethod
    def _analysis(gid: str) -> str:
        return f"/api/games/{gid}/branches/main/analysis"


def measure(site: Site, url: str, *, uploads: int, rollouts: int) -> list[Row]:
    """The figures, with one worker running for the whole measurement."""
    batch = [raw for _, raw in games(1 + 2 * uploads, seed=7000)]
    worker = start_worker(url, QUEUE)
    try:
        _, gid = site.upload(batch[0])
        idle_uploads = [site.upload(raw) for raw in batch[1:1 + uploads]]
        idle = [took for took, _ in idle_uploads]
        decisions = site.analyse(gid, rollouts)
        wait_for(lambda: site.analysed(gid, rollouts) > 0, "the first analysed position", suite=SUITE)
        busy, positions = [], []
        for raw in batch[1 + uploads:]:
            before = site.analysed(gid, rollouts)
            busy.append(site.upload(raw)[0])
            positions.append(site.analysed(gid, rollouts) - before)
            time.sleep(0.5)  # the analysis runs on between two uploads
        other_wait, left = _other_users_first_result(site, gid, idle_uploads[0][1], rollouts)
        if left <= 0:
            raise RuntimeError("bench queue: the first analysis ended before the last measurement; figures are void")
    finally:
        stop_worker(worker)
    setting = f"one worker; {uploads} uploads of 4-player Puerto Rico games"
    load = f"while it analyses a {decisions}-decision game at {rollouts} rollouts"
    return [
        _row("upload to imported, worker idle (median)", statistics.median(idle) * 1000, "ms", setting),
        _row("upload to imported, worker busy with analysis (median)", statistics.median(busy) * 1000, "ms", load),
        _row("upload to imported, worker busy with analysis (worst)", max(busy) * 1000, "ms", load),
        _row("positions analysed while an upload waited (most)", max(positions), "positions",
             "about 1 by design: the job steps aside; 12 would be a whole job"),
        _row("another user's first analysed position, during that analysis", other_wait, "s",
             f"in turns: a time slice and a position; in arrival order: all {left} decisions left"),
    ]


def _other_users_first_result(site: Site, busy_gid: str, gid: str, rollouts: int) -> tuple[float, int]:
    """Seconds until another user's analysis has its first position, while ``busy_gid``'s runs; and how many
    decisions of that one were still to analyse when the other user asked."""
    total = site.analyse(busy_gid, rollouts)  # on its way already: queues and costs nothing, answers the total
    left = total - site.analysed(busy_gid, rollouts)
    started = time.perf_counter()
    site.analyse(gid, rollouts, user="other")
    wait_for(lambda: site.analysed(gid, rollouts) > 0, "the other user's first analysed position", suite=SUITE)
    return time.perf_counter() - started, left


def run(create_app: AppFactory, *, quick: bool = False) -> list[Row]:
    """Every queue figure, on a fresh embedded Redis, with the app ``create_app`` makes (the composition root's
    factory, handed down by ``ludolog bench``: a benchmark sits below the root and never imports it)."""
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp) / "redis") as server:
        site = Site(server.url, Path(tmp), create_app)
        return measure(site, server.url, uploads=2 if quick else 5, rollouts=50 if quick else DEFAULT_ROLLOUTS)
