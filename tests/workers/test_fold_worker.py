"""Snapshot folding by real RQ workers on the embedded Redis, and the reconciler."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import redis

from engine import Setup
from service.jobs import FoldScheduler, make_queue
from service.store import keys
from service.store.folds import FoldLedger
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore, StateReader
from tests.helpers import (
    PATIENCE_SECONDS,
    ROOT,
    assert_snapshots_equal_full_folds,
    kill_with_work_horses,
    ludolog_env,
    make_pig_game,
    pig_events,
    start_worker,
)
from workers.fold import fold_snapshots
from workers.reconcile import reconcile

EVERY = 10


@pytest.fixture
def games(redis_client):
    return GameStore(redis_client)


@pytest.fixture
def snapshots(redis_client):
    return SnapshotStore(redis_client)


@pytest.fixture
def queue(redis_client):
    return make_queue(redis_client, "ludolog")


def run_burst_worker(url: str, every: int = EVERY) -> str:
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "worker", "--burst"], cwd=ROOT, capture_output=True,
                          text=True, env=ludolog_env(url, LUDOLOG_SNAPSHOT_EVERY=str(every)), timeout=PATIENCE_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def test_a_burst_of_appends_queues_one_fold_job(games, redis_client, queue):
    gid = make_pig_game(games, 5)
    schedule = FoldScheduler(FoldLedger(redis_client), queue)
    queued = [schedule(gid, MAIN) for _ in range(10)]
    assert queued == [True] + [False] * 9
    assert queue.count == 1
    job = queue.jobs[0]
    assert job.args == [gid, MAIN] or job.args == (gid, MAIN)
    assert job.retries_left == 3


def test_a_real_worker_writes_snapshots_every_k_events_and_at_the_head(games, snapshots, redis_client, redis_server, queue):
    gid = make_pig_game(games, 95)
    FoldScheduler(FoldLedger(redis_client), queue)(gid, MAIN)
    run_burst_worker(redis_server.url)
    assert snapshots.seqs(gid, MAIN) == [10, 20, 30, 40, 50, 60, 70, 80, 90, 96]
    assert assert_snapshots_equal_full_folds(games, snapshots, gid) == 10
    assert not redis_client.exists(keys.fold_pending_for(gid, MAIN))


def test_folding_again_after_more_events_moves_the_head_snapshot(games, snapshots, redis_client, redis_server, queue):
    gid = make_pig_game(games, 25)
    schedule = FoldScheduler(FoldLedger(redis_client), queue)
    schedule(gid, MAIN)
    run_burst_worker(redis_server.url)
    assert snapshots.seqs(gid, MAIN) == [10, 20, 26]
    more = pig_events(40)[25:32]
    games.append(gid, MAIN, more, 26)
    schedule(gid, MAIN)
    run_burst_worker(redis_server.url)
    assert snapshots.seqs(gid, MAIN) == [10, 20, 30, 33]
    assert_snapshots_equal_full_folds(games, snapshots, gid)


def test_the_fold_is_idempotent(games, snapshots):
    gid = make_pig_game(games, 57)
    first = fold_snapshots(games, snapshots, gid, MAIN, EVERY)
    before = {s: snapshots.get(gid, MAIN, s) for s in snapshots.seqs(gid, MAIN)}
    again = fold_snapshots(games, snapshots, gid, MAIN, EVERY)
    assert (first["written"], again["written"]) == (6, 0)
    assert {s: snapshots.get(gid, MAIN, s) for s in snapshots.seqs(gid, MAIN)} == before


def test_forks_fold_only_their_own_events(games, snapshots):
    gid = make_pig_game(games, 30)
    fork = games.fork(gid, MAIN, 15, owner="bob")
    games.append(gid, fork.id, pig_events(30)[14:22], 15)
    fold_snapshots(games, snapshots, gid, fork.id, EVERY)
    assert snapshots.seqs(gid, fork.id) == [20, 23]
    assert_snapshots_equal_full_folds(games, snapshots, gid, fork.id)


def test_reading_a_state_uses_the_nearest_snapshot_and_equals_a_full_fold(games, snapshots):
    gid = make_pig_game(games, 120)
    fold_snapshots(games, snapshots, gid, MAIN, EVERY)
    with_snaps = StateReader(games, snapshots, cache_size=0)
    without = StateReader(games, snapshots, use_snapshots=False, cache_size=0)
    for seq in (1, 2, 9, 10, 11, 64, 120, 121):
        a, b = with_snaps.position(gid, MAIN, seq), without.position(gid, MAIN, seq)
        assert a.rules.dump_state(a.state) == b.rules.dump_state(b.state)


def test_the_reconciler_rebuilds_missing_gaps_and_drops_other_rules_versions(games, snapshots):
    gid = make_pig_game(games, 45)
    fold_snapshots(games, snapshots, gid, MAIN, EVERY)
    snapshots.delete(gid, MAIN, [20])
    snapshots.put(gid, MAIN, 30, "0-old", {"junk": True})
    report = reconcile(games, snapshots, EVERY)
    assert report.rebuilt == [(gid, MAIN)] and report.dropped_snapshots == 1
    assert snapshots.seqs(gid, MAIN) == [10, 20, 30, 40, 46]
    assert_snapshots_equal_full_folds(games, snapshots, gid)
    assert reconcile(games, snapshots, EVERY).rebuilt == []


def test_a_worker_killed_mid_fold_leaves_only_true_snapshots_and_the_next_worker_finishes(
        games, snapshots, redis_client, redis_server, queue):
    """SIGKILL the worker and its work horse in the middle of a long fold (K=1: one snapshot per event)."""
    gid = make_pig_game(games, 6000)
    FoldScheduler(FoldLedger(redis_client), queue)(gid, MAIN)
    worker = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_SNAPSHOT_EVERY="1")
    deadline = time.monotonic() + PATIENCE_SECONDS
    while time.monotonic() < deadline and len(snapshots.seqs(gid, MAIN)) < 200:
        time.sleep(0.01)
    kill_with_work_horses(worker)
    # A write the horse sent just before it died may still wait in Redis's socket buffer: two round trips of our own
    # let Redis's event loop read every socket that was readable before them (the dead one's last bytes included).
    redis_client.ping()
    redis_client.ping()
    written = len(snapshots.seqs(gid, MAIN))
    assert 200 <= written < 6001, f"the kill should land mid-fold (snapshots written: {written})"
    time.sleep(0.3)
    assert len(snapshots.seqs(gid, MAIN)) == written, "nothing may go on writing after the kill"
    assert_snapshots_equal_full_folds(games, snapshots, gid)
    run_burst_worker(redis_server.url, every=1)  # a new worker reconciles at start
    assert snapshots.seqs(gid, MAIN)[-1] == 6001
    assert snapshots.seqs(gid, MAIN) == list(range(2, 6002))
    assert_snapshots_equal_full_folds(games, snapshots, gid)
    redis.Redis.from_url(redis_server.url).ping()


def test_the_reconciler_rebuilds_the_snapshots_of_a_game_written_by_an_older_rules_version(games, snapshots):
    """Issue 16: a Golden City game stored by rules version 1 (events from tests/engine/fixtures, written before the
    reshuffle changed) keeps its events; the reconciler drops its version-1 snapshots and folds new ones that equal a
    full fold, and the state reader ends where version 1 ended."""
    from engine import get_rules
    from tests.engine.test_old_versions import EXPECTED, v1_events

    events = v1_events("golden_city_v1")
    first = events[0]
    gid = games.create_game(first.data["game"], first.data["rules_version"], Setup.from_json(first.data["setup"]),
                            owner=None).id
    games.append(gid, MAIN, events[1:], 1)
    snapshots.put(gid, MAIN, 40, "1", {"written by": "version 1"})
    report = reconcile(games, snapshots, EVERY)
    assert report.rebuilt == [(gid, MAIN)] and report.dropped_snapshots == 1
    assert games.game(gid).rules_version == "1" and games.game(gid).setup.options == {"reshuffle": "draw_needed"}
    assert assert_snapshots_equal_full_folds(games, snapshots, gid) > 1
    head = StateReader(games, snapshots).position(gid, MAIN)
    outcome = get_rules("golden_city").outcome(head.state)
    assert list(outcome.scores) == EXPECTED["golden_city_v1"]["scores"]
