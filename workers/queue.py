"""Scheduling RQ jobs: one fold job per branch update, however many events it brought.

Jobs carry only ids, use RQ's JSON serializer, and retry with back-off (the worker runs
RQ's scheduler, which re-queues them). A branch with a fold already queued is not queued
again: the mark in ``fold_pending_for`` batches a burst of appends into one job (the job
clears the mark when it starts). Each queued fold is also noted in ``folds_due`` until a
fold that started after it finishes, so that the worker's upkeep (:mod:`workers.heal`)
folds again a branch whose job died for good.
"""

from __future__ import annotations

import time

import redis
from rq import Queue, Retry
from rq.serializers import JSONSerializer

from service import keys

FOLD_JOB = "workers.fold.fold_branch"
PENDING_TTL_SECONDS = 600
FOLD_RETRY = Retry(max=3, interval=[1, 5, 15])


def make_queue(queue_redis: redis.Redis, name: str) -> Queue:
    """The ludolog job queue with the JSON serializer."""
    return Queue(name, connection=queue_redis, serializer=JSONSerializer)


class FoldScheduler:
    """Queues fold jobs for branches that received events."""

    def __init__(self, store_redis: redis.Redis, queue: Queue) -> None:
        self.redis = store_redis
        self.queue = queue

    def __call__(self, gid: str, bid: str) -> bool:
        """Queue a fold of the branch unless one is already pending; True if queued."""
        if not self.redis.set(keys.fold_pending_for(gid, bid), 1, nx=True, ex=PENDING_TTL_SECONDS):
            return False
        self.redis.zadd(keys.folds_due(), {due_member(gid, bid): time.time()})
        self.queue.enqueue(FOLD_JOB, gid, bid, retry=FOLD_RETRY, result_ttl=60, failure_ttl=24 * 3600,
                           description=f"fold {gid}/{bid}")
        return True


def due_member(gid: str, bid: str) -> str:
    """A branch's member of ``folds_due`` (ids never hold a slash)."""
    return f"{gid}/{bid}"


# Remove the branch only if no fold was queued after this one started: that one is still due.
_FOLD_FINISHED = """local queued = redis.call('ZSCORE', KEYS[1], ARGV[1])
if queued and tonumber(queued) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0"""


def fold_finished(store_redis: redis.Redis, gid: str, bid: str, started: float) -> None:
    """A fold that started at ``started`` finished: the branch is no longer due unless queued again since."""
    store_redis.eval(_FOLD_FINISHED, 1, keys.folds_due(), due_member(gid, bid), repr(started))
