"""Following streams live: one reader per process fans new stream entries out to its subscribers.

A page that follows a branch (``GET …/stream``, Server-Sent Events) must not hold a Redis connection of its own:
a thousand open pages would be a thousand blocked connections and a thousand threads or greenlets each asking
Redis. Instead one :class:`LiveHub` per process runs one loop (a thread; a greenlet under gevent, whose
monkey-patching turns ``threading`` green) that asks Redis with a single ``XREAD BLOCK`` for every stream any
subscriber follows, each from the last entry it has seen, and hands each new entry to that stream's subscribers.

A subscriber is registered *before* it reads what it missed (``Last-Event-ID``) from the store, and the hub reads a
newly followed stream from its tip at the moment of registration, so every entry after that tip reaches the
subscriber through the hub and every entry up to it through the catch-up read: no gap. The same entry may come both
ways; the subscriber drops seqs it has already sent: no duplicate. A subscriber's queue is bounded; one that falls
too far behind is told it lagged and catches up from the store instead (bounded memory however slow a client is).

When Redis stops answering, the hub ends every subscription (the streams then end cleanly and browsers reconnect
after the ``retry:`` they were given) and tries again after a pause.
"""

from __future__ import annotations

import collections
import secrets
import threading
import time
import weakref
from dataclasses import dataclass, field

import redis
from redis import Redis

from engine import Event
from service.store import keys
from service.store.encoding import decode_entry
from service.store.limits import Slots, Verdict
from service.store.replies import as_stream
from service.store.seats import SeatStore

#: How long one XREAD waits for news; a stream followed for the first time joins the next XREAD, so this bounds how
#: late the hub notices it (its entries are not lost meanwhile: they are read from the tip taken at registration).
BLOCK_MS = 250
#: Entries read per stream in one XREAD.
READ_COUNT = 200
#: Entries a subscriber may have waiting before it is told to catch up from the store instead.
QUEUE_LIMIT = 256
#: How long the hub waits before asking a Redis that stopped answering again.
RETRY_PAUSE_S = 1.0
#: How long an open stream's slot lasts unless renewed (a stream renews it at least every minute; the slots of a
#: process that died without giving them back are free again after this).
STREAM_LEASE_S = 120.0



@dataclass(eq=False)
class Batch:
    """The events of one XREAD of one stream, handed to each of its subscribers as the same object, with a place where
    the first subscriber to format them for a view leaves the text for the others (a thousand pages in one view then
    cost one serialization, not a thousand)."""

    events: list[Event]
    notices: list[dict[str, str]] = field(default_factory=list)
    formatted: dict[tuple[str, int], str] = field(default_factory=dict)
    #: For a branch's stream: whether the branch had seats assigned when its events were read (the hub looks once
    #: for all the process's followers, so that a thousand streams do not each ask Redis at the same moment).
    seated: bool | None = None

    @property
    def size(self) -> int:
        """Events and notices in the batch."""
        return len(self.events) + len(self.notices)


@dataclass(eq=False)
class Subscription:
    """One follower of one stream: the batches the hub handed it, in order, until it is closed."""

    stream: str
    limit: int = QUEUE_LIMIT
    batches: collections.deque[Batch] = field(default_factory=collections.deque)
    waiting: int = 0
    lagged: bool = False
    ended: bool = False
    wake: threading.Event = field(default_factory=threading.Event)
    guard: threading.Lock = field(default_factory=threading.Lock)

    def deliver(self, batch: Batch) -> None:
        """Queue ``batch`` (called by the hub); past the limit of events waiting, drop them all and mark the
        subscription lagged."""
        with self.guard:
            if self.waiting + batch.size > self.limit:
                self.batches.clear()
                self.waiting = 0
                self.lagged = True
            else:
                self.batches.append(batch)
                self.waiting += batch.size
        self.wake.set()

    def end(self) -> None:
        """The hub can no longer follow the stream (Redis stopped answering): the follower should stop."""
        self.ended = True
        self.wake.set()

    def take(self, timeout: float) -> tuple[list[Batch], bool]:
        """The batches waiting (after up to ``timeout`` seconds without any), and whether some were dropped since
        the last take (the follower must then read what it missed from the store)."""
        if not self.batches and not self.lagged and not self.ended:
            self.wake.wait(timeout)
        self.wake.clear()
        with self.guard:
            taken = list(self.batches)
            self.batches.clear()
            self.waiting = 0
            lagged, self.lagged = self.lagged, False
        return taken, lagged


