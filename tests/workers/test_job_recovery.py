"""No job stays stuck: real ``ludolog worker`` processes, real SIGKILLs, the real embedded Redis.

* A work horse killed in the middle of importing a large log: RQ's scheduler retries the
  job and the upload is ``done``; killed on every attempt, the upload is ``failed`` with the
  reason, and the same file uploaded again is imported afresh.
* A worker killed with its work horse: the next worker's upkeep fails the silent upload
  after the deadline (never stuck), and the file can be uploaded again.
* An import that raises on every attempt is ``failed`` with the error.
* A work horse killed mid-fold: the retry folds the branch; a fold job lost for good is
  queued again by the upkeep.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from functools import cache

import pytest

from engine import Setup, game_created
from engine.bga import export_log
from service.imports.importer import DONE, FAILED, RUNNING, submit_upload
from service.jobs import FoldScheduler, enqueue_import, make_queue
from service.store import keys
from service.store.folds import FoldLedger
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore
from service.store.uploads import UploadStore
from tests.games.pig import PIG
from tests.helpers import kill_with_work_horses, make_pig_game, pig_events, wait_until
from tests.workers.test_fold_worker import run_burst_worker
from workers.heal import heal

LARGE_LOG_EVENTS = 30_000  # about 8 MB of BGA JSON; a few seconds to import


@cache
def large_log() -> bytes:
    """Our BGA export of a Pig game of LARGE_LOG_EVENTS moves (imported with full rules, move by move)."""
    setup = Setup(("P0", "P1"), {"target": 10**9})
    return json.dumps(export_log([game_created("pig", PIG.version, setup), *pig_events(LARGE_LOG_EVENTS)])).encode()


@pytest.fixture
def queue(redis_client):
    return make_queue(redis_client, "ludolog")


def work_horse(worker: subprocess.Popen) -> int | None:
    """The pid of the worker's work horse, if it runs one (RQ's horse leads its own process group)."""
    try:
        children = open(f"/proc/{worker.pid}/task/{worker.pid}/children").read().split()
    except FileNotFoundError:
        return None
    for pid in map(int, children):
        try:
            if os.getpgid(pid) == pid:
                return pid
        except ProcessLookupError:
            continue
    return None


def wait_for(condition: Callable[[], object], what: str = "the condition") -> object:
    """Poll ``condition`` until it is truthy (never stuck: a hang alone reaches the bound)."""
    return wait_until(condition, what, every=0.02)


def upload(redis_client, queue, raw: bytes) -> str:
    """Submit a file as an upload and queue its import, as POST /api/uploads does; its id."""
    uid, duplicate = submit_upload(UploadStore(redis_client), raw, owner="alice")
    assert not duplicate
    enqueue_import(queue, uid)
    return uid


def status_of(redis_client, uid: str) -> dict:
    return UploadStore(redis_client).status(uid) or {}


def finished(redis_client, uid: str) -> dict:
    """The upload's record once it is done or failed (a stuck one fails the wait)."""
    return wait_for(lambda: (s := status_of(redis_client, uid))["status"] in (DONE, FAILED) and s,
                    what=f"upload {uid} done or failed")  # type: ignore[return-value]


def horse_importing(redis_client, uid: str, worker: subprocess.Popen, skip: frozenset[int] = frozenset()) -> int | None:
    """Wait until a worker's horse (not one of ``skip``) imports the upload; its pid, or None once the upload is final."""
    def ready() -> int | bool:
        record = status_of(redis_client, uid)
        if record["status"] in (DONE, FAILED):
            return True
        pid = work_horse(worker)
        running = record["status"] == RUNNING and record["progress"]["done"] > 0
        return pid if pid and pid not in skip and running else False
    found = wait_for(ready, what="a work horse importing the log")
    return None if found is True else found  # type: ignore[return-value]


def test_a_work_horse_killed_mid_import_is_retried_and_the_upload_is_done(redis_client, queue, workers):
    uid = upload(redis_client, queue, large_log())
    worker = workers()
    horse = horse_importing(redis_client, uid, worker)
    assert horse is not None
    os.kill(horse, signal.SIGKILL)
    record = finished(redis_client, uid)
    assert record["status"] == DONE, record
    assert record["events"] == LARGE_LOG_EVENTS + 1
    assert GameStore(redis_client).head(record["game"], MAIN) == LARGE_LOG_EVENTS + 1
    assert not redis_client.zscore(keys.uploads_in_flight(), uid)
    assert worker.poll() is None, "the worker itself lives on"


