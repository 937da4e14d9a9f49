"""Scheduling RQ jobs: one fold job per branch update, however many events it brought.

Jobs carry only ids, use RQ's JSON serializer, and retry with back-off. A branch with a
fold already queued is not queued again: the mark in ``fold_pending_for`` batches a
burst of appends into one job (the job clears the mark when it starts).
"""

from __future__ import annotations

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
        self.queue.enqueue(FOLD_JOB, gid, bid, retry=FOLD_RETRY, result_ttl=60, failure_ttl=24 * 3600,
                           description=f"fold {gid}/{bid}")
        return True
