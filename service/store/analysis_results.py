"""Stored analysis: each position's verdict per (rules version, search version, budget, view, seed), and the
marks of the analyses asked for.

A verdict is kept in the hash of the branch whose own stream holds the position (:func:`holder_of`), so a
fork shares its parent's verdicts up to the fork point. :mod:`service.games.analysis` decides what to judge and
how to report it; this module is the one reader and writer of those keys.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

import redis

from service.store import keys
from service.store.records import Branch

#: Progress notices kept per game: a panel that was away longer loads the whole report again anyway.
PROGRESS_NOTICES_KEPT = 200


class Judged(Protocol):
    """A position as the results hash files it: its seq, and the field its verdict is stored under."""

    @property
    def seq(self) -> int:
        """The seq of the state judged."""

    @property
    def field(self) -> str:
        """The hash field of its verdict."""


def holder_of(branches: dict[str, Branch], bid: str, seq: int) -> str:
    """The branch whose own stream holds ``seq`` (an ancestor at or below the fork points)."""
    branch = branches[bid]
    while branch.parent is not None and seq <= branch.fork_seq:
        branch = branches[branch.parent]
    return branch.id


class AnalysisResults:
    """The stored results of one (budget, view, seed) for the branches of a game.

    ``search_version`` is the game's own (:func:`engine.analysis.search_version`: the search version, and the game's
    verdict settings where it names any), so a game whose method changed never reads another method's verdicts.
    """

    def __init__(self, client: redis.Redis, gid: str, rules_version: str, rollouts: int, view: str,
                 seed: int = 0, *, search_version: str) -> None:
        self.redis, self.gid, self.rules_version = client, gid, rules_version
        self.rollouts, self.view, self.seed = rollouts, view, seed
        self.search_version = search_version

    def key(self, holder: str) -> str:
        """The hash holding the results of positions in ``holder``'s own stream."""
        return keys.analysis_for(self.gid, holder, self.rules_version, self.search_version, self.rollouts, self.view,
                                 self.seed)

    def get_many(self, branches: dict[str, Branch], bid: str, positions: Sequence[Judged]) -> dict[int, dict[str, Any]]:
        """The stored results of ``positions`` by seq (one HMGET per holding branch)."""
        by_holder: dict[str, list[Judged]] = {}
        for position in positions:
            by_holder.setdefault(holder_of(branches, bid, position.seq), []).append(position)
        found: dict[int, dict[str, Any]] = {}
        for holder, wanted in by_holder.items():
            raws = self.redis.hmget(self.key(holder), [p.field for p in wanted])
            for position, raw in zip(wanted, raws, strict=True):
                if raw is not None:
                    found[position.seq] = json.loads(raw)
        return found

    def has(self, holder: str, position: Judged) -> bool:
        """True if ``position``'s verdict is stored."""
        return bool(self.redis.hexists(self.key(holder), position.field))

    def put(self, holder: str, position: Judged, result: dict[str, Any]) -> bool:
        """Store a result unless one is there already (the first stays), and tell the pages that follow the analysis;
        True if stored."""
        stored = bool(self.redis.hsetnx(self.key(holder), position.field, json.dumps(result, separators=(",", ":"))))
        if stored:
            notice = {"holder": holder, "seq": str(position.seq), "rollouts": str(self.rollouts), "view": self.view}
            self.redis.xadd(keys.analysis_progress_for(self.gid), notice,  # type: ignore[arg-type]
                            maxlen=PROGRESS_NOTICES_KEPT, approximate=True)
        return stored


class AnalysisRequests:
    """The marks (with a time to live) of the analyses asked for and not finished: what makes a report ``running``."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def mark(self, gid: str, bid: str, rollouts: int, view: str, seed: int, ttl: int) -> None:
        """An analysis of the branch at this budget, view and seed was queued; the mark lasts ``ttl`` seconds."""
        self.redis.set(keys.analysis_requested_for(gid, bid, rollouts, view, seed), 1, ex=ttl)

    def is_marked(self, gid: str, bid: str, rollouts: int, view: str, seed: int) -> bool:
        """True while such an analysis is marked as asked for."""
        return bool(self.redis.exists(keys.analysis_requested_for(gid, bid, rollouts, view, seed)))
