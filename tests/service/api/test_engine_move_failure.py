"""An engine seat's move whose job raises (issue 46), with a real ``ludolog worker`` and a real fault in the store,
met after its search (the record its append reads first, the stored result of its idempotency key, unreadable) or
before it (its owner's work account, which the job is charged to before it searches, unreadable). Each failed try is
said at once on every open seats stream (RQ's failure callback: no "thinking" left to lapse), with nothing of the error
in it; RQ's retries fail too and the job is marked failed, which the streams say ("tried again later"); once the store
is mended, the worker's upkeep queues the move again and it lands, which the streams say as well. Real Redis, the real
app behind a real HTTP server, the Pig test game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry
from rq.serializers import JSONSerializer

from service.jobs import ENGINE_MOVE_JOB, engine_queue_name
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.engine_status import LEASE_SECONDS
from tests.helpers import PATIENCE_SECONDS, kill_with_work_horses, start_worker, wait_until
from tests.service.api.helpers import Users
from tests.service.api.sse import Message, SseClient

QUEUE = "ludolog-engine-failure"
#: The upkeep queues a move not played this long after it was queued again (RQ's retries are over well before).
DEADLINE_S = 40
#: The longest a stream may take to say what a test waits for (the upkeep's try comes DEADLINE_S after the first).
SAID_WITHIN = DEADLINE_S + 60
#: What the engine's status may say on a stream: nothing of the error itself (its text stays in RQ's failed job).
SAID = {"state", "seat", "level", "seq", "elapsed", "reason", "retried", "about"}
#: What the faults' errors say (``int("unreadable")``, Redis' WRONGTYPE): none of it may reach a page.
ERROR_WORDS = ("unreadable", "invalid literal", "Traceback", "Error", "WRONGTYPE")


@pytest.fixture
def config(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Config:
    """The API tests' settings on queues of this test's own."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, max_body_bytes=4096, secret_key="test-secret",
                  queue_name=QUEUE)


@pytest.fixture
def worker(redis_server: EmbeddedRedis) -> Iterator[None]:
    """One real ``ludolog worker`` on the test's queues, its upkeep every second; killed with its work horse after."""
    process = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=QUEUE, LUDOLOG_HEAL_EVERY="1",
                           LUDOLOG_JOB_DEADLINE=str(DEADLINE_S))
    yield
    kill_with_work_horses(process)


def _table(client: Any, users: Users) -> tuple[str, str]:
    """A public Pig table of alice's: seat 0 the engine (easy), seat 1 hers. The game and its branch."""
    made = client.post("/api/games", json={"game": "pig", "players": ["Robo", "Anna"], "visibility": "public",
                                           "seats": [{"holder": "engine", "level": "easy"}, {"holder": "me"}]},
                       headers=users.auth("alice"))
    assert made.status_code == 201, made.get_json()
    return str(made.get_json()["id"]), str(made.get_json()["branch"])


def _engine_said(stream: SseClient, until: Any) -> list[dict[str, Any]]:
    """The engine's status each message of ``stream`` says (``engine`` events and the seats'), up to the first that
    ``until`` takes; every message checked to say nothing of the error."""
    said = []
    deadline = time.monotonic() + SAID_WITHIN
    while time.monotonic() < deadline:
        try:
            message = stream.next_message(within=deadline - time.monotonic())
        except TimeoutError:
            break
        _nothing_of_the_error(message)
        if message.event not in ("engine", "seats"):
            continue
        engine = message.json()["engine"]
        said.append(engine)
        if until(engine, message):
            return said
    raise AssertionError(f"the stream never said it; it said {said}")


def _nothing_of_the_error(message: Message) -> None:
    assert not any(word in message.data for word in ERROR_WORDS), message.data
    engine = message.json().get("engine") if message.event in ("engine", "seats") else None
    assert engine is None or set(engine) <= SAID, engine


def _failed(retried: bool) -> Any:
    return lambda engine, _: engine is not None and engine["state"] == "failed" and engine["retried"] is retried


#: Where the fault is: a key of the store made unreadable (a string where the job reads a stored append result, or
#: where the owner's work account, a sorted set, is).
FAULTS = {"after_the_search": lambda gid, bid, seq: keys.idempotency_for(gid, bid, "~engine", f"engine-move-{seq}"),
          "before_the_search": lambda gid, bid, seq: keys.analysis_quota_for("alice")}


@pytest.mark.parametrize("where", list(FAULTS))
def test_an_engine_move_that_raises_is_said_failed_at_once_everywhere_and_lands_once_the_store_is_mended(
        app: Any, client: Any, users: Users, redis_client: redis.Redis, live_server: str, worker: None,
        where: str) -> None:
    stores = app.extensions["ludolog"].stores
    gid, bid = _table(client, users)
    engine_at = stores.games.head(gid, bid)
    fault = FAULTS[where](gid, bid, engine_at)
    redis_client.set(fault, "unreadable")
    port = int(live_server.rsplit(":", 1)[1])
    path = f"/api/games/{gid}/branches/{bid}/seats/stream"
    streams = [SseClient(port, path, headers=users.auth("alice"), timeout=PATIENCE_SECONDS).open(),
               SseClient(port, path, timeout=PATIENCE_SECONDS).open()]  # a spectator of the public table
    try:
        for stream in streams:
            said = _engine_said(stream, _failed(retried=True))
            failed = said[-1]
            assert (failed["reason"], failed["seq"], failed["seat"]) == ("error", engine_at, 0), failed
            assert failed["elapsed"] < LEASE_SECONDS, "said by the failure callback, not by a lapsed lease"
        assert not redis_client.zscore(keys.engine_thinking(), f"{gid}/{bid}"), "no lease left to lapse"

        # RQ's retries meet the same fault: the job is marked failed, and the pages are told it is tried later.
        for stream in streams:
            assert _engine_said(stream, _failed(retried=False))[-1]["reason"] == "error"
        failed_jobs = FailedJobRegistry(engine_queue_name(QUEUE), connection=redis_client, serializer=JSONSerializer)
        ids = wait_until(failed_jobs.get_job_ids, "the job marked failed (after its callback)")
        jobs = [Job.fetch(job_id, connection=redis_client, serializer=JSONSerializer) for job_id in ids]
        assert [(j.func_name, j.args, j.get_status()) for j in jobs] == [
            (ENGINE_MOVE_JOB, [gid, bid, engine_at], JobStatus.FAILED)]
        assert stores.games.head(gid, bid) == engine_at, "no move stored by a failed try"

        redis_client.delete(fault)  # the store mended: the upkeep's next try lands the move
        for stream in streams:
            _engine_said(stream, lambda engine, _: (engine is None or engine["seq"] > engine_at)
                         and stores.games.head(gid, bid) > engine_at)
        moved = stores.games.events(gid, bid, after=engine_at)
        assert moved[0].actor == 0 and moved[0].seq == engine_at + 1, moved[:1]
    finally:
        for stream in streams:
            stream.close()
