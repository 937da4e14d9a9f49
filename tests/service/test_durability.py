"""With ``appendfsync always``, a crash of Redis loses no acknowledged append.

A real redis-server is killed with SIGKILL while a writer is appending through the
store's Lua script, then restarted on the same data directory.
"""

from __future__ import annotations

import threading
import time

import redis

from engine import Setup, action_event
from service.redis_server import EmbeddedRedis
from service.store.games import MAIN, GameStore


def test_sigkill_after_acknowledged_appends_loses_none_of_them(tmp_path):
    server = EmbeddedRedis(tmp_path, appendfsync="always").start()
    store = GameStore(redis.Redis.from_url(server.url, socket_timeout=2))
    gid = store.create_game("pig", "1", Setup(("A", "B")), owner="ann").id
    acknowledged: list[int] = []
    stop = threading.Event()

    def writer() -> None:
        head = 1
        while not stop.is_set():
            try:
                head = store.append(gid, MAIN, [action_event(0, 0, "roll")], head).last_seq
            except redis.exceptions.RedisError:
                return
            acknowledged.append(head)

    thread = threading.Thread(target=writer)
    thread.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 300 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()
    stop.set()
    thread.join(10)
    assert len(acknowledged) >= 300

    restarted = EmbeddedRedis(tmp_path, server.port, appendfsync="always").start()
    try:
        after = GameStore(redis.Redis.from_url(restarted.url))
        stored = [e.seq for e in after.events(gid, MAIN)]
        assert stored == list(range(1, len(stored) + 1)), "no gap"
        assert set(acknowledged) <= set(stored), "every acknowledged append survived"
        assert after.head(gid, MAIN) == stored[-1]
    finally:
        restarted.stop()


def test_the_embedded_server_runs_with_aof_on(redis_server):
    config = redis.Redis.from_url(redis_server.url).config_get("append*")
    assert config["appendonly"] == "yes" and config["appendfsync"] == "everysec"
