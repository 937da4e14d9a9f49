"""A table's chat (issue 46): short messages per branch with seats, kept beside the game's other data.

Each branch's chat is one Redis stream (``keys.chat_for``, under the game's hash tag, deleted with the branch), whose
entries are of two kinds:

* ``said``: a message, ``{kind, author, text, time}``; its id is the entry's id (``<ms>-<n>``, in the order said);
* ``unsaid``: ``{kind, message, by}``, the notice that message ``message`` was deleted (its entry is removed in the
  same script, so a read of the chat never shows it again; the notice tells the pages that show it now).

The stream is what the live chat follows (:class:`service.store.live.LiveHub`): a page that hears of an entry reads
the entries after the last one it has (:meth:`TableChat.since`), so nothing said is missed or shown twice. It keeps
about the last :data:`ENTRIES_KEPT` entries. Who may read or write is the service's rule
(:func:`service.games.seating.chat_rights`); this store keeps the messages and counts each author's posts against a
:class:`~service.store.limits.FixedWindow` (one atomic step: messages sent together cannot pass the limit together).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import redis

from service.store import keys
from service.store.encoding import parse_entry_id
from service.store.errors import InvalidRequestError, NotFoundError
from service.store.limits import FixedWindow, Verdict
from service.store.replies import as_stream

#: The longest message, in characters.
MAX_CHARS = 500
#: Messages one user may post (at all tables together) in one window of :data:`POST_WINDOW_S` seconds.
POSTS_PER_WINDOW = 8
POST_WINDOW_S = 30
#: Entries a chat keeps (older ones are trimmed as new ones come): a table's evening of talk, not an archive.
ENTRIES_KEPT = 1000
#: Messages a read answers: the last ones said.
SHOWN = 200
SAID, UNSAID = "said", "unsaid"
_ID = re.compile(r"^[0-9]{1,20}-[0-9]{1,10}$")

# KEYS: the chat. ARGV: the message's id, who deletes it. Removes the message and notes its deletion, if it is there.
_UNSAY = """if redis.call('XDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'kind', 'unsaid', 'message', ARGV[1], 'by', ARGV[2])
return 1"""


@dataclass(frozen=True)
class Message:
    """One message of a table's chat."""

    id: str
    author: str
    text: str
    time: float

    def to_json(self) -> dict[str, Any]:
        """As the API shows it (the text as typed: the page escapes it, never parses it)."""
        return {"id": self.id, "author": self.author, "text": self.text, "time": self.time}


@dataclass(frozen=True)
class Entry:
    """An entry of the chat's stream: a message said, or the id of one deleted (``unsaid``)."""

    id: str
    message: Message | None = None
    unsaid: str | None = None


def _text(fields: dict[bytes, bytes], name: str) -> str:
    return fields.get(name.encode(), b"").decode()


def _entry(raw_id: bytes, fields: dict[bytes, bytes]) -> Entry:
    entry_id = raw_id.decode()
    if _text(fields, "kind") == UNSAID:
        return Entry(entry_id, unsaid=_text(fields, "message"))
    when = float(_text(fields, "time") or 0)
    return Entry(entry_id, message=Message(entry_id, _text(fields, "author"), _text(fields, "text"), when))


def check_id(message_id: str) -> str:
    """``message_id`` if it is shaped as a message's id; NotFoundError otherwise (no such message)."""
    if not _ID.match(message_id):
        raise NotFoundError(f"no message {message_id[:40]!r}", chat_message=message_id[:40])
    return message_id


class TableChat:
    """The chats of the tables, and how fast each user may post to them."""

    def __init__(self, client: redis.Redis, posts: int = POSTS_PER_WINDOW, window: int = POST_WINDOW_S) -> None:
        self.redis = client
        self.posts = FixedWindow(client, posts, window)
        self._unsay = client.register_script(_UNSAY)

    def take_post(self, user: str) -> Verdict:
        """Count one post of ``user``'s if it fits their window (one atomic step), else count nothing."""
        return self.posts.take(keys.chat_posts_of(user))

    def say(self, gid: str, bid: str, author: str, text: str) -> Message:
        """Add ``author``'s message ``text`` to the chat of branch ``bid`` (the caller checked who and how fast)."""
        if not text or len(text) > MAX_CHARS:
            raise InvalidRequestError(f"a message is 1 to {MAX_CHARS} characters", length=len(text))
        when = time.time()
        raw_id = self.redis.xadd(keys.chat_for(gid, bid), {"kind": SAID, "author": author, "text": text,
                                                           "time": repr(when)}, maxlen=ENTRIES_KEPT, approximate=True)
        entry_id = raw_id.decode() if isinstance(raw_id, bytes) else str(raw_id)
        return Message(entry_id, author, text, when)

    def messages(self, gid: str, bid: str, count: int = SHOWN) -> tuple[list[Message], str]:
        """The last ``count`` messages of the chat, oldest first, and the id of its last entry (``0-0`` for none):
        a follower reads on from there."""
        rows = as_stream(self.redis.xrevrange(keys.chat_for(gid, bid), "+", "-", count=count + SHOWN))
        entries = [_entry(raw_id, fields) for raw_id, fields in reversed(rows)]
        said = [entry.message for entry in entries if entry.message is not None]
        return said[-count:], entries[-1].id if entries else "0-0"

    def since(self, gid: str, bid: str, after: str) -> list[Entry]:
        """The entries after entry ``after``, in order (a follower's news)."""
        rows = as_stream(self.redis.xrange(keys.chat_for(gid, bid), f"({after}", "+", count=ENTRIES_KEPT))
        return [_entry(raw_id, fields) for raw_id, fields in rows]

    def message(self, gid: str, bid: str, message_id: str) -> Message:
        """One message; NotFoundError when there is none of that id (never was, deleted, or trimmed)."""
        rows = as_stream(self.redis.xrange(keys.chat_for(gid, bid), check_id(message_id), message_id))
        found = _entry(*rows[0]) if rows else None
        if found is None or found.message is None:
            raise NotFoundError(f"no message {message_id!r} in the chat of branch {bid!r}", game=gid, branch=bid,
                                chat_message=message_id)
        return found.message

    def unsay(self, gid: str, bid: str, message_id: str, by: str) -> bool:
        """Delete message ``message_id`` (``by`` may: the caller checked) and note it for the pages that show it;
        False when it was gone already (a second deletion racing the first)."""
        done = self._unsay(keys=[keys.chat_for(gid, bid)], args=[check_id(message_id), by, ENTRIES_KEPT])
        return bool(done)

    def carry(self, gid: str, bid: str, new: str) -> None:
        """Give branch ``new`` (a take-back's line, where the table plays on) the messages of ``bid``'s chat, under
        the same ids: the table's talk goes on where it was (the old line keeps its copy). Run again (a take-back
        resumed after its granter died, or two resumers at once), it adds only the messages after ``new``'s last."""
        new_key = keys.chat_for(gid, new)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(new_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    last = as_stream(pipe.xrevrange(new_key, "+", "-", count=1))
                    after = parse_entry_id(last[0][0]) if last else (0, 0)
                    rows = as_stream(pipe.xrange(keys.chat_for(gid, bid), "-", "+", count=ENTRIES_KEPT))
                    said = [(raw_id, fields) for raw_id, fields in rows
                            if parse_entry_id(raw_id) > after and _entry(raw_id, fields).message is not None]
                    pipe.multi()
                    for raw_id, fields in said:
                        pipe.xadd(new_key, dict(fields), id=raw_id)  # type: ignore[arg-type]
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def delete_branch(self, gid: str, bid: str) -> None:
        """Forget the chat of a deleted branch."""
        self.redis.delete(keys.chat_for(gid, bid))
