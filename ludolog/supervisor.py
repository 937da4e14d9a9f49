"""``ludolog serve``: the whole service on one machine, for `make run`.

Starts the embedded Redis (unless LUDOLOG_REDIS_URL names a server) and gunicorn at once, so
that the web answers ``503 starting`` while Redis loads its data; then, once the store answers,
an RQ worker (imports and folds first, then analysis: see :mod:`service.jobs`) and the optional
start-up steps (demo games, the snapshot reconciler). It prints the loading progress, supervises
the children and on Ctrl-C (or SIGTERM) stops them in order: web first, then the worker, then Redis.

Supervision: a child that exits on its own is restarted after a back-off that doubles with each
crash in a row (0.5 s up to 10 s), each restart on one line. A child that keeps crashing soon
after it starts (six times in a row, each within 30 s of starting) makes the supervisor give up
with a message that says so. A crashed Redis is restarted first; the worker is only
(re)started once the store answers again, and the web answers 503 meanwhile and recovers by
itself. An optional start-up step that fails is one line of output: the service runs on.

Children run in their own sessions so that a Ctrl-C reaches only this process, which then
stops them in that order instead of all at once. Each session is one process group: once a child
has exited (on its own or stopped), what is left of its group (gunicorn's workers after their master
was killed) is killed with it, so that nothing it started outlives it, nor holds its port against the
restart. What a worker forks into groups of their own (RQ's work horses) the kernel ends with the
worker (:mod:`service.runtime.lifetime`). A second Ctrl-C while stopping is ignored: the stop goes on.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from service.runtime.config import ROOT, Config, check_secret_key
from service.runtime.redis_server import EmbeddedRedis, write_private
from service.store.context import PID_FILE, url_file
from service.store.ready import StoreNotReady, StoreStatus, probe, probe_client, redact

#: Back-off before restarting a crashed child: doubles per crash in a row, from FIRST to MAX seconds.
RESTART_FIRST_DELAY = 0.5
RESTART_MAX_DELAY = 10.0
#: A child that ran this long before exiting starts its count of crashes afresh.
STABLE_AFTER = 30.0
#: Crashes in a row, each soon after starting, before the supervisor gives up.
GIVE_UP_AFTER = 6
#: How often the supervisor looks at its children and the store.
TICK = 0.2
#: The embedded Redis's password, generated on first start.
PASSWORD_FILE = "redis.password"
#: Lines that are already prefixed (the start-up steps' own output), printed as they are.
STEP_OUTPUT = ("ludolog:", "demo:", "reconciled ")

Launch = Callable[[], "subprocess.Popen[bytes]"]


class GaveUp(RuntimeError):
    """A child kept crashing: the supervisor stops everything."""


def _raise_keyboard_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def end_group(process: subprocess.Popen[bytes] | None) -> None:
    """Kill what is left of an exited child's process group (its session: the child started it, as its leader)."""
    if process is None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # nothing left (or a pid reused by another user's group: not ours to touch)


def describe_exit(code: int) -> str:
    """``code 1`` or ``signal SIGKILL``."""
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"code {code}"


@dataclass
class Child:
    """One supervised process: how to launch it, whether it needs a ready store, its crash record."""

    name: str
    launch: Launch
    needs_store: bool
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    restart_at: float | None = 0.0  # when to (re)launch it; None while it runs
    crashes: int = 0

    def exited(self) -> int | None:
        """Its exit code if it was running and has exited."""
        if self.process is None or self.restart_at is not None:
            return None
        return self.process.poll()

    def schedule_restart(self, now: float) -> float:
        """Count the crash and set when to launch again; returns the delay."""
        self.crashes = 1 if now - self.started_at >= STABLE_AFTER else self.crashes + 1
        delay = min(RESTART_FIRST_DELAY * 2 ** (self.crashes - 1), RESTART_MAX_DELAY)
        self.restart_at = now + delay
        return delay

    def start(self, now: float) -> None:
        """Launch it."""
        self.process = self.launch()
        self.started_at = now
        self.restart_at = None


