"""A table's chat (issue 46): short messages per branch with seats, live, kept with the game.

``GET …/branches/<bid>/chat`` answers the last messages; ``POST`` adds one (the owner and the people seated, at most
:data:`service.store.chat.MAX_CHARS` characters, :data:`~service.store.chat.POSTS_PER_WINDOW` per user in
:data:`~service.store.chat.POST_WINDOW_S` s: 429 with ``Retry-After`` beyond); ``DELETE …/chat/<id>`` removes one (its
author or the branch's owner); ``GET …/chat/stream`` follows it (Server-Sent Events: ``chat`` with the messages on
opening, then ``said`` and ``unsaid`` as they come).

Who may: the table's rules first (a private game is 404 to everyone but its owner, as every route of the game), then
:func:`service.games.seating.chat_rights`: the owner and the people seated read and write, everyone else reads only
when the game is public (403 ``chat_closed`` otherwise). A chat holds what people typed and nothing of the game's
state, so it needs no view; the text is answered as typed (the page escapes it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, ValidationError, fields, validate

from service.api import sse
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body
from service.api.schemas import Strict, plain_text
from service.games.seating import ChatRights
from service.store.chat import MAX_CHARS, POST_WINDOW_S, POSTS_PER_WINDOW, Entry, check_id
from service.store.games import GameRecord
from service.store.live import Batch
from service.web.auth import current_user, readable_game, require_user
from service.web.context import api
from service.web.seating import chat_rights_of

bp = Blueprint("chat", __name__, url_prefix="/api/games/<gid>/branches/<bid>/chat")

#: What the routes say when they refuse (one place: the strings a page may show).
CLOSED = "the chat of this table is for its players: its game is not public"
NOT_SEATED = "only the table's owner and the people seated at it may write in its chat"
NO_TABLE = "branch {bid!r} has no seats assigned: a chat belongs to a table"
NOT_YOURS = "only its author or the table's owner may delete a message"
TOO_FAST = "you are writing too fast: at most {posts} messages in {window} s; wait {wait} s"


def _not_blank(text: str) -> None:
    if not text.strip():
        raise ValidationError("a message needs something besides spaces")


class ChatPostSchema(Strict):
    """``POST …/chat``: one message."""

    text = fields.String(required=True, validate=[
        validate.Length(min=1, max=MAX_CHARS, error=f"a chat message is 1 to {MAX_CHARS} characters"),
        plain_text(allow_newlines=True), _not_blank], metadata={"description": f"1 to {MAX_CHARS} characters"})


class ChatMessageSchema(Schema):
    """One message as said."""

    id = fields.String(required=True, metadata={"description": "its id (in the order said)"})
    author = fields.String(required=True)
    text = fields.String(required=True, metadata={"description": "as typed: plain text, never markup"})
    time = fields.Float(required=True, metadata={"description": "when it was said (Unix time)"})


class ChatSchema(Schema):
    """A table's chat as the caller may see it."""

    messages = fields.List(fields.Nested(ChatMessageSchema), required=True, metadata={"description": "the last "
                                                                                        "messages, oldest first"})
    may_write = fields.Boolean(required=True, metadata={"description": "the caller may write (the owner or seated)"})
    max_chars = fields.Integer(required=True, metadata={"description": "the longest message"})


@dataclass(frozen=True)
class _Table:
    """The game, the branch's owner and what the caller may do with its chat."""

    record: GameRecord
    bid: str
    owner: str | None
    rights: ChatRights


def _table(gid: str, bid: str) -> _Table:
    """The table as the caller may use its chat; 404 for a game they may not read or a branch that is not there."""
    record = readable_game(gid)
    branch = api().games.branch(gid, bid)
    return _Table(record, bid, branch.owner, _rights(record, bid, branch.owner))


def _rights(record: GameRecord, bid: str, owner: str | None) -> ChatRights:
    return chat_rights_of(record, bid, owner, current_user())


def _readable(gid: str, bid: str) -> _Table:
    table = _table(gid, bid)
    if not table.rights.read:
        raise ApiError(403, "chat_closed", CLOSED, game=gid, branch=bid)
    return table


@bp.get("")
@documented("The chat of a table: its last messages", response=ChatSchema, errors=(403, 404), tag="chat",
            description="The owner and the people seated read it; others only when the game is public (403 "
                        "chat_closed otherwise; a private game is 404 to everyone but its owner).")
def list_chat(gid: str, bid: str) -> ResponseReturnValue:
    """``{"messages": [...], "may_write", "max_chars"}``."""
    table = _readable(gid, bid)
    messages, _ = api().stores.chat.messages(gid, bid)
    return jsonify({"messages": [m.to_json() for m in messages], "may_write": table.rights.write,
                    "max_chars": MAX_CHARS})


