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
