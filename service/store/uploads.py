"""Upload records: an uploaded log's status, progress, outcome and bytes, on Redis.

An upload is a hash (``keys.upload_for``: status, progress, game id, report) and the file's
bytes (``keys.upload_raw_for``), both in Redis so that any worker can run the import. The same
file (same uploader, bytes and ``partial`` option) maps to one upload through its content
digest; a public upload of a BGA table that is public here already links to that table's game
(``keys.public_table_for``). Uploads not yet finished are in ``keys.uploads_in_flight``, scored
by when they last showed life, so that a dead import can be failed (``service.imports.importer`` runs the
import; this module only keeps the records).
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import redis

from service.store import keys
from service.store.games import new_id
from service.store.replies import as_optional_bytes, as_scored

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
RAW_TTL_SECONDS = 7 * 24 * 3600


def content_digest(raw: bytes, *, partial: bool, owner: str | None = None) -> str:
    """The digest that identifies an upload: who uploaded it, its bytes, and whether a partial import was asked for.

    The owner is part of it: the same file from the same user is the same game, but another
    user's upload of it is their own game (the first one may be private to its uploader).
    """
    return hashlib.sha256((owner or "").encode() + b"\x00" + raw + (b"\x00partial" if partial else b"")).hexdigest()


def game_id_for(digest: str) -> str:
    """The id of the game imported from a file: fixed by its digest, so a re-run job finds what it stored."""
    return "b" + digest[:15]


def _text(value: Any) -> str | None:
    raw = as_optional_bytes(value)
    return raw.decode() if raw is not None else None


#: Deletes a table's claim only if it is still ``gid``'s and settled (no time to live): a fresh claim made
#: since it was read, by another import of the table, is never freed.
_FREE_SETTLED_CLAIM = ("if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('TTL', KEYS[1]) == -1 then "
                       "return redis.call('DEL', KEYS[1]) end return 0")
#: Seconds a BGA table's claim lasts while its game is being stored (an import takes seconds to minutes).
TABLE_CLAIM_SECONDS = 3600


class UploadStore:
    """Upload records on one Redis connection (decode_responses=False)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def submit(self, raw: bytes, *, owner: str | None, partial: bool = False, filename: str | None = None,
               visibility: str = "public", identity: bytes | None = None) -> tuple[str, bool]:
        """Store an upload to import; returns (upload id, True if the same file was uploaded before and not failed).

        ``identity`` stands for the bytes in the digest when the caller knows what makes two files the same log
        (our own export in two formats); by default the bytes do.
        """
        digest = content_digest(raw if identity is None else identity, partial=partial, owner=owner)
        digest_key = keys.upload_by_digest_for(digest)
        uid = new_id(9)
        record = {"status": QUEUED, "filename": (filename or "")[:200], "size": len(raw), "partial": "1" if partial else "0",
                  "owner": owner or "", "visibility": visibility, "created": str(time.time()), "digest": digest, "done": 0,
                  "total": 0}
        # One transaction WATCHing the digest's upload: two copies of the same file sent at once make one upload (the
        # second sees the first's and answers it), where a read then a write let both through as two imports.
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(digest_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    earlier = _text(pipe.get(digest_key))
                    status = _text(pipe.hget(keys.upload_for(earlier), "status")) if earlier is not None else None
                    if earlier is not None and status is not None and status != FAILED:
                        return earlier, True
                    pipe.multi()
                    pipe.hset(keys.upload_for(uid), mapping=record)  # type: ignore[arg-type]
                    pipe.set(keys.upload_raw_for(uid), raw, ex=RAW_TTL_SECONDS)
                    pipe.set(digest_key, uid)
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue
        self.beat(uid)
        return uid, False

    def fields(self, uid: str) -> dict[str, str]:
        """The upload's stored fields as text ({} for an unknown upload)."""
        raw = self.redis.hgetall(keys.upload_for(uid))
        return {k.decode(): v.decode() for k, v in raw.items()}  # type: ignore[union-attr]

    def visibility(self, uid: str) -> str | None:
        """Who may follow the upload: ``public``, ``unlisted`` or ``private`` (None for an unknown upload)."""
        raw = as_optional_bytes(self.redis.hget(keys.upload_for(uid), "visibility"))
        return None if raw is None else raw.decode()

    def status(self, uid: str) -> dict[str, Any] | None:
        """The upload's public record, or None for an unknown upload."""
        data = self.fields(uid)
        if not data:
            return None
        return {
            "id": uid, "status": data.get("status", QUEUED), "filename": data.get("filename") or None,
            "size": int(data.get("size", 0)), "partial": data.get("partial") == "1", "owner": data.get("owner") or None,
            "created": float(data.get("created", 0)),
            "progress": {"done": int(data.get("done", 0)), "total": int(data.get("total", 0))},
            "game": data.get("game") or None, "kind": data.get("kind") or None, "game_name": data.get("game_name") or None,
            "title": data.get("title") or None,
            "incomplete": data.get("incomplete") == "1", "events": int(data.get("events", 0)),
            "error": json.loads(data["error"]) if data.get("error") else None,
            "report": json.loads(data["report"]) if data.get("report") else [],
            "summary": json.loads(data["summary"]) if data.get("summary") else None,
            "linked": data.get("linked") == "1",
        }

    def raw(self, uid: str) -> bytes | None:
        """The uploaded file's bytes, or None once they expired (or the outcome is final)."""
        return as_optional_bytes(self.redis.get(keys.upload_raw_for(uid)))

    def start(self, uid: str) -> None:
        """The import of the upload is running."""
        self.redis.hset(keys.upload_for(uid), "status", RUNNING)
        self.beat(uid)

    def progress(self, uid: str, done: int, total: int) -> None:
        """How far the import is (notifications processed / total); the upload is alive."""
        self.redis.hset(keys.upload_for(uid), mapping={"done": done, "total": total})
        self.beat(uid)

    def beat(self, uid: str) -> None:
        """The upload is alive (queued, started, progressing): the reconciler fails only those silent past a deadline."""
        self.redis.zadd(keys.uploads_in_flight(), {uid: time.time()})

    def silent_since(self, deadline: float, now: float) -> list[tuple[str, float]]:
        """The unfinished uploads last heard of ``deadline`` seconds ago or more at ``now``, with how long ago."""
        rows = as_scored(self.redis.zrangebyscore(keys.uploads_in_flight(), 0, now - deadline, withscores=True))
        return [(uid.decode(), now - score) for uid, score in rows]

    def finish(self, uid: str, fields: dict[str, Any]) -> None:
        """Record the import's final outcome (``fields``: status, report, game …) and drop the bytes."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(keys.upload_for(uid), mapping=fields)  # type: ignore[arg-type]
            # The bytes are needed no more: the outcome is final (the same file again finds it by its digest).
            pipe.delete(keys.upload_raw_for(uid))
            pipe.zrem(keys.uploads_in_flight(), uid)
            pipe.execute()

    def finish_stored(self, uid: str, gid: str) -> None:
        """An earlier run stored the upload's game ``gid`` and died before saying so: say it now."""
        self.redis.hset(keys.upload_for(uid), mapping={"status": DONE, "game": gid})
        self.redis.zrem(keys.uploads_in_flight(), uid)

    def fail(self, uid: str, error: dict[str, Any]) -> bool:
        """Mark an unfinished upload failed with ``error`` (why, as JSON); False, changing nothing, if it had finished.

        For imports that died or hung: the reason is told to the uploader, and the same file
        uploaded again is imported afresh (:meth:`submit` skips failed uploads).
        """
        key = keys.upload_for(uid)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.watch(key)  # type: ignore[no-untyped-call]
            status = _text(pipe.hget(key, "status"))
            if status is None or status in (DONE, FAILED):
                pipe.unwatch()
                self.redis.zrem(keys.uploads_in_flight(), uid)
                return False
            pipe.multi()
            pipe.hset(key, mapping={"status": FAILED, "error": json.dumps(error)})
            pipe.delete(keys.upload_raw_for(uid))
            try:
                pipe.execute()
            except redis.WatchError:  # it finished (or failed) meanwhile: that outcome stands
                return False
        self.redis.zrem(keys.uploads_in_flight(), uid)
        return True

    # -- one public game per BGA table -------------------------------------------------------------
    def public_game_of_table(self, table_id: int) -> str | None:
        """The public game of BGA table ``table_id``: stored and still public, or being stored right now."""
        table_key = keys.public_table_for(table_id)
        gid = _text(self.redis.get(table_key))
        if gid is None:
            return None
        # The claim's time to live before the meta: an import that settles in between is then seen as in
        # flight or as stored, never as a removed game.
        in_flight = self.redis.ttl(table_key) > 0
        visibility = _text(self.redis.hget(keys.game_meta_for(gid), "visibility"))
        if visibility == "public" or (visibility is None and in_flight):
            return gid  # stored, or claimed by an import that is storing its game now: link to it
        if not in_flight:  # removed, or its owner has made it private since: the table is free again
            self.redis.eval(_FREE_SETTLED_CLAIM, 1, table_key, gid)
        return None

    def claim_table(self, table_id: int, gid: str) -> str | None:
        """Name ``gid`` the public game of BGA table ``table_id``; None if it did, else the game that won meanwhile.

        The claim expires after :data:`TABLE_CLAIM_SECONDS` unless :meth:`settle_table` keeps it, so an
        import killed between claiming and storing does not hold the table for ever.
        """
        table_key = keys.public_table_for(table_id)
        if self.redis.set(table_key, gid, nx=True, ex=TABLE_CLAIM_SECONDS):
            return None
        return _text(self.redis.get(table_key)) or gid

    def settle_table(self, table_id: int, gid: str) -> None:
        """Keep ``gid``'s claim on BGA table ``table_id`` for good: its game is stored."""
        table_key = keys.public_table_for(table_id)
        if _text(self.redis.get(table_key)) == gid:
            self.redis.persist(table_key)

    def release_table(self, table_id: int, gid: str) -> None:
        """Free BGA table ``table_id`` if ``gid`` holds it (its game was not stored after all)."""
        table_key = keys.public_table_for(table_id)
        if _text(self.redis.get(table_key)) == gid:
            self.redis.delete(table_key)
