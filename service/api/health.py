"""``GET /healthz``: is the event store reachable (and loaded), how many workers live, which version.

While Redis is still loading its data every route, this one included, answers
``503 {"error": {"code": "starting"}}`` (:func:`handle_store_loading`, registered by the
app factory): a balancer keeps the node out and a person sees why.
"""

from __future__ import annotations

import os
import socket

import redis
from flask import Blueprint, Response, current_app, jsonify
from flask.typing import ResponseReturnValue
from rq import Worker

from service.api.docs import documented
from service.api.errors import error_response
from service.api.schemas import HealthSchema
from service.api.version import service_version
from service.store.ready import answers, loading_progress
from service.web.context import api

bp = Blueprint("health", __name__)


def _redis_ok() -> bool:
    try:
        return answers(api().stores.redis)
    except redis.exceptions.BusyLoadingError:
        raise  # answered by handle_store_loading: 503 starting
    except redis.exceptions.RedisError:
        return False


def is_dead_here(worker: Worker, hostname: str) -> bool:
    """True for a worker registered from this host whose process is gone (killed: it never unregistered)."""
    if worker.hostname != hostname or not worker.pid:
        return False
    try:
        os.kill(worker.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # alive, another user's
    return _is_zombie(worker.pid)


def _is_zombie(pid: int) -> bool:
    """A killed process its parent has not reaped yet: dead, though its pid still answers signals."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def live_workers(connection: redis.Redis) -> int:
    """RQ workers that are alive; the registrations of dead ones on this host are removed.

    A worker killed with SIGKILL stays registered until its key expires (minutes): counting it
    would report a worker that does not exist. Workers on other hosts are trusted to their TTL.
    """
    hostname, alive = socket.gethostname(), 0
    for worker in Worker.all(connection=connection):
        if is_dead_here(worker, hostname):
            current_app.logger.warning("removing the registration of dead RQ worker %s (pid %s)", worker.name, worker.pid)
            worker.register_death()
        else:
            alive += 1
    return alive


def _workers_seen() -> int | None:
    """Live RQ workers on the queue's Redis (None when that Redis is unreachable)."""
    try:
        return live_workers(api().stores.queue_redis)
    except redis.exceptions.RedisError as exc:
        current_app.logger.warning("cannot list RQ workers: %s", exc)
        return None


@bp.get("/healthz")
@documented("Health: Redis reachable and loaded (else 503), live RQ workers, version", response=HealthSchema, errors=(503,),
            auth="none", tag="meta")
def healthz() -> ResponseReturnValue:
    """200 when Redis answers, 503 when it does not or is still loading (a balancer takes the node out)."""
    ok = _redis_ok()
    body = {"redis": ok, "workers": _workers_seen() if ok else None, "version": service_version()}
    return jsonify(body), 200 if ok else 503


def handle_store_loading(exc: redis.exceptions.BusyLoadingError) -> tuple[Response, int]:
    """Redis is reading its data after a (re)start: 503 ``starting``, with the progress when known."""
    status = loading_progress(api().stores.redis)
    message = "the service is starting: the event store is loading its data; try again shortly"
    details = {"loaded_bytes": status.loaded_bytes, "total_bytes": status.total_bytes} if status.loading else {}
    response, code = error_response(503, "starting", message + (f" ({status.describe()})" if status.loading else ""), details)
    response.headers["Retry-After"] = "2"
    return response, code

