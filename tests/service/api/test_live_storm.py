"""Live streams cannot take the site down (issue 45): against the real gunicorn of deploy/ with its gevent workers,
clients that keep reconnecting never make a web process recycle itself, and one address holds at most its limit of
open streams, refused beyond it with 429 and Retry-After, the count taken atomically however many open at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import redis

from service.runtime.redis_server import EmbeddedRedis
from service.store.users import UserStore
from tests.service.api.sse import Gunicorn, SseClient
from tests.service.api.test_live_stream import new_game

#: Streams one address may hold in :func:`capped`.
LIMIT = 5


@pytest.fixture
def token(redis_client: redis.Redis) -> str:
    """alice's API token."""
    return UserStore(redis_client).add("alice")


@pytest.fixture
def capped(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[Gunicorn]:
    """gunicorn with two gevent workers, each address allowed LIMIT open streams."""
    with Gunicorn(redis_server.url, workers=2, env={"LUDOLOG_STREAMS_PER_ADDRESS": str(LIMIT)}) as running:
        yield running


def opened(server: Gunicorn, path: str) -> SseClient:
    """A stream opened and read up to its first message (its retry hint: it is subscribed by then), or refused."""
    client = SseClient(server.port, path, timeout=30).open()
    if client.status == 200:
        client._read_until(b"retry:")
    return client


def test_reconnecting_streams_never_recycle_a_web_process(redis_server: EmbeddedRedis, redis_client: redis.Redis,
                                                          token: str) -> None:
    """max_requests counts ordinary requests only: 3 × max_requests stream reconnects leave the worker in place."""
    with Gunicorn(redis_server.url, workers=1, env={"LUDOLOG_LOG_LEVEL": "info"},
                  args=("--max-requests", "10", "--max-requests-jitter", "0")) as server:
        gid = new_game(server, token)
        before = server.workers()
        assert len(before) == 1
        for _ in range(30):
            opened(server, f"/api/games/{gid}/branches/main/stream").close()
        assert server.get("/healthz")[0] == 200
        time.sleep(1.0)  # a worker told to recycle stops taking requests at once, and exits when its streams end
        assert server.workers() == before, "the stream reconnects recycled the web process"
    assert "Autorestarting worker" not in server.errors(), "a worker was told to recycle itself"


def test_one_address_holds_at_most_its_limit_of_streams_even_when_they_race(capped: Gunicorn, token: str) -> None:
    gid = new_game(capped, token)
    paths = [f"/api/games/{gid}/branches/main/stream", f"/api/games/{gid}/annotations/stream", "/api/games/stream"]
    results: list[SseClient] = []
    start = threading.Barrier(40)

    def racer(index: int) -> None:
        start.wait()
        results.append(opened(capped, paths[index % len(paths)]))

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    try:
        statuses = sorted(client.status for client in results)
        assert statuses == [200] * LIMIT + [429] * (40 - LIMIT), statuses
        refused = next(client for client in results if client.status == 429)
        assert int(refused.response_headers["retry-after"]) >= 1
        assert "too_many_streams" in refused.body_text()
    finally:
        for client in results:
            client.close()