def test_an_import_killed_on_every_attempt_fails_with_the_reason_and_the_same_file_imports_afresh(redis_client, queue, workers):
    uid = upload(redis_client, queue, large_log())
    worker = workers()
    killed: set[int] = set()
    while len(killed) < 5 and (horse := horse_importing(redis_client, uid, worker, frozenset(killed))) is not None:
        os.kill(horse, signal.SIGKILL)
        killed.add(horse)
    record = finished(redis_client, uid)
    assert record["status"] == FAILED and len(killed) == 3, (record, killed)
    error = record["error"]
    assert error["code"] == "import_interrupted" and error["attempts"] == 3, error
    assert "killed by signal 9" in error["message"], error

    again, duplicate = submit_upload(UploadStore(redis_client), large_log(), owner="alice")
    assert not duplicate and again != uid, "a failed upload does not block the same file"
    enqueue_import(queue, again)
    assert finished(redis_client, again)["status"] == DONE


def test_a_worker_killed_with_its_horse_leaves_no_upload_stuck(redis_client, queue, workers):
    uid = upload(redis_client, queue, large_log())
    first = workers()
    horse_importing(redis_client, uid, first)
    kill_with_work_horses(first)
    assert status_of(redis_client, uid)["status"] == RUNNING  # nobody is left to say otherwise
    workers(LUDOLOG_JOB_DEADLINE="3", LUDOLOG_HEAL_EVERY="1")
    record = finished(redis_client, uid)
    if record["status"] == FAILED:
        assert record["error"]["code"] == "import_timed_out" and "no sign of life" in record["error"]["message"], record
        again, duplicate = submit_upload(UploadStore(redis_client), large_log(), owner="alice")
        assert not duplicate
        enqueue_import(queue, again)
        assert finished(redis_client, again)["status"] == DONE


def test_an_import_that_raises_every_time_fails_with_the_error(redis_client, queue, workers):
    uid = upload(redis_client, queue, b'{"status": 1, "data": {"logs": [], "players": []}}')
    redis_client.hdel(keys.upload_for(uid), "digest")  # a broken record: run_import raises KeyError each time
    workers()
    record = finished(redis_client, uid)
    assert record["status"] == FAILED, record
    assert record["error"]["code"] == "import_error" and "KeyError" in record["error"]["message"], record


def test_the_upkeep_leaves_a_queued_import_alone_and_fails_a_lost_one(redis_client, queue):
    uid = upload(redis_client, queue, large_log())
    later = time.time() + 3600
    assert heal(redis_client, queue, deadline=60, every=50, now=later).failed_uploads == []
    assert status_of(redis_client, uid)["status"] == "queued"  # waiting its turn is not stuck
    queue.empty()  # the queue's Redis lost the job
    assert heal(redis_client, queue, deadline=60, every=50, now=later).failed_uploads == [uid]
    record = status_of(redis_client, uid)
    assert record["status"] == FAILED and record["error"]["code"] == "import_lost", record
    assert not redis_client.exists(keys.upload_raw_for(uid))


def test_a_work_horse_killed_mid_fold_is_folded_again(redis_client, redis_server, queue, workers):
    games, snapshots = GameStore(redis_client), SnapshotStore(redis_client)
    gid = make_pig_game(games, 6000)
    FoldScheduler(FoldLedger(redis_client), queue)(gid, MAIN)
    worker = workers(LUDOLOG_SNAPSHOT_EVERY="1")
    horse = wait_for(lambda: len(snapshots.seqs(gid, MAIN)) >= 200 and work_horse(worker), what="a horse folding")
    os.kill(horse, signal.SIGKILL)  # type: ignore[arg-type]
    wait_for(lambda: snapshots.seqs(gid, MAIN) == list(range(2, 6002)), what="the branch folded to its head")
    wait_for(lambda: redis_client.zscore(keys.folds_due(), f"{gid}/{MAIN}") is None, what="the fold no longer due")


def test_a_fold_job_lost_for_good_is_queued_again_by_the_upkeep(redis_client, redis_server, queue):
    games, snapshots = GameStore(redis_client), SnapshotStore(redis_client)
    gid = make_pig_game(games, 25)
    FoldScheduler(FoldLedger(redis_client), queue)(gid, MAIN)
    queue.empty()  # the job is gone ...
    redis_client.delete(keys.fold_pending_for(gid, MAIN))  # ... after it started (it clears the mark first)
    later = time.time() + 3600
    assert heal(redis_client, queue, deadline=60, every=10, now=later).refolded == [(gid, MAIN)]
    run_burst_worker(redis_server.url)
    assert snapshots.seqs(gid, MAIN) == [10, 20, 26]
    assert heal(redis_client, queue, deadline=60, every=10, now=later + 7200).refolded == []
    assert redis_client.zscore(keys.folds_due(), f"{gid}/{MAIN}") is None
