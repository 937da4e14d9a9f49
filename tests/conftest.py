"""Shared fixtures: the test-only game is registered for every test session."""

from __future__ import annotations

import os
import pathlib

import pytest
import redis

import engine
from service.runtime.redis_server import EmbeddedRedis
from tests.games.pig import PIG

engine.register(PIG, listed=False)  # playable by name in tests, offered by no page or demo


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``long`` (minutes each) go to the heads of the xdist workers' shares, one after another.

    ``--dist worksteal`` first gives each of the N workers one contiguous share of the collection, in order, and an
    idle worker later takes the back half of a busy one's queue. Left where they are collected, the long tests (the
    four whole games played in browsers) sit together in the last worker's share and run one after another at the
    end of the run, its tail; started first on every worker, they run beside everything else. Every worker computes
    the same order (the controller checks that they collected the same list).
    """
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    long = [item for item in items if item.get_closest_marker("long")]
    if not long or workers < 2:
        items[:] = long + [item for item in items if not item.get_closest_marker("long")]
        return
    rest = [item for item in items if not item.get_closest_marker("long")]
    ordered: list[pytest.Item] = []
    pending = len(items)
    for worker in range(workers):
        share = pending // (workers - worker)  # the share worksteal sends this worker first
        heads = long[worker::workers]
        ordered += heads + rest[:share - len(heads)]
        rest = rest[share - len(heads):]
        pending -= share
    items[:] = ordered + rest


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
