"""Is the event store ready? Probing a Redis that may be starting, loading its data or restarting.

A Redis that has just started answers ``LOADING`` to every data command until it has read its
AOF/RDB; one that is restarting (a crash, a failover) refuses connections for a while. Every
ludolog component asks :func:`probe` (one attempt, no retries of its own) and waits with
:func:`wait_until_ready` (backoff, a timeout, a callback for progress) instead of crashing on
the first ``BusyLoadingError``. ``INFO`` answers while loading, so progress can be shown.

A worker waits inside its connections instead (:class:`PatientRetry`): every command it (or a job,
or RQ) sends waits while the store is away, and :class:`StoreOutage` says so in one line.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

T = TypeVar("T")


class StoreNotReady(RuntimeError):
    """The store did not become ready in time, or refuses us for good (wrong password)."""


@dataclass(frozen=True)
class StoreStatus:
    """One look at the store: ready, loading (bytes loaded of total), or unreachable (why)."""

    ready: bool = False
    loaded_bytes: int | None = None
    total_bytes: int | None = None
    problem: str | None = None

    @property
    def loading(self) -> bool:
        """True while Redis is still reading its data from disk."""
        return self.total_bytes is not None

    def describe(self) -> str:
        """``loading the store: 14 MB of 21 MB…``, ``store unreachable: connection refused``, or ``ready``."""
        if self.ready:
            return "store ready"
        if self.loading:
            return f"loading the store: {megabytes(self.loaded_bytes or 0)} of {megabytes(self.total_bytes or 0)}…"
        return f"store unreachable: {self.problem}"


def megabytes(count: int) -> str:
    """Bytes for people: ``14 MB``, ``0.4 MB``."""
    value = count / 1_000_000
    return f"{value:.0f} MB" if value >= 10 else f"{value:.1f} MB"


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = (f"{parts.username}:***@" if parts.username else ":***@") + host + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def probe_client(url: str) -> redis.Redis:
    """A client for probing: short connect timeout, one attempt per call (the waiting is ours)."""
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=5, retry=Retry(NoBackoff(), 0), driver_info=None)


def _is_auth_error(exc: Exception) -> bool:
    return isinstance(exc, redis.exceptions.AuthenticationError) or str(exc).startswith(("NOAUTH", "WRONGPASS"))


def probe(client: redis.Redis) -> StoreStatus:
    """Look once. Raises :class:`StoreNotReady` for a refusal no waiting can cure (authentication)."""
    try:
        client.ping()
        return StoreStatus(ready=True)
    except redis.exceptions.BusyLoadingError:
        return _loading_status(client)
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, redis.exceptions.ResponseError) as exc:
        if _is_auth_error(exc):
            raise StoreNotReady(f"the store refused our credentials: {exc}") from exc
        if isinstance(exc, redis.exceptions.ResponseError):
            raise
        return StoreStatus(problem=_reason(exc))


def _loading_status(client: redis.Redis) -> StoreStatus:
    try:
        info = client.info("persistence")
    except redis.exceptions.RedisError:
        return StoreStatus(loaded_bytes=0, total_bytes=0)
    return StoreStatus(loaded_bytes=int(info.get("loading_loaded_bytes", 0)), total_bytes=int(info.get("loading_total_bytes", 0)))


def answers(client: redis.Redis) -> bool:
    """True when the store answers a PING; raises ``BusyLoadingError`` while it loads (the caller says 503 starting)."""
    return bool(client.ping())


def loading_progress(client: redis.Redis) -> StoreStatus:
    """How much of its data the store has loaded (``problem="unknown"`` when it cannot say)."""
    try:
        info = client.info("persistence")
    except redis.exceptions.RedisError:
        return StoreStatus(problem="unknown")
    return StoreStatus(loaded_bytes=int(info.get("loading_loaded_bytes", 0)), total_bytes=int(info.get("loading_total_bytes", 0)))


def _reason(exc: Exception) -> str:
    text = str(exc)
    if "refused" in text.lower():
        return "connection refused"
    return text.split("\n")[0] or type(exc).__name__


def wait_until_ready(client: redis.Redis, timeout: float | None, on_wait: Callable[[StoreStatus], None] | None = None,
                     *, first_delay: float = 0.05, max_delay: float = 2.0) -> None:
    """Return once the store answers PING; back off between looks, report each unready look to ``on_wait``.

    ``timeout=None`` waits for ever (a worker: it has nothing better to do); otherwise
    :class:`StoreNotReady` says what the store was doing when time ran out.
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    delay = first_delay
    while True:
        status = probe(client)
        if status.ready:
            return
        if on_wait:
            on_wait(status)
        if deadline is not None and time.monotonic() + delay > deadline:
            raise StoreNotReady(f"{status.describe()} (waited {timeout:.0f} s)")
        # Loading makes steady progress: look often enough to show it; an outage gets backed off.
        time.sleep(min(delay, 0.5) if status.loading else delay)
        delay = min(delay * 2, max_delay)


