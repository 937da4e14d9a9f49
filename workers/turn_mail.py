"""The turn e-mail's check: queued by :class:`service.jobs.TurnMailScheduler` a while after a move made it a person's
turn; sends their mail if it is still due (:func:`service.games.turn_mail.deliver_turn_mail`).

Idempotent as every job: the turn's claim is this job's id, so RQ's retry after a failed send (the mail server down)
takes it up again, and a second check of the same turn (another job) sends nothing.
"""

from __future__ import annotations

import secrets

from rq.job import get_current_job

from service.games.turn_mail import deliver_turn_mail
from service.store.context import current_stores


def send_turn_mail(gid: str, bid: str, seq: int, user: str) -> str:
    """RQ job: send ``user`` the mail of their turn at ``seq`` at table ``bid`` if still due; what happened."""
    job = get_current_job()
    attempt = job.id if job is not None else f"direct-{secrets.token_hex(8)}"
    return deliver_turn_mail(current_stores(), gid, bid, int(seq), user, attempt)
