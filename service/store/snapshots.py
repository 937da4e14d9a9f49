"""Snapshots, a cache of folded states, and reading the state at any seq.

A snapshot is ``(branch, seq, rules version, dumped state)``. Reading the state at a
seq takes the nearest usable snapshot at or below it, along the branch's ancestry,
and folds the events after it. Snapshots are only a cache: folding from scratch gives
the identical state, and the reconciler rebuilds any that are missing or were made by
another rules version.

One fold loop, :func:`fold_steps`, serves every reader of positions: the state at a seq
(:meth:`StateReader.position`) and every position of a branch in turn (:meth:`StateReader.steps`,
what the game page's timeline is folded from).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import redis

from engine import GAME_CREATED, Event, Rules, Setup, apply_event, get_rules
from engine.core.protocol import Action, State
from service.store import keys
from service.store.errors import InvalidRequestError
from service.store.games import Branch, GameStore
from service.store.lru import LRU
from service.store.replies import as_bytes_list, as_optional_bytes
from service.store.snapshotting import decode_snapshot, encode_snapshot

MAX_REMEMBERED_GAMES = 10_000


@dataclass(frozen=True)
class Snapshot:
    """A folded state stored for a branch at ``seq``."""

    branch: str
    seq: int
    rules_version: str
    state: Any


class SnapshotStore:
    """Snapshots per branch: a hash of seq → JSON and a sorted set of seqs to find the nearest."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def put(self, gid: str, bid: str, seq: int, rules_version: str, dumped: Any) -> None:
        """Store one snapshot (both keys in one transaction, so none is ever half written)."""
        payload = encode_snapshot(rules_version, dumped)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(keys.snapshots_for(gid, bid), str(seq), payload)
            pipe.zadd(keys.snapshot_seqs_for(gid, bid), {str(seq): seq})
            pipe.execute()

    def get(self, gid: str, bid: str, seq: int) -> Snapshot | None:
        """The snapshot at exactly ``seq``, if any."""
        raw = as_optional_bytes(self.redis.hget(keys.snapshots_for(gid, bid), str(seq)))
        if raw is None:
            return None
        version, state = decode_snapshot(raw)
        return Snapshot(bid, seq, version, state)

    def nearest(self, gid: str, bid: str, at: int, floor: int = 0) -> Snapshot | None:
        """The branch's own snapshot with the highest seq in [floor, at]."""
        found = as_bytes_list(self.redis.zrevrangebyscore(keys.snapshot_seqs_for(gid, bid), at, floor, start=0, num=1))
        return self.get(gid, bid, int(found[0])) if found else None

    def seqs(self, gid: str, bid: str) -> list[int]:
        """Seqs of every snapshot of the branch, ascending."""
        return [int(s) for s in as_bytes_list(self.redis.zrange(keys.snapshot_seqs_for(gid, bid), 0, -1))]

    def delete(self, gid: str, bid: str, seqs: list[int]) -> None:
        """Remove the snapshots at ``seqs``."""
        if not seqs:
            return
        names = [str(s) for s in seqs]
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(keys.snapshot_seqs_for(gid, bid), *names)
            pipe.hdel(keys.snapshots_for(gid, bid), *names)
            pipe.execute()


@dataclass(frozen=True)
class Position:
    """The state of a branch after event ``seq`` (``head`` is the branch's last seq)."""

    rules: Rules
    state: State
    seq: int
    head: int


@dataclass(frozen=True, slots=True)
class Step:
    """One event folded: the event, its action (None for the game's start), the states before and after it."""

    event: Event
    action: Action | None
    before: State
    state: State


@dataclass(frozen=True)
class Resume:
    """Where a fold its caller keeps stopped: ``state``, after the branch's event ``last``."""

    last: Event
    state: State


def fold_steps(rules: Rules, state: State, events: Iterable[Event]) -> Iterator[Step]:
    """``events`` (already accepted once: not checked again) folded one by one from ``state``.

    The game's start (``game_created``) is a step with no action that leaves the state as it is.
    """
    for event in events:
        if event.type == GAME_CREATED:
            yield Step(event, None, state, state)
            continue
        if event.action is None:  # no event of a stored branch: the engine's own error, which apply_event raises
            yield Step(event, None, state, apply_event(rules, state, event, check=False))
            continue
        action = rules.parse_action(event.action)
        before, state = state, rules.apply(state, action)
        yield Step(event, action, before, state)


def resumed_steps(rules: Rules, setup: Setup, events: list[Event], resume: Resume | None) -> Iterator[Step] | None:
    """The steps of ``events``: from the game's start (``events`` from seq 1), or on from ``resume`` (``events`` from
    its last event's seq); None when ``events`` no longer start with that event (a branch deleted and made again under
    its id)."""
    if resume is None:
        return fold_steps(rules, rules.initial_state(setup), events)
    if not events or events[0] != resume.last:
        return None
    return fold_steps(rules, resume.state, events[1:])


