"""The import job: read an upload from Redis, import it, store the game, record the outcome.

The job takes only the upload id (RQ's JSON serializer), reads the file's bytes from Redis,
and is idempotent: a finished upload is left as it is, and a run that died after storing
the game finds it (its id is fixed by the file's digest) instead of storing it twice.
"""

from __future__ import annotations

from typing import Any

from rq import Queue, Retry

from service.imports import run_import
from service.store.context import current_stores

IMPORT_JOB = "workers.imports.import_upload"
IMPORT_RETRY = Retry(max=2, interval=[2, 10])


def import_upload(uid: str) -> dict[str, Any]:
    """RQ job: import upload ``uid``; returns its status, progress and game id (not the report)."""
    stores = current_stores()
    status = run_import(stores.redis, uid, every=stores.config.snapshot_every)
    return {k: v for k, v in status.items() if k != "report"}


def enqueue_import(queue: Queue, uid: str) -> None:
    """Queue the import of upload ``uid``."""
    queue.enqueue(IMPORT_JOB, uid, retry=IMPORT_RETRY, result_ttl=600, failure_ttl=24 * 3600, description=f"import {uid}",
                  job_id=f"import-{uid}")