@dataclass
class StartupSteps:
    """The optional steps run once the store is first ready, one after another, in a thread.

    Each is a ``ludolog`` subprocess; a failure is reported in one line and never stops the service.
    """

    steps: list[tuple[str, list[str]]]
    env: dict[str, str]
    current: subprocess.Popen[bytes] | None = None
    done: threading.Event = field(default_factory=threading.Event)
    started: bool = False
    stopping: bool = False

    def start(self) -> None:
        """Run the steps in the background."""
        self.started = True
        threading.Thread(target=self._run, name="ludolog-startup-steps", daemon=True).start()

    def _run(self) -> None:
        for label, args in self.steps:
            if self.stopping:
                break
            self.current = subprocess.Popen([sys.executable, "-m", "ludolog.cli", *args], env=self.env, cwd=ROOT,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            out, err = self.current.communicate()
            if self.stopping:
                break
            for line in out.decode(errors="replace").splitlines():
                say(line)
            if self.current.returncode != 0:
                say(f"{label} failed ({describe_exit(self.current.returncode)}): {last_line(err)}; "
                    "the service runs on without it", error=True)
        self.current = None
        if not self.stopping:
            say("start-up steps done")
        self.done.set()

    def stop(self) -> None:
        """Stop the step that is running, if any."""
        self.stopping = True
        process = self.current
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def last_line(output: bytes) -> str:
    """The last non-empty line of a child's output (a traceback's last line names the error)."""
    lines = [line.strip() for line in output.decode(errors="replace").splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def say(message: str, *, error: bool = False) -> None:
    """One line of the supervisor's output."""
    print(message if message.startswith(STEP_OUTPUT) else f"ludolog: {message}",
          file=sys.stderr if error else sys.stdout, flush=True)


class StoreWatch:
    """Follows the store's state for the supervisor and prints each change (and loading progress)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.client = probe_client(url)
        self.ready = False
        self.ever_ready = False
        self.since = time.monotonic()
        self.last_progress = (0.0, -1)

    def look(self) -> bool:
        """Look once; True when ready."""
        try:
            status = probe(self.client)
        except StoreNotReady as exc:
            raise GaveUp(f"{exc} at {redact(self.url)}") from exc
        if status.ready != self.ready:
            self._changed(status)
        elif status.loading:
            self._progress(status)
        self.ready = status.ready
        return status.ready

    def _changed(self, status: StoreStatus) -> None:
        now = time.monotonic()
        if status.ready:
            say(f"store ready after {now - self.since:.1f} s" if not self.ever_ready else f"store back after {now - self.since:.1f} s")
            self.ever_ready = True
        else:
            say(f"{status.describe()}: the web answers 503 until it is back")
            self._progress(status)
        self.since = now

    def _progress(self, status: StoreStatus) -> None:
        """A progress line at most once a second, and only when it moved."""
        now = time.monotonic()
        shown_at, shown_bytes = self.last_progress
        if status.loading and now - shown_at >= 1.0 and status.loaded_bytes != shown_bytes:
            say(status.describe())
            self.last_progress = (now, status.loaded_bytes or 0)


class Supervisor:
    """Owns the child processes of ``ludolog serve``."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.data_dir = Path(config.data_dir)
        self.embedded: EmbeddedRedis | None = None
        self.children: list[Child] = []
        self.steps: StartupSteps | None = None
        self.store: StoreWatch | None = None
        self.announced = False
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
        return self.kept_secret("secret_key", lambda: secrets.token_urlsafe(48))

    def kept_secret(self, name: str, make: Callable[[], str]) -> str:
        """A secret kept in the data directory (mode 0600), made on first use (and again over an empty file: what a
        write that failed on a full disk could leave before :func:`write_private` wrote through a temporary file)."""
        path = self.data_dir / name
        if not path.exists() or not path.read_text().strip():
            write_private(path, make())
        path.chmod(0o600)
        return path.read_text().strip()

    def prepare_data_dir(self) -> None:
        """The data directory, readable by its owner only when we create it."""
        if not self.data_dir.exists():
            self.data_dir.mkdir(parents=True, mode=0o700)

    def store_url(self) -> str:
        """The event store's URL; for the embedded server (not yet started) one with its password."""
        if self.config.redis_url:
            return self.config.redis_url
        password = self.kept_secret(PASSWORD_FILE, lambda: secrets.token_hex(24))
        self.embedded = EmbeddedRedis(self.data_dir / "redis", self.config.redis_port, password=password,
                                   extra=self.config.embedded_redis_settings)
        return self.embedded.url

    def build_children(self, env: dict[str, str]) -> None:
        """Redis (embedded only), the web at once, the worker once the store answers."""
        python = [sys.executable]
        if self.embedded is not None:
            self.children.append(Child("redis", self.embedded.spawn, needs_store=False))
        gunicorn = [*python, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), "ludolog.app:create_app()"]
        self.children.append(Child("web", lambda: self.popen(gunicorn, env), needs_store=False))
        worker = [*python, "-m", "ludolog.cli", "worker", "--no-reconcile"]
        self.children.append(Child("worker", lambda: self.popen(worker, env), needs_store=True))
        self.steps = StartupSteps([("demo loader", ["demo"]), ("reconciler", ["reconcile"])], env)

    @staticmethod
    def popen(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        """Start one child in its own session."""
        return subprocess.Popen(args, env=env, cwd=ROOT, start_new_session=True)

    def write_service_files(self, url: str) -> None:
        """var/redis.url (password included, 0600) and var/serve.pid: how `ludolog` commands find the store."""
        write_private(url_file(self.data_dir), url + "\n")
        write_private(self.data_dir / PID_FILE, f"{os.getpid()}\n")

    def remove_service_files(self) -> None:
        """Forget the URL and pid files, if they are still ours."""
        pid_file = self.data_dir / PID_FILE
        try:
            if int(pid_file.read_text().strip()) != os.getpid():
                return
        except (OSError, ValueError):
            return
        url_file(self.data_dir).unlink(missing_ok=True)
        pid_file.unlink(missing_ok=True)

    def tick(self) -> None:
        """One round: restart what crashed, start what may start, follow the store, announce."""
        now = time.monotonic()
        for child in self.children:
            code = child.exited()
            if code is not None:
                end_group(child.process)
                self.schedule(child, code, now)
        store_ready = self.store.look() if self.store else False
        for child in self.children:
            if child.restart_at is not None and now >= child.restart_at and (store_ready or not child.needs_store):
                self.launch(child, now)
        if store_ready and self.steps and not self.steps.started:
            self.steps.start()
        if store_ready and not self.announced and self.web_is_healthy():
            self.announced = True
            say(f"serving at http://{self.config.host}:{self.config.port}  (Ctrl-C stops everything)")

    def launch(self, child: Child, now: float) -> None:
        """Start (or restart) a child; a launch that fails counts as a crash."""
        first = child.process is None
        try:
            child.start(now)
        except (OSError, RuntimeError) as exc:
            if first:
                raise RuntimeError(f"cannot start {child.name}: {exc}") from exc
            say(f"cannot restart {child.name}: {exc}", error=True)
            child.started_at = now
            self.schedule(child, None, now)
            return
        if not first:
            say(f"{child.name} restarted (pid {child.process.pid if child.process else '?'})")

    def schedule(self, child: Child, code: int | None, now: float) -> None:
        """A child exited on its own (or failed to restart): schedule its restart and say so, or give up."""
        delay = child.schedule_restart(now)
        what = describe_exit(code) if code is not None else "a failed start"
        if child.crashes >= GIVE_UP_AFTER:
            raise GaveUp(f"{child.name} crashed {child.crashes} times in a row, each within {STABLE_AFTER:.0f} s of "
                         f"starting (last: {what}): giving up and stopping everything")
        waits = " once the store answers" if child.needs_store else ""
        say(f"{child.name} exited ({what}); restarting it in {delay:.1f} s{waits} (crash {child.crashes} in a row)",
            error=True)

    def web_is_healthy(self) -> bool:
        """True when /healthz answers 200."""
        url = f"http://{self.config.host}:{self.config.port}/healthz"
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                return bool(answer.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def stop(self) -> None:
        """Stop the start-up steps, the children (web, then worker), then Redis; each gets 10 s before SIGKILL."""
        self.stopping = True
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)
        if self.steps:
            self.steps.stop()
        for child in reversed(self.children):
            process = child.process
            if child.name == "redis" or process is None or process.poll() is not None:
                continue  # an exited child's group was ended when the exit was seen
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                say(f"{child.name} did not stop in 10 s: killed")
                process.kill()
                process.wait()
            end_group(process)
        if self.embedded:
            self.embedded.stop()
        self.remove_service_files()
        say("stopped")

    def run(self) -> int:
        """Start everything and supervise until interrupted; returns the exit code."""
        # Explicit handlers: a shell starting us in the background may have set SIGINT to "ignore",
        # which Python would otherwise inherit, and SIGTERM must stop us as cleanly as Ctrl-C.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
        check_secret_key(self.config)
        try:
            self.prepare_data_dir()
            url = self.store_url()
            self.build_children(self.child_env(url))
            self.store = StoreWatch(url)
            if self.embedded is not None:
                # Redis first: if its port is taken (another serve on this data dir?), nothing of the
                # other one's is overwritten, its var/redis.url included.
                self.launch(self.children[0], time.monotonic())
                say(f"embedded Redis on {redact(url)} (password in {self.data_dir / PASSWORD_FILE}, "
                    f"data and AOF in {self.embedded.data_dir})")
                self.write_service_files(url)
            while True:
                self.tick()
                time.sleep(TICK)
        except KeyboardInterrupt:
            return 0
        except RuntimeError as exc:
            say(str(exc), error=True)
            return 1
        finally:
            self.stop()
