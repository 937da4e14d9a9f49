"""POST …/analysis/cancel and the time left (issue 46): who may cancel, a running job stopping between two playouts with
a real RQ worker, the verdicts kept and the quota charged only for what ran, a request racing the cancel, the 409s;
and the report's and the progress stream's estimate of the time left."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from engine import Setup, get_rules, random_playout
from service.api.analysis import AnalysisSchema
from service.games.analysis import analysis_run, missing_ranges
from service.jobs import ANALYSIS_JOB, analysis_queue_name, make_queue
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.analysis_turns import AnalysisTurns
from service.store.games import MAIN, GameStore
from service.store.quota import AnalysisQuota
from tests.helpers import PATIENCE_SECONDS, kill_with_work_horses, start_worker, wait_until
from tests.service.api.helpers import Users, assert_error, assert_matches
from tests.service.api.sse import SseClient

URL = "/api/games/{gid}/branches/{bid}/analysis"
QUEUE = "ludolog-test"
#: A budget at which one Pig decision takes seconds: a cancel lands inside a decision's search.
SLOW = 5000
LIMIT = 50_000_000


@pytest.fixture
def config(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Config:
    """The API tests' settings, with an allowance that several slow analyses fit in."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, max_body_bytes=4096, secret_key="test-secret",
                  queue_name=QUEUE, analysis_work_per_hour=LIMIT)


@pytest.fixture
def worker(redis_server: EmbeddedRedis) -> Iterator[None]:
    """One real ``ludolog worker`` on the test queues, killed (with its work horse) at the end."""
    process = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=QUEUE)
    yield
    kill_with_work_horses(process)


def _game(redis_client: redis.Redis, owner: str = "carol") -> str:
    """A public finished Pig game of ``owner``'s (a few dozen decisions)."""
    setup = Setup(("Anna", "Ben"), {"target": 30})
    playout = random_playout(get_rules("pig"), setup, random.Random(4), check=False)
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", setup, owner=owner, visibility="public")
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


def _analysis_queue(redis_client: redis.Redis) -> Queue:
    return make_queue(redis_client, analysis_queue_name(QUEUE))


def _running_jobs(redis_client: redis.Redis) -> list[Job]:
    queue = _analysis_queue(redis_client)
    ids = queue.started_job_registry.get_job_ids()
    return [job for job in Job.fetch_many(ids, connection=redis_client, serializer=JSONSerializer) if job is not None]


def _report(client: FlaskClient, gid: str, rollouts: int, who: Users | None = None, user: str = "alice") -> dict:
    response = client.get(URL.format(gid=gid, bid=MAIN) + f"?rollouts={rollouts}",
                          headers=who.auth(user) if who else {})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _used(redis_client: redis.Redis, user: str) -> int:
    return AnalysisQuota(redis_client, LIMIT).used(user)


def test_the_requester_cancels_a_running_analysis_and_keeps_what_was_done(client, users, redis_client, worker):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    rollouts = 400
    assert client.post(url, json={"rollouts": rollouts}, headers=users.auth("alice")).status_code == 202
    wait_until(lambda: _report(client, gid, rollouts)["done"] >= 2, "two decisions analysed")
    running = _report(client, gid, rollouts, users, "alice")
    assert running["status"] == "running" and running["may_cancel"], "the requester may cancel it"
    assert not _report(client, gid, rollouts, users, "bob")["may_cancel"], "bob asked for nothing"
    assert not _report(client, gid, rollouts)["may_cancel"], "nor may a visitor"

    refused = client.post(url + "/cancel", json={"rollouts": rollouts}, headers=users.auth("bob"))
    assert "only who asked for this analysis, or the game's owner" in assert_error(refused, 403, "forbidden")["message"]
    cancelled = client.post(url + "/cancel", json={"rollouts": rollouts}, headers=users.auth("alice"))
    assert cancelled.status_code == 200, cancelled.get_json()
    body = cancelled.get_json()
    assert_matches(AnalysisSchema, body)
    assert body["status"] == "cancelled" and not body["may_cancel"] and body["estimate"] is None
    wait_until(lambda: not _running_jobs(redis_client) and not _analysis_queue(redis_client).count,
               "the running job to stop")
    after = _report(client, gid, rollouts)
    assert after["status"] == "cancelled" and 2 <= after["done"] < after["total"]
    assert [p["seq"] for p in after["positions"]][:body["done"]] == [p["seq"] for p in body["positions"]]
    assert after["done"] == body["done"], "nothing is stored after the cancel"
    assert _used(redis_client, "alice") == rollouts * after["done"], "charged only for the decisions analysed"
    assert body["refunded"] == rollouts * (after["total"] - after["done"])
    time.sleep(1.0)  # a job that had not stopped would store its decision about now
    assert _report(client, gid, rollouts)["done"] == after["done"]

    again = client.post(url + "/cancel", json={"rollouts": rollouts}, headers=users.auth("alice"))
    assert "cancelled already, at" in assert_error(again, 409, "analysis_cancelled")["message"]
    resumed = client.post(url, json={"rollouts": rollouts}, headers=users.auth("bob"))
    assert resumed.status_code == 202 and resumed.get_json()["status"] == "running", "asked again, it runs anew"
    assert _used(redis_client, "bob") == rollouts * (after["total"] - after["done"]), "only what was left is charged"


