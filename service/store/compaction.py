"""Rewriting a game's stored data in the newest, compact encoding (``ludolog migrate``; ``service/upkeep/migrate.py`` walks
the games). Old entries read without it (``service/store/encoding.py`` upcasts them); this only saves memory.

A branch's stream is compact when every entry is in the current version and packing its events again would not
make fewer entries (events a live game appended one move at a time sit in small entries: they are packed too).
Rewriting a stream is one script call (``rewrite_events.lua``), atomic against appends; a snapshot is stored again
only if unchanged since read (``rewrite_snapshots.lua``). Both are idempotent: a second run finds nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

import redis

from service.store import keys
from service.store.encoding import CURRENT_VERSION, FIELD, decode_entry, entry_version, packed_entries
from service.store.errors import ConflictError
from service.store.replies import as_bytes_hash, as_stream
from service.store.snapshotting import CURRENT_VERSION as CURRENT_SNAPSHOT_VERSION
from service.store.snapshotting import decode_snapshot, encode_snapshot, snapshot_version

_REWRITE_EVENTS = resources.files("service.store").joinpath("rewrite_events.lua").read_text()
_REWRITE_SNAPSHOTS = resources.files("service.store").joinpath("rewrite_snapshots.lua").read_text()
#: What a Redis 6.2 stream entry costs beyond its value, measured with MEMORY USAGE (docs/PERFORMANCE.md, issue 19):
#: a dry run counts it for every entry that packing removes.
ENTRY_COST = 20
#: Times a stream is read again when appends keep changing it under the rewrite (each try reads it whole).
TRIES = 5


@dataclass(frozen=True)
class StreamPlan:
    """A stream's events as read (seqs ``first`` to ``last``) and the compact entries that would replace them."""

    key: str
    first: int
    last: int
    entries_before: int
    old_entries: int
    bytes_before: int
    entries: list[tuple[str, str]]

    @property
    def bytes_after(self) -> int:
        """Bytes of the entries' values once rewritten."""
        return sum(len(value.encode()) for _, value in self.entries)

    @property
    def is_compact(self) -> bool:
        """True when rewriting would change nothing worth it: no old entry, and no fewer entries."""
        return self.old_entries == 0 and len(self.entries) >= self.entries_before


@dataclass
class BranchResult:
    """What compacting one branch did (or, in a dry run, would do)."""

    stream_rewritten: bool = False
    old_entries: int = 0
    entries_before: int = 0
    entries_after: int = 0
    bytes_saved: int = 0
    snapshots_rewritten: int = 0
    appended_meanwhile: int = 0


class StreamChangedError(ConflictError):
    """The stream kept changing under every try (an append storm): the branch is left as it was, still readable
    (``ludolog migrate`` says so in one line; run again, it resumes at that game)."""


class Compactor:
    """Rewrites one branch at a time into the current encoding."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._rewrite_events = client.register_script(_REWRITE_EVENTS)
        self._rewrite_snapshots = client.register_script(_REWRITE_SNAPSHOTS)

    def plan(self, gid: str, bid: str) -> StreamPlan | None:
        """Read the branch's stream and encode it again; None when it has no entries."""
        key = keys.events_for(gid, bid)
        rows = as_stream(self.redis.xrange(key))
        if not rows:
            return None
        events = [event for raw_id, fields in rows for event in decode_entry(raw_id, fields)]
        old = sum(1 for _, fields in rows if entry_version(fields[FIELD]) != CURRENT_VERSION)
        return StreamPlan(key, events[0].seq, events[-1].seq, len(rows), old,
                          sum(len(fields[FIELD]) for _, fields in rows), packed_entries(events))

    def compact(self, gid: str, bid: str, *, dry_run: bool = False) -> BranchResult:
        """Rewrite the branch's stream and snapshots in the current encoding where they are not (``dry_run``: only
        say what that would save). Raises StreamChangedError when appends changed the stream under every try."""
        result = BranchResult()
        for _ in range(TRIES):
            plan = self.plan(gid, bid)
            if plan is None or plan.is_compact:
                break
            result.old_entries, result.entries_before, result.entries_after = plan.old_entries, plan.entries_before, len(plan.entries)
            result.bytes_saved = plan.bytes_before - plan.bytes_after + ENTRY_COST * (plan.entries_before - len(plan.entries))
            if dry_run:
                result.stream_rewritten = True
                break
            args: list[int | str] = [plan.first, plan.last, *(part for entry in plan.entries for part in entry)]
            try:
                reply = self._rewrite_events(keys=[plan.key], args=args)
            except redis.exceptions.ResponseError as exc:
                if "CHANGED" not in str(exc):
                    raise
                continue
            if reply != b"GONE":
                result.stream_rewritten, result.appended_meanwhile = True, int(reply)
            break
        else:
            raise StreamChangedError(f"branch {bid!r} of game {gid!r} kept changing during {TRIES} tries: left as it was",
                                     game=gid, branch=bid)
        saved, result.snapshots_rewritten = self._compact_snapshots(gid, bid, dry_run)
        result.bytes_saved += saved
        return result

    def _compact_snapshots(self, gid: str, bid: str, dry_run: bool) -> tuple[int, int]:
        """Bytes saved and snapshots stored again in the current encoding."""
        key = keys.snapshots_for(gid, bid)
        args: list[bytes | str] = []
        saved = 0
        for seq, raw in as_bytes_hash(self.redis.hgetall(key)).items():
            if snapshot_version(raw) == CURRENT_SNAPSHOT_VERSION:
                continue
            new = encode_snapshot(*decode_snapshot(raw))
            saved += len(raw) - len(new)
            args += [seq, raw, new]
        if dry_run or not args:
            return saved, len(args) // 3
        return saved, int(self._rewrite_snapshots(keys=[key], args=args))

