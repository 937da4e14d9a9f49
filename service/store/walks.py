"""Resumable walks over the game listing: the games in creation order, a batch at a time, and the cursor a walk
leaves behind so that a stopped run resumes where it stopped.

``ludolog reindex`` (:mod:`service.upkeep.reindex`) and ``ludolog migrate`` (:mod:`service.upkeep.migrate`) walk this way;
each has its own cursor key (``keys.reindex_cursor``, ``keys.migrate_cursor``), owned here.
"""

from __future__ import annotations

import redis

from service.store import keys
from service.store.replies import as_scored


class ListingWalk:
    """A walk over the game listing (``keys.games_index``) with a resume cursor stored under ``cursor_key``."""

    def __init__(self, client: redis.Redis, cursor_key: str) -> None:
        self.redis = client
        self.cursor_key = cursor_key

    @classmethod
    def reindex(cls, client: redis.Redis) -> ListingWalk:
        """The walk of ``ludolog reindex``."""
        return cls(client, keys.reindex_cursor())

    @classmethod
    def migrate(cls, client: redis.Redis) -> ListingWalk:
        """The walk of ``ludolog migrate``."""
        return cls(client, keys.migrate_cursor())

    def resume_from(self) -> float:
        """The creation-order score a stopped run reached (0.0 when none is stored: from the first game)."""
        raw = self.redis.get(self.cursor_key)
        return float(raw) if raw is not None else 0.0  # bytes or str parse alike

    def reached(self, order: float) -> None:
        """Store the score reached, so that a run stopped from now on resumes after it."""
        self.redis.set(self.cursor_key, repr(order))

    def forget(self) -> None:
        """Drop the cursor: the walk is over (or starts again from the first game)."""
        self.redis.delete(self.cursor_key)

    def total(self) -> int:
        """How many games are listed."""
        return int(self.redis.zcard(keys.games_index()))

    def done_before(self, order: float) -> int:
        """How many listed games a run that reached ``order`` has walked already."""
        if not order:
            return 0
        return int(self.redis.zcount(keys.games_index(), "-inf", order))

    def batch_after(self, order: float, size: int) -> list[tuple[str, float]]:
        """The next ``size`` listed games (id, creation-order score) after ``order``, oldest first."""
        rows = as_scored(self.redis.zrangebyscore(keys.games_index(), f"({order}", "+inf", start=0, num=size,
                                                  withscores=True))
        return [(member.decode(), score) for member, score in rows]
