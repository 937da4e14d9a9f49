"""The worker's upkeep: no import stays stuck, no branch stays unfolded because a job died.

Run by every worker every ``LUDOLOG_HEAL_EVERY`` seconds (and by ``ludolog reconcile``):

* an upload not done or failed that showed no sign of life (queued, started, progress) for
  ``LUDOLOG_JOB_DEADLINE`` seconds is failed with the reason, unless its job is still
  waiting its turn in the queue: a job that was lost, failed, or went silent while running
  (its process gone with its worker, or hung, which is then stopped). The same file uploaded
  again is then imported afresh;
* a branch whose fold job was queued that long ago and never finished (killed, retries
  used up, lost with its queue) is queued again, unless its snapshots are complete;
* an engine seat's move queued that long ago and not played is queued again, and so is at once one whose search
  stopped renewing its lease (:func:`heal_engine_moves`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import redis
from rq import Queue
from rq.command import send_stop_job_command
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job, JobStatus

from service.jobs import EngineMoveScheduler, FoldScheduler, engine_queue, import_job_id
from service.store.analysis_turns import EngineTurns
from service.store.context import Stores
from service.store.engine_status import WORKER_STOPPED
from service.store.errors import NotFoundError
from service.store.folds import FoldLedger
from service.store.games import GameStore
from service.store.snapshots import SnapshotStore
from service.store.snapshotting import snapshot_seqs
from service.store.uploads import UploadStore

#: Job states in which an import is waiting its turn, not stuck.
WAITING = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED)


@dataclass
class HealReport:
    """What one round of upkeep did."""

    failed_uploads: list[str] = field(default_factory=list)
    refolded: list[tuple[str, str]] = field(default_factory=list)


def heal(store_redis: redis.Redis, queue: Queue, *, deadline: float, every: int, now: float | None = None) -> HealReport:
    """One round of upkeep: fail stuck imports, fold again branches whose fold died."""
    now = time.time() if now is None else now
    return HealReport(heal_uploads(store_redis, queue, deadline=deadline, now=now),
                      heal_folds(store_redis, queue, deadline=deadline, every=every, now=now))


def heal_uploads(store_redis: redis.Redis, queue: Queue, *, deadline: float, now: float) -> list[str]:
    """Fail the uploads stuck past the deadline; returns their ids."""
    failed = []
    for uid, silent in UploadStore(store_redis).silent_since(deadline, now):
        reason = _why_stuck(queue, uid, silent, deadline)
        if reason is not None and UploadStore(store_redis).fail(uid, reason):
            failed.append(uid)
    return failed


def _why_stuck(queue: Queue, uid: str, silent: float, deadline: float) -> dict[str, Any] | None:
    """Why the upload's import will not finish (the error to record), or None while its job waits in the queue."""
    try:
        job = Job.fetch(import_job_id(uid), connection=queue.connection, serializer=queue.serializer)
        status = job.get_status()
    except (NoSuchJobError, InvalidJobOperation):
        return {"code": "import_lost", "message": f"the import job was lost: no worker has it and it is not queued "
                                                  f"(no sign of life for {silent:.0f} s)"}
    if status in WAITING:
        return None
    if status == JobStatus.STARTED:
        # Its process went silent: hung, or gone with its worker. Stop it if it still runs, so it cannot finish later.
        try:
            send_stop_job_command(queue.connection, job.id, serializer=queue.serializer)
        except Exception:  # noqa: BLE001 - no worker runs it any more: nothing to stop
            pass
        return {"code": "import_timed_out", "message": f"the import showed no sign of life for {silent:.0f} s "
                                                       f"(deadline {deadline:.0f} s) and was stopped"}
    detail = _last_error_line(job)
    return {"code": "import_interrupted", "message": f"the import job ended ({status}) without finishing the upload"
                                                     + (f": {detail}" if detail else "")}


def _last_error_line(job: Job) -> str:
    result = job.latest_result()
    text = (result.exc_string or "") if result is not None else ""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def heal_folds(store_redis: redis.Redis, queue: Queue, *, deadline: float, every: int, now: float) -> list[tuple[str, str]]:
    """Queue again the folds due past the deadline whose branch still lacks snapshots; returns those branches."""
    games, snapshots, ledger = GameStore(store_redis), SnapshotStore(store_redis), FoldLedger(store_redis)
    schedule = FoldScheduler(ledger, queue)
    refolded = []
    for gid, bid in ledger.overdue(deadline, now):
        if ledger.is_pending(gid, bid):
            continue  # its job is queued and has not started yet
        if _is_folded(games, snapshots, gid, bid, every):
            ledger.settle(gid, bid)
            continue
        if schedule(gid, bid):
            refolded.append((gid, bid))
    return refolded


def _is_folded(games: GameStore, snapshots: SnapshotStore, gid: str, bid: str, every: int) -> bool:
    """True when the branch has every snapshot it should (or is gone: nothing left to fold)."""
    try:
        wanted = snapshot_seqs(games.branch(gid, bid).fork_seq, games.head(gid, bid), every)
    except NotFoundError:
        return True
    return wanted <= set(snapshots.seqs(gid, bid))


def heal_engine_moves(stores: Stores, *, deadline: float, now: float) -> list[tuple[str, str]]:
    """Queue again the engine seats' moves queued ``deadline`` seconds ago and still not played (the worker that
    ran the job was killed, or its retries ran out); returns those branches.

    A move still waiting for its owner's turn (:class:`service.store.analysis_turns.EngineTurns`) is not lost: it is
    left where it waits. A copy of a job that is in fact still running is harmless: the move appends with the expected seq, so only
    one of the two is stored (see :mod:`workers.engine_seat`).
    """
    queue = engine_queue(stores)
    scheduler = EngineMoveScheduler(stores, queue)
    waiting = {(str(args[0]), str(args[1])) for args in EngineTurns(queue.connection, queue.name).waiting_args()}
    requeued = []
    # A search whose lease lapsed died with its process (a worker killed with its work horse says nothing): the pages
    # are told, and the move is due again at once rather than after the deadline.
    lapsed = stores.engine_status.lapsed(now)
    for gid, bid in lapsed:
        stores.engine_status.failed(gid, bid, reason=WORKER_STOPPED, retried=True, now=now)
    for gid, bid in dict.fromkeys(lapsed + stores.seats.engine_moves_overdue(deadline, now)):
        if (gid, bid) in waiting:
            continue  # waiting for its owner's turn, not lost
        try:
            found = scheduler.engine_seat_to_move(gid, bid)
        except NotFoundError:
            found = None
        if found is None:
            stores.seats.engine_move_done(gid, bid)
            continue
        scheduler.enqueue(gid, bid, *found)
        requeued.append((gid, bid))
    return requeued
