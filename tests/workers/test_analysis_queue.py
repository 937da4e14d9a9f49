"""Fair use of the workers (issue 30, item 4), with real RQ workers, a real import and the real API.

Analysis runs on its own queue after imports and folds; users' analysis jobs take turns; deleting a
branch cancels its analysis and removes its results.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
import redis
from flask.testing import FlaskClient
from rq.job import Job
from rq.serializers import JSONSerializer

from engine import Setup, get_rules, random_playout
from ludolog.app import create_app
from service.games.analysis import POSITIONS_PER_JOB, decisions, report
from service.jobs import ANALYSIS_JOB, analysis_queue_name, make_queue
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.analysis_turns import AnalysisTurns
from service.store.games import MAIN, GameStore
from service.store.users import UserStore
from tests.engine.bga.helpers import export_bytes, playout
from tests.helpers import PATIENCE_SECONDS, ROOT, kill_with_work_horses, ludolog_env, start_worker, wait_until
from tests.service.api.helpers import Users

QUEUE = "ludolog-fair-test"
ANALYSIS = analysis_queue_name(QUEUE)
URL = "/api/games/{gid}/branches/{bid}/analysis"


@pytest.fixture
def config(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Config:
    """The test Redis, our own queue names, and an allowance no test here reaches."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="test-secret", queue_name=QUEUE,
                  analysis_work_per_hour=10**9)


@pytest.fixture
def client(config: Config) -> FlaskClient:
    app = create_app(config)
    app.testing = True
    return app.test_client()


@pytest.fixture
def users(redis_client: redis.Redis) -> Users:
    store = UserStore(redis_client)
    return Users({name: store.add(name) for name in ("alice", "bob")})


def _pig_game(games: GameStore, owner: str, seed: int, target: int) -> str:
    """A finished public Pig game to ``target`` points, owned by ``owner``."""
    setup = Setup(("P0", "P1"), {"target": target})
    events = random_playout(get_rules("pig"), setup, random.Random(seed), check=False).events
    record = games.create_game("pig", "1", setup, owner=owner, visibility="public")
    games.append(record.id, MAIN, events[1:], 1)
    return record.id


def _ask(client: FlaskClient, users: Users, user: str, gid: str, rollouts: int, bid: str = MAIN) -> int:
    """POST an analysis as ``user``; the number of jobs it queued."""
    answer = client.post(URL.format(gid=gid, bid=bid), json={"rollouts": rollouts}, headers=users.auth(user))
    assert answer.status_code == 202, answer.get_json()
    return int(answer.get_json()["jobs"])


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    wait_until(condition, what)


def _analysed(games: GameStore, client: redis.Redis, gids: list[str], rollouts: int) -> int:
    return sum(report(games, client, gid, MAIN, rollouts, "full")["done"] for gid in gids)


def test_an_upload_waits_at_most_for_the_analysis_job_running_never_behind_the_pile(client, users, redis_client, redis_server):
    """A pile of analysis jobs is queued and a worker is busy with them; then an upload arrives. The worker
    takes the import as soon as the position in hand is analysed: the analysis job queues itself again and
    stops. While the import is queued and run, at most that position (and one more, if the upload came just
    as it was stored) is analysed: neither the pile nor even the rest of the job."""
    games = GameStore(redis_client)
    rollouts = 150
    gids = [_pig_game(games, "alice", seed, target=100) for seed in range(3)]
    total = sum(len(decisions(games, gid, MAIN)[1]) for gid in gids)
    jobs = sum(_ask(client, users, "alice", gid, rollouts) for gid in gids)
    assert jobs >= 12
    worker = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=QUEUE)
    try:
        _wait_for(lambda: _analysed(games, redis_client, gids, rollouts) > 0, "the first analysis result")
        upload = client.post("/api/uploads", data=export_bytes(playout(3, 1)), headers=users.auth("bob"))
        assert upload.status_code == 202, upload.get_json()
        # Counted once the import job is queued (the POST returns after that), not before the POST: on a
        # loaded machine the POST itself can take as long as a position, and what the worker analysed
        # before the import existed is no measure of how long the import waited.
        before = _analysed(games, redis_client, gids, rollouts)
        status_url = f"/api/uploads/{upload.get_json()['id']}"
        _wait_for(lambda: client.get(status_url).get_json()["status"] in ("done", "failed"), "the import")
        after = _analysed(games, redis_client, gids, rollouts)
    finally:
        kill_with_work_horses(worker)
    assert client.get(status_url).get_json()["status"] == "done"
    assert after - before <= 2, f"{after - before} positions were analysed while the upload waited"
    assert total - after >= 4 * POSITIONS_PER_JOB, "the pile was still there when the import finished"


