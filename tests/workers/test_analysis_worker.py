"""Analysis jobs (workers.analysis) with real RQ workers on the embedded Redis: splitting, sharing, resumption."""

from __future__ import annotations

import dataclasses
import math
import random
import subprocess
import sys
import time

import pytest

from engine import Setup, get_rules, random_playout
from engine.analysis.verdict import mark_for
from service.games.analysis import (
    POSITIONS_PER_JOB,
    analyse_position,
    decisions,
    enqueue_analysis,
    report,
    stored_results,
)
from service.jobs import OPERATOR, make_queue
from service.store.analysis_results import AnalysisResults
from service.store.analysis_turns import AnalysisTurns
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore, StateReader
from tests.helpers import PATIENCE_SECONDS, ROOT, kill_with_work_horses, ludolog_env, start_worker
from tests.workers.test_fold_worker import run_burst_worker

TARGET = 40


@pytest.fixture
def games(redis_client):
    return GameStore(redis_client)


@pytest.fixture
def queue(redis_client):
    return make_queue(redis_client, "ludolog")


def _pig_game(games: GameStore, seed: int = 3) -> str:
    """A finished Pig game to TARGET points (a few dozen decisions), owned by ann."""
    setup = Setup(("P0", "P1"), {"target": TARGET})
    playout = random_playout(get_rules("pig"), setup, random.Random(seed), check=False)
    record = games.create_game("pig", "1", setup, owner="ann")
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


def _direct(games: GameStore, redis_client, gid: str, bid: str, seq: int, rollouts: int, view: str = "full") -> dict:
    """The result of analysing the position after ``seq`` (and the move played there) right here, in this process."""
    position = StateReader(games, SnapshotStore(redis_client)).position(gid, bid, seq)
    played = _position(games, gid, bid, seq).played
    return analyse_position(position.rules, position.state, seq, rollouts, view, played)


def _position(games: GameStore, gid: str, bid: str, seq: int):
    return next(p for p in decisions(games, gid, bid)[1] if p.seq == seq)


def test_the_work_is_split_into_jobs_over_position_ranges_and_every_result_is_the_seeded_search(games, redis_client, redis_server, queue):
    gid = _pig_game(games)
    _, positions = decisions(games, gid, MAIN)
    assert len(positions) > POSITIONS_PER_JOB
    jobs = enqueue_analysis(games, redis_client, queue, gid, MAIN, 20, "full")
    waiting = AnalysisTurns(redis_client, queue.name).waiting(OPERATOR)
    assert jobs == queue.count + len(waiting) == math.ceil(len(positions) / POSITIONS_PER_JOB)
    assert queue.count == 1, "with no worker listening, one job is queued and the rest wait for their turns"
    assert report(games, redis_client, gid, MAIN, 20, "full")["status"] == "running"
    run_burst_worker(redis_server.url)
    answer = report(games, redis_client, gid, MAIN, 20, "full")
    assert (answer["status"], answer["done"], answer["total"]) == ("done", len(positions), len(positions))
    for entry in answer["positions"][:5]:
        stored = stored_results(redis_client, games.game(gid), 20, "full").get_many(
            games.branches(gid), MAIN, [_position(games, gid, MAIN, entry["seq"])])
        assert stored[entry["seq"]] == _direct(games, redis_client, gid, MAIN, entry["seq"], 20)
    assert enqueue_analysis(games, redis_client, queue, gid, MAIN, 20, "full") == 0, "nothing left to queue"


