"""Under `ludolog serve`, a crashed child is restarted and the service heals itself.

Issue 12, item 3: "SIGKILL the worker, then redis-server, under `ludolog serve`; the service
answers `200 /healthz` again within 15 s each time and no acknowledged event is lost", and
"/healthz counts only live workers (dead worker registrations are cleaned up)".

Issue 45, item 8: "no child outlives its worker or `ludolog serve` (SIGKILL of a worker leaves nothing behind
within a few seconds; Ctrl-C stops every process it started); a worker whose Redis goes away waits for it, as
the README says, and says so in one line."
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.service.serving import Serve, children_of, command_of, is_alive

#: The slow tier (`make test` runs it, `make check` leaves it out): real faults under `ludolog serve`, waiting for it
#: to heal.
pytestmark = pytest.mark.slow

HEAL_SECONDS = 15


def worker_pid(serve: Serve) -> int:
    """The pid of the `ludolog worker` that serve runs (its direct child, not RQ's work horse)."""
    direct = map(int, Path(f"/proc/{serve.process.pid}/task/{serve.process.pid}/children").read_text().split())
    pids = [pid for pid in direct if "ludolog.cli worker" in command_of(pid)]
    assert len(pids) == 1, [command_of(pid) for pid in pids]
    return pids[0]


def play_moves(serve: Serve, gid: str, token: str, count: int) -> list[dict[str, Any]]:
    """Play ``count`` legal moves through the API; returns every event answered 201 (acknowledged)."""
    acknowledged: list[dict[str, Any]] = []
    for _ in range(count):
        status, legal, _ = serve.request(f"/api/games/{gid}/branches/main/legal", token=token)
        assert status == 200, legal
        body = {"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]}
        status, result, _ = serve.request(f"/api/games/{gid}/branches/main/actions", body, token=token)
        assert status == 201, result
        acknowledged += result["events"]
    return acknowledged


def stored_events(serve: Serve, gid: str) -> dict[int, str | None]:
    """seq -> action of every event of the main branch, read back through the API."""
    status, body, _ = serve.request(f"/api/games/{gid}/branches/main/events?limit=1000")
    assert status == 200, body
    return {event["seq"]: event["action"] for event in body["events"]}


def wait_unhealthy_or_back(serve: Serve, timeout: float = 5) -> None:
    """Give the kill a moment to be noticed (it may heal before we look: that is fine too)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and serve.health()[0] == 200:
        time.sleep(0.1)


def test_a_killed_worker_then_a_killed_redis_are_restarted_and_no_acknowledged_event_is_lost(tmp_path):
    with Serve(tmp_path) as serve:
        serve.ready()
        token = serve.ludolog("user", "add", "alice", "--bare").stdout.strip()
        status, created, _ = serve.request("/api/games", {"game": "puerto_rico", "players": ["Anna", "Ben", "Cy"]},
                                           token=token)
        assert status == 201, created
        gid = created["id"]
        acknowledged = play_moves(serve, gid, token, 5)

        started = children_of(serve.process.pid)  # the worker's scheduler among them
        killed_at = time.monotonic()
        os.kill(worker_pid(serve), signal.SIGKILL)
        # Until the supervisor has seen the death, the old worker may still look alive to /healthz.
        serve.wait_for("worker exited (signal SIGKILL)", timeout=HEAL_SECONDS)
        serve.wait_for("worker restarted", timeout=HEAL_SECONDS)
        serve.wait_healthy(HEAL_SECONDS - (time.monotonic() - killed_at))
        healed = time.monotonic() - killed_at
        assert serve.health()[1]["workers"] == 1, "the killed worker's registration is not counted"
        left = [(pid, command_of(pid)) for pid in started - children_of(serve.process.pid) if is_alive(pid)]
        assert left == [], f"the killed worker's children outlived it: {left}"
        acknowledged += play_moves(serve, gid, token, 5)
        started |= children_of(serve.process.pid)

        redis_pid = int(serve.store().info("server")["process_id"])
        os.kill(redis_pid, signal.SIGKILL)
        wait_unhealthy_or_back(serve)
        healed_redis = serve.wait_healthy(HEAL_SECONDS)
        serve.wait_for("redis exited (signal SIGKILL)", timeout=5)
        assert int(serve.store().info("server")["process_id"]) != redis_pid
        acknowledged += play_moves(serve, gid, token, 5)

        stored = stored_events(serve, gid)
        lost = [e for e in acknowledged if stored.get(e["seq"]) != e["action"]]
        assert lost == [], f"acknowledged events lost: {lost}"
        assert serve.process.poll() is None
        # The worker waited for Redis (one line) instead of exiting and being restarted.
        assert len([line for line in serve.lines if "worker exited" in line]) == 1, "\n".join(serve.supervisor_lines())
        assert len([line for line in serve.lines if line.startswith("ludolog worker: lost the store")]) == 1, serve.output
        print(f"healthy again {healed:.1f} s after the worker's kill, {healed_redis:.1f} s after Redis's")

        started |= children_of(serve.process.pid)
        assert serve.stop() == 0
        time.sleep(0.5)
        assert [(pid, command_of(pid)) for pid in started if is_alive(pid)] == [], "Ctrl-C stops every process"
        assert serve.supervisor_lines()[-1] == "ludolog: stopped"
        assert "Traceback" not in serve.output, serve.output
