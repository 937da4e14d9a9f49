"""The import job: read an upload from Redis, import it, store the game, record the outcome.

The job takes only the upload id (RQ's JSON serializer), reads the file's bytes from Redis,
and is idempotent: a finished upload is left as it is, and a run that died after storing
the game finds it (its id is fixed by the file's digest) instead of storing it twice.

A run that raises or whose process dies is retried (:data:`service.jobs.IMPORT_RETRY`; the worker runs RQ's
scheduler for the intervals). When the last attempt fails too, the upload is marked
``failed`` with the reason: by :func:`import_failed` (RQ's failure callback) for an error,
by :func:`import_horse_killed` (called by the worker) for a killed process. An import that
goes silent without either is failed by the worker's upkeep (:mod:`workers.heal`).
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any

import redis
from rq.job import Job

from service.games.explorer import count_game
from service.imports.importer import run_import
from service.jobs import IMPORT_ATTEMPTS as ATTEMPTS
from service.jobs import IMPORT_JOB
from service.store.context import current_stores
from service.store.uploads import UploadStore


def import_upload(uid: str) -> dict[str, Any]:
    """RQ job: import upload ``uid``; returns its status, progress and game id (not the report)."""
    stores = current_stores()
    status = run_import(stores.redis, uid, every=stores.config.snapshot_every)
    if status.get("game"):  # an imported public game that ends joins the explorer's counts
        count_game(stores.games, stores.explorer, str(status["game"]))
    return {k: v for k, v in status.items() if k != "report"}


def _is_last_attempt(job: Job) -> bool:
    """True when RQ will not retry the job after this failure (its retries are used up)."""
    return not job.retries_left


def import_failed(job: Job, connection: redis.Redis, kind: type[BaseException] | None, error: BaseException | None,
                  traceback: TracebackType | None) -> None:
    """RQ's failure callback: after the last attempt, the upload fails with the error as its reason."""
    if job.func_name != IMPORT_JOB or not _is_last_attempt(job):
        return
    name = kind.__name__ if kind is not None else "error"
    last = f"{name}: {error}" if str(error) else name
    current_stores().uploads.fail(str(job.args[0]), {
        "code": "import_error", "attempts": ATTEMPTS, "message": f"the import failed {ATTEMPTS} times; the last time: {last}",
    })


def import_horse_killed(uploads: UploadStore, job: Job, wait_status: int) -> bool:
    """The process running ``job`` died: on its last attempt, fail the upload saying so; True if it did."""
    if job.func_name != IMPORT_JOB or not _is_last_attempt(job):
        return False
    how = f"killed by signal {os.WTERMSIG(wait_status)}" if os.WIFSIGNALED(wait_status) else f"exit status {wait_status}"
    return uploads.fail(str(job.args[0]), {
        "code": "import_interrupted", "attempts": ATTEMPTS,
        "message": f"the import was interrupted {ATTEMPTS} times: the process running it died ({how}) on the last attempt",
    })