class StoreOutage:
    """A process's one account of its store going away and coming back, told in one line each.

    Shared by every connection of the process (a worker's main loop, its pubsub thread, its forks):
    the first failed command of an outage announces it, the first command that succeeds afterwards
    says the store is back; every connection in between waits quietly. Forked children (RQ's
    scheduler, a work horse) wait as quietly but say nothing: the worker that forked them speaks.
    :meth:`give_up` (the process is stopping) makes the waits end: commands fail again.
    """

    def __init__(self, url: str, say: Callable[[str], None]) -> None:
        self.url = url
        self.say = say
        self.speaker = os.getpid()
        self.since: float | None = None
        self.stopping = False
        self._lock = threading.Lock()
        os.register_at_fork(after_in_child=self._after_fork)

    def _after_fork(self) -> None:
        self._lock = threading.Lock()  # a lock held by another thread at the fork stays held in the child

    def lost(self, error: Exception) -> None:
        """A command failed on its connection: the store is away (said once per outage)."""
        with self._lock:
            if self.since is not None:
                return
            self.since = time.monotonic()
        if os.getpid() == self.speaker:
            self.say(f"lost the store at {redact(self.url)} ({_reason(error)}): waiting for it")

    def back(self, attempted_at: float) -> None:
        """A command sent at ``attempted_at`` (monotonic) succeeded: if it was sent during an outage, it is over.

        An answer to a command sent before the outage began (read just before the store went) proves nothing, nor
        does a "connect" that found its connection's old socket: the store is asked (a PING) before it is said back.
        """
        if self.since is None or attempted_at < self.since:
            return
        if os.getpid() == self.speaker and not self._answers():  # forked children say nothing: no need to ask
            return
        with self._lock:
            since, self.since = self.since, None
        if since is not None and os.getpid() == self.speaker:
            self.say(f"store back after {time.monotonic() - since:.1f} s")

    def _answers(self) -> bool:
        try:
            return probe(probe_client(self.url)).ready
        except StoreNotReady:
            return False

    def give_up(self) -> None:
        """The process is stopping: waits end, commands fail as they would without us."""
        self.stopping = True


class PatientRetry(Retry):
    """The retries of a process that has nothing to do without its store (a worker): for ever.

    A command whose connection fails (refused, reset, the store loading its data) is tried again at once
    on a new connection, then backing off up to a second, until the store answers; :class:`StoreOutage` tells the outage in one
    line. Not retried: a refused password (no waiting cures it) and anything once the outage is given up.
    Shared, not copied, by every connection (redis-py deep-copies the retry it is given).
    """

    def __init__(self, outage: StoreOutage) -> None:
        super().__init__(NoBackoff(), sys.maxsize)
        self.outage = outage

    def __deepcopy__(self, memo: dict[int, Any]) -> PatientRetry:
        return self

    def call_with_retry(self, do: Callable[[], T], fail: Callable[..., Any],
                        is_retryable: Callable[[Exception], bool] | None = None, with_failure_count: bool = False) -> T:
        """``do()`` until it succeeds; ``fail(error)`` (which drops the connection) after each failure."""
        failures = 0
        while True:
            attempted_at = time.monotonic()
            try:
                result = do()
            except (TimeoutError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as error:
                if self.outage.stopping or _is_auth_error(error) or (is_retryable is not None and not is_retryable(error)):
                    raise
                failures += 1
                if with_failure_count:
                    fail(error, failures)
                else:
                    fail(error)
                if failures == 1:
                    continue  # a connection left over from before an outage fails once: a new one may not
                self.outage.lost(error)
                time.sleep(min(0.05 * 2 ** min(failures, 5), 1.0))
            else:
                self.outage.back(attempted_at)
                return result
