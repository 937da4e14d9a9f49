"""`ludolog worker` as a process: nothing it forks outlives it, and it waits for its store (issue 45, item 8).

"Processes behave: no child outlives its worker or `ludolog serve` (SIGKILL of a worker leaves nothing behind
within a few seconds; Ctrl-C stops every process it started); a worker whose Redis goes away waits for it, as
the README says, and says so in one line."

A real worker in a subprocess, on a real redis-server that the tests kill (SIGKILL) and start again on the same
port and data. The jobs are plain functions of the standard library (``time.sleep``, ``os.getpid``): what is
tested is the process, not a job.
"""

from __future__ import annotations

import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from contextlib import suppress
from pathlib import Path
from typing import IO

import redis
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from service.runtime.redis_server import EmbeddedRedis
from tests.helpers import PATIENCE_SECONDS, ROOT, wait_until
from tests.service.serving import children_of, clean_env, command_of, is_alive

#: The smallest pipe Linux makes (a page): what a slow reader's worker fills first.
PIPE_PAGE = 4096
#: Looks 0.1 s apart at a full pipe that did not change: the writer waits (it writes a line a second).
STILL_LOOKS = 30
#: An idle worker stops within its upkeep's interval (1 s here) of SIGTERM: this is ample.
STOP_SECONDS = 60
#: The queue of imports and folds (LUDOLOG_QUEUE's default), which every worker takes first.
QUEUE = "ludolog"


class Worker:
    """``ludolog worker --no-reconcile`` on ``server``, its output collected line by line (from :meth:`read` on)."""

    def __init__(self, server: EmbeddedRedis, data_dir: Path, *, reading: bool = True) -> None:
        env = clean_env(LUDOLOG_REDIS_URL=server.url, LUDOLOG_DATA_DIR=str(data_dir), LUDOLOG_HEAL_EVERY="1")
        self.process = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "worker", "--no-reconcile"], cwd=ROOT,
                                        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        if reading:
            self.read()

    def read(self) -> None:
        """Collect its output from now on (a worker started with ``reading=False`` writes until its pipe is full)."""
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self) -> None:
        assert self.process.stdout
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        """Everything it printed so far."""
        return "\n".join(self.lines)

    def wait_for(self, text: str, timeout: float = 60) -> None:
        """Wait until a line contains ``text``."""
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            assert self.process.poll() is None, f"the worker exited ({self.process.returncode}):\n{self.output}"
            assert time.monotonic() < deadline, f"no line with {text!r} within {timeout} s:\n{self.output}"
            time.sleep(0.1)

    def stop(self) -> None:
        """SIGTERM, as a supervisor stops it; SIGKILL if it has not stopped after the suite's patience."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(PATIENCE_SECONDS)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def queue(server: EmbeddedRedis) -> Queue:
    """The worker's first queue, as the service enqueues into it (JSON)."""
    return Queue(QUEUE, connection=redis.Redis.from_url(server.url), serializer=JSONSerializer)


def test_a_killed_worker_leaves_neither_its_scheduler_nor_a_working_horse_behind(own_redis: EmbeddedRedis, tmp_path: Path):
    worker = Worker(own_redis, tmp_path)
    try:
        worker.wait_for("Scheduler for")
        queue(own_redis).enqueue("time.sleep", 120)
        # The horse runs the job in a process group of its own; the scheduler is a multiprocessing child.
        wait_until(lambda: len(children_of(worker.process.pid)) >= 2, "the scheduler and a work horse")
        children = children_of(worker.process.pid)
        worker.process.kill()
        worker.process.wait()
        wait_until(lambda: not [pid for pid in children if is_alive(pid)],
                   f"every child of the killed worker gone within 5 s: {[(pid, command_of(pid)) for pid in children]}", 5)
    finally:
        worker.stop()
        for pid in children_of(os.getpid()) - {worker.process.pid}:
            if "ludolog.cli worker" in command_of(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_worker_waits_for_its_killed_redis_in_one_line_and_works_on_when_it_is_back(own_redis: EmbeddedRedis,
                                                                                        tmp_path: Path):
    worker = Worker(own_redis, tmp_path)
    try:
        worker.wait_for("Scheduler for")
        job = queue(own_redis).enqueue("os.getpid")
        wait_until(lambda: job.get_status(refresh=True) == "finished", "a first job done")
        own_redis.kill()
        worker.wait_for("waiting for it", timeout=30)
        time.sleep(4)  # several rounds of upkeep (LUDOLOG_HEAL_EVERY=1) and of RQ's scheduler while the store is away
        assert worker.process.poll() is None, worker.output
        own_redis.start()
        worker.wait_for("store back after", timeout=30)
        job = queue(own_redis).enqueue("os.getpid")
        wait_until(lambda: job.get_status(refresh=True) == "finished", "a job done after the outage")
        assert Job.fetch(job.id, connection=redis.Redis.from_url(own_redis.url), serializer=JSONSerializer).return_value()
        assert worker.process.poll() is None, "the same worker went on"
        waiting = [line for line in worker.lines if "lost the store" in line]
        assert len(waiting) == 1 and waiting[0].startswith("ludolog worker: lost the store at redis://"), worker.output
        assert waiting[0].endswith("waiting for it"), waiting
        assert "Traceback" not in worker.output and "could not connect" not in worker.output, worker.output
    finally:
        worker.stop()
    assert worker.process.returncode == 0, worker.output
    assert "Traceback" not in worker.output, worker.output


def bytes_waiting_in(pipe: IO[str]) -> int:
    """How many bytes the writer put into ``pipe`` that nobody has read yet."""
    return struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]


def test_a_worker_asked_to_stop_while_it_writes_a_line_stops_without_a_traceback(own_redis: EmbeddedRedis, tmp_path: Path):
    """Its SIGTERM arrives while a log line is being written (the reader of its output is slow): it stops all the same.

    RQ stops an idle worker by raising an exception from the signal handler. Raised inside a log line's write, logging
    caught it (and printed a traceback), and the worker ran on, cleaning its registries every second, until a CI run's
    patience (900 s) ran out and SIGKILL ended it.
    """
    worker = Worker(own_redis, tmp_path, reading=False)
    assert worker.process.stdout
    fcntl.fcntl(worker.process.stdout.fileno(), fcntl.F_SETPIPE_SZ, PIPE_PAGE)  # a page fills in seconds, not minutes
    try:
        sizes: list[int] = []

        def blocked_writing() -> bool:
            sizes.append(bytes_waiting_in(worker.process.stdout))  # type: ignore[arg-type]  # asserted above
            return len(sizes) > STILL_LOOKS and len(set(sizes[-STILL_LOOKS:])) == 1 and sizes[-1] > PIPE_PAGE // 2

        # It logs a line a second or more (LUDOLOG_HEAL_EVERY=1): a pipe that stays full for 3 s has it waiting in a write.
        wait_until(blocked_writing, "the worker blocked writing into its full pipe", every=0.1)
        worker.process.terminate()
        time.sleep(0.5)  # the signal is there before the write can end
        worker.read()
        with suppress(subprocess.TimeoutExpired):
            worker.process.wait(STOP_SECONDS)
        assert worker.process.poll() == 0, f"still running {STOP_SECONDS} s after SIGTERM (or failed):\n{worker.output}"
    finally:
        worker.stop()
    assert "Traceback" not in worker.output and "Logging error" not in worker.output, worker.output