def test_a_running_job_stops_between_two_playouts_and_stores_nothing_of_its_decision(client, users, redis_client,
                                                                                     worker):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    assert client.post(url, json={"rollouts": SLOW}, headers=users.auth("alice")).status_code == 202
    run = analysis_run(redis_client, gid, MAIN, SLOW, "full")
    wait_until(lambda: run.state().first_at is not None, "the first decision's search to start")
    [job] = _running_jobs(redis_client)
    cancelled = client.post(url + "/cancel", json={"rollouts": SLOW}, headers=users.auth("carol"))
    assert cancelled.status_code == 200, "the game's owner may cancel anyone's analysis of it"
    wait_until(lambda: job.get_status(refresh=True) == "finished", "the job to stop")
    assert job.return_value() == {"analysed": 0, "cancelled": 1}, "it stopped inside its first decision's search"
    assert _report(client, gid, SLOW)["done"] == 0
    assert _used(redis_client, "alice") == 0, "a decision abandoned half-way is not charged"


def test_cancelling_a_finished_or_never_asked_analysis_is_a_409(client, users, redis_client, redis_server):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    never = client.post(url + "/cancel", json={"rollouts": 8}, headers=users.auth("carol"))
    assert "not running" in assert_error(never, 409, "analysis_not_running")["message"]
    assert client.post(url, json={"rollouts": 8}, headers=users.auth("alice")).status_code == 202
    from tests.service.api.test_analysis_api import _run_jobs

    _run_jobs(redis_server)
    finished = client.post(url + "/cancel", json={"rollouts": 8}, headers=users.auth("alice"))
    error = assert_error(finished, 409, "analysis_finished")
    assert "finished" in error["message"] and error["details"]["done"] == error["details"]["total"]
    assert assert_error(client.post(url + "/cancel", json={"rollouts": 8}), 401)
    assert_error(client.post(url + "/cancel", json={"rollouts": 0}, headers=users.auth("alice")), 400)


