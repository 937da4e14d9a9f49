"""``ludolog worker``: RQ's worker, with its scheduler (retries run) and ludolog's upkeep.

* RQ's scheduler runs beside it (``with_scheduler``): a job retried after an interval is
  queued again when the interval is over, instead of waiting in the scheduled registry for ever.
* Every ``LUDOLOG_HEAL_EVERY`` seconds, with RQ's own maintenance, it runs :func:`workers.heal.heal`.
  The worker's TTL follows that interval, as RQ wakes an idle worker once per TTL.
* It listens to its queues in order (:func:`service.jobs.worker_queues`): imports and folds first,
  then engine seats' moves, then analysis, which RQ honours by always taking from the first queue that has a job.
* After every job it runs (whatever the job's end) and in its upkeep, it feeds waiting analysis jobs
  into the analysis queue in turn between users (:func:`service.jobs.feed_analysis`), and waiting engine moves
  into the engine queue in turn between the tables' owners (:func:`service.jobs.feed_engine_moves`).
* When the process running a job dies (SIGKILL, out of memory), an import on its last
  attempt is marked failed at once, with the signal (:func:`workers.imports.import_horse_killed`), and the pages at
  the table of an engine seat's move are told it stopped (:func:`workers.engine_seat.engine_move_killed`).
* It waits for its store for ever: its connections retry until the store answers again
  (:class:`service.store.ready.PatientRetry`), and the outage is told in one line, not by a traceback
  or a line per retry. Asked to stop, it stops waiting.
* Asked to stop (SIGTERM), it stops, even where the signal finds it writing a log line, which would swallow
  RQ's way of stopping an idle worker (an exception raised from the signal handler).
* Nothing it forks outlives it (:mod:`service.runtime.lifetime`), and its scheduler, asked to stop,
  gets :data:`SCHEDULER_STOP_SECONDS` before it is killed.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from contextlib import suppress
from resource import struct_rusage
from types import FrameType
from typing import Any

import redis
from rq import Queue, Worker
from rq.exceptions import StopRequested
from rq.job import Job
from rq.serializers import JSONSerializer

from service.jobs import feed_analysis, feed_engine_moves, job_queue
from service.store.context import Stores
from service.store.ready import StoreOutage
from workers.engine_seat import engine_move_killed
from workers.heal import heal, heal_engine_moves
from workers.imports import import_horse_killed

log = logging.getLogger(__name__)
#: RQ wakes an idle worker every (TTL - 15) seconds: the TTL is set so that upkeep runs on time.
_RQ_TTL_MARGIN = 15
#: How long RQ's scheduler gets to stop (it stops within its 1 s interval when its store answers).
SCHEDULER_STOP_SECONDS = 5


class LudologWorker(Worker):
    """An RQ worker on the ludolog queues that also keeps jobs from staying stuck and feeds analysis in turn."""

    def __init__(self, queues: list[Queue], stores: Stores, outage: StoreOutage | None = None, **kwargs: Any) -> None:
        every = max(1, stores.config.heal_every)
        super().__init__(queues, connection=stores.queue_redis, serializer=JSONSerializer, maintenance_interval=every,
                         worker_ttl=every + _RQ_TTL_MARGIN, work_horse_killed_handler=self._horse_killed, **kwargs)
        self.stores = stores
        self.outage = outage

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        """Stop waiting for the store, then RQ's warm shutdown (which may write to a store that is away).

        The request is kept as a flag before anything else. RQ stops an idle worker by raising StopRequested from
        this handler, wherever the main thread happens to be; where that is a log line being written, logging
        would catch the exception (and print a traceback) and the worker would run on for ever. There it is not
        raised: the flag stops the worker when its upkeep ends (:meth:`run_maintenance_tasks`) or before its next job.
        """
        self._stop_requested = True
        if self.outage is not None:
            self.outage.give_up()
        try:
            super().request_stop(signum, frame)  # type: ignore[no-untyped-call]  # rq leaves it unannotated
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError):
            pass
        except StopRequested:
            if not _writing_a_log_record(frame):
                raise

    def stop_scheduler(self) -> None:
        """Ask RQ's scheduler to stop (it releases its locks), and kill it if it has not within a few seconds."""
        process = self.scheduler._process if self.scheduler else None
        if process is None or not process.pid:
            return
        with suppress(OSError):
            os.kill(process.pid, signal.SIGTERM)
        process.join(SCHEDULER_STOP_SECONDS)
        if process.is_alive():
            log.warning("RQ's scheduler did not stop in %s s: killed", SCHEDULER_STOP_SECONDS)
            process.kill()
            process.join()

    def teardown(self) -> None:
        """RQ's (scheduler stopped, registration removed); a store that is away keeps the registration till its TTL."""
        try:
            super().teardown()  # type: ignore[no-untyped-call]  # rq leaves it unannotated
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
            log.warning("stopped without the store (%s): its registration expires by itself", exc)

    def run_maintenance_tasks(self) -> None:
        """RQ's maintenance (registries, scheduler), then ours: stuck imports fail, dead folds run again.

        RQ runs it only while the worker is idle; a stop asked meanwhile ends the worker here, before it listens again.
        """
        self._upkeep()
        if self._stop_requested:
            raise StopRequested()

    def _upkeep(self) -> None:
        super().run_maintenance_tasks()  # type: ignore[no-untyped-call]  # rq leaves it unannotated
        config = self.stores.config
        try:
            report = heal(self.stores.redis, job_queue(self.stores), deadline=config.job_deadline, every=config.snapshot_every)
            engine_moves = heal_engine_moves(self.stores, deadline=config.job_deadline, now=time.time())
            self.feed_turns()
        except redis.exceptions.RedisError as exc:  # the store is down: the next round tries again
            log.warning("upkeep skipped: %s", exc)
            return
        for uid in report.failed_uploads:
            log.warning("upload %s was stuck past %s s: marked failed", uid, config.job_deadline)
        for gid, bid in report.refolded:
            log.warning("branch %s/%s: its fold job died; queued again", gid, bid)
        for gid, bid in engine_moves:
            log.warning("branch %s/%s: its engine seat's move was not played; queued again", gid, bid)

    def execute_job(self, job: Job, queue: Queue) -> None:
        """Run the job (in a work horse, as RQ does), then let the next engine move and analysis job in: the worker is free."""
        super().execute_job(job, queue)
        try:
            self.feed_turns()
        except redis.exceptions.RedisError as exc:  # the queue is down: the upkeep feeds once it is back
            log.warning("feed of waiting engine moves and analysis skipped: %s", exc)

    def feed_turns(self) -> int:
        """Feed waiting engine moves and analysis jobs into the queues this worker listens to; how many."""
        return sum(feed_engine_moves(queue) + feed_analysis(queue) for queue in self.queues)

    def _horse_killed(self, job: Job, pid: int, wait_status: int, rusage: struct_rusage) -> None:
        if engine_move_killed(self.stores, job):
            log.warning("engine move %s: its process %s died; the pages are told, RQ tries it again", job.args, pid)
        elif import_horse_killed(self.stores.uploads, job, wait_status):
            log.warning("upload %s failed: its import's process %s died on the last attempt", job.args[0], pid)


def _writing_a_log_record(frame: FrameType | None) -> bool:
    """Whether the interrupted code is inside :mod:`logging` (which catches every exception a handler raises)."""
    while frame is not None:
        if frame.f_globals.get("__name__") == "logging":
            return True
        frame = frame.f_back
    return False
