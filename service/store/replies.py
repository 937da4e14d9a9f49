"""Redis replies, narrowed to the shapes the stores rely on.

Our clients are created with ``decode_responses=False``, so every string in a reply is
``bytes``. redis-py's annotations cannot know that: they allow ``str`` (and sometimes
``None``) wherever a string may come back. These helpers take a raw reply, check it has
the expected shape, and return it precisely typed, so the stores need neither casts nor
``type: ignore``. A reply of another shape raises :class:`UnexpectedReplyError` (a
``TypeError``, as using it unchecked would have raised) that names what was expected.
The checks return the reply itself, never a copy: some of these replies are on hot paths.
"""

from __future__ import annotations


class UnexpectedReplyError(TypeError):
    """A Redis reply not of the shape asked for (a client with decode_responses=True, say)."""

    def __init__(self, expected: str, reply: object) -> None:
        super().__init__(f"unexpected Redis reply: expected {expected}, got {type(reply).__name__} {reply!r:.80}")
        self.expected = expected
        self.reply = reply


def as_bytes(reply: object) -> bytes:
    """A bulk string reply."""
    if not isinstance(reply, bytes):
        raise UnexpectedReplyError("bytes", reply)
    return reply


def as_optional_bytes(reply: object) -> bytes | None:
    """A bulk string reply, or None for a missing key or field."""
    return None if reply is None else as_bytes(reply)


def as_bytes_list(reply: object) -> list[bytes]:
    """An array of bulk strings (ZRANGE without scores, say)."""
    if not isinstance(reply, list):
        raise UnexpectedReplyError("a list of bytes", reply)
    for item in reply:
        as_bytes(item)
    return reply


def as_text_list(reply: object) -> list[str]:
    """An array of bulk strings, each decoded as UTF-8."""
    return [item.decode() for item in as_bytes_list(reply)]


def as_bytes_hash(reply: object) -> dict[bytes, bytes]:
    """HGETALL's reply: field → value (empty for a missing key)."""
    if not isinstance(reply, dict):
        raise UnexpectedReplyError("a dict of bytes to bytes", reply)
    for field, value in reply.items():
        as_bytes(field)
        as_bytes(value)
    return reply


def as_scored(reply: object) -> list[tuple[bytes, float]]:
    """A sorted set's members with their scores (ZRANGEBYSCORE … WITHSCORES, as redis-py pairs them)."""
    if not isinstance(reply, list):
        raise UnexpectedReplyError("a list of (member, score) pairs", reply)
    for pair in reply:
        if not isinstance(pair, tuple) or len(pair) != 2 or not isinstance(pair[1], float):
            raise UnexpectedReplyError("a (member, score) pair", pair)
        as_bytes(pair[0])
    return reply


def as_stream(reply: object) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """XRANGE's reply: ``(entry id, fields)`` pairs in order."""
    if not isinstance(reply, list):
        raise UnexpectedReplyError("a list of stream entries", reply)
    for entry in reply:
        if not isinstance(entry, tuple) or len(entry) != 2:
            raise UnexpectedReplyError("a stream entry (id, fields)", entry)
        as_bytes(entry[0])
        as_bytes_hash(entry[1])
    return reply


def stream_field(fields: dict[bytes, bytes], name: bytes) -> bytes:
    """The value of field ``name`` of a stream entry."""
    value = fields.get(name)
    if value is None:
        raise UnexpectedReplyError(f"a stream entry with field {name!r}", fields)
    return value