@bp.post("")
@documented("Say something at a table (its owner and the people seated)", response=ChatMessageSchema, status=201,
            body=ChatPostSchema, errors=(400, 401, 403, 404, 409, 429), auth="required", tag="chat",
            description=f"400 for an empty message or one over {MAX_CHARS} characters, 403 for someone not at the "
                        f"table, 409 on a branch without seats, 429 with Retry-After beyond {POSTS_PER_WINDOW} "
                        f"messages in {POST_WINDOW_S} s (counted per user at all tables, in one atomic step).")
def post_chat(gid: str, bid: str) -> ResponseReturnValue:
    """201 with the message."""
    user = require_user()
    table = _readable(gid, bid)
    text = load_body(ChatPostSchema)["text"]
    if not table.rights.write:
        assigned = api().stores.seats.has_assignments(gid, bid)
        if table.owner == user and not assigned:
            raise ApiError(409, "no_table", NO_TABLE.format(bid=bid), game=gid, branch=bid)
        raise ApiError(403, "not_at_table", NOT_SEATED, game=gid, branch=bid)
    chat = api().stores.chat
    verdict = chat.take_post(user)
    if verdict.refused:
        raise ApiError(429, "too_fast", TOO_FAST.format(posts=verdict.limit, window=POST_WINDOW_S,
                                                        wait=verdict.retry_after), retry_after=verdict.retry_after)
    return jsonify(chat.say(gid, bid, user, text).to_json()), 201


@bp.delete("/<mid>")
@documented("Delete a message of a table's chat (its author, or the table's owner)", response=None, status=204,
            errors=(401, 403, 404), auth="required", tag="chat")
def delete_chat_message(gid: str, bid: str, mid: str) -> ResponseReturnValue:
    """204; the pages that show the chat drop it at once."""
    user = require_user()
    table = _readable(gid, bid)
    chat = api().stores.chat
    message = chat.message(gid, bid, check_id(mid))
    if user not in (message.author, table.owner):
        raise ApiError(403, "not_yours", NOT_YOURS, game=gid, branch=bid, chat_message=mid)
    chat.unsay(gid, bid, mid, user)
    return "", 204


@bp.get("/stream")
@sse.documented_stream("Follow a table's chat live", tag="chat", errors=(403, 404, 503),
                       description="Server-Sent Events: 'event: chat' on opening with {messages, may_write, max_chars} "
                                   "(as GET …/chat; a page that reconnects gets them again), then 'event: said' with "
                                   "each new message and 'event: unsaid' with {id} for each one deleted; 'event: "
                                   "closed' and the end when the caller may no longer read it (their seat was taken "
                                   "back). The same who-may as GET …/chat.")
def stream_chat(gid: str, bid: str) -> ResponseReturnValue:
    """``text/event-stream`` of the chat."""
    table = _readable(gid, bid)
    hub = api().stores.live
    return sse.open_stream(hub, hub.chat_stream(gid, bid), ChatFeed(table.record, bid, table.owner), notices=True)


def _entry_message(entry: Entry) -> str:
    if entry.message is not None:
        return sse.message("said", entry.message.to_json())
    return sse.message("unsaid", {"id": entry.unsaid})


@dataclass
class ChatFeed:
    """A table's chat as one reader follows it: the messages on opening, then what is said or deleted, read after the
    last entry sent (so nothing is missed or sent twice), while the reader may read it
    (:class:`service.api.sse.Feed`)."""

    record: GameRecord
    bid: str
    owner: str | None
    last: str = "0-0"
    about: str = field(init=False)

    def __post_init__(self) -> None:
        self.about = f"following the chat of {self.record.id}/{self.bid}"

    def opening(self) -> tuple[str, bool]:
        """The last messages, and whether the reader may write."""
        messages, self.last = api().stores.chat.messages(self.record.id, self.bid)
        rights = _rights(self.record, self.bid, self.owner)
        return sse.message("chat", {"messages": [m.to_json() for m in messages], "may_write": rights.write,
                                    "max_chars": MAX_CHARS}), True

    def step(self, batches: list[Batch], lagged: bool) -> tuple[str, bool]:
        """What was said or deleted since the last entry sent; ``closed`` once the reader may no longer read."""
        if not _rights(self.record, self.bid, self.owner).read:
            return sse.message("closed", {"branch": self.bid, "message": CLOSED}), False
        entries = api().stores.chat.since(self.record.id, self.bid, self.last)
        if entries:
            self.last = entries[-1].id
        return "".join(_entry_message(entry) for entry in entries), True