def _owners_in_the_order_run(client: redis.Redis, games: GameStore) -> list[str]:
    """The owner of each finished analysis job's game, in the order the jobs started."""
    return [games.game(job.args[0]).owner or "" for job in sorted(_finished(client), key=lambda job: _naive(job.started_at))]


def test_two_users_analyses_take_turns_on_the_worker(client, users, redis_client, redis_server):
    """alice asks for a long analysis, then bob for a short one, before any worker runs. With FIFO bob would
    wait for all of alice's jobs; in turns, his first job comes right after the one of hers already queued
    (he joins the round ahead of her, as she was served last), then theirs alternate."""
    games = GameStore(redis_client)
    alices = _ask(client, users, "alice", _pig_game(games, "alice", 1, target=250), 5)
    bobs = _ask(client, users, "bob", _pig_game(games, "bob", 2, target=40), 5)
    assert alices >= bobs + 3 and bobs >= 2
    queue = make_queue(redis_client, ANALYSIS)
    assert queue.count == 1, "with no worker listening, one job is queued and the rest wait for their turns"
    assert AnalysisTurns(redis_client, ANALYSIS).users() == ["bob", "alice"]
    run_burst_worker_on(redis_server.url)
    order = _owners_in_the_order_run(redis_client, games)
    assert len(order) == alices + bobs
    assert order[:2 * bobs + 1] == ["alice"] + ["bob", "alice"] * bobs, order
    assert order[2 * bobs + 1:] == ["alice"] * (alices - bobs - 1)
    assert AnalysisTurns(redis_client, ANALYSIS).users() == []


def test_with_a_time_slice_another_users_first_result_waits_for_a_position_not_a_job(client, users, redis_client,
                                                                                      redis_server):
    """With LUDOLOG_ANALYSIS_TURN_SECONDS=0, alice's running job steps aside for bob (who has nothing
    running) before its next position, where it would otherwise finish its range of 12 first."""
    games = GameStore(redis_client)
    rollouts = 150
    alices = _pig_game(games, "alice", 1, target=250)
    _ask(client, users, "alice", alices, rollouts)
    worker = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=QUEUE, LUDOLOG_ANALYSIS_TURN_SECONDS="0")
    try:
        _wait_for(lambda: _analysed(games, redis_client, [alices], rollouts) > 0, "alice's first result")
        bobs = _pig_game(games, "bob", 2, target=40)
        before = _analysed(games, redis_client, [alices], rollouts)
        _ask(client, users, "bob", bobs, rollouts)
        _wait_for(lambda: _analysed(games, redis_client, [bobs], rollouts) > 0, "bob's first result")
        after = _analysed(games, redis_client, [alices], rollouts)
    finally:
        kill_with_work_horses(worker)
    assert after - before <= 2, f"{after - before} of alice's positions were analysed before bob's first"


