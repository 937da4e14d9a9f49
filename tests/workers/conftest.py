"""Fixtures of the worker tests: real ``ludolog worker`` processes."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator

import pytest

from tests.helpers import started_workers


@pytest.fixture
def workers(redis_server) -> Iterator[Callable[..., subprocess.Popen]]:
    """Start real ``ludolog worker`` processes; every one still running is killed (with its children) at the end."""
    with started_workers(redis_server.url, "--no-reconcile") as start:
        yield start
