"""A real SMTP server on loopback for the tests of turn e-mails: aiosmtpd's threaded server, keeping every message it
receives (parsed) for the test to read; and what the turn e-mails' checks (their RQ jobs) answered."""

from __future__ import annotations

import email
import threading
from email import policy
from email.message import EmailMessage
from typing import Any

import redis
from aiosmtpd.controller import Controller
from rq import Queue
from rq.job import Job
from rq.serializers import JSONSerializer

from service.jobs import TURN_MAIL_JOB


def finished_checks(connection: redis.Redis, queue_name: str) -> list[Job]:
    """The turn e-mails' checks that have finished on queue ``queue_name``, oldest first: each job's ``args`` are
    (gid, bid, seq, user) and its return value what it did (``sent``, ``page open``, …)."""
    queue = Queue(queue_name, connection=connection, serializer=JSONSerializer)
    jobs = Job.fetch_many(queue.finished_job_registry.get_job_ids(), connection=connection, serializer=JSONSerializer)
    return sorted((job for job in jobs if job is not None and job.func_name == TURN_MAIL_JOB), key=lambda j: j.enqueued_at)


class Inbox:
    """What a real SMTP server on loopback (aiosmtpd) received, message by message."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's hook name
        """Keep the message as it came."""
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))  # type: ignore[arg-type]
        return "250 OK"

    def count(self) -> int:
        """How many messages came."""
        with self.lock:
            return len(self.messages)


class SmtpServer:
    """aiosmtpd's threaded server on ``port``, started and stopped by the test."""

    def __init__(self, port: int) -> None:
        self.inbox = Inbox()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=port)

    def __enter__(self) -> Inbox:
        self.controller.start()
        return self.inbox

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()