def run_burst_worker_on(url: str, *args: str) -> str:
    """A burst worker on this module's queues (the job queue, then analysis, unless ``args`` say otherwise)."""
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "worker", "--burst", "--no-reconcile", *args], cwd=ROOT,
                          capture_output=True, text=True, env=ludolog_env(url, LUDOLOG_QUEUE=QUEUE), timeout=PATIENCE_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_an_analysis_only_worker_takes_no_import_and_a_no_analysis_worker_no_analysis(client, users, redis_client,
                                                                                      redis_server):
    games = GameStore(redis_client)
    gid = _pig_game(games, "alice", 5, target=40)
    assert _ask(client, users, "alice", gid, 5) >= 2

    def upload(seed: int) -> str:
        answer = client.post("/api/uploads", data=export_bytes(playout(3, seed)), headers=users.auth("bob"))
        assert answer.status_code == 202, answer.get_json()
        return f"/api/uploads/{answer.get_json()['id']}"

    first = upload(1)
    run_burst_worker_on(redis_server.url, "--no-analysis")
    assert client.get(first).get_json()["status"] == "done"
    assert report(games, redis_client, gid, MAIN, 5, "full")["done"] == 0, "no analysis was taken"
    second = upload(2)
    run_burst_worker_on(redis_server.url, "--analysis-only")
    assert report(games, redis_client, gid, MAIN, 5, "full")["status"] == "done"
    assert client.get(second).get_json()["status"] == "queued", "the import was left to the other workers"


def test_a_worker_with_no_queue_is_refused_in_one_line(redis_server):
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "worker", "--analysis-only", "--no-analysis"], cwd=ROOT,
                          capture_output=True, text=True, env=ludolog_env(redis_server.url), timeout=PATIENCE_SECONDS)
    assert done.returncode == 2 and "choose one" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_deleting_a_branch_cancels_its_analysis_and_removes_its_results(client, users, redis_client, redis_server):
    """alice's fork is being analysed by a real worker and bob's analysis of the main line waits its turn;
    alice deletes her fork. Its jobs are cancelled (none fails), its results and request marks are gone, and
    bob's analysis finishes."""
    games = GameStore(redis_client)
    gid = _pig_game(games, "alice", 3, target=100)
    setup = Setup(("P0", "P1"), {"target": 100})
    events = random_playout(get_rules("pig"), setup, random.Random(4), check=False).events
    games.fork(gid, MAIN, 1, owner="alice", bid="what-if")
    games.append(gid, "what-if", events[1:], 1)
    rollouts = 150
    assert _ask(client, users, "alice", gid, rollouts, bid="what-if") >= 4
    assert _ask(client, users, "bob", gid, 20) >= 4
    results = keys.analysis_keys_of_branch(gid, "what-if")
    worker = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=QUEUE)
    try:
        _wait_for(lambda: any(redis_client.scan_iter(match=results)), "the fork's first analysis result")
        deleted_at = _utc_now()
        deleted = client.delete(f"/api/games/{gid}/branches/what-if", headers=users.auth("alice"))
        assert deleted.status_code == 204, deleted.get_json()
        _wait_for(lambda: report(games, redis_client, gid, MAIN, 20, "full")["status"] == "done", "bob's analysis")
        queue, turns = make_queue(redis_client, ANALYSIS), AnalysisTurns(redis_client, ANALYSIS)
        # idle: nothing queued or running, and nothing waiting for a turn (bob's finished analysis queues its puzzle
        # generator in his turn, which the worker takes next)
        _wait_for(lambda: queue.count + queue.started_job_registry.count == 0 and not turns.anyone_waiting(),
                  "the worker to go idle")
    finally:
        kill_with_work_horses(worker)
        output = worker.stdout.read().decode() if worker.stdout else ""
    assert list(redis_client.scan_iter(match=results)) == [], "the fork's results and request marks are removed"
    assert queue.failed_job_registry.count == 0, output
    assert "Traceback" not in output, output
    assert AnalysisTurns(redis_client, ANALYSIS).users() == []
    late = [job.id for job in _finished(redis_client) if job.args[1] == "what-if" and _naive(job.started_at) > deleted_at]
    assert late == [], "no job of the fork started after its deletion: they were cancelled, not run"


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _naive(moment: datetime | None) -> datetime:
    assert moment is not None
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _finished(client: redis.Redis) -> list[Job]:
    """The finished analysis jobs RQ still remembers (not the puzzle generator's, which an analysis's end queues)."""
    queue = make_queue(client, ANALYSIS)
    return [job for job in Job.fetch_many(queue.finished_job_registry.get_job_ids(), connection=client,
                                          serializer=JSONSerializer) if job is not None and job.func_name == ANALYSIS_JOB]
