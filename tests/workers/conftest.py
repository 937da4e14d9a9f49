"""Fixtures of the worker tests: real ``ludolog worker`` processes."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator

import pytest

from tests.helpers import kill_with_work_horses, start_worker


@pytest.fixture
def workers(redis_server) -> Iterator[Callable[..., subprocess.Popen]]:
    """Start real ``ludolog worker`` processes; every one still running is killed (with its children) at the end."""
    started: list[subprocess.Popen] = []

    def start(*args: str, **env: str) -> subprocess.Popen:
        process = start_worker(redis_server.url, "--no-reconcile", *args, **env)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            kill_with_work_horses(process)
