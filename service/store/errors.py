"""Errors of the stores. Each carries the HTTP status the API maps it to."""

from __future__ import annotations

from typing import Any


class StoreError(Exception):
    """Root of the store's errors."""

    status = 500
    code = "store_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class NotFoundError(StoreError, LookupError):
    """No such game, branch, annotation, upload or user (or not visible to the caller)."""

    status = 404
    code = "not_found"


class ConflictError(StoreError):
    """A write based on a stale view: the branch head or the version moved on."""

    status = 409
    code = "conflict"


class InvalidRequestError(StoreError, ValueError):
    """A request the store cannot carry out as asked (a fork point past the head, say)."""

    status = 400
    code = "bad_request"


class ForbiddenError(StoreError, PermissionError):
    """The caller may see the thing but not change it."""

    status = 403
    code = "forbidden"


class IdempotencyKeyReusedError(StoreError):
    """An idempotency key already used for another request (another action, seq or branch)."""

    status = 422
    code = "idempotency_key_reused"
