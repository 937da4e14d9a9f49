"""The stores of one process, built once from the configuration: the one place stores are composed.

Web workers, RQ workers and the CLI all get their Redis connections here, so that
LUDOLOG_REDIS_URL / LUDOLOG_QUEUE_REDIS_URL mean the same everywhere.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import redis
from redis import Redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.retry import Retry

import engine
from service.runtime.config import Config, ConfigError
from service.store.annotations import AnnotationStore
from service.store.chat import TableChat
from service.store.claims import ClaimStore
from service.store.engine_status import EngineStatus
from service.store.explorer import ExplorerStore
from service.store.folds import FoldLedger
from service.store.games import GameStore
from service.store.insights import InsightStore
from service.store.live import LiveHub, OpenStreams
from service.store.notifications import NotificationStore
from service.store.quota import AnalysisQuota
from service.store.seats import SeatStore
from service.store.sessions import SessionStore, SignInThrottle, SignUpThrottle
from service.store.snapshots import SnapshotStore, StateReader
from service.store.takebacks import TakeBackRequests
from service.store.uploads import UploadStore
from service.store.users import UserStore


class StoreRetry(Retry):
    """Retries of a command whose connection failed: three, within about half a second, and none
    while Redis is loading its data.

    redis-py's default (ten, up to a second apart, LOADING included) holds a request for ~9 s while
    Redis loads or restarts; ludolog would rather answer 503 at once (the web) or wait visibly (the
    CLI, the supervisor) than hang. A load lasts seconds to minutes: retrying within one request
    cannot outlast it.
    """

    def __init__(self) -> None:
        super().__init__(ExponentialWithJitterBackoff(cap=0.25, base=0.02), 3)

    def call_with_retry(self, do: Any, fail: Any, is_retryable: Any = None, with_failure_count: bool = False) -> Any:
        """As redis-py's, but a LOADING answer is raised at once."""
        def retryable(error: Exception) -> bool:
            return not isinstance(error, redis.exceptions.BusyLoadingError) and (is_retryable is None or is_retryable(error))

        return super().call_with_retry(do, fail, retryable, with_failure_count)


#: Connections one process opens to a Redis at most (redis-py's default).
POOL_SIZE = 100
#: How long a command waits for a free connection when all POOL_SIZE are busy, before it fails (a 503 on the web).
POOL_WAIT_S = 5.0


def connect(url: str, retry: Retry | None = None) -> Redis:
    """A client of the store or queue at ``url`` with ludolog's retries (``retry``, else :class:`StoreRetry`).

    ``driver_info=None``: no CLIENT SETINFO on each new connection (Redis 6.2 refuses it anyway: two
    wasted round trips, which while Redis loads cost one loading chunk each).

    The pool is bounded and waits: a gevent web process runs thousands of requests and streams at once, and with
    redis-py's default pool the 101st command running at the same moment failed at once ("Too many connections",
    51 × 503 in issue 45's reconnect storm); here it waits up to POOL_WAIT_S for one of the POOL_SIZE connections.
    """
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=POOL_WAIT_S,
                                                 retry=retry if retry is not None else StoreRetry(), driver_info=None)
    return redis.Redis.from_pool(pool)


@dataclass
class Stores:
    """Connections and stores for one process.

    ``retry`` is how its connections retry a failed command: :class:`StoreRetry` (a few quick tries) unless
    given; a worker gives a :class:`service.store.ready.PatientRetry`, which waits for the store for ever.
    """

    config: Config
    retry: Retry | None = None

    @cached_property
    def redis(self) -> Redis:
        """The event store's Redis."""
        if not self.config.redis_url:
            raise NoRunningService()
        if self.config.redis_cluster:
            # Every key of a game carries its hash tag, so scripts and transactions stay on one node.
            return redis.RedisCluster.from_url(self.config.redis_url)  # type: ignore[return-value]
        return connect(self.config.redis_url, self.retry)

    @cached_property
    def queue_redis(self) -> Redis:
        """RQ's Redis (the store's unless LUDOLOG_QUEUE_REDIS_URL names another)."""
        url = self.config.effective_queue_url
        return connect(url, self.retry) if url and url != self.config.redis_url else self.redis

    @cached_property
    def games(self) -> GameStore:
        """Games, branches, events."""
        return GameStore(self.redis)

    @cached_property
    def explorer(self) -> ExplorerStore:
        """The explorer's counters: what players of public finished games chose, and how they fared."""
        return ExplorerStore(self.redis)

    @cached_property
    def claims(self) -> ClaimStore:
        """Who claims which player of which game (issue 49)."""
        return ClaimStore(self.redis)

    @cached_property
    def insights(self) -> InsightStore:
        """The insights' counters: each user's and every player's analysed decisions."""
        return InsightStore(self.redis)

    @cached_property
    def uploads(self) -> UploadStore:
        """Uploads waiting for, in or done with their import."""
        return UploadStore(self.redis)

    @cached_property
    def folds(self) -> FoldLedger:
        """The fold jobs' books: pending marks and branches due."""
        return FoldLedger(self.redis)

    @cached_property
    def seats(self) -> SeatStore:
        """Who holds each seat of a branch, and the invites to seats."""
        return SeatStore(self.redis)

    @cached_property
    def engine_status(self) -> EngineStatus:
        """What each engine seat's move is doing (thinking, failed) and how long each level thinks."""
        return EngineStatus(self.redis)

    @cached_property
    def takebacks(self) -> TakeBackRequests:
        """The tables' take-back requests, and the lines they closed."""
        return TakeBackRequests(self.redis)

    @cached_property
    def chat(self) -> TableChat:
        """The tables' chats, and how fast each user may post to them."""
        return TableChat(self.redis)

    @cached_property
    def notifications(self) -> NotificationStore:
        """How users are told it is their turn: their settings, the pages they have open, turn e-mails' claims."""
        return NotificationStore(self.redis)

    @cached_property
    def snapshots(self) -> SnapshotStore:
        """Snapshots."""
        return SnapshotStore(self.redis)

    @cached_property
    def analysis_quota(self) -> AnalysisQuota:
        """Analysis work granted per user and hour (LUDOLOG_ANALYSIS_WORK_PER_HOUR)."""
        return AnalysisQuota(self.redis, self.config.analysis_work_per_hour)

    @cached_property
    def open_streams(self) -> OpenStreams:
        """The live streams each client address holds open, at most LUDOLOG_STREAMS_PER_ADDRESS."""
        return OpenStreams(self.redis, self.config.streams_per_address)

    @cached_property
    def annotations(self) -> AnnotationStore:
        """Comments and glyphs on moves."""
        return AnnotationStore(self.redis)

    @cached_property
    def users(self) -> UserStore:
        """Accounts and their API tokens."""
        return UserStore(self.redis)

    @cached_property
    def sessions(self) -> SessionStore:
        """Sign-ins, kept server-side for LUDOLOG_SESSION_HOURS."""
        return SessionStore(self.redis, self.config.session_seconds)

    @cached_property
    def sign_in_throttle(self) -> SignInThrottle:
        """Failed sign-ins per account and per address."""
        return SignInThrottle(self.redis)

    @cached_property
    def sign_up_throttle(self) -> SignUpThrottle:
        """Sign-ups per address."""
        return SignUpThrottle(self.redis)

    @cached_property
    def live(self) -> LiveHub:
        """The process's one reader of the streams its live pages follow, on a connection of its own (it blocks)."""
        if not self.config.redis_url:
            raise NoRunningService()
        return LiveHub(connect(self.config.redis_url))

    @cached_property
    def reader(self) -> StateReader:
        """State at any seq."""
        return StateReader(self.games, self.snapshots)


