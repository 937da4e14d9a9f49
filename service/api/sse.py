"""Server-Sent Events: the one framing and the one loop of every live route (:mod:`service.api.live`).

A live route subscribes to a stream of the process's :class:`~service.store.live.LiveHub` and hands the subscription
to :func:`follow` with a :class:`Feed`, which turns what the hub delivers into messages. The loop is the same for
every route: the ``retry:`` hint first, then what the feed has to say on opening (a branch's missed events), then
each delivery as it comes, a keep-alive comment when nothing came for :data:`KEEPALIVE_S` (or what a
:class:`QuietFeed` says then), and the end when the feed
says so, when the hub can no longer follow the stream, or when Redis stops answering (the browser then reconnects
after the hint). The subscription is always given back to the hub.

The ``retry:`` hint is jittered (:func:`retry_ms`): when a web process stops, every stream it held ends at the same
moment, and browsers told the same delay would all come back in the same instant.

Every open stream holds one of the slots of its client's address, taken before the app runs by
:mod:`service.web.streamgate` (429 with ``Retry-After`` beyond LUDOLOG_STREAMS_PER_ADDRESS) and renewed here while the
stream is open.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import redis
from flask import Response, request, stream_with_context
from marshmallow import Schema

from service.api.docs import F, docstring_body, documented
from service.store.errors import NotFoundError
from service.store.live import Batch, LiveHub, Subscription
from service.web.streamgate import STREAM_SLOT, StreamSlot

#: The least a browser waits before reconnecting after a stream ended (the SSE ``retry:`` field), in ms.
RETRY_MS = 2000
#: Up to this much more, drawn per stream, so that the browsers of a process that stopped come back spread out.
RETRY_JITTER_MS = 3000
#: A comment line this often keeps proxies and the browser from closing a quiet stream.
KEEPALIVE_S = 15.0
KEEP_ALIVE = ": keep-alive\n\n"


def message(event: str, data: Any, event_id: int | None = None) -> str:
    """One SSE message: ``id`` (when given), ``event`` and ``data`` as compact JSON on one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def comment(text: str) -> str:
    """An SSE comment (ignored by the browser; says what a stream follows to someone reading it raw)."""
    return f": {text}\n\n"


def retry_ms() -> int:
    """This stream's reconnect delay: :data:`RETRY_MS` plus a random share of :data:`RETRY_JITTER_MS`."""
    return RETRY_MS + random.randrange(RETRY_JITTER_MS + 1)  # noqa: S311 - spreading load, not a secret


class Feed(Protocol):
    """What one live route says: a comment naming what it follows, what it sends on opening, and each delivery."""

    about: str

    def opening(self) -> tuple[str, bool]:
        """The messages sent right after the retry hint, and whether the stream goes on after them."""
        ...

    def step(self, batches: list[Batch], lagged: bool) -> tuple[str, bool]:
        """The messages for what the hub delivered (``lagged``: some deliveries were dropped), and whether the
        stream goes on."""
        ...


@runtime_checkable
class QuietFeed(Protocol):
    """A feed with something to say when nothing came for :data:`KEEPALIVE_S` (time alone changed what it shows)."""

    def quiet(self) -> str:
        """The messages sent after a quiet spell, instead of the bare keep-alive comment (which they may end with)."""
        ...


@dataclass
class NoticeFeed:
    """A feed of notices (annotations, analysis progress, the game list): nothing on opening, and each delivery's
    notices turned into messages by ``render`` (no resume: a page that reconnects reloads what it shows)."""

    about: str
    render: Callable[[list[Batch]], str]

    def opening(self) -> tuple[str, bool]:
        """Nothing: a notice stream starts now."""
        return "", True

    def step(self, batches: list[Batch], lagged: bool) -> tuple[str, bool]:
        """The notices of ``batches`` that this stream shows."""
        return self.render(batches), True


def follow(hub: LiveHub, subscription: Subscription, feed: Feed, slot: StreamSlot | None = None) -> Iterator[str]:
    """The text of one live stream (see the module's docstring), renewing the ``slot`` of its address while it is open
    (:mod:`service.web.streamgate` gives it back when the response closes); gives the subscription back to ``hub``."""
    try:
        yield f"retry: {retry_ms()}\n{comment(feed.about)}"
        with slot.opening if slot is not None else contextlib.nullcontext():
            text, more = feed.opening()
        if text:
            yield text
        while more:
            batches, lagged = subscription.take(KEEPALIVE_S)
            if subscription.ended:
                return
            if slot is not None:
                slot.keep()
            if not batches and not lagged:
                yield feed.quiet() if isinstance(feed, QuietFeed) else KEEP_ALIVE
                continue
            text, more = feed.step(batches, lagged)
            if text:
                yield text
    except redis.exceptions.RedisError:
        return  # the store stopped answering: end the stream; the browser reconnects after the retry hint
    except NotFoundError:
        # what the stream follows was deleted while it was open (a branch between the route's check and the opening
        # read, or later): say so and end, rather than end on a traceback; the page stops following it
        yield message("deleted", {})
    finally:
        hub.unsubscribe(subscription)


def open_stream(hub: LiveHub, stream: str, feed: Feed, *, notices: bool = False,
                around: Callable[[Iterator[str]], Iterator[str]] | None = None) -> Response:
    """The response of a live route: ``stream`` followed through ``hub`` (raises redis' ConnectionError if Redis does
    not answer), told by ``feed``, holding the slot of the client's address that the gate took for it; ``around``
    passes the messages on while it lasts (a table's page noting that it is open: :mod:`service.web.notifications`)."""
    subscription = hub.subscribe(stream, notices=notices)
    messages = follow(hub, subscription, feed, request.environ.get(STREAM_SLOT))
    return event_stream(around(messages) if around is not None else messages)


#: What the API document says of every live route after its own description (what :func:`follow` does for all).
EVERY_STREAM = ("Comments keep a quiet stream open; when the store stops answering the stream ends and the browser "
                "reconnects after retry. 429 with Retry-After when this address holds LUDOLOG_STREAMS_PER_ADDRESS "
                "streams open already.")
#: What the API document says of a live route that follows what happens from now on only.
NO_RESUME = "Starts now; no resume (Last-Event-ID is ignored)."


def documented_stream(summary: str, *, description: str = "", query: type[Schema] | None = None,
                      errors: tuple[int, ...] = (404, 503), headers: tuple[tuple[str, str], ...] = (),
                      tag: str = "games", resumes: bool = False) -> Callable[[F], F]:
    """:func:`~service.api.docs.documented` for a live route (no JSON response: an event stream; 429 when the
    client's address holds the most streams it may). What every stream does alike (:func:`follow`) is said here once,
    after the route's own ``description`` (or its docstring's body); a stream that does not ``resumes`` after
    Last-Event-ID says so too."""

    def mark(view: F) -> F:
        start = "" if resumes else f" {NO_RESUME}"
        said = f"{description or docstring_body(view)}{start} {EVERY_STREAM}"
        return documented(summary, response=None, query=query, errors=(*errors, 429), headers=headers, tag=tag,
                          description=said)(view)

    return mark


def event_stream(messages: Iterator[str]) -> Response:
    """A ``text/event-stream`` response of ``messages``, read in the request's context, never stored by a cache or
    held back by a buffering proxy (nginx would otherwise keep the events until its buffer fills)."""
    response = Response(stream_with_context(messages), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
