"""The event store: games, branches and their append-only event streams on Redis.

One stream per branch. The main branch holds the whole log; a fork records its
parent and fork point, and its own stream holds only the events after that point
(copy on write), so reading a branch walks its ancestry: each ancestor's events up to
the point where the next branch forked, then the branch's own. Appends go through
``append.lua``, which checks the expected head seq atomically.
"""

from __future__ import annotations

import json
import secrets
import time
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import redis
from redis.typing import EncodableT, FieldT

from engine import Event, game_created
from engine.core.protocol import Setup
from service.store import keys
from service.store.encoding import FIELD, decode_entries, decode_entry, pack, packed_entries, parse_entry_id
from service.store.errors import ConflictError, InvalidRequestError, NotFoundError
from service.store.listing import GameIndex

# Re-exported (``X as X``): the records were defined here once, and callers still name them from the games store.
from service.store.records import MAIN as MAIN
from service.store.records import SOURCE_LOG_ONLY as SOURCE_LOG_ONLY
from service.store.records import VISIBILITIES as VISIBILITIES
from service.store.records import Branch as Branch
from service.store.records import GameRecord as GameRecord
from service.store.replies import as_bytes_hash, as_optional_bytes, as_stream, as_text_list
from service.store.results import GameResult, encode_result
from service.store.snapshotting import encode_snapshot

#: Notices of changed games kept for the live home pages (a page that was away longer reloads its list anyway).
CHANGED_GAMES_KEPT = 1000

IDEMPOTENCY_TTL_SECONDS = 7 * 24 * 3600
_APPEND_SCRIPT = resources.files("service.store").joinpath("append.lua").read_text()
#: Adds a new stream's entries (entry id, value pairs in ARGV) in one call.
_XADD_ALL = "for i = 1, #ARGV, 2 do redis.call('XADD', KEYS[1], ARGV[i], 'e', ARGV[i + 1]) end return #ARGV / 2"


@dataclass(frozen=True)
class AppendResult:
    """Seqs an append stored (or, for a retried idempotent append, stored the first time)."""

    first_seq: int
    last_seq: int
    duplicate: bool = False
    #: The fingerprint the first request with the idempotency key stored ('' when it gave none).
    fingerprint: str = ""


@dataclass(frozen=True)
class IdempotencyKey:
    """An idempotency key as the principal who sent it: a key belongs to its first user on a branch (a user name, or
    the engine's ``~engine``, which no user name can be), so the same text from anyone else is another key."""

    principal: str
    key: str


@dataclass(frozen=True)
class Segment:
    """Part of a branch's history that lives in one stream: seqs ``first`` to ``last``."""

    branch: str
    first: int
    last: int | None


def new_id(nbytes: int = 6) -> str:
    """A short random, URL-safe id."""
    return secrets.token_urlsafe(nbytes).replace("-", "x").replace("_", "y")


def closed_by_takeback(bid: str, moved_to: str) -> ConflictError:
    """The refusal of a move on branch ``bid``, closed by a take-back: the table plays on at ``moved_to`` (``""``: the
    new line is still being made)."""
    where = f": the table plays on at branch {moved_to!r}" if moved_to else ""
    return ConflictError(f"branch {bid!r} was closed by a take-back its players granted{where}",
                         branch=bid, moved_to=moved_to or None, reason="taken_back")


def new_seed() -> str:
    """A seed the server draws for a branch's chance: 128 random bits, so that its SHA-256 (shown from the start of a
    table) cannot be searched back to it, and nobody, its owner included, can foresee its draws before it is revealed."""
    return secrets.token_urlsafe(16)


def _parse_stored_result(text: str) -> AppendResult:
    """The result an idempotent append stored as ``first:last:fingerprint`` (``first:last`` before fingerprints)."""
    first, last, *rest = text.split(":", 2)
    return AppendResult(int(first), int(last), duplicate=True, fingerprint=rest[0] if rest else "")