def test_a_fork_shares_its_parents_results_up_to_the_fork_point(games, redis_client, redis_server, queue):
    gid = _pig_game(games)
    enqueue_analysis(games, redis_client, queue, gid, MAIN, 10, "full")
    run_burst_worker(redis_server.url)
    _, positions = decisions(games, gid, MAIN)
    fork_at = positions[len(positions) // 2].seq
    games.fork(gid, MAIN, fork_at, owner="bob", bid="what-if")
    forked = report(games, redis_client, gid, "what-if", 10, "full")
    shared = [p for p in positions if p.seq < fork_at]
    assert forked["done"] == len(shared) and [p["seq"] for p in forked["positions"]] == [p.seq for p in shared]
    # The fork point judged the parent's move there; the fork's head judges none, so it gets a verdict of its own.
    assert enqueue_analysis(games, redis_client, queue, gid, "what-if", 10, "full") == 1
    run_burst_worker(redis_server.url)
    forked = report(games, redis_client, gid, "what-if", 10, "full")
    assert (forked["status"], forked["done"]) == ("done", len(shared) + 1)
    assert forked["positions"][-1]["seq"] == fork_at and forked["positions"][-1]["played"] is None
    parent = report(games, redis_client, gid, MAIN, 10, "full")
    assert parent["status"] == "done" and parent["positions"][len(shared)]["played"]["action"] == positions[len(shared)].played


def test_a_killed_worker_leaves_no_position_analysed_twice_into_different_results(games, redis_client, redis_server, queue):
    """SIGKILL a worker (and its work horse) mid-analysis; asking again queues only what is missing, and a second
    worker completes it with exactly the results a single uninterrupted search gives."""
    gid = _pig_game(games, seed=5)
    rollouts = 400
    enqueue_analysis(games, redis_client, queue, gid, MAIN, rollouts, "full")
    url = redis_server.url
    worker = start_worker(url, "--no-reconcile")
    results = stored_results(redis_client, games.game(gid), rollouts, "full")
    deadline = time.monotonic() + PATIENCE_SECONDS
    while not redis_client.hlen(results.key(MAIN)) and time.monotonic() < deadline:
        time.sleep(0.02)
    kill_with_work_horses(worker)
    total = report(games, redis_client, gid, MAIN, rollouts, "full")["total"]
    before = dict(redis_client.hgetall(results.key(MAIN)))
    assert 0 < len(before) < total, "the kill should land mid-analysis"
    assert enqueue_analysis(games, redis_client, queue, gid, MAIN, rollouts, "full") >= 1
    run_burst_worker(url)
    after = redis_client.hgetall(results.key(MAIN))
    assert len(after) == total
    assert all(after[seq] == raw for seq, raw in before.items()), "a stored result was overwritten"
    for field in list(after)[:4]:
        seq = int(field.split()[0])
        direct = _direct(games, redis_client, gid, MAIN, seq, rollouts)
        assert results.get_many(games.branches(gid), MAIN, [_position(games, gid, MAIN, seq)])[seq] == direct


def test_marks_follow_the_documented_loss_thresholds():
    assert [mark_for(x) for x in (None, 0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 0.9)] == [
        None, None, None, "?!", "?!", "?", "?", "??", "??"]


def test_ludolog_analyze_shows_progress_and_finishes_with_a_worker_running(games, redis_server, redis_client):
    gid = _pig_game(games)
    worker = start_worker(redis_server.url, "--no-reconcile")
    try:
        done = subprocess.run([sys.executable, "-m", "ludolog.cli", "analyze", gid, "--rollouts", "6", "--timeout", "90"],
                              cwd=ROOT, capture_output=True, text=True, env=ludolog_env(redis_server.url), timeout=PATIENCE_SECONDS)
    finally:
        kill_with_work_horses(worker)
    assert done.returncode == 0, done.stdout + done.stderr
    total = report(games, redis_client, gid, MAIN, 6, "full")["total"]
    # Progress goes to standard error (lines, as it is no terminal here); the summary to standard output.
    assert f"analysing {gid}/main: {total} of {total} decisions (100 %)" in done.stderr
    assert f"{total} decisions analysed" in done.stdout


def test_ludolog_analyze_names_an_unknown_game(redis_server):
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "analyze", "nosuchgame", "--timeout", "1"], cwd=ROOT,
                          capture_output=True, text=True, env=ludolog_env(redis_server.url), timeout=PATIENCE_SECONDS)
    assert done.returncode != 0 and "nosuchgame" in done.stderr


def test_a_game_naming_verdict_settings_is_stored_and_reported_under_a_search_version_of_its_own(
        games, redis_client, monkeypatch):
    """Amerigo's, Entdecker's and Puerto Rico's verdicts carry the search version followed by their own settings
    (engine.analysis.search_version), so they never read verdicts judged with another method; a game naming none keeps
    the search version and its stored verdicts."""
    from engine.analysis import SEARCH_VERSION
    from service.games.analysis import analysis_version

    gid = _pig_game(games, seed=3)
    plain = stored_results(redis_client, games.game(gid), 10, "full")
    assert analysis_version("pig") == SEARCH_VERSION and plain.key(MAIN) == AnalysisResults(
        redis_client, gid, "1", 10, "full", search_version=SEARCH_VERSION).key(MAIN)
    assert report(games, redis_client, gid, MAIN, 10, "full")["search_version"] == SEARCH_VERSION
    pig = get_rules("pig")
    monkeypatch.setattr(pig, "declaration", dataclasses.replace(pig.declaration, analysis_verdict={"decide_samples_factor": 4}))
    own = SEARCH_VERSION + "+decide_samples_factor=4"
    assert analysis_version("pig") == own
    assert report(games, redis_client, gid, MAIN, 10, "full")["search_version"] == own
    mine = stored_results(redis_client, games.game(gid), 10, "full")
    assert mine.key(MAIN) != plain.key(MAIN) and own in mine.key(MAIN)
    assert analysis_version("amerigo") != SEARCH_VERSION != analysis_version("entdecker")
    assert analysis_version("puerto_rico") == SEARCH_VERSION + "+win_half_width=0.05"
    assert analysis_version("golden_city") == SEARCH_VERSION
