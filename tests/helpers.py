"""Helpers shared by the service and worker tests."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from bench.processes import is_running
from engine import CHANCE, Event, Setup, action_event, draw_chance, fold, get_rules
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore

ROOT = Path(__file__).resolve().parents[1]
PIG_PLUGIN = "tests.games.pig:PIG"
#: The bound of every wait for real work (a worker's jobs, a server's start, a subprocess's end, a page's move). The
#: suite runs on machines whose speed moves 2.4 times from one day to the next, beside other work (a fresh clone's
#: run once met a machine seven times oversubscribed, and a burst worker was killed at a 120-s bound): a wait ends
#: as soon as its condition holds, so a generous bound costs a passing test nothing, and only a hang reaches it.
PATIENCE_SECONDS = 900.0

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, seconds: float = PATIENCE_SECONDS, every: float = 0.05) -> T:
    """Poll ``condition`` until it returns something truthy, and return that; fail after ``seconds`` saying ``what``
    was awaited (a condition to wait for, never a fixed sleep: the test's outcome must not depend on the machine's
    speed)."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:.0f} s for {what}")
        time.sleep(every)


def run_to_end(args: list[str], what: str, seconds: float = PATIENCE_SECONDS, **options: Any) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(args, capture_output=True, text=True, **options)`` bounded by ``seconds``; fail saying ``what``
    was awaited and what the process had printed if it has not ended by then (a hang, not a slow machine)."""
    try:
        return subprocess.run(args, capture_output=True, text=True, timeout=seconds, **options)
    except subprocess.TimeoutExpired as expired:
        said = (expired.stdout or "") + (expired.stderr or "")
        said = said.decode(errors="replace") if isinstance(said, bytes) else said
        raise AssertionError(f"waited {seconds:.0f} s for {what}; it printed:\n{said[-3000:]}") from expired


def pig_events(count: int, seed: int = 0, players: int = 2):
    """``count`` legal Pig events after game_created, on a game whose target is never reached."""
    rules = get_rules("pig")
    state = rules.initial_state(Setup(tuple(f"P{i}" for i in range(players)), {"target": 10**9}))
    rng, events = random.Random(seed), []
    for seq in range(2, count + 2):
        actor = rules.current_actor(state)
        if actor == CHANCE:
            action = draw_chance(rules.chance_outcomes(state), rng.random())
        else:
            action = rng.choice(rules.legal_actions(state))
        events.append(action_event(seq, actor, action))
        state = rules.apply(state, action)
    return events


def pig_ending_events() -> list[Event]:
    """Events after game_created of a Pig game with target 1 that seat 0 wins at seq 6 (bluffs, roll, a 3, hold)."""
    return [action_event(2, CHANCE, "b1"), action_event(3, CHANCE, "b2"), action_event(4, 0, "roll"),
            action_event(5, CHANCE, "d3"), action_event(6, 0, "hold")]


def make_pig_game(games: GameStore, count: int, *, seed: int = 0, gid: str | None = None) -> str:
    """A stored Pig game with ``count`` events after game_created; returns its id."""
    record = games.create_game("pig", "1", Setup(("P0", "P1"), {"target": 10**9}), owner="ann", gid=gid)
    events = pig_events(count, seed)
    for start in range(0, count, 1000):
        games.append(record.id, MAIN, events[start:start + 1000], 1 + start)
    return record.id


def assert_snapshots_equal_full_folds(games: GameStore, snapshots: SnapshotStore, gid: str, bid: str = MAIN) -> int:
    """Every snapshot of the branch equals folding its events from scratch; returns how many."""
    record = games.game(gid)
    rules = get_rules(record.game)
    events = games.events(gid, bid)
    state, checked, by_seq = rules.initial_state(record.setup), 0, {}
    wanted = set(snapshots.seqs(gid, bid))
    for event in events[1:]:
        state = fold(rules, state, [event], check=False)
        if event.seq in wanted:
            by_seq[event.seq] = json.dumps(rules.dump_state(state), sort_keys=True)
    for seq in wanted:
        stored = snapshots.get(gid, bid, seq)
        assert stored.rules_version == rules.version
        assert json.dumps(stored.state, sort_keys=True) == by_seq[seq], f"snapshot at seq {seq} differs from a full fold"
        checked += 1
    return checked


def ludolog_env(redis_url: str, **extra: str) -> dict[str, str]:
    """Environment for a ludolog child process talking to ``redis_url`` and knowing Pig."""
    return {**os.environ, "LUDOLOG_REDIS_URL": redis_url, "LUDOLOG_GAME_PLUGINS": PIG_PLUGIN,
            "PYTHONPATH": str(ROOT), **extra}


def start_worker(redis_url: str, *args: str, **env: str) -> subprocess.Popen:
    """A real ``ludolog worker`` process in its own session (so its work horse can be killed with it)."""
    return subprocess.Popen([sys.executable, "-m", "ludolog.cli", "worker", *args], cwd=ROOT,
                            env=ludolog_env(redis_url, **env), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@contextmanager
def started_workers(redis_url: str, *args: str, **env: str) -> Iterator[Callable[..., subprocess.Popen]]:
    """``start(*more_args, **more_env)`` starts a real ``ludolog worker`` (``args`` and ``env`` first); every one still
    running when the block ends is killed with its children."""
    started: list[subprocess.Popen] = []

    def start(*more: str, **more_env: str) -> subprocess.Popen:
        process = start_worker(redis_url, *args, *more, **{**env, **more_env})
        started.append(process)
        return process

    try:
        yield start
    finally:
        for process in started:
            if process.poll() is None:
                kill_with_work_horses(process)


def kill_with_work_horses(worker: subprocess.Popen) -> None:
    """SIGKILL a worker and its work horses at once, as a crash of the machine would.

    RQ's work horse calls setsid(), so it is not in the worker's process group: find it (and the worker's
    other children, such as its scheduler) among the worker's children. A worker killed alone leaves them
    running, and an orphan goes on taking jobs from the queue that later tests fill.
    """
    children = open(f"/proc/{worker.pid}/task/{worker.pid}/children").read().split()
    killed = [int(c) for c in children] + [worker.pid]
    for pid in killed:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    worker.wait()
    # A signal is delivered asynchronously: a work horse (not our child, so not waited for above) may still run for a
    # moment after os.kill returns, and write. The kill is done when every killed process is gone or a zombie.
    wait_until(lambda: not any(is_running(pid) for pid in killed), f"the SIGKILLed processes {killed} to be gone",
               every=0.01)
