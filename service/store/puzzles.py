"""Stored puzzles (issue 49): the generator's decision on every position it looked at, the puzzles it kept, and the
index of puzzles by rating.

A puzzle holds no state: its game, branch and seq, the mover, its theme and the confirmed verdict (the best moves and
the played move with their win chances and intervals). The position is folded from the game whenever it is served, in
the mover's seat view, so a puzzle can show nothing the game's own routes would not show that seat.
:mod:`service.games.puzzles` decides what to keep; this module is the one reader and writer of those keys.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import redis

from service.store import keys

#: A new puzzle's rating (Glicko-2's starting value on the Glicko scale: :data:`service.games.glicko.START_RATING`).
START_RATING = 1500.0


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class PuzzleStore:
    """Puzzles, the generator's decisions and the index by rating."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def decided(self, gid: str, field: str) -> bool:
        """True if the generator already decided on the position filed under ``field`` (``<bid> <seq> <played>``)."""
        return bool(self.redis.hexists(keys.puzzle_decisions_for(gid), field))

    def reject(self, gid: str, field: str, reason: str) -> None:
        """Record that the position was not kept, and by which criterion (the first record stays)."""
        self.redis.hsetnx(keys.puzzle_decisions_for(gid), field, _json({"rejected": reason}))

    def keep(self, gid: str, field: str, puzzle: dict[str, Any]) -> bool:
        """Store ``puzzle`` (its ``id`` given), index it at the starting rating and record the decision; False if the
        position was decided already (a racing generator kept or rejected it first)."""
        if not self.redis.hsetnx(keys.puzzle_decisions_for(gid), field, _json({"kept": puzzle["id"]})):
            return False
        self.redis.set(keys.puzzle_for(puzzle["id"]), _json(puzzle))  # then indexed: a listed id always has its puzzle
        self.redis.zadd(keys.puzzles_by_rating(), {puzzle["id"]: START_RATING}, nx=True)
        return True

    def decisions(self, gid: str) -> Counter[str]:
        """How many positions of the game were kept, and rejected by each criterion (``kept`` and the reasons)."""
        counts: Counter[str] = Counter()
        for raw in self.redis.hvals(keys.puzzle_decisions_for(gid)):
            decision = json.loads(raw)
            counts["kept" if "kept" in decision else decision["rejected"]] += 1
        return counts

    def kept_in(self, gid: str) -> list[str]:
        """The ids of the puzzles kept from game ``gid``."""
        decided = (json.loads(raw) for raw in self.redis.hvals(keys.puzzle_decisions_for(gid)))
        return sorted(decision["kept"] for decision in decided if "kept" in decision)

    def get(self, pid: str) -> dict[str, Any] | None:
        """The puzzle, or None."""
        raw = self.redis.get(keys.puzzle_for(pid))
        return json.loads(raw) if raw is not None else None

    def get_many(self, pids: list[str]) -> list[dict[str, Any]]:
        """The puzzles of ``pids`` that exist, in that order."""
        if not pids:
            return []
        raws = self.redis.mget([keys.puzzle_for(pid) for pid in pids])
        return [json.loads(raw) for raw in raws if raw is not None]

    def ids_near(self, rating: float, count: int) -> list[str]:
        """Up to ``count`` puzzle ids on each side of ``rating``, the nearest first."""
        below = self.redis.zrevrangebyscore(keys.puzzles_by_rating(), rating, "-inf", start=0, num=count, withscores=True)
        above = self.redis.zrangebyscore(keys.puzzles_by_rating(), f"({rating}", "+inf", start=0, num=count,
                                         withscores=True)
        ranked = sorted([*below, *above], key=lambda pair: abs(float(pair[1]) - rating))
        return [_text(member) for member, _ in ranked]

    def all_ids(self) -> list[str]:
        """Every puzzle id, by rating."""
        return [_text(member) for member in self.redis.zrange(keys.puzzles_by_rating(), 0, -1)]


def _text(member: object) -> str:
    return member.decode() if isinstance(member, bytes) else str(member)
