"""Is the event store ready? Probing a Redis that may be starting, loading its data or restarting.

A Redis that has just started answers ``LOADING`` to every data command until it has read its
AOF/RDB; one that is restarting (a crash, a failover) refuses connections for a while. Every
ludolog component asks :func:`probe` (one attempt, no retries of its own) and waits with
:func:`wait_until_ready` (backoff, a timeout, a callback for progress) instead of crashing on
the first ``BusyLoadingError``. ``INFO`` answers while loading, so progress can be shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry


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


def _is_auth_error(exc: redis.exceptions.RedisError) -> bool:
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
