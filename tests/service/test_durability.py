"""Acknowledged means on disk: a crash of Redis loses no append the store answered.

A real redis-server, started with the default settings (``appendfsync always``), is killed
with SIGKILL while several writers append through the store's Lua script (each to its own
game), then restarted on the same data directory: every append that was answered is there,
with no gap.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
import redis

from engine import Setup, action_event
from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN, GameStore
from tests.helpers import PATIENCE_SECONDS, ROOT

WRITERS = 4


def _append_until_stopped(store: GameStore, gid: str, acknowledged: list[int], stop: threading.Event) -> None:
    """Append one event at a time; record each seq Redis acknowledged."""
    head = 1
    while not stop.is_set():
        try:
            head = store.append(gid, MAIN, [action_event(0, 0, "roll")], head).last_seq
        except redis.exceptions.RedisError:
            return  # the server is gone
        acknowledged.append(head)


@pytest.mark.slow  # durability under a real SIGKILL: the slow tier
def test_sigkill_during_a_burst_of_appends_loses_no_acknowledged_one(tmp_path, monkeypatch):
    monkeypatch.delenv("LUDOLOG_FSYNC", raising=False)
    server = EmbeddedRedis(tmp_path).start()  # the defaults, as `make run` starts it
    client = redis.Redis.from_url(server.url, socket_timeout=5)
    assert client.config_get("appendfsync") == {"appendfsync": "always"}
    store = GameStore(client)
    gids = [store.create_game("pig", "1", Setup(("A", "B")), owner="ann").id for _ in range(WRITERS)]
    acknowledged: dict[str, list[int]] = {gid: [] for gid in gids}
    stop = threading.Event()
    writers = [threading.Thread(target=_append_until_stopped, args=(store, gid, acknowledged[gid], stop)) for gid in gids]
    for writer in writers:
        writer.start()
    deadline = time.monotonic() + PATIENCE_SECONDS
    while sum(map(len, acknowledged.values())) < 800 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # mid-burst: the writers are still appending
    stop.set()
    for writer in writers:
        writer.join(10)
    assert all(len(seqs) >= 50 for seqs in acknowledged.values()), {gid: len(s) for gid, s in acknowledged.items()}

    restarted = EmbeddedRedis(tmp_path, server.port).start()
    try:
        after = GameStore(redis.Redis.from_url(restarted.url))
        for gid in gids:
            stored = [e.seq for e in after.events(gid, MAIN)]
            assert stored == list(range(1, len(stored) + 1)), "no gap"
            lost = sorted(set(acknowledged[gid]) - set(stored))
            assert not lost, f"game {gid}: {len(lost)} acknowledged appends lost: {lost[:10]}"
            assert after.head(gid, MAIN) == stored[-1]
    finally:
        restarted.stop()


def test_the_embedded_server_runs_with_aof_and_fsync_always(redis_server):
    config = redis.Redis.from_url(redis_server.url).config_get("append*")
    assert config["appendonly"] == "yes" and config["appendfsync"] == "always"


def test_ludolog_fsync_everysec_is_the_explicit_opt_out(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDOLOG_FSYNC", "everysec")
    with EmbeddedRedis(tmp_path) as server:
        assert redis.Redis.from_url(server.url).config_get("appendfsync") == {"appendfsync": "everysec"}


def test_an_unknown_fsync_policy_is_refused_before_redis_starts(tmp_path):
    code = "from service.runtime.redis_server import EmbeddedRedis; import sys; EmbeddedRedis(sys.argv[1])"
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE_SECONDS,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "LUDOLOG_FSYNC": "no"})
    assert done.returncode != 0
    assert "LUDOLOG_FSYNC='no': expected one of always, everysec" in done.stderr


@pytest.mark.parametrize("policy", ["always", "everysec"])
def test_an_explicit_policy_wins_over_the_environment(tmp_path, monkeypatch, policy):
    monkeypatch.setenv("LUDOLOG_FSYNC", "everysec" if policy == "always" else "always")
    assert EmbeddedRedis(tmp_path, appendfsync=policy).appendfsync == policy
