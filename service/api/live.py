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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, request
from flask.typing import ResponseReturnValue
from marshmallow import fields, validate

from engine import Event
from service.api import sse
from service.api.branches import events_json
from service.api.errors import ApiError
from service.api.inputs import load_query
from service.api.schemas import Strict, _view_field
from service.store.errors import NotFoundError
from service.store.games import Branch, GameRecord
from service.store.live import Batch
from service.web.auth import current_user, is_listed_for, readable_game
from service.web.context import api
from service.web.notifications import page_presence
from service.web.viewing import branch_view, viewer_for_request, views_allowed

bp = Blueprint("live", __name__, url_prefix="/api/games/<gid>/branches")
games_bp = Blueprint("live_games", __name__, url_prefix="/api/games")

#: Events read from the store per round when a stream catches up.
CATCH_UP_PAGE = 500
LAST_EVENT_ID = "Last-Event-ID"


class StreamQuery(Strict):
    """Seen by whom, and from where."""

    view = _view_field()
    last_event_id = fields.Integer(validate=validate.Range(min=0, max=2**53),
                                   metadata={"description": "the last seq the client has (the Last-Event-ID header wins)"})


def _resume_from(query: dict[str, Any]) -> int | None:
    """The seq to resume after: the Last-Event-ID header (ASCII digits only: ``str.isdigit`` also takes "²" or "١",
    which ``int`` then refuses or reads), else the query's ``last_event_id``; None for neither."""
    raw = request.headers.get(LAST_EVENT_ID)
    if raw is None:
        return query.get("last_event_id")
    seq = raw.strip(" \t")
    if not (seq.isascii() and seq.isdigit()) or len(seq) > 16:
        raise ApiError(400, "invalid", f"{LAST_EVENT_ID} header: expected the seq of an event (a whole number)",
                       header=LAST_EVENT_ID)
    return int(seq)


@bp.get("/<bid>/stream")
@sse.documented_stream("Follow a branch live: its new events as Server-Sent Events (text/event-stream)",
                       query=StreamQuery, errors=(400, 404, 503), resumes=True,
                       headers=((LAST_EVENT_ID, "the last seq the client has: the stream resumes after it"),))
def stream_branch(gid: str, bid: str) -> ResponseReturnValue:
    """``text/event-stream`` of the branch's events after Last-Event-ID (or the head).

    Each message: id = the event's seq, event = its type, data = the JSON the events route gives for it in this view.
    Last-Event-ID (or last_event_id) resumes after that seq with no gap and no duplicate; without either, the stream
    starts at the head. A line that is over (or a log-only game) gets its events and then one 'end' message, and the
    stream closes. When seats change so that the view asked is no longer the reader's, one 'view' message ({"head",
    "views": the views the reader may have now, null for every view}) ends the stream.
    """
    record, query, view, head = _opened(gid, bid)
    after = _resume_from(query)
    start = head if after is None else min(after, head)
    hub = api().stores.live
    return sse.open_stream(hub, hub.branch_stream(gid, bid), BranchFeed(record, bid, view, start),
                           around=page_presence(gid, bid))


def _opened(gid: str, bid: str) -> tuple[GameRecord, dict[str, Any], str, int]:
    """What both branch streams check before they start: the game readable by the asker, the query, the view the one
    rule of who sees what (seats included) gives here, not inside the stream, and the branch's head (404 without it)."""
    record = readable_game(gid)
    query = load_query(StreamQuery)
    view = branch_view(record, [bid], query["view"])
    viewer_for_request(record, view)
    return record, query, view, api().games.head(gid, bid)


@dataclass
class BranchFeed:
    """A branch's events in one view: on opening what the stream missed (and the end when the line is over), then each
    new event as the hub delivers it, reading from the store whatever a lag or a gap left out."""

    record: GameRecord
    bid: str
    view: str
    sent: int

    @property
    def about(self) -> str:
        """What the stream follows, from where (a comment on its first line)."""
        return f"following {self.record.id}/{self.bid} from seq {self.sent}"

    def opening(self) -> tuple[str, bool]:
        """What was missed; then the end if the line is over (nothing can follow its last event: no open stream)."""
        text = self._catch_up()
        if _line_is_over(self.record, self.bid):
            return text + sse.message("end", {"head": self.sent}), False
        return text, True

    def step(self, batches: list[Batch], lagged: bool) -> tuple[str, bool]:
        """The new events of ``batches`` after what was sent; what a lag or a gap left out is read from the store. A
        view withdrawn from this reader ends the stream with a 'view' message naming the views the reader may have now
        (the page opens its stream again in one of them: reconnecting in the withdrawn view would be refused)."""
        if lagged:
            return self._catch_up(), True
        parts = []
        for batch in batches:
            if _view_withdrawn(batch, self.record, self.bid, self.view):
                views = views_allowed(self.record, self.bid)
                return "".join(parts) + sse.message("view", {"head": self.sent, "views": views}), False
            fresh = [e for e in batch.events if e.seq > self.sent]
            if fresh and fresh[0].seq != self.sent + 1:
                parts.append(self._catch_up())  # a gap (the hub took the stream up after the catch-up read): read it
                break
            if fresh:
                parts.append(_formatted(batch, self.record, self.bid, self.view, fresh, self.sent))
                self.sent = fresh[-1].seq
        return "".join(parts), True

    def _catch_up(self) -> str:
        """The events after what was sent, read from the store and formatted."""
        text, self.sent = _catch_up(self.record, self.bid, self.view, self.sent)
        return text


