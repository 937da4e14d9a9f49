"""Fixtures of the service tests that start and kill real processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.runtime.redis_server import EmbeddedRedis


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A redis-server of the test's own: the test may kill it, and its command counts are the test's alone."""
    running = EmbeddedRedis(tmp_path / "redis").start()
    yield running
    running.stop()
