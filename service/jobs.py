"""The job seam: the one place that builds RQ queues and queues ludolog's jobs.

Why here, below the API and beside the stores: the web app queues jobs (a fold per branch
update, an import per upload) and the workers run them, so the code that queues must not
live in ``workers`` (the API would import the package that imports the API's stores and
services: a loop across layers). RQ names a job by the dotted path of its function and
imports it only in the worker process, so the queuing side needs the *name*, not the
function: :data:`FOLD_JOB` and :data:`IMPORT_JOB` name functions of :mod:`workers`, and
``tests/test_layers.py`` checks that each name still resolves. The layers then run one
way: ``service.api`` → ``service.jobs`` ← ``workers``.

Jobs carry only ids, use RQ's JSON serializer, and retry with back-off (the worker runs
RQ's scheduler, which re-queues them).

Folds: a branch with a fold already queued is not queued again: the mark in
``fold_pending_for`` batches a burst of appends into one job (the job clears the mark when
it starts). Each queued fold is also noted in ``folds_due`` until a fold that started after
it finishes, so that the worker's upkeep (:mod:`workers.heal`) folds again a branch whose
job died for good.
"""

from __future__ import annotations

import time

import redis
from rq import Callback, Queue, Retry
from rq.serializers import JSONSerializer

from service import keys
from service.store.context import Stores

#: The fold job: :func:`workers.fold.fold_branch` (gid, bid).
FOLD_JOB = "workers.fold.fold_branch"
#: The import job: :func:`workers.imports.import_upload` (uid).
IMPORT_JOB = "workers.imports.import_upload"
#: RQ's failure callback of the import job: :func:`workers.imports.import_failed`.
IMPORT_FAILED_CALLBACK = "workers.imports.import_failed"
#: The analysis job: :func:`workers.analysis.analyse_range` (gid, bid, first, last, rollouts, view).
ANALYSIS_JOB = "workers.analysis.analyse_range"
#: Every job function the queues name, for the workers' side to check against.
JOB_FUNCTIONS = (FOLD_JOB, IMPORT_JOB, IMPORT_FAILED_CALLBACK, ANALYSIS_JOB)

PENDING_TTL_SECONDS = 600
FOLD_RETRY = Retry(max=3, interval=[1, 5, 15])
IMPORT_RETRY = Retry(max=2, interval=[2, 10])
ANALYSIS_RETRY = Retry(max=3, interval=[1, 5, 15])
#: How many times an import runs before its upload is failed for good.
IMPORT_ATTEMPTS = IMPORT_RETRY.max + 1


def make_queue(queue_redis: redis.Redis, name: str) -> Queue:
    """The ludolog job queue named ``name`` on ``queue_redis``, with the JSON serializer."""
    return Queue(name, connection=queue_redis, serializer=JSONSerializer)


def job_queue(stores: Stores) -> Queue:
    """The process's job queue, as its configuration names it (web app, worker and CLI alike)."""
    return make_queue(stores.queue_redis, stores.config.queue_name)


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


def import_job_id(uid: str) -> str:
    """The RQ job id of upload ``uid``'s import (one job per upload, found again by the upkeep)."""
    return f"import-{uid}"


def enqueue_import(queue: Queue, uid: str) -> None:
    """Queue the import of upload ``uid``; after its last failed attempt the upload is marked failed."""
    queue.enqueue(IMPORT_JOB, uid, retry=IMPORT_RETRY, result_ttl=600, failure_ttl=24 * 3600, description=f"import {uid}",
                  job_id=import_job_id(uid), on_failure=Callback(IMPORT_FAILED_CALLBACK))
