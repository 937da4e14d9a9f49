"""``GET /healthz``: is the event store reachable, are workers running, which version."""

from __future__ import annotations

import redis
from flask import Blueprint, current_app, jsonify
from flask.typing import ResponseReturnValue
from rq import Worker

from service.api.context import api
from service.api.docs import documented
from service.api.schemas import HealthSchema
from service.api.version import service_version

bp = Blueprint("health", __name__)


def _redis_ok() -> bool:
    try:
        return bool(api().stores.redis.ping())
    except redis.exceptions.RedisError:
        return False


def _workers_seen() -> int | None:
    """RQ workers registered on the queue's Redis (None when that Redis is unreachable)."""
    try:
        return len(Worker.all(connection=api().stores.queue_redis))
    except redis.exceptions.RedisError as exc:
        current_app.logger.warning("cannot list RQ workers: %s", exc)
        return None


@bp.get("/healthz")
@documented("Health: Redis reachable (else 503), RQ workers seen, version", response=HealthSchema, errors=(503,), auth="none", tag="meta")
def healthz() -> ResponseReturnValue:
    """200 when Redis answers, 503 when it does not (a balancer takes the node out)."""
    ok = _redis_ok()
    body = {"redis": ok, "workers": _workers_seen() if ok else None, "version": service_version()}
    return jsonify(body), 200 if ok else 503
