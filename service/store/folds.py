"""The fold ledger: which branches wait for a fold job, and since when.

Two keys per purpose: the pending mark of a branch (``keys.fold_pending_for``: set while its fold job is
queued, so that a burst of appends queues one job) and the due set (``keys.folds_due``: every branch whose
fold was queued and has not finished, scored by when), which the worker's upkeep reads to queue again a
fold whose job died. The queuing itself is :class:`service.jobs.FoldScheduler`'s; this store only keeps
the books.
"""

from __future__ import annotations

import time

import redis

from service.store import keys
from service.store.replies import as_scored

#: How long a pending mark outlives a job that never started (it is cleared when the job starts).
PENDING_TTL_SECONDS = 600

# Remove the branch only if no fold was queued after this one started: that one is still due.
_FOLD_FINISHED = """local queued = redis.call('ZSCORE', KEYS[1], ARGV[1])
if queued and tonumber(queued) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0"""


def due_member(gid: str, bid: str) -> str:
    """A branch's member of ``folds_due`` (ids never hold a slash)."""
    return f"{gid}/{bid}"


class FoldLedger:
    """The books of the fold jobs: pending marks and the branches due."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def claim(self, gid: str, bid: str) -> bool:
        """Mark the branch pending and due, unless a fold is pending already; True when the caller should queue one."""
        if not self.redis.set(keys.fold_pending_for(gid, bid), 1, nx=True, ex=PENDING_TTL_SECONDS):
            return False
        self.redis.zadd(keys.folds_due(), {due_member(gid, bid): time.time()})
        return True

    def start(self, gid: str, bid: str) -> None:
        """A fold job starts: clear the pending mark, so that an append from now on queues a new job."""
        self.redis.delete(keys.fold_pending_for(gid, bid))

    def is_pending(self, gid: str, bid: str) -> bool:
        """True while the branch's fold job is queued and has not started."""
        return bool(self.redis.exists(keys.fold_pending_for(gid, bid)))

    def finish(self, gid: str, bid: str, started: float) -> None:
        """A fold that started at ``started`` finished: the branch is no longer due unless queued again since."""
        self.redis.eval(_FOLD_FINISHED, 1, keys.folds_due(), due_member(gid, bid), repr(started))

    def settle(self, gid: str, bid: str) -> None:
        """The branch needs no fold (it has its snapshots, or is gone): it is no longer due."""
        self.redis.zrem(keys.folds_due(), due_member(gid, bid))

    def overdue(self, deadline: float, now: float) -> list[tuple[str, str]]:
        """The branches (gid, bid) due for ``deadline`` seconds or more at ``now``, oldest first."""
        rows = as_scored(self.redis.zrangebyscore(keys.folds_due(), 0, now - deadline, withscores=True))
        return [(gid, bid) for gid, _, bid in (member.decode().partition("/") for member, _ in rows)]