class GameStore:
    """Games, branches and events on one Redis connection (decode_responses=False)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._append = client.register_script(_APPEND_SCRIPT)
        self.index = GameIndex(client)
        #: On a cluster the listing indexes (one slot of their own) cannot join a game's transaction.
        self._indexes_in_game_transaction = not isinstance(client, redis.RedisCluster)

    # -- games ---------------------------------------------------------------------------
    def create_game(self, game: str, rules_version: str, setup: Setup, *, owner: str | None, seed: str | None = None,
                    visibility: str = "public", source: str = "live", title: str = "", gid: str | None = None,
                    extra: dict[str, Any] | None = None, meta: dict[str, Any] | None = None) -> GameRecord:
        """Store a new game with its ``game_created`` event at seq 1 on branch ``main``."""
        if visibility not in VISIBILITIES:
            raise InvalidRequestError(f"visibility {visibility!r}: expected one of {', '.join(VISIBILITIES)}")
        gid = gid or new_id()
        now = time.time()
        record = GameRecord(gid, game, rules_version, setup, owner, visibility, source, now, title, extra or {})
        main = Branch(MAIN, MAIN, owner, seed if seed is not None else new_seed(), created=now, seed_chosen=seed is not None)
        self._store_new_game(record, main, [game_created(game, rules_version, setup, **(meta or {}))])
        return record

    def create_imported(self, gid: str, game: str, rules_version: str, setup: Setup, events: Sequence[Event], *,
                        owner: str | None, visibility: str, source: str, title: str, extra: dict[str, Any],
                        incomplete: bool = False, snapshots: Sequence[tuple[int, str, Any]] = (),
                        log_record: dict[str, Any] | None = None, result: GameResult | None = None,
                        original: bytes | None = None) -> GameRecord:
        """Store a whole imported game at once: its record, a main branch (flagged ``incomplete`` for a partial
        import), every event (``game_created`` first), its ``(seq, rules version, dumped state)`` snapshots and,
        for a log-only game, its log record and ``original``, the file as uploaded; ``result`` when the log ends the
        game. One transaction: a failed import stores nothing.
        """
        if visibility not in VISIBILITIES:
            raise InvalidRequestError(f"visibility {visibility!r}: expected one of {', '.join(VISIBILITIES)}")
        now = time.time()
        record = GameRecord(gid, game, rules_version, setup, owner, visibility, source, now, title, extra, result)
        main = Branch(MAIN, MAIN, owner, new_id(8), created=now, incomplete=incomplete)
        self._store_new_game(record, main, events, snapshots, log_record, original)
        if source == SOURCE_LOG_ONLY:
            self.redis.sadd(keys.log_only_games(), game)
        return record

    def _store_new_game(self, record: GameRecord, main: Branch, events: Sequence[Event],
                        snapshots: Sequence[tuple[int, str, Any]] = (), log_record: dict[str, Any] | None = None,
                        original: bytes | None = None) -> None:
        """The one way a game enters the store: meta, main branch, events and snapshots in one transaction, then
        the listing. Raises ConflictError when the id is taken."""
        gid = record.id
        meta_hash: Mapping[FieldT, EncodableT] = {
            k: (json.dumps(v) if k in ("setup", "extra", "result") else ("" if v is None else str(v)))
            for k, v in record.to_json().items()
        }
        meta_key = keys.game_meta_for(gid)
        with self.redis.pipeline(transaction=True) as pipe:
            # WATCH, then check: MULTI alone would not stop at an existing id, and would overwrite it.
            pipe.watch(meta_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
            if pipe.exists(meta_key):
                raise ConflictError(f"game {gid!r} exists already", game=gid)
            pipe.multi()
            pipe.hset(meta_key, mapping=meta_hash)
            pipe.hset(keys.branches_for(gid), MAIN, json.dumps(main.to_json()))
            pipe.hset(keys.branch_head_for(gid), MAIN, events[-1].seq)
            entries = packed_entries(events)
            if len(entries) == 1:  # a new game: redis-py's cluster pipelines have XADD but no EVAL
                pipe.xadd(keys.events_for(gid, MAIN), {FIELD: entries[0][1]}, id=entries[0][0])
            else:  # an imported one: one script call adds every entry (a command per entry costs more to pack than to run)
                pipe.eval(_XADD_ALL, 1, keys.events_for(gid, MAIN), *(part for entry in entries for part in entry))
            if snapshots:
                pipe.hset(keys.snapshots_for(gid, MAIN),
                          mapping={str(seq): encode_snapshot(version, state) for seq, version, state in snapshots})
                pipe.zadd(keys.snapshot_seqs_for(gid, MAIN), {str(seq): seq for seq, _, _ in snapshots})
            if log_record is not None:
                pipe.set(keys.log_record_for(gid), json.dumps(log_record, separators=(",", ":")))
            if original is not None:
                pipe.set(keys.original_log_for(gid), zlib.compress(original, 6))
            if self._indexes_in_game_transaction:  # the listing and its indexes commit with the game
                order = self.redis.incr(keys.games_counter())
                pipe.zadd(keys.games_index(), {gid: order})
                self.index.add_to(pipe, record, order)
            try:
                pipe.execute()
            except redis.WatchError:
                raise ConflictError(f"game {gid!r} was created meanwhile", game=gid) from None
        if not self._indexes_in_game_transaction:
            self.index_game(gid)
        self.announce_change(gid)

    def announce_change(self, gid: str) -> None:
        """Tell the live home pages that game ``gid`` was created or its listed fields changed (they decide, per
        reader, whether it is theirs to see)."""
        self.redis.xadd(keys.games_changed(), {"gid": gid}, maxlen=CHANGED_GAMES_KEPT, approximate=True)

    def index_game(self, gid: str, *, again: bool = False) -> None:
        """Put a stored game in the listing and its indexes, once (idempotent). On a single node the game's
        transaction did it already; on a cluster the keys span slots, so this second step does it (an import that
        died between the two calls this again; the reconciler passes ``again`` for a game missing from an index)."""
        if self.redis.zscore(keys.games_index(), gid) is None:
            self.redis.zadd(keys.games_index(), {gid: self.redis.incr(keys.games_counter())}, nx=True)
            again = True
        if again:  # ``again``: a listed game whose indexes were lost (the reconciler, ``ludolog reindex``)
            order = self.redis.zscore(keys.games_index(), gid)
            self.index.add(self.game(gid), float(order or 0))

    def log_record(self, gid: str) -> Any:
        """A log-only game's record of log lines (decoded JSON), or None."""
        raw = as_optional_bytes(self.redis.get(keys.log_record_for(gid)))
        return None if raw is None else json.loads(raw)

    def original_log(self, gid: str) -> bytes | None:
        """A log-only game's file as it was uploaded, or None (a game with rules, or stored before it was kept)."""
        raw = as_optional_bytes(self.redis.get(keys.original_log_for(gid)))
        return None if raw is None else zlib.decompress(raw)

    def log_only_game_names(self) -> set[str]:
        """The names of the BGA games that log-only games stored here are of (games with no rules here)."""
        return set(as_text_list(list(self.redis.smembers(keys.log_only_games()))))

    def exists(self, gid: str) -> bool:
        """True if game ``gid`` is stored."""
        return bool(self.redis.exists(keys.game_meta_for(gid)))

    def game(self, gid: str) -> GameRecord:
        """The game's record; raises NotFoundError."""
        raw = as_bytes_hash(self.redis.hgetall(keys.game_meta_for(gid)))
        if not raw:
            raise NotFoundError(f"no game {gid!r}", game=gid)
        return GameRecord.from_hash({k.decode(): v.decode() for k, v in raw.items()})

    def games(self, gids: Sequence[str]) -> list[GameRecord]:
        """The records of the stored games among ``gids``, in that order, read in one round trip (a listing's page)."""
        with self.redis.pipeline(transaction=False) as pipe:
            for gid in gids:
                pipe.hgetall(keys.game_meta_for(gid))
            replies = pipe.execute()
        return [GameRecord.from_hash({k.decode(): v.decode() for k, v in as_bytes_hash(raw).items()})
                for raw in replies if raw]

    def set_game_fields(self, gid: str, **fields: Any) -> None:
        """Update metadata fields (title, visibility, extra) of an existing game."""
        self._rewrite_meta(gid, {k: json.dumps(v) if k == "extra" else str(v) for k, v in fields.items()})
        self.announce_change(gid)

    def record_result(self, gid: str, result: GameResult) -> None:
        """Record that the game's main line has ended, and how: it moves to the finished listings (idempotent)."""
        self._rewrite_meta(gid, {"result": encode_result(result)})
        self.announce_change(gid)

    def _rewrite_meta(self, gid: str, encoded: dict[str, str]) -> None:
        """Write meta fields and move the game in the listing indexes to match. On one node that is one transaction
        (retried if another write changed the game meanwhile, so two changes never index a stale mix); on a
        cluster the meta write, then the move (the reconciler puts back what a crash between them loses)."""
        meta_key = keys.game_meta_for(gid)
        mapping: Mapping[FieldT, EncodableT] = {k: v for k, v in encoded.items()}  # typed as redis-py wants
        if not self._indexes_in_game_transaction:
            before = self.game(gid)
            self.redis.hset(meta_key, mapping=mapping)
            self._move_in_indexes(before)
            return
        while True:
            with self.redis.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(meta_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    stored = {k.decode(): v.decode() for k, v in as_bytes_hash(pipe.hgetall(meta_key)).items()}
                    if not stored:
                        raise NotFoundError(f"no game {gid!r}", game=gid)
                    order = pipe.zscore(keys.games_index(), gid)
                    pipe.multi()
                    pipe.hset(meta_key, mapping=mapping)
                    if order is not None:  # not listed yet: index_game will index it whole
                        self.index.move_on(pipe, GameRecord.from_hash(stored), GameRecord.from_hash(stored | encoded),
                                           float(order))
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def _move_in_indexes(self, before: GameRecord) -> None:
        """Bring a listed game's indexes in line with its stored record (``before``: what it was indexed as)."""
        order = self.redis.zscore(keys.games_index(), before.id)
        if order is None:
            return  # not listed yet: index_game will index it whole
        self.index.move(before, self.game(before.id), float(order))

    def game_ids(self, *, newest_first: bool = True, limit: int = 200, offset: int = 0) -> list[str]:
        """Ids of games, by creation time."""
        fetch = self.redis.zrevrange if newest_first else self.redis.zrange
        return as_text_list(fetch(keys.games_index(), offset, offset + limit - 1))

    def game_count(self) -> int:
        """How many games are listed (every stored game, whoever may see it)."""
        return int(self.redis.zcard(keys.games_index()))

    # -- branches --------------------------------------------------------------------------
    def branches(self, gid: str) -> dict[str, Branch]:
        """Every branch of the game by id; raises NotFoundError for an unknown game."""
        raw = as_bytes_hash(self.redis.hgetall(keys.branches_for(gid)))
        if not raw:
            raise NotFoundError(f"no game {gid!r}", game=gid)
        return {k.decode(): Branch(**json.loads(v)) for k, v in raw.items()}

    def branch(self, gid: str, bid: str) -> Branch:
        """One branch; raises NotFoundError."""
        raw = as_optional_bytes(self.redis.hget(keys.branches_for(gid), bid))
        if raw is None:
            self.branches(gid)  # an unknown game says so rather than "no branch"
            raise NotFoundError(f"no branch {bid!r} in game {gid!r}", game=gid, branch=bid)
        return Branch(**json.loads(raw))

    def head(self, gid: str, bid: str) -> int:
        """Seq of the branch's last event."""
        raw = as_optional_bytes(self.redis.hget(keys.branch_head_for(gid), bid))
        if raw is None:
            self.branch(gid, bid)
            raise NotFoundError(f"no branch {bid!r} in game {gid!r}", game=gid, branch=bid)
        return int(raw)

    def heads(self, gid: str) -> dict[str, int]:
        """Head seq of every branch."""
        return {k.decode(): int(v) for k, v in as_bytes_hash(self.redis.hgetall(keys.branch_head_for(gid))).items()}

    def fork(self, gid: str, parent: str, at: int, *, owner: str | None, name: str = "", seed: str | None = None,
             bid: str | None = None, incomplete: bool = False, chance: str = "redraw") -> Branch:
        """A new branch whose history is ``parent``'s events 1..``at``, then its own."""
        parent_head = self.head(gid, parent)
        if not 1 <= at <= parent_head:
            raise InvalidRequestError(f"cannot fork branch {parent!r} at seq {at}: expected 1 to {parent_head}",
                                      branch=parent, at=at, head=parent_head)
        bid = bid or new_id(4)
        branch = Branch(bid, name or bid, owner, seed if seed is not None else new_seed(), parent, at, time.time(), incomplete,
                        chance, seed_chosen=seed is not None)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hsetnx(keys.branches_for(gid), bid, json.dumps(branch.to_json()))
            pipe.hsetnx(keys.branch_head_for(gid), bid, at)
            created, _ = pipe.execute()
        if not created:
            raise ConflictError(f"branch {bid!r} exists already in game {gid!r}", game=gid, branch=bid)
        return branch

    def has_branch(self, gid: str, bid: str) -> bool:
        """True while branch ``bid`` of game ``gid`` exists (one HEXISTS)."""
        return bool(self.redis.hexists(keys.branches_for(gid), bid))

    def delete_branch(self, gid: str, bid: str) -> None:
        """Delete a leaf fork: its record, head, events, snapshots and analysis (a line nobody forked from).

        Raises NotFoundError for an unknown branch, InvalidRequestError for ``main`` (the game itself), and
        ConflictError when another branch forks from it, including one forked while this ran (the check and
        the delete are one transaction on the game's branch table).
        """
        if bid == MAIN:
            raise InvalidRequestError(f"branch {MAIN!r} is the game itself and cannot be deleted", game=gid, branch=bid)
        table = keys.branches_for(gid)
        with self.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(table)  # type: ignore[no-untyped-call]  # redis-py leaves watch() unannotated
                branches = {k.decode(): Branch(**json.loads(v)) for k, v in as_bytes_hash(pipe.hgetall(table)).items()}
                if bid not in branches:
                    raise NotFoundError(f"no branch {bid!r} in game {gid!r}", game=gid, branch=bid)
                forks = sorted(b.id for b in branches.values() if b.parent == bid)
                if forks:
                    raise ConflictError(f"branch {bid!r} has forks ({', '.join(forks)}): only a leaf can be deleted",
                                        game=gid, branch=bid, forks=forks)
                pipe.multi()
                pipe.hdel(table, bid)
                pipe.hdel(keys.branch_head_for(gid), bid)
                pipe.delete(keys.events_for(gid, bid), keys.snapshot_seqs_for(gid, bid), keys.snapshots_for(gid, bid),
                            keys.fold_pending_for(gid, bid))
                pipe.execute()
            except redis.WatchError:
                raise ConflictError(f"branch {bid!r} changed while being deleted (forked?): try again",
                                    game=gid, branch=bid) from None
        self.delete_analysis(gid, bid)

    def delete_analysis(self, gid: str, bid: str) -> int:
        """Delete every analysis key of branch ``bid`` (results of every budget and view, request marks); how many.

        Found by SCAN (a deletion is rare; an index of them would cost a write per result). A branch that
        is gone gets no new keys: its queued jobs are cancelled and a running one stops.
        """
        found = list(self.redis.scan_iter(match=keys.analysis_keys_of_branch(gid, bid), count=1000))
        return int(self.redis.delete(*found)) if found else 0

    def segments(self, gid: str, bid: str, branches: dict[str, Branch] | None = None) -> list[Segment]:
        """The streams a branch's history is read from, root first."""
        branches = branches if branches is not None else self.branches(gid)
        if bid not in branches:
            raise NotFoundError(f"no branch {bid!r} in game {gid!r}", game=gid, branch=bid)
        chain: list[Segment] = []
        upto: int | None = None
        current: str | None = bid
        while current is not None:
            branch = branches[current]
            chain.append(Segment(current, branch.fork_seq + 1, upto))
            upto, current = branch.fork_seq, branch.parent
        return chain[::-1]

    # -- events ------------------------------------------------------------------------------
    def append(self, gid: str, bid: str, events: Sequence[Event], expected_seq: int, *,
               idempotency_key: IdempotencyKey | None = None, fingerprint: str = "",
               ends: GameResult | None = None) -> AppendResult:
        """Store ``events`` as seqs expected_seq+1… if the head is still ``expected_seq``; ``ends``: these events end
        the line, with this result (on ``main``, the game is then recorded finished: :meth:`record_result`).

        Raises ConflictError (with the actual head) when another write got there first.
        With an idempotency key, an append whose key its principal used before stores nothing and
        returns the first one's result (``duplicate``, with the ``fingerprint`` it stored),
        whatever the head is now: the caller compares fingerprints to tell a retry from a reuse.
        """
        if not events:
            raise InvalidRequestError("nothing to append")
        keys_ = [keys.branch_head_for(gid), keys.events_for(gid, bid), self._idempotency_key(gid, bid, idempotency_key),
                 keys.branch_closed_for(gid, bid)]
        ttl = IDEMPOTENCY_TTL_SECONDS if idempotency_key else 0
        try:  # the entries' ids (so the events' seqs) are the script's to give: it alone knows the head for certain
            reply = self._run_append(keys_, [bid, expected_seq, ttl, fingerprint,
                                             *(part for entry in pack(events) for part in entry)])
        except redis.exceptions.ResponseError as exc:
            raise self._append_error(gid, bid, expected_seq, str(exc)) from None
        if not isinstance(reply, int):
            return _parse_stored_result(reply.decode().removeprefix("DUPLICATE "))
        if ends is not None and bid == MAIN:
            self.record_result(gid, ends)
        return AppendResult(expected_seq + 1, reply)

    def _append_error(self, gid: str, bid: str, expected_seq: int, reply: str) -> Exception:
        if reply.startswith("CONFLICT"):
            head = int(reply.split()[1])
            return ConflictError(f"stale expected_seq {expected_seq}: branch {bid!r} is at seq {head}",
                                 expected_seq=expected_seq, head=head)
        if reply.startswith("CLOSED"):
            return closed_by_takeback(bid, reply.removeprefix("CLOSED").strip())
        if reply == "NOBRANCH":
            self.branch(gid, bid)  # raises "no game" for an unknown game
            return NotFoundError(f"no branch {bid!r} in game {gid!r}", game=gid, branch=bid)
        return InvalidRequestError(f"append refused by Redis: {reply}")

    def _run_append(self, keys_: list[str], args: list[Any]) -> Any:
        """EVALSHA the append script (loading it once if the server lost it).

        Called directly rather than through redis-py's Script wrapper: appends are the hot
        path, and the wrapper's per-call checks cost about a tenth of an append.
        """
        try:
            return self.redis.evalsha(self._append.sha, len(keys_), *keys_, *args)
        except redis.exceptions.NoScriptError:
            self.redis.script_load(_APPEND_SCRIPT)
            return self.redis.evalsha(self._append.sha, len(keys_), *keys_, *args)

    @staticmethod
    def _idempotency_key(gid: str, bid: str, key: IdempotencyKey | None) -> str:
        """The Redis key of ``key``'s stored result (a placeholder when there is none: the script declares it anyway)."""
        return keys.idempotency_for(gid, bid, key.principal, key.key) if key else keys.idempotency_for(gid, bid, "-", "-")

    def idempotent_result(self, gid: str, bid: str, key: IdempotencyKey) -> AppendResult | None:
        """What an earlier append with idempotency key ``key`` (by its principal) stored, if it did."""
        raw = as_optional_bytes(self.redis.get(self._idempotency_key(gid, bid, key)))
        return None if raw is None else _parse_stored_result(raw.decode())

    def events(self, gid: str, bid: str, *, after: int = 0, limit: int | None = None,
               branches: dict[str, Branch] | None = None) -> list[Event]:
        """The branch's events with seq > ``after``, at most ``limit`` of them, in order."""
        return list(self.iter_events(gid, bid, after=after, upto=None, limit=limit, branches=branches))

    def events_between(self, gid: str, bid: str, after: int, upto: int, *, branches: dict[str, Branch] | None = None) -> list[Event]:
        """The branch's events with ``after`` < seq ≤ ``upto``."""
        return list(self.iter_events(gid, bid, after=after, upto=upto, branches=branches))

    def iter_events(self, gid: str, bid: str, *, after: int = 0, upto: int | None = None, limit: int | None = None,
                    branches: dict[str, Branch] | None = None, page: int = 2000) -> Iterator[Event]:
        """Events of a branch with ``after`` < seq ≤ ``upto``, read ``page`` stream entries at a time."""
        remaining = limit if limit is not None else float("inf")
        for segment in self.segments(gid, bid, branches):
            low = max(after + 1, segment.first)
            bounds = [x for x in (upto, segment.last) if x is not None]
            high = min(bounds) if bounds else None
            while remaining > 0 and (high is None or low <= high):
                # Seqs run on without a gap: the next ``remaining`` events end at a known seq.
                top = high if remaining == float("inf") else min(x for x in (high, low + int(remaining) - 1) if x is not None)
                rows, full = self._entries(keys.events_for(gid, segment.branch), low, top, page)
                for event in decode_entries(rows, low, top):
                    yield event
                    remaining -= 1
                    if remaining <= 0:
                        return
                if not full:
                    break
                low = parse_entry_id(rows[-1][0])[0] + 1

    def _entries(self, stream: str, low: int, high: int | None, count: int) -> tuple[list[tuple[bytes, dict[bytes, bytes]]], bool]:
        """Up to ``count`` entries holding the events from seq ``low`` on (to ``high``), and whether that was a full
        page (more may follow). An entry holds several events, so the entry holding ``high`` ends after it: it is
        read in the same round trip as the first after ``high``."""
        if high is None:
            rows = as_stream(self.redis.xrange(stream, str(low), "+", count=count))
            return rows, len(rows) == count
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.xrange(stream, str(low), str(high), count=count)
            pipe.xrange(stream, str(high + 1), "+", count=1)
            inside, beyond = pipe.execute()
        rows = as_stream(inside)
        if len(rows) == count:
            return rows, True
        return rows + as_stream(beyond), False

    def first_event(self, gid: str) -> Event:
        """The game's ``game_created`` event."""
        rows = as_stream(self.redis.xrange(keys.events_for(gid, MAIN), "-", "+", count=1))
        if not rows:
            raise NotFoundError(f"no game {gid!r}", game=gid)
        return decode_entry(*rows[0])[0]