class LiveHub:
    """One process's reader of the streams its subscribers follow (see the module's docstring)."""

    def __init__(self, client: Redis, *, block_ms: int = BLOCK_MS) -> None:
        self.redis = client
        self.block_ms = block_ms
        self._lock = threading.Lock()
        self._followers: dict[str, set[Subscription]] = {}
        self._cursors: dict[str, bytes] = {}
        self._notice_streams: set[str] = set()
        self._thread: threading.Thread | None = None
        self._seats = SeatStore(client)
        self._branches: dict[str, tuple[str, str]] = {}  # a branch's stream: its (game, branch), for its seats
        self._closed = False
        _HUBS.add(self)

    def branch_stream(self, gid: str, bid: str) -> str:
        """The stream a branch's new events are appended to (a fork's own stream: its parent's never grows for it).
        Its batches say whether the branch has seats assigned (:attr:`Batch.seated`)."""
        stream = keys.events_for(gid, bid)
        with self._lock:
            self._branches[stream] = (gid, bid)
        return stream

    def changed_games_stream(self) -> str:
        """The stream of notices of created or changed games (the live home page)."""
        return keys.games_changed()

    def tables_changed_stream(self) -> str:
        """The stream of notices of tables moved on, re-seated or deleted (the home page's list of tables)."""
        return keys.tables_changed()

    def annotations_stream(self, gid: str) -> str:
        """The stream of game ``gid``'s annotation events (the notes panel)."""
        return keys.annotations_for(gid)

    def seat_changes_stream(self, gid: str) -> str:
        """The stream of notices of changed seats or deleted branches of game ``gid`` (a table's page)."""
        return keys.seat_changes_for(gid)

    def chat_stream(self, gid: str, bid: str) -> str:
        """The chat of table ``bid`` of game ``gid`` (:mod:`service.store.chat`: what was said, what was deleted)."""
        return keys.chat_for(gid, bid)

    def analysis_progress_stream(self, gid: str) -> str:
        """The stream of notices of verdicts stored for game ``gid``'s analyses (the analysis panel)."""
        return keys.analysis_progress_for(gid)

    def subscribe(self, stream: str, *, limit: int = QUEUE_LIMIT, notices: bool = False) -> Subscription:
        """Follow ``stream`` from its tip now (raises redis' ConnectionError if Redis does not answer); its entries
        are a branch's events, or with ``notices`` plain field maps (:meth:`changed_games_stream`)."""
        subscription = Subscription(stream, limit)
        if self._closed:
            subscription.end()
            return subscription
        with self._lock:
            if stream not in self._followers:
                self._cursors[stream] = self._tip(stream)
                self._followers[stream] = set()
                if notices:
                    self._notice_streams.add(stream)
            self._followers[stream].add(subscription)
            self._start()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop handing entries to ``subscription``; a stream nobody follows is dropped from the XREAD."""
        with self._lock:
            followers = self._followers.get(subscription.stream)
            if followers is None:
                return
            followers.discard(subscription)
            if not followers:
                del self._followers[subscription.stream]
                self._cursors.pop(subscription.stream, None)
                self._branches.pop(subscription.stream, None)
                self._notice_streams.discard(subscription.stream)

    def close(self) -> None:
        """End every subscription and take no more (the process is stopping: its streams end at once, so that the
        server's graceful stop is not held up by pages that would stay open for hours)."""
        self._closed = True
        self._end_all()

    def follower_count(self) -> int:
        """Subscriptions open in this process."""
        with self._lock:
            return sum(len(followers) for followers in self._followers.values())

    def _tip(self, stream: str) -> bytes:
        rows = as_stream(self.redis.xrevrange(stream, "+", "-", count=1))
        return rows[0][0] if rows else b"0-0"

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="ludolog-live-hub", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                cursors = dict(self._cursors)
                if not cursors:  # nobody follows anything: the loop ends, and the next subscribe starts another
                    self._thread = None
                    return
            try:
                reply = self.redis.xread(cursors, count=READ_COUNT, block=self.block_ms)  # type: ignore[arg-type]
            except (redis.exceptions.RedisError, OSError, ValueError):  # ValueError: a client closed under the loop
                self._end_all()  # every follower ends its stream (its browser reconnects); with none left the loop ends
                time.sleep(RETRY_PAUSE_S)
                continue
            self._dispatch(reply)

    def _dispatch(self, reply: object) -> None:
        for raw_stream, raw_entries in _streams_of(reply):
            stream = raw_stream.decode() if isinstance(raw_stream, bytes) else str(raw_stream)
            entries = as_stream(raw_entries)
            if not entries:
                continue
            with self._lock:
                if stream not in self._cursors:
                    continue
                self._cursors[stream] = entries[-1][0]
                followers = list(self._followers.get(stream, ()))
                notices = stream in self._notice_streams
                branch = self._branches.get(stream)
            batch = _batch(entries, notices)
            if branch is not None:
                batch.seated = self._seats.has_assignments(*branch)
            for subscription in followers:
                subscription.deliver(batch)

    def _end_all(self) -> None:
        with self._lock:
            followers = [s for group in self._followers.values() for s in group]
            self._followers.clear()
            self._cursors.clear()
            self._notice_streams.clear()
            self._branches.clear()
        for subscription in followers:
            subscription.end()


def _batch(entries: list[tuple[bytes, dict[bytes, bytes]]], notices: bool) -> Batch:
    """The entries of one XREAD decoded once for every follower: a branch's events, or notices."""
    if notices:
        return Batch([], [{k.decode(): v.decode() for k, v in fields.items()} for _, fields in entries])
    return Batch([event for raw_id, fields in entries for event in decode_entry(raw_id, fields)])


_HUBS: weakref.WeakSet[LiveHub] = weakref.WeakSet()


def close_all() -> None:
    """Close every hub of this process (gunicorn's stop signal, deploy/gunicorn.conf.py)."""
    for hub in list(_HUBS):
        hub.close()


def _streams_of(reply: object) -> list[tuple[bytes, object]]:
    """XREAD's reply as (stream, entries) pairs: a list of pairs in RESP2, a map in RESP3."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return list(reply.items())
    if isinstance(reply, list):
        return [(pair[0], pair[1]) for pair in reply]
    raise TypeError(f"unexpected XREAD reply {type(reply).__name__}")


class OpenStreams:
    """At most ``limit`` live streams open at once per client address, across every web process.

    Each stream holds a slot of its address (:class:`~service.store.limits.Slots`: checked and taken in one Redis
    script, so a burst of streams opened together cannot pass the limit), renews its lease while it is open and gives
    the slot back when it ends. A client that opens stream after stream from one address (reconnecting in a loop)
    is then refused at the limit instead of filling the web processes' connections.
    """

    def __init__(self, client: Redis, limit: int, lease: float = STREAM_LEASE_S) -> None:
        self.slots = Slots(client, limit, lease)

    @property
    def limit(self) -> int:
        """Streams one address may hold open at once."""
        return self.slots.limit

    def open(self, address: str) -> tuple[Verdict, str]:
        """A slot for a new stream of ``address`` if one is free: the verdict, and the holder id to renew and close."""
        holder = secrets.token_hex(8)
        return self.slots.acquire(keys.open_streams_for(address), holder), holder

    def renew(self, address: str, holder: str) -> None:
        """The stream is still open: extend its lease."""
        self.slots.renew(keys.open_streams_for(address), holder)

    def close(self, address: str, holder: str) -> None:
        """The stream ended: its slot is free."""
        self.slots.release(keys.open_streams_for(address), holder)
