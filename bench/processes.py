"""The service's own processes as the benches run them: ``ludolog`` commands and workers against a bench's Redis.

Shared by the suites that drive real processes (:mod:`bench.queue`, :mod:`bench.end_to_end`, :mod:`bench.live`,
:mod:`bench.live_page`, :mod:`bench.store`): gunicorn of ``deploy/`` serving the app (with a Redis of its own:
:func:`served`), the environment that points a ``ludolog`` command at the bench's Redis, a worker started and stopped
the way an operator does (its resource usage kept, for the suites that report CPU time), waiting with a deadline, and
the process tree under a process (``/proc``), so that a suite can tell that nothing it started is left running.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis

from service.runtime.config import ROOT
from service.runtime.redis_server import EmbeddedRedis, free_port
from service.store.users import UserStore

#: ``python -m ludolog.cli``: the ``ludolog`` command of this checkout, whatever the PATH holds.
LUDOLOG = (sys.executable, "-m", "ludolog.cli")


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 600, *, suite: str = "bench") -> None:
    """Poll ``condition`` until it holds; a RuntimeError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{suite}: timed out waiting for {what}")
        time.sleep(0.02)


def service_env(redis_url: str, queue: str, data_dir: Path | None = None) -> dict[str, str]:
    """The environment of a ``ludolog`` command working on the bench's Redis and queue (and data directory)."""
    env = {**os.environ, "LUDOLOG_REDIS_URL": redis_url, "LUDOLOG_QUEUE": queue, "PYTHONPATH": str(ROOT)}
    if data_dir is not None:
        env["LUDOLOG_DATA_DIR"] = str(data_dir)
    return env


def start_worker(redis_url: str, queue: str, *, data_dir: Path | None = None, log: Path | None = None) -> subprocess.Popen[bytes]:
    """``ludolog worker --no-reconcile`` on the bench's Redis; its output to ``log`` (or nowhere)."""
    with log.open("wb") if log is not None else open(os.devnull, "wb") as output:  # the child keeps its own copy
        return subprocess.Popen([*LUDOLOG, "worker", "--no-reconcile"], cwd=ROOT, env=service_env(redis_url, queue, data_dir),
                                stdout=output, stderr=subprocess.STDOUT)


def exit_code(process: subprocess.Popen[bytes]) -> int | None:
    """``process``'s exit code once it has exited (minus the signal's number when a signal killed it), None while it
    runs; it is not reaped, so that :func:`stop_worker` can still read its resource usage."""
    if process.returncode is not None:
        return process.returncode
    try:
        info = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:  # reaped by someone else: gone all the same, its code with it
        return 0
    if info is None:
        return None
    return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status


def has_exited(process: subprocess.Popen[bytes]) -> bool:
    """Whether ``process`` has exited (without reaping it: see :func:`exit_code`)."""
    return exit_code(process) is not None


def stop_worker(worker: subprocess.Popen[bytes], timeout: float = 15) -> resource.struct_rusage | None:
    """Stop a worker with RQ's cold shutdown (a second SIGTERM makes it kill the job in hand and exit), SIGKILL after
    ``timeout`` seconds; reap it and return its resource usage, its reaped work horses and scheduler included (None
    when it had been reaped before)."""
    if worker.returncode is not None:
        return None
    for _ in range(2):
        if not has_exited(worker):
            os.kill(worker.pid, signal.SIGTERM)
            time.sleep(0.3)
    deadline = time.monotonic() + timeout
    while not has_exited(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    if not has_exited(worker):
        os.kill(worker.pid, signal.SIGKILL)
    _, status, usage = os.wait4(worker.pid, 0)
    worker.returncode = os.waitstatus_to_exitcode(status)
    return usage


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (none when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(part) for part in text.split()]


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    found: set[int] = set()
    todo = children(pid)
    while todo:
        child = todo.pop()
        if child not in found:
            found.add(child)
            todo += children(child)
    return found


def is_running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def processes_mentioning(text: str) -> set[int]:
    """Running processes (other than this one) whose command line or environment contains ``text``: a suite's
    processes found by its temporary directory, even those that lost their parent (Linux lets a user read the
    environment of their own processes only, which are the ones a suite starts)."""
    needle = text.encode()
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        for part in ("cmdline", "environ"):
            try:
                if needle in (entry / part).read_bytes():
                    found.add(int(entry.name))
                    break
            except OSError:
                continue
    return {pid for pid in found if is_running(pid)}


class Gunicorn:
    """gunicorn of ``deploy/`` (its config, 2 web processes) serving the app against a bench's Redis on a free port."""

    def __init__(self, redis_url: str, env: dict[str, str] | None = None, start_timeout: float = 60) -> None:
        self.port = free_port()
        full_env = {**os.environ, "LUDOLOG_REDIS_URL": redis_url, "LUDOLOG_PORT": str(self.port),
                    "LUDOLOG_WEB_WORKERS": "2", **(env or {})}
        self.process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                                         "--access-logfile", "/dev/null"], cwd=ROOT, env=full_env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + start_timeout
        while time.monotonic() < deadline:
            try:
                self.request("GET", "/healthz")
                return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not start")

    def request(self, method: str, path: str, body: Any = None, token: str | None = None,
                conn: http.client.HTTPConnection | None = None) -> tuple[int, Any]:
        """One request (on ``conn`` if given, kept open); (status, parsed JSON, or the length of any other body)."""
        own = conn is None
        conn = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        if own:
            conn.close()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw or b"null") if kind.startswith("application/json") else len(raw)

    def resident_mb(self) -> float:
        """Resident memory of the web processes (gunicorn's master and its workers), in MB."""
        total = 0
        for pid in [self.process.pid, *children(self.process.pid)]:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            found = re.search(r"VmRSS:\s+(\d+) kB", status)
            total += int(found.group(1)) if found else 0
        return total / 1024

    def stop(self) -> None:
        """Stop gunicorn (killed if it does not stop within 30 s)."""
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@contextmanager
def served(prefix: str, env: dict[str, str] | None = None) -> Iterator[tuple[Gunicorn, str]]:
    """An embedded Redis in a temporary directory (named ``prefix``…) and gunicorn of ``deploy/`` serving it (with
    ``env`` besides), with a user ``bench``: (the web server, that user's API token). Both are stopped, and the
    directory removed, after."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp, EmbeddedRedis(Path(tmp) / "redis") as server:
        token = UserStore(redis.Redis.from_url(server.url)).add("bench")
        web = Gunicorn(server.url, {"LUDOLOG_SECRET_KEY": secrets.token_hex(32), "LUDOLOG_LOG_LEVEL": "warning",
                                    **(env or {})})
        try:
            yield web, token
        finally:
            web.stop()
