"""Annotations (comments and glyphs on a move), kept as their own event stream per game.

Every change is an event: ``annotation_added``, ``annotation_edited``,
``annotation_deleted`` and ``annotation_undone`` (which takes back the newest change
still standing). Nothing is ever lost: the current annotations are a fold of the
stream, and each annotation keeps its history of versions.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import redis

from service.store import keys
from service.store.errors import ConflictError, ForbiddenError, InvalidRequestError, NotFoundError
from service.store.games import new_id
from service.store.replies import as_stream

GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
MAX_TEXT = 10_000
ADDED, EDITED, DELETED, UNDONE = "annotation_added", "annotation_edited", "annotation_deleted", "annotation_undone"


@dataclass(frozen=True)
class Annotation:
    """One comment and/or glyph on (branch, seq), by ``author``; ``version`` counts its changes."""

    id: str
    branch: str
    seq: int
    author: str
    text: str = ""
    glyph: str | None = None
    deleted: bool = False
    version: int = 1
    created: float = 0.0
    updated: float = 0.0
    history: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    def to_json(self, *, with_history: bool = False) -> dict[str, Any]:
        """JSON-safe record (the history only on request)."""
        data = asdict(self)
        data.pop("history")
        if with_history:
            data["history"] = list(self.history)
        return data


def validate_content(text: str | None, glyph: str | None) -> None:
    """Raise InvalidRequestError unless (text, glyph) make an acceptable annotation."""
    if glyph is not None and glyph not in GLYPHS:
        raise InvalidRequestError(f"glyph {glyph!r}: expected one of {' '.join(GLYPHS)}", field="glyph")
    if text is not None and len(text) > MAX_TEXT:
        raise InvalidRequestError(f"comment of {len(text)} characters: at most {MAX_TEXT}", field="text")
    if not (text or "").strip() and glyph is None:
        raise InvalidRequestError("an annotation needs a comment or a glyph", field="text")


def fold_annotations(events: list[dict[str, Any]]) -> dict[str, Annotation]:
    """The annotations after every event of the stream, by id (deleted ones included)."""
    stacks: dict[str, list[Annotation]] = {}
    for event in events:
        aid = event["aid"]
        stack = stacks.setdefault(aid, [])
        if event["type"] == UNDONE:
            if len(stack) > 1:
                stack.pop()
            continue
        stack.append(_next_version(stack[-1] if stack else None, event))
    return {aid: replace(stack[-1], history=tuple(a.to_json() for a in stack)) for aid, stack in stacks.items() if stack}


def _next_version(current: Annotation | None, event: dict[str, Any]) -> Annotation:
    if event["type"] == ADDED or current is None:
        return Annotation(event["aid"], event["branch"], event["seq"], event["author"], event.get("text") or "",
                          event.get("glyph"), False, 1, event["time"], event["time"])
    if event["type"] == DELETED:
        return replace(current, deleted=True, version=current.version + 1, updated=event["time"])
    text = event.get("text")
    return replace(current, text=text if text is not None else current.text,
                   glyph=event["glyph"] if "glyph" in event else current.glyph,
                   deleted=False, version=current.version + 1, updated=event["time"])


class AnnotationStore:
    """Reads and writes a game's annotation stream."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def _events(self, gid: str) -> list[dict[str, Any]]:
        return [json.loads(fields[b"e"]) for _, fields in as_stream(self.redis.xrange(keys.annotations_for(gid)))]

    def all(self, gid: str, *, branch: str | None = None, include_deleted: bool = False) -> list[Annotation]:
        """The game's current annotations, ordered by branch and seq."""
        found = fold_annotations(self._events(gid)).values()
        chosen = [a for a in found if (include_deleted or not a.deleted) and (branch is None or a.branch == branch)]
        return sorted(chosen, key=lambda a: (a.branch, a.seq, a.created))

    def get(self, gid: str, aid: str) -> Annotation:
        """One annotation (deleted ones too, so they can be undone); raises NotFoundError."""
        found = fold_annotations(self._events(gid)).get(aid)
        if found is None:
            raise NotFoundError(f"no annotation {aid!r} in game {gid!r}", annotation=aid)
        return found

    def add(self, gid: str, branch: str, seq: int, author: str, text: str = "", glyph: str | None = None) -> Annotation:
        """A new annotation on (branch, seq)."""
        validate_content(text, glyph)
        aid = new_id(5)
        self._write(gid, {"type": ADDED, "aid": aid, "branch": branch, "seq": seq, "author": author, "text": text, "glyph": glyph})
        return self.get(gid, aid)

    def edit(self, gid: str, aid: str, author: str, *, text: str | None = None, glyph: str | None = None,
             clear_glyph: bool = False, expected_version: int | None = None) -> Annotation:
        """Change the text and/or glyph; only the author may, and only from the current version."""

        def edited(current: Annotation) -> dict[str, Any]:
            new_glyph = None if clear_glyph else (glyph if glyph is not None else current.glyph)
            validate_content(text if text is not None else current.text, new_glyph)
            event: dict[str, Any] = {"type": EDITED, "aid": aid, "author": author, "text": text}
            if glyph is not None or clear_glyph:
                event["glyph"] = new_glyph
            return event

        return self._change(gid, aid, author, expected_version, edited)

    def delete(self, gid: str, aid: str, author: str, *, expected_version: int | None = None) -> Annotation:
        """Mark the annotation deleted (it stays in the stream, and can be undone)."""
        return self._change(gid, aid, author, expected_version, lambda current: {"type": DELETED, "aid": aid, "author": author})

    def undo(self, gid: str, aid: str, author: str, *, expected_version: int | None = None) -> Annotation:
        """Take back the newest change still standing (an edit or a delete)."""

        def undone(current: Annotation) -> dict[str, Any]:
            if current.version == 1:
                raise InvalidRequestError(f"annotation {aid!r} has no change to undo", annotation=aid)
            return {"type": UNDONE, "aid": aid, "author": author}

        return self._change(gid, aid, author, expected_version, undone)

    def _change(self, gid: str, aid: str, author: str, expected_version: int | None,
                make_event: Callable[[Annotation], dict[str, Any]]) -> Annotation:
        """Append the change ``make_event`` derives from the current version, atomically.

        The stream is WATCHed while the current version is read and checked, so a
        concurrent change makes this one fail with 409 instead of applying to a stale view.
        """
        key = keys.annotations_for(gid)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.watch(key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
            current = fold_annotations([json.loads(f[b"e"]) for _, f in as_stream(pipe.xrange(key))]).get(aid)
            if current is None:
                raise NotFoundError(f"no annotation {aid!r} in game {gid!r}", annotation=aid)
            if current.author != author:
                raise ForbiddenError(f"annotation {aid!r} is {current.author}'s: only its author may change it", annotation=aid)
            if expected_version is not None and expected_version != current.version:
                raise ConflictError(f"stale expected_version {expected_version}: annotation {aid!r} is at version {current.version}",
                                    annotation=aid, version=current.version)
            event = make_event(current) | {"time": time.time()}
            pipe.multi()
            pipe.xadd(key, {"e": json.dumps(event, separators=(",", ":"))})
            try:
                pipe.execute()
            except redis.WatchError:
                raise ConflictError(f"annotation {aid!r} changed meanwhile: reload and try again", annotation=aid) from None
        return self.get(gid, aid)

    def _write(self, gid: str, event: dict[str, Any]) -> None:
        event["time"] = time.time()
        self.redis.xadd(keys.annotations_for(gid), {"e": json.dumps(event, separators=(",", ":"))})
