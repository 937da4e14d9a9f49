"""A branch's new events as they are appended: ``GET …/branches/<bid>/stream``, Server-Sent Events.

Each event is sent as ``id: <seq>``, ``event: <type>`` and ``data:`` the JSON the events route returns for it in the
same view (:func:`service.api.branches.events_json`, the one serializer, so the one viewer rule decides what a seat
sees). A reconnecting browser sends the last id it saw (``Last-Event-ID``, or ``last_event_id`` in the query for a
client that cannot set headers) and gets exactly the events after it. The events come from the process's
:class:`~service.store.live.LiveHub` (one Redis reader per process, not one per client); what a stream missed (before
it was opened, or while its queue overflowed) is read from the store.

Annotations and analysis progress are not in a branch's event stream; a page asks for them when it needs them (see
docs/ARCHITECTURE.md, "Live pages").
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import redis
from flask import Blueprint, Response, request, stream_with_context
from flask.typing import ResponseReturnValue
from marshmallow import fields, validate

from engine import Event
from service.api.branches import events_json
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_query
from service.api.schemas import Strict, _view_field
from service.store.errors import NotFoundError
from service.store.games import Branch, GameRecord
from service.store.live import Batch, Subscription
from service.web.auth import current_user, is_listed_for, readable_game
from service.web.context import api
from service.web.viewing import branch_view, viewer_for_request

bp = Blueprint("live", __name__, url_prefix="/api/games/<gid>/branches")
games_bp = Blueprint("live_games", __name__, url_prefix="/api/games")

#: How long a browser waits before reconnecting after the stream ended (the SSE ``retry:`` field), in ms.
RETRY_MS = 2000
#: A comment line this often keeps proxies and the browser from closing a quiet stream.
KEEPALIVE_S = 15.0
#: Events read from the store per round when a stream catches up.
CATCH_UP_PAGE = 500
LAST_EVENT_ID = "Last-Event-ID"


class StreamQuery(Strict):
    """Seen by whom, and from where."""

    view = _view_field()
    last_event_id = fields.Integer(validate=validate.Range(min=0, max=2**53),
                                   metadata={"description": "the last seq the client has (the Last-Event-ID header wins)"})


def _resume_from(query: dict[str, Any]) -> int | None:
    raw = request.headers.get(LAST_EVENT_ID)
    if raw is None:
        return query.get("last_event_id")
    if not raw.strip().isdigit() or len(raw.strip()) > 16:
        raise ApiError(400, "invalid", f"{LAST_EVENT_ID} header: expected the seq of an event (a whole number)",
                       header=LAST_EVENT_ID)
    return int(raw.strip())


@bp.get("/<bid>/stream")
@documented("Follow a branch live: its new events as Server-Sent Events (text/event-stream)", response=None,
            query=StreamQuery, errors=(400, 404, 503),
            description="Each message: id = the event's seq, event = its type, data = the JSON the events route gives for "
                        "it in this view. Last-Event-ID (or last_event_id) resumes after that seq with no gap and no "
                        "duplicate; without either, the stream starts at the head. A line that is over (or a log-only "
                        "game) gets its events and then one 'end' message, and the stream closes. Comments keep a quiet "
                        "stream open; "
                        "when the store stops answering the stream ends and the browser reconnects after retry.")
def stream_branch(gid: str, bid: str) -> ResponseReturnValue:
    """``text/event-stream`` of the branch's events after Last-Event-ID (or the head)."""
    record, query, view, head = _opened(gid, bid)
    after = _resume_from(query)
    start = head if after is None else min(after, head)
    hub = api().stores.live
    subscription = hub.subscribe(hub.branch_stream(gid, bid))
    return event_stream(_messages(record, bid, view, start, subscription))


def _opened(gid: str, bid: str) -> tuple[GameRecord, dict[str, Any], str, int]:
    """What both branch streams check before they start: the game readable by the asker, the query, the view the one
    rule of who sees what (seats included) gives here, not inside the stream, and the branch's head (404 without it)."""
    record = readable_game(gid)
    query = load_query(StreamQuery)
    view = branch_view(record, [bid], query["view"])
    viewer_for_request(record, view)
    return record, query, view, api().games.head(gid, bid)


