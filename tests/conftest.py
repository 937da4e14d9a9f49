"""Shared fixtures: the test-only game is registered for every test session."""

from __future__ import annotations

import pathlib

import pytest
import redis

import engine
from service.runtime.redis_server import EmbeddedRedis
from tests.games.pig import PIG

engine.register(PIG, listed=False)  # playable by name in tests, offered by no page or demo


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedRedis:
    """One real redis-server (the embedded one) for the whole test session of this process.

    Under pytest-xdist each worker process has its own session, so its own server on its own free port
    and data directory (tmp_path_factory's folder is per worker): tests running at once never share data."""
    server = EmbeddedRedis(pathlib.Path(tmp_path_factory.mktemp("redis")))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server: EmbeddedRedis) -> redis.Redis:
    """A client on an emptied database: each test starts from nothing."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    yield client
    client.close()


#: Tests that take minutes each (a whole game played by two browsers and the engine: issue 33): collected first, so
#: that the test process given the head of the collection plays them one after another from the start while the
#: others share the rest. Collected where they stand (near the end), they fell to one process after most of the suite
#: had run, and the suite waited for them alone for about four minutes.
LONG_FIRST = ("tests/ui/test_play_together.py::",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move :data:`LONG_FIRST`'s tests to the head of the collection, keeping every other test's order."""
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))