@bp.get("/<bid>/analysis/stream")
@sse.documented_stream("Follow a branch's analysis live: a notice per verdict stored for this view",
                       query=StreamQuery, errors=(400, 404, 503))
def stream_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """``text/event-stream`` of the analysis progress of a branch in one view.

    Server-Sent Events: 'event: analysis' with data {"seq", "rollouts", "seed", "left"} each time a worker stores the
    verdict of a position of this branch (its own or its ancestors' up to the fork point) for the view asked (left:
    the seconds the analysis still needs at its pace so far, absent before it is known); the panel then loads the
    report (GET …/analysis) through the viewer rule. The notices carry no verdict.
    """
    record, _, view, _ = _opened(gid, bid)
    holders = _line_of(api().games.branches(gid), bid)
    hub = api().stores.live
    feed = sse.NoticeFeed("following the analysis", _progress_notices(holders, view))
    return sse.open_stream(hub, hub.analysis_progress_stream(gid), feed, notices=True)


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


def _progress_notices(holders: dict[str, int], view: str) -> Callable[[list[Batch]], str]:
    """One message per verdict stored on this line in this view."""
    def render(batches: list[Batch]) -> str:
        mine = [n for batch in batches for n in batch.notices
                if n.get("view") == view and int(n.get("seq", 0)) <= holders.get(n.get("holder", ""), -1)]
        return "".join(sse.message("analysis", _progress(n)) for n in mine)
    return render


def _progress(notice: dict[str, str]) -> dict[str, object]:
    """A verdict-stored notice as the stream says it: its seq, budget and seed, and the run's seconds left at its pace so
    far (``left``, absent before the pace is known)."""
    said: dict[str, object] = {"seq": int(notice["seq"]), "rollouts": int(notice["rollouts"]),
                               "seed": int(notice.get("seed", 0))}
    if "left" in notice:
        said["left"] = round(float(notice["left"]))
    return said


@games_bp.get("/<gid>/annotations/stream")
@sse.documented_stream("Follow a game's annotations live: a notice per annotation added, edited, deleted or undone",
                       tag="annotations",
                       description="Server-Sent Events: 'event: annotation' with data {\"id\"} (the annotation changed); the notes "
                        "panel then loads the annotations (GET …/annotations).")
def stream_annotations(gid: str) -> ResponseReturnValue:
    """``text/event-stream`` of notices of changed annotations of a game the caller may read."""
    readable_game(gid)
    hub = api().stores.live
    feed = sse.NoticeFeed("following the annotations", _annotation_notices)
    return sse.open_stream(hub, hub.annotations_stream(gid), feed, notices=True)


def _annotation_notices(batches: list[Batch]) -> str:
    """One message per annotation change (its id only)."""
    return "".join(sse.message("annotation", {"id": _annotation_id(n)}) for batch in batches for n in batch.notices)


def _annotation_id(notice: dict[str, str]) -> str | None:
    try:
        change = json.loads(notice.get("e", "{}"))
    except ValueError:
        return None
    found = change.get("aid") if isinstance(change, dict) else None
    return found if isinstance(found, str) else None


@games_bp.get("/stream")
@sse.documented_stream("Follow the game list live: a notice per game created or changed that the caller's listing "
                       "shows", errors=(503,),
                       description="Server-Sent Events: 'event: game' with data {\"id\": gid} when a game is created or its listed "
                        "fields (title, visibility, result) change, only for games the caller's listing shows (public "
                        "ones and the caller's own: a private game never appears to others); a page that reconnects "
                        "reloads its list.")
def stream_games() -> ResponseReturnValue:
    """``text/event-stream`` of notices of listed games that changed."""
    hub = api().stores.live
    feed = sse.NoticeFeed("following the game list", _game_notices(current_user()))
    return sse.open_stream(hub, hub.changed_games_stream(), feed, notices=True)


def _game_notices(user: str | None) -> Callable[[list[Batch]], str]:
    """One message per changed game that ``user``'s listing shows."""
    def render(batches: list[Batch]) -> str:
        gids = list(dict.fromkeys(notice["gid"] for batch in batches for notice in batch.notices))
        return "".join(sse.message("game", {"id": gid}) for gid in gids if _listed(gid, user))
    return render


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
    return "".join(sse.message(e["type"], e, e["seq"]) for e in seen)