def event_stream(messages: Iterator[str]) -> Response:
    """A ``text/event-stream`` response of ``messages``, read in the request's context, never stored by a cache or
    held back by a buffering proxy (nginx would otherwise keep the events until its buffer fills)."""
    response = Response(stream_with_context(messages), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _messages(record: GameRecord, bid: str, view: str, start: int, subscription: Subscription) -> Iterator[str]:
    """The stream's text: the retry hint, what was missed, then each new event as it comes; ends when Redis fails."""
    hub = api().stores.live
    sent, behind, opening = start, True, True
    try:
        yield f"retry: {RETRY_MS}\n: following {record.id}/{bid} from seq {start}\n\n"
        while True:
            if behind:
                text, sent = _catch_up(record, bid, view, sent)
                yield text
                if opening and _line_is_over(record, bid):
                    yield f"event: end\ndata: {json.dumps({'head': sent})}\n\n"
                    return  # nothing can follow the last event of a finished line: no open stream for it
                opening = False
            batches, behind = subscription.take(KEEPALIVE_S)
            if subscription.ended:
                return
            if not batches and not behind:
                yield ": keep-alive\n\n"
            for batch in [] if behind else batches:
                if _view_withdrawn(batch, record, bid, view):
                    yield f"event: view\ndata: {json.dumps({'head': sent})}\n\n"
                    return  # the browser reconnects and is given the view it may have now
                fresh = [e for e in batch.events if e.seq > sent]
                if fresh and fresh[0].seq != sent + 1:
                    behind = True  # a gap (the hub took the stream up after this page's catch-up read): read it
                    break
                if fresh:
                    yield _formatted(batch, record, bid, view, fresh, sent)
                    sent = fresh[-1].seq
    except redis.exceptions.RedisError:
        return  # the store stopped answering: end the stream; the browser reconnects after RETRY_MS
    finally:
        hub.unsubscribe(subscription)


@bp.get("/<bid>/analysis/stream")
@documented("Follow a branch's analysis live: a notice per verdict stored for this view", response=None,
            query=StreamQuery, errors=(400, 404, 503),
            description="Server-Sent Events: 'event: analysis' with data {\"seq\", \"rollouts\"} each time a worker stores "
                        "the verdict of a position of this branch (its own or its ancestors' up to the fork point) for "
                        "the view asked; the panel then loads the report (GET …/analysis) through the viewer rule. The "
                        "notices carry no verdict. Starts now; last_event_id is ignored.")
def stream_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """``text/event-stream`` of the analysis progress of a branch in one view."""
    record, _, view, _ = _opened(gid, bid)
    holders = _line_of(api().games.branches(gid), bid)
    hub = api().stores.live
    subscription = hub.subscribe(hub.analysis_progress_stream(gid), notices=True)
    return event_stream(_progress_notices(holders, view, subscription))


def _line_of(branches: dict[str, Branch], bid: str) -> dict[str, int]:
    """The branches whose own streams make up ``bid``'s line, each with the last seq of it that the line uses."""
    line: dict[str, int] = {}
    branch, upto = branches[bid], 2**53
    while True:
        line[branch.id] = upto
        if branch.parent is None:
            return line
        upto = branch.fork_seq
        branch = branches[branch.parent]


def _progress_notices(holders: dict[str, int], view: str, subscription: Subscription) -> Iterator[str]:
    """The retry hint, then one message per verdict stored on this line in this view."""
    hub = api().stores.live
    try:
        yield f"retry: {RETRY_MS}\n: following the analysis\n\n"
        while True:
            batches, _ = subscription.take(KEEPALIVE_S)
            if subscription.ended:
                return
            mine = [n for batch in batches for n in batch.notices
                    if n.get("view") == view and int(n.get("seq", 0)) <= holders.get(n.get("holder", ""), -1)]
            if mine:
                yield "".join(f"event: analysis\ndata: {json.dumps({'seq': int(n['seq']), 'rollouts': int(n['rollouts'])})}\n\n"
                              for n in mine)
            elif not batches:
                yield ": keep-alive\n\n"
    except redis.exceptions.RedisError:
        return
    finally:
        hub.unsubscribe(subscription)


@games_bp.get("/<gid>/annotations/stream")
@documented("Follow a game's annotations live: a notice per annotation added, edited, deleted or undone", response=None,
            errors=(404, 503), tag="annotations",
            description="Server-Sent Events: 'event: annotation' with data {\"id\"} (the annotation changed); the notes "
                        "panel then loads the annotations (GET …/annotations). Starts now; no resume.")
def stream_annotations(gid: str) -> ResponseReturnValue:
    """``text/event-stream`` of notices of changed annotations of a game the caller may read."""
    readable_game(gid)
    hub = api().stores.live
    subscription = hub.subscribe(hub.annotations_stream(gid), notices=True)
    return event_stream(_annotation_notices(subscription))


def _annotation_notices(subscription: Subscription) -> Iterator[str]:
    """The retry hint, then one message per annotation change (its id only)."""
    hub = api().stores.live
    try:
        yield f"retry: {RETRY_MS}\n: following the annotations\n\n"
        while True:
            batches, _ = subscription.take(KEEPALIVE_S)
            if subscription.ended:
                return
            ids = [_annotation_id(n) for batch in batches for n in batch.notices]
            if ids:
                yield "".join(f"event: annotation\ndata: {json.dumps({'id': aid})}\n\n" for aid in ids)
            elif not batches:
                yield ": keep-alive\n\n"
    except redis.exceptions.RedisError:
        return
    finally:
        hub.unsubscribe(subscription)


def _annotation_id(notice: dict[str, str]) -> str | None:
    try:
        change = json.loads(notice.get("e", "{}"))
    except ValueError:
        return None
    found = change.get("aid") if isinstance(change, dict) else None
    return found if isinstance(found, str) else None


@games_bp.get("/stream")
@documented("Follow the game list live: a notice per game created or changed that the caller's listing shows",
            response=None, errors=(503,),
            description="Server-Sent Events: 'event: game' with data {\"id\": gid} when a game is created or its listed "
                        "fields (title, visibility, result) change, only for games the caller's listing shows (public "
                        "ones and the caller's own: a private game never appears to others). Starts now; no resume "
                        "(a page that reconnects reloads its list).")
def stream_games() -> ResponseReturnValue:
    """``text/event-stream`` of notices of listed games that changed."""
    hub = api().stores.live
    subscription = hub.subscribe(hub.changed_games_stream(), notices=True)
    return event_stream(_game_notices(current_user(), subscription))


def _game_notices(user: str | None, subscription: Subscription) -> Iterator[str]:
    """The retry hint, then one message per changed game that ``user``'s listing shows."""
    hub = api().stores.live
    try:
        yield f"retry: {RETRY_MS}\n: following the game list\n\n"
        while True:
            batches, _ = subscription.take(KEEPALIVE_S)
            if subscription.ended:
                return
            gids = list(dict.fromkeys(notice["gid"] for batch in batches for notice in batch.notices))
            shown = [gid for gid in gids if _listed(gid, user)]
            if shown:
                yield "".join(f"event: game\ndata: {json.dumps({'id': gid})}\n\n" for gid in shown)
            elif not batches:
                yield ": keep-alive\n\n"
    except redis.exceptions.RedisError:
        return
    finally:
        hub.unsubscribe(subscription)


def _listed(gid: str, user: str | None) -> bool:
    try:
        return is_listed_for(api().games.game(gid), user)
    except NotFoundError:
        return False  # deleted since


def _catch_up(record: GameRecord, bid: str, view: str, sent: int) -> tuple[str, int]:
    """The events after ``sent`` in the store, formatted, and the last seq among them."""
    parts = []
    while True:
        events: list[Event] = api().games.events(record.id, bid, after=sent, limit=CATCH_UP_PAGE)
        if not events:
            return "".join(parts), sent
        parts.append(_format(events_json(record, bid, view, events, sent)))
        sent = events[-1].seq
        if len(events) < CATCH_UP_PAGE:
            return "".join(parts), sent


def _formatted(batch: Batch, record: GameRecord, bid: str, view: str, fresh: list[Event], sent: int) -> str:
    """``fresh`` (the batch's events after ``sent``) as messages in ``view``: formatted once per view and seq for all
    the process's followers of the branch (the batch keeps the text)."""
    key = (view, sent)
    text = batch.formatted.get(key)
    if text is None:
        text = batch.formatted[key] = _format(events_json(record, bid, view, fresh, sent))
    return text


def _view_withdrawn(batch: Batch, record: GameRecord, bid: str, view: str) -> bool:
    """True when this stream's view is no longer the one the seats' rule gives its reader: seats were assigned, taken
    back or handed on since it opened (an open full-view stream must not go on showing a table's hidden cards).

    Whether the branch has seats at all is looked up once per batch by the process's hub, for all its followers; only
    a seated branch's followers ask the rule again, each for themselves.
    """
    seated = batch.seated if batch.seated is not None else api().stores.seats.has_assignments(record.id, bid)
    if not seated and view == "full":
        return False
    try:
        return branch_view(record, [bid], view) != view
    except ApiError:
        return True


def _line_is_over(record: GameRecord, bid: str) -> bool:
    """Whether the branch's line has ended (the rules' outcome at its head), so that no event can follow."""
    if record.is_log_only:
        return True
    position = api().stores.reader.position(record.id, bid, None)
    return position.rules.outcome(position.state) is not None


def _format(seen: list[dict[str, Any]]) -> str:
    return "".join(f"id: {e['seq']}\nevent: {e['type']}\ndata: {json.dumps(e, separators=(',', ':'))}\n\n" for e in seen)

