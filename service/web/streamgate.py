"""The gate of the live streams: each open stream holds a slot of its client's address, taken before the app runs.

A live route (``GET /api/…/stream``, :mod:`service.api.live`) keeps its connection open for as long as a page is
shown, so the connections of the web processes (gunicorn's ``worker_connections``) are what a client reconnecting in
a loop would take from everyone else. Each address may hold LUDOLOG_STREAMS_PER_ADDRESS streams open at once, across
the web processes (:class:`~service.store.live.OpenStreams`: one Redis script checks and takes the slot, so streams
opened together cannot pass the limit). Beyond it the answer is 429 with a jittered ``Retry-After``.

The gate is WSGI middleware in front of Flask, not a check in the route: a client that ignores the refusal and comes
back every 2 s costs then one Redis script and a short answer, without the request handling of the app (sessions,
CSRF, routing, the game's reads), which cost ten times more; a few thousand such clients would otherwise fill the
processors. The slot is given back when the response is closed (the stream ended, the client left, or the route
refused the request); the stream renews its lease while it is open (:meth:`StreamSlot.keep`), and the slot of a
process that died frees itself when its lease runs out.

Opening a stream costs about twice a small request (the game's reads, the catch-up, whether the line is over), and
thousands of clients arriving together would queue every other request of the process behind their openings: at most
:data:`OPENINGS_AT_ONCE` streams of a process are being opened at a time, the others wait for their turn parked (a
waiting greenlet uses no processor), so that /healthz and the pages still get their turn during the rush.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import redis
from werkzeug.wsgi import ClosingIterator

from service.store.context import NoRunningService
from service.store.live import OpenStreams
from service.web.errors import error_document
from service.web.headers import REFERRER_POLICY

#: Where the gate leaves the request's :class:`StreamSlot` for the route (``request.environ``).
STREAM_SLOT = "ludolog.stream_slot"
#: How often an open stream renews its slot (well within the slot's lease, service/store/live.py STREAM_LEASE_S).
RENEW_EVERY_S = 30.0
#: A refused stream is told to come back after this many seconds, plus up to as many again at random.
REFUSED_RETRY_S = 10
#: Streams of one process that may be opening at once (the app's handling of the request, then the catch-up and the
#: end-of-line check of :func:`service.api.sse.follow`); the others wait their turn without using the processor.
OPENINGS_AT_ONCE = 8


def is_live_stream(method: str, path: str) -> bool:
    """Whether a request is one of the live routes' (``GET /api/…/stream``)."""
    return method == "GET" and path.startswith("/api/") and path.endswith("/stream")


@dataclass
class StreamSlot:
    """The slot of its client's address that an open stream holds."""

    streams: OpenStreams
    address: str
    holder: str
    #: Held while the stream is being opened (:data:`OPENINGS_AT_ONCE` per process).
    opening: threading.BoundedSemaphore
    renewed: float = field(default_factory=time.monotonic)

    def keep(self) -> None:
        """Renew the slot's lease when it is due (every :data:`RENEW_EVERY_S`)."""
        if time.monotonic() - self.renewed >= RENEW_EVERY_S:
            self.streams.renew(self.address, self.holder)
            self.renewed = time.monotonic()

    def free(self) -> None:
        """Give the slot back; a Redis that does not answer frees it when its lease runs out."""
        try:
            self.streams.close(self.address, self.holder)
        except redis.exceptions.RedisError:
            pass


WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class StreamGate:
    """WSGI middleware: a slot of the client's address for each live stream, or 429 (see the module's docstring)."""

    def __init__(self, wsgi_app: WsgiApp, streams: Callable[[], OpenStreams]) -> None:
        self.wsgi_app = wsgi_app
        self.streams = streams
        self.openings = threading.BoundedSemaphore(OPENINGS_AT_ONCE)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """Pass the request on; a live stream only with a slot, which is given back when its response closes."""
        if not is_live_stream(environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", "")):
            return self.wsgi_app(environ, start_response)
        address = environ.get("REMOTE_ADDR") or "unknown"
        try:
            streams = self.streams()
            verdict, holder = streams.open(address)
        except (redis.exceptions.RedisError, NoRunningService):
            return self.wsgi_app(environ, start_response)  # the route answers 503 for a store that does not answer
        if verdict.refused:
            return refuse(verdict.limit, start_response)
        slot = environ[STREAM_SLOT] = StreamSlot(streams, address, holder, self.openings)
        try:
            with self.openings:
                answer = self.wsgi_app(environ, start_response)
        except BaseException:
            slot.free()
            raise
        return ClosingIterator(answer, [slot.free])


def refuse(limit: int, start_response: Callable[..., Any]) -> list[bytes]:
    """429: the address holds ``limit`` streams open; the API's error body, with a jittered Retry-After."""
    wait = REFUSED_RETRY_S + random.randrange(REFUSED_RETRY_S + 1)  # noqa: S311 - spreading load, not a secret
    message = (f"this address holds {limit} live streams open, the most it may: close one (a tab), or try again in "
               f"{wait} s")
    body = json.dumps(error_document("too_many_streams", message, {"limit": limit, "retry_after": wait})).encode()
    start_response("429 Too Many Requests", [
        ("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Retry-After", str(wait)),
        ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", REFERRER_POLICY)])
    return [body]
