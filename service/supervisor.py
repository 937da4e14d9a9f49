"""``ludolog serve``: the whole service on one machine, for `make run`.

Starts the embedded Redis (unless LUDOLOG_REDIS_URL names a server), an RQ worker and
gunicorn as child processes, loads the demo games, prints the address, and on Ctrl-C
(or SIGTERM) stops every child in order: web first, then the worker, then Redis.
Children run in their own sessions so that a Ctrl-C reaches only this process, which
then stops them in that order instead of all at once.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from service.config import ROOT, Config
from service.redis_server import EmbeddedRedis


def _raise_keyboard_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class Supervisor:
    """Owns the child processes of ``ludolog serve``."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.redis: EmbeddedRedis | None = None
        self.children: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.stopping = False

    def child_env(self, redis_url: str) -> dict[str, str]:
        """The environment every child gets: the store's address, one secret key, our settings."""
        return {**os.environ, "LUDOLOG_REDIS_URL": redis_url, "LUDOLOG_SECRET_KEY": self.secret_key(), "PYTHONUNBUFFERED": "1"}

    def secret_key(self) -> str:
        """LUDOLOG_SECRET_KEY, or one kept in the data directory so that sign-ins survive a restart.

        Every gunicorn worker must share it, or a session cookie signed by one is refused by another.
        """
        if self.config.secret_key:
            return self.config.secret_key
        path = Path(self.config.data_dir) / "secret_key"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip()

    def start_redis(self) -> str:
        """The event store's URL, starting the embedded server if none is configured."""
        if self.config.redis_url:
            return self.config.redis_url
        self.redis = EmbeddedRedis(Path(self.config.data_dir) / "redis", self.config.redis_port).start()
        print(f"ludolog: embedded Redis on {self.redis.url} (data and AOF in {self.redis.data_dir})", flush=True)
        return self.redis.url

    def spawn(self, name: str, args: list[str], env: dict[str, str]) -> None:
        """Start one child in its own session."""
        process = subprocess.Popen(args, env=env, cwd=ROOT, start_new_session=True)
        self.children.append((name, process))

    def wait_for_web(self, timeout: float = 30.0) -> None:
        """Block until /healthz answers."""
        url = f"http://{self.config.host}:{self.config.port}/healthz"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_children()
            try:
                with urllib.request.urlopen(url, timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the web server did not answer {url} within {timeout:.0f} s")

    def check_children(self) -> None:
        """Raise if a child died on its own."""
        for name, process in self.children:
            if process.poll() is not None and not self.stopping:
                raise RuntimeError(f"{name} exited with code {process.returncode}")

    def stop(self) -> None:
        """Stop the children (web, then worker), then Redis; each gets 10 s before SIGKILL."""
        self.stopping = True
        for name, process in reversed(self.children):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    print(f"ludolog: {name} did not stop in 10 s: killed", flush=True)
                    process.kill()
                    process.wait()
        if self.redis:
            self.redis.stop()
        print("ludolog: stopped", flush=True)

    def run(self) -> int:
        """Start everything and supervise until interrupted; returns the exit code."""
        # Explicit handlers: a shell starting us in the background may have set SIGINT to "ignore",
        # which Python would otherwise inherit, and SIGTERM must stop us as cleanly as Ctrl-C.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
        try:
            env = self.child_env(self.start_redis())
            self.spawn("worker", [sys.executable, "-m", "service.cli", "worker"], env)
            self.spawn("web", [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                               "service.app:create_app()"], env)
            subprocess.run([sys.executable, "-m", "service.cli", "demo"], env=env, cwd=ROOT, check=True)
            self.wait_for_web()
            print(f"ludolog: serving at http://{self.config.host}:{self.config.port}  (Ctrl-C stops everything)", flush=True)
            while True:
                self.check_children()
                time.sleep(0.5)
        except KeyboardInterrupt:
            return 0
        except (RuntimeError, subprocess.CalledProcessError) as exc:
            print(f"ludolog: {exc}", file=sys.stderr, flush=True)
            return 1
        finally:
            self.stop()
