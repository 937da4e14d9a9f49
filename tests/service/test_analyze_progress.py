"""`ludolog analyze` follows the analysis's progress stream, as the game page's panel does (issue 48, item 5).

"`ludolog analyze` polls `report()` every 0.5 s instead of following the progress stream the page uses." A report
folds the branch and reads every stored verdict: the command reads it again when a worker stores a verdict, not on a
clock. Counted on a redis-server of the test's own, by the commands only a report sends (the EXISTS of the analysis's
request mark): while no worker runs, a command given 7 s reads the report once at the start and about once per
5 quiet seconds; with a worker it ends at 100 % as before.
"""

from __future__ import annotations

import random
import subprocess

import redis

from engine import Setup, get_rules, random_playout
from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN, GameStore
from tests.helpers import PATIENCE_SECONDS, ROOT, kill_with_work_horses, ludolog_env, start_worker
from tests.service.serving import LUDOLOG


def pig_game(server: EmbeddedRedis) -> str:
    """A finished two-player Pig game's id."""
    setup = Setup(("Anna", "Ben"), {"target": 20})
    playout = random_playout(get_rules("pig"), setup, random.Random(4), check=False)
    games = GameStore(redis.Redis.from_url(server.url))
    record = games.create_game("pig", "1", setup, owner="alice")
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


def report_reads(server: EmbeddedRedis) -> int:
    """EXISTS commands the server has run: a report asks whether its analysis was requested, once per read."""
    stats = redis.Redis.from_url(server.url).info("commandstats")
    return int(stats.get("cmdstat_exists", {}).get("calls", 0))


def analyze(server: EmbeddedRedis, gid: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`ludolog analyze GID ARGS` as a user runs it."""
    env = ludolog_env(server.url, LUDOLOG_QUEUE="ludolog-analyze-progress", LUDOLOG_PURE="1")
    return subprocess.run([LUDOLOG, "analyze", gid, "--rollouts", "2", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=PATIENCE_SECONDS, env=env)


def test_analyze_reads_the_report_on_progress_notices_not_every_half_second(own_redis: EmbeddedRedis) -> None:
    gid = pig_game(own_redis)
    before = report_reads(own_redis)
    done = analyze(own_redis, gid, "--timeout", "7")  # no worker: nothing is analysed, nothing is noticed
    assert done.returncode == 1 and "is a worker running" in done.stderr, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    reads = report_reads(own_redis) - before
    assert 1 <= reads <= 4, f"the report was read {reads} times in 7 s without any progress (polling every 0.5 s: 14)"


def test_analyze_follows_a_worker_to_the_end(own_redis: EmbeddedRedis) -> None:
    gid = pig_game(own_redis)
    worker = start_worker(own_redis.url, "--no-reconcile", LUDOLOG_QUEUE="ludolog-analyze-progress", LUDOLOG_PURE="1")
    try:
        done = analyze(own_redis, gid, "--timeout", "300")
    finally:
        kill_with_work_horses(worker)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    total = lines[-1].split(" of ")[1].split()[0]
    assert lines[-1] == f"analysing {gid}/main: {total} of {total} decisions (100 %)", lines
    assert done.stdout.startswith(f"{total} decisions analysed; marks: ")


def test_analyze_stops_in_one_line_when_the_analysis_is_cancelled_meanwhile(own_redis: EmbeddedRedis) -> None:
    """No worker runs; cancelled through the API's path (:func:`service.games.analysis.cancel_run`) while the command
    waits, it says so and how to go on, instead of waiting for ever."""
    import time

    from service.games.analysis import analysis_run, cancel_run
    from service.jobs import analysis_queue_name, make_queue
    from service.store.quota import AnalysisQuota
    from tests.helpers import wait_until

    gid = pig_game(own_redis)
    client = redis.Redis.from_url(own_redis.url)
    env = ludolog_env(own_redis.url, LUDOLOG_QUEUE="ludolog-analyze-progress", LUDOLOG_PURE="1")
    command = subprocess.Popen([LUDOLOG, "analyze", gid, "--rollouts", "2"], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        run = analysis_run(client, gid, MAIN, 2, "full")
        wait_until(lambda: run.state().running, "the command to queue its analysis")
        queue = make_queue(client, analysis_queue_name("ludolog-analyze-progress"))
        assert cancel_run(client, queue, AnalysisQuota(client, 10**9), gid, MAIN, 2, "full", 0, user="alice",
                          now=time.time()).outcome == "cancelled"
        out, err = command.communicate(timeout=PATIENCE_SECONDS)
    finally:
        if command.poll() is None:
            command.kill()
    assert command.returncode == 1 and "the analysis was cancelled at 0 of " in err, out + err
    assert "Traceback" not in err
