"""A real ``ludolog serve`` in a subprocess, for the tests of start-up, supervision and the command line.

It runs on free ports with its own data directory and an environment without the caller's
LUDOLOG_* settings; its output (the supervisor's lines, gunicorn's and the worker's logs) is
collected by a thread so that a test can wait for a line.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import redis

from bench.restart import fill, rewrite_aof
from service.runtime.redis_server import EmbeddedRedis, free_ports, write_private
from tests.helpers import PATIENCE_SECONDS, ROOT

#: The console script `make install` puts next to the interpreter: the README's `ludolog`.
LUDOLOG = str(Path(sys.executable).with_name("ludolog"))


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any LUDOLOG_* setting of the caller, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDOLOG_")}
    return env | {"PYTHONPATH": str(ROOT)} | extra


class Serve:
    """``ludolog serve`` on free ports with ``data_dir``; use as a context manager."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.data_dir = Path(data_dir)
        self.port, self.redis_port = free_ports(2)
        self.env = clean_env(LUDOLOG_DATA_DIR=str(self.data_dir), LUDOLOG_PORT=str(self.port),
                             LUDOLOG_REDIS_PORT=str(self.redis_port), **env)
        self.lines: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    def __enter__(self) -> Serve:
        self.process = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "serve"], cwd=ROOT, env=self.env,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._collect, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _collect(self) -> None:
        assert self.process and self.process.stdout
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def output(self) -> str:
        """Everything it printed so far."""
        return "\n".join(self.lines)

    def supervisor_lines(self) -> list[str]:
        """Only the supervisor's own lines (and the start-up steps'), without gunicorn's and RQ's logs."""
        return [line for line in self.lines if line.startswith(("ludolog:", "demo:", "reconciled"))]

    def wait_for(self, text: str, timeout: float = PATIENCE_SECONDS, after: int = 0) -> int:
        """Wait until a line (from index ``after`` on) contains ``text``; returns its index."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for index in range(after, len(self.lines)):
                if text in self.lines[index]:
                    return index
            if self.process and self.process.poll() is not None and not any(text in line for line in self.lines[after:]):
                time.sleep(0.5)  # let the reader thread catch up with the last lines
                if not any(text in line for line in self.lines[after:]):
                    raise AssertionError(f"serve exited ({self.process.returncode}) before {text!r}:\n{self.output[-6000:]}")
            time.sleep(0.1)
        raise AssertionError(f"no line with {text!r} within {timeout} s:\n" + "\n".join(self.supervisor_lines()))

    def ready(self, timeout: float = PATIENCE_SECONDS) -> Serve:
        """Wait until it serves and its start-up steps are done."""
        self.wait_for("serving at", timeout)
        self.wait_for("start-up steps done", timeout)
        return self

    def url(self, path: str) -> str:
        """http://127.0.0.1:port/path."""
        return f"http://127.0.0.1:{self.port}{path}"

    def request(self, path: str, body: Any = None, token: str | None = None,
                timeout: float = 10) -> tuple[int, Any, dict[str, str]]:
        """(status, parsed JSON or None, headers) of a GET, or a POST when ``body`` is given."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url(path), data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"null"), dict(answer.headers)
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = raw.decode(errors="replace")
            return error.code, parsed, dict(error.headers)

    def health(self, timeout: float = 10) -> tuple[int, Any]:
        """/healthz's status and body, (0, reason) when nothing answers."""
        try:
            status, body, _ = self.request("/healthz", timeout=timeout)
        except OSError as exc:
            return 0, str(exc)
        return status, body

    def wait_healthy(self, timeout: float) -> float:
        """Seconds until /healthz answers 200 with a live worker; fails after ``timeout``."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            status, body = self.health()
            if status == 200 and body.get("workers"):
                return time.monotonic() - started
            time.sleep(0.2)
        raise AssertionError(f"/healthz not 200 with a worker within {timeout} s: {self.health()}\n"
                             + "\n".join(self.supervisor_lines()))

    def store(self) -> redis.Redis:
        """A client of its embedded Redis, through the URL it left in the data directory."""
        return redis.Redis.from_url((self.data_dir / "redis.url").read_text().strip())

    def ludolog(self, *args: str, timeout: float = PATIENCE_SECONDS, **env: str) -> subprocess.CompletedProcess[str]:
        """Run the `ludolog` console script as a user would (it finds the store through var/redis.url)."""
        return subprocess.run([LUDOLOG, *args], cwd=ROOT, env=clean_env(LUDOLOG_DATA_DIR=str(self.data_dir), **env),
                              capture_output=True, text=True, timeout=timeout)

    def stop(self) -> int | None:
        """Ctrl-C, as a user would; returns its exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def children_of(pid: int) -> set[int]:
    """Every descendant process of ``pid``."""
    found, frontier = set(), [pid]
    while frontier:
        current = frontier.pop()
        try:
            kids = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except FileNotFoundError:
            continue
        for kid in map(int, kids):
            found.add(kid)
            frontier.append(kid)
    return found


def command_of(pid: int) -> str:
    """A process's command line, spaces between the arguments ('' once it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except FileNotFoundError:
        return ""


def is_alive(pid: int) -> bool:
    """True unless the process is gone or a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"


def filled_store(data_dir: Path, games: int, filler_mb: int = 20) -> tuple[str, int]:
    """A data directory whose embedded Redis holds ``games`` games and ``filler_mb`` MB of other keys,
    its AOF rewritten with its RDB preamble. Returns the password (kept where `ludolog serve` looks
    for it) and the number of keys.

    Redis 6.2 answers waiting clients (LOADING, INFO's progress) only between 2 MB chunks of an RDB
    image, so the filler gives the load the size of a real store while the games stay few.
    """
    password = secrets.token_hex(24)
    write_private(data_dir / "redis.password", password)
    server = EmbeddedRedis(data_dir / "redis", password=password).start()
    try:
        client = redis.Redis.from_url(server.url)
        fill(client, games)
        for n in range(filler_mb * 16):
            client.set(f"test:filler:{n}", os.urandom(64 * 1024))
        rewrite_aof(client)
        keys = int(client.dbsize())
    finally:
        server.stop()
    return password, keys