def _quiet_race(app: Flask, users: Users, gid: str, rollouts: int) -> None:
    """The game's owner's cancel and bob's request of the same analysis at the same moment, each from its own
    client."""
    url = URL.format(gid=gid, bid=MAIN)
    start = threading.Barrier(2)
    answers: dict[str, int] = {}

    def call(name: str, path: str, user: str) -> None:
        mine = app.test_client()
        start.wait()
        answers[name] = mine.post(path, json={"rollouts": rollouts}, headers=users.auth(user)).status_code

    threads = [threading.Thread(target=call, args=("cancel", url + "/cancel", "carol")),
               threading.Thread(target=call, args=("request", url, "bob"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PATIENCE_SECONDS)
    assert answers["cancel"] in (200, 409) and answers["request"] == 202, answers


def _waiting_or_queued(redis_client: redis.Redis, generation: int) -> int:
    """Analysis jobs of ``generation`` waiting for a turn or queued."""
    queue = _analysis_queue(redis_client)
    args = AnalysisTurns(redis_client, queue.name).waiting_args()
    jobs = Job.fetch_many(queue.get_job_ids(), connection=redis_client, serializer=JSONSerializer)
    args += [list(job.args) for job in jobs if job is not None and job.func_name == ANALYSIS_JOB]
    return sum(1 for a in args if len(a) > 7 and a[7] == generation)


def test_a_request_racing_a_cancel_never_leaves_the_analysis_half_cancelled(app, client, users, redis_client,
                                                                               redis_server):
    """No worker runs: after each race the analysis is either cancelled with no job of its generation left and every
    charge given back, or running with every decision left on its way and charged once; a burst worker then finishes
    a running one, and stores nothing for a cancelled one."""
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    games, queue = GameStore(redis_client), _analysis_queue(redis_client)
    run = analysis_run(redis_client, gid, MAIN, 8, "full")
    outcomes = set()
    for _ in range(6):
        redis_client.delete(keys.analysis_quota_for("alice"), keys.analysis_quota_for("bob"))
        if _report(client, gid, 8)["status"] != "running":
            assert client.post(url, json={"rollouts": 8}, headers=users.auth("alice")).status_code == 202
        _quiet_race(app, users, gid, 8)
        now, generation = _report(client, gid, 8), run.generation()
        outcomes.add(now["status"])
        left = now["total"] - now["done"]
        if now["status"] == "cancelled":
            assert _waiting_or_queued(redis_client, generation) == 0
            assert _used(redis_client, "alice") + _used(redis_client, "bob") == 0, "every charge given back"
        else:
            assert now["status"] == "running", now["status"]
            assert missing_ranges(games, redis_client, queue, gid, MAIN, 8, "full", 0, generation) == [], \
                "every decision left is on its way"
            assert _waiting_or_queued(redis_client, generation) >= 1
            assert _used(redis_client, "alice") + _used(redis_client, "bob") == 8 * left, "charged once"
    from tests.service.api.test_analysis_api import _run_jobs

    before = _report(client, gid, 8)
    _run_jobs(redis_server)
    after = _report(client, gid, 8)
    if before["status"] == "cancelled":
        assert (after["status"], after["done"]) == ("cancelled", before["done"]), "stale jobs stored nothing"
    else:
        assert after["status"] == "done"
    assert outcomes, outcomes


def test_the_time_left_comes_after_the_first_decision_in_the_report_and_the_stream(client, users, redis_client,
                                                                                    live_server, worker):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    rollouts = 300
    port = int(live_server.rsplit(":", 1)[1])
    stream = SseClient(port, f"{url}/stream?view=full", timeout=PATIENCE_SECONDS).open()
    try:
        queued = client.post(url, json={"rollouts": rollouts}, headers=users.auth("alice")).get_json()
        assert queued["estimate"] is None, "no estimate before the first decision is done"
        message = stream.next_message()
        while message.event != "analysis":
            message = stream.next_message()
        notice = message.json()
        assert notice["rollouts"] == rollouts and notice["seed"] == 0 and isinstance(notice["left"], int)
        assert notice["left"] >= 0
    finally:
        stream.close()
    now = _report(client, gid, rollouts)
    if now["status"] == "running":
        estimate = now["estimate"]
        assert estimate["decisions_left"] >= now["total"] - now["done"] - 1
        assert estimate["seconds_per_decision"] > 0
        at_last = estimate["seconds_per_decision"] * estimate["decisions_left"]  # as of the last decision stored
        assert 0 <= estimate["seconds_left"] <= at_last + 1, "less the time since the last decision"
    client.post(url + "/cancel", json={"rollouts": rollouts}, headers=users.auth("alice"))


def test_work_given_back_shrinks_its_grant_where_it_stands_and_never_below_nothing(redis_client):
    quota = AnalysisQuota(redis_client, limit=1000)
    first = quota.take("ann", 600, now=0.0)
    assert first.granted and first.grant
    assert not quota.take("ann", 600, now=10.0).granted
    assert quota.give_back("ann", first.grant, 200) == 200
    assert quota.used("ann", now=10.0) == 400
    assert quota.take("ann", 600, now=10.0).granted, "what was given back frees up at once"
    assert quota.give_back("ann", first.grant, 1000) == 400, "never more than the grant holds"
    assert quota.give_back("ann", "no-such-grant", 100) == 0
    assert quota.used("ann", now=20.0) == 600
    assert quota.take("ann", 400, now=3599.0).granted and not quota.take("ann", 1, now=3599.0).granted