class StateReader:
    """Computes the state at any seq of any branch from snapshots plus the event tail.

    Keeps a small in-process cache of recent states: an event at a given (stream, seq)
    never changes, so a state computed once stays true.
    """

    def __init__(self, games: GameStore, snapshots: SnapshotStore, *, use_snapshots: bool = True, cache_size: int = 64) -> None:
        self.games = games
        self.snapshots = snapshots
        self.use_snapshots = use_snapshots
        self._cache: LRU[tuple[str, str, int], State] = LRU(cache_size)  # gunicorn's threads share this reader
        # What never changes once written: a game's rules and setup, and its branch records
        # (a branch is never edited; new ones are picked up when an unknown id is asked for).
        self._basics: dict[str, tuple[str, Setup]] = {}
        self._branch_records: dict[str, dict[str, Branch]] = {}

    def _game_basics(self, gid: str) -> tuple[str, Setup]:
        basics = self._basics.get(gid)
        if basics is None:
            if len(self._basics) > MAX_REMEMBERED_GAMES:  # a long-lived process reads many games
                self._basics.clear()
                self._branch_records.clear()
            record = self.games.game(gid)
            basics = self._basics[gid] = (record.game, record.setup)
        return basics

    def _branches(self, gid: str, bid: str) -> dict[str, Branch]:
        known = self._branch_records.get(gid)
        if known is None or bid not in known:
            known = self._branch_records[gid] = self.games.branches(gid)
        return known

    def position(self, gid: str, bid: str, seq: int | None = None) -> Position:
        """The state at ``seq`` (default: the head); raises InvalidRequestError out of range."""
        game, setup = self._game_basics(gid)
        rules = get_rules(game)
        branches = self._branches(gid, bid)
        head = self.games.head(gid, bid)
        seq = head if seq is None else seq
        if not 1 <= seq <= head:
            raise InvalidRequestError(f"seq {seq} is out of range: branch {bid!r} has events 1 to {head}", at=seq, head=head)
        owner = self._stream_holding(gid, bid, seq, branches)
        cached = self._recall((gid, owner, seq))
        if cached is not None:
            return Position(rules, cached, seq, head)
        state = self._compute(gid, bid, seq, rules, setup, branches)
        self._remember((gid, owner, seq), state)
        return Position(rules, state, seq, head)

    def _compute(self, gid: str, bid: str, seq: int, rules: Rules, setup: Any, branches: dict[str, Branch]) -> State:
        start_seq, state = 1, None
        if self.use_snapshots:
            snapshot = self._nearest_snapshot(gid, bid, seq, rules.version, branches)
            if snapshot is not None:
                start_seq, state = snapshot.seq, rules.load_state(snapshot.state)
        if state is None:
            state = rules.initial_state(setup)
        for step in fold_steps(rules, state, self.games.events_between(gid, bid, start_seq, seq, branches=branches)):
            state = step.state
        return state

    def steps(self, gid: str, bid: str, upto: int, resume: Resume | None = None) -> Iterator[Step] | None:
        """Every position of the branch to ``upto``, in turn: from the game's start (seq 1, its initial state), or on
        from ``resume`` when the branch still holds its last event (None when it does not: see :func:`resumed_steps`).

        The state at ``upto`` is remembered, as :meth:`position` remembers what it computes.
        """
        game, setup = self._game_basics(gid)
        branches = self._branches(gid, bid)
        after = 0 if resume is None else resume.last.seq - 1
        steps = resumed_steps(get_rules(game), setup, self.games.events_between(gid, bid, after, upto, branches=branches),
                              resume)
        return None if steps is None else self._remembering(gid, self._stream_holding(gid, bid, upto, branches), upto, steps)

    def _remembering(self, gid: str, stream: str, upto: int, steps: Iterator[Step]) -> Iterator[Step]:
        for step in steps:
            if step.event.seq == upto:
                self._remember((gid, stream, upto), step.state)
            yield step

    def _nearest_snapshot(self, gid: str, bid: str, seq: int, version: str, branches: dict[str, Branch]) -> Snapshot | None:
        for segment in reversed(self.games.segments(gid, bid, branches)):
            if segment.first > seq:
                continue
            top = seq if segment.last is None else min(seq, segment.last)
            snapshot = self.snapshots.nearest(gid, segment.branch, top, segment.first)
            if snapshot is not None and snapshot.rules_version == version:
                return snapshot
        return None

    def _stream_holding(self, gid: str, bid: str, seq: int, branches: dict[str, Branch]) -> str:
        for segment in reversed(self.games.segments(gid, bid, branches)):
            if segment.first <= seq:
                return segment.branch
        return bid

    def remember(self, gid: str, bid: str, seq: int, state: State) -> None:
        """Cache ``state`` as branch ``bid``'s state after its own event ``seq`` (just appended)."""
        self._remember((gid, bid, seq), state)

    def _recall(self, key: tuple[str, str, int]) -> State | None:
        return self._cache.get(key)

    def _remember(self, key: tuple[str, str, int], state: State) -> None:
        self._cache.put(key, state)