_current: Stores | None = None

#: Written by ``ludolog serve`` in the data directory (mode 0600): the embedded Redis's URL, password
#: included, and the supervisor's process id. Removed when it stops.
URL_FILE = "redis.url"
PID_FILE = "serve.pid"


class NoRunningService(RuntimeError):
    """Neither LUDOLOG_REDIS_URL nor a running ``ludolog serve`` says where the store is."""

    def __init__(self) -> None:
        super().__init__("no running ludolog found: start it with make run, or set LUDOLOG_REDIS_URL")


def url_file(data_dir: Path) -> Path:
    """Where ``ludolog serve`` leaves the embedded Redis's URL."""
    return Path(data_dir) / URL_FILE


def serve_is_running(data_dir: Path) -> bool:
    """True while the ``ludolog serve`` that wrote ``data_dir``'s files is alive (it may be restarting Redis)."""
    try:
        pid = int((Path(data_dir) / PID_FILE).read_text().strip())
        os.kill(pid, 0)
    except PermissionError:
        return True
    except (OSError, ValueError):
        return False
    return True


def with_store_url(config: Config) -> Config:
    """``config`` with the store's URL: LUDOLOG_REDIS_URL, else the one ``ludolog serve`` left in the data dir.

    Either is checked here (:func:`checked_redis_url`): a malformed one is a :class:`ConfigError` naming the
    setting or the file, which the command line prints as one line.
    """
    if config.queue_redis_url:
        checked_redis_url(config.queue_redis_url, "LUDOLOG_QUEUE_REDIS_URL")
    if config.redis_url:
        checked_redis_url(config.redis_url, "LUDOLOG_REDIS_URL")
        return config
    path = url_file(config.data_dir)
    try:
        raw = path.read_bytes()
    except OSError:
        return config
    try:
        url = raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not a Redis URL (not UTF-8 text: {exc.reason} at byte {exc.start}); "
                          "restart ludolog serve to write it again, or set LUDOLOG_REDIS_URL") from exc
    return dataclasses.replace(config, redis_url=checked_redis_url(url, str(path)) if url else None)


def checked_redis_url(url: str, where: str) -> str:
    """``url`` when redis-py can connect with it (scheme, host, a port 0–65535); else a :class:`ConfigError`
    that names ``where`` (the setting or the file it came from) and what is wrong, the password left out."""
    from service.store.ready import redact

    try:
        url.encode("utf-8")
        redis.ConnectionPool.from_url(url).disconnect()  # parses the URL as every client will; connects to nothing
    except (ValueError, UnicodeError) as exc:
        try:
            shown = redact(url)
        except ValueError:
            shown = url if "@" not in url else "(a URL with a password)"
        raise ConfigError(f"{where}: {shown!r} is not a Redis URL: {str(exc).splitlines()[0]}") from exc
    return url


def load_game_plugins(spec: str) -> list[str]:
    """Register extra games named ``module:attribute,…`` (LUDOLOG_GAME_PLUGINS); returns their names."""
    names = []
    for target in filter(None, (part.strip() for part in spec.split(","))):
        module_name, _, attribute = target.partition(":")
        rules = getattr(importlib.import_module(module_name), attribute or "RULES")
        names.append(engine.register(rules).name)
    return names


def current_stores() -> Stores:
    """This process's stores, from the environment (created on first use)."""
    global _current
    if _current is None:
        _current = Stores(with_store_url(Config()))
        load_game_plugins(_current.config.game_plugins)
    return _current


def use_stores(stores: Stores) -> Stores:
    """Make ``stores`` this process's stores (what :func:`current_stores` answers from now on); returns them."""
    global _current
    _current = stores
    return stores


def reset_stores() -> None:
    """Forget this process's stores (after a fork, or when the environment changed)."""
    global _current
    _current = None
