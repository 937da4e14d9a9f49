"""The one error handler: every failure becomes ``{"error": {"code", "message", "details"}}``.

Engine errors (bad moves, bad setups), store errors (unknown ids, stale seqs), BGA log
errors, marshmallow validation errors, werkzeug's HTTP errors (unknown route, wrong method,
body too large) and :class:`ApiError` raised by the views all go through here, so a client
can rely on one shape and a status that says whose fault it was: 4xx for the request, 5xx
only for the server.

The layers below raise errors that say what went wrong and know nothing of HTTP;
:data:`ERROR_TABLE` is the one place that gives each of them its status and code
(400 malformed, 403 not allowed, 404 unknown, 409 conflict, 413 too large, 422 well formed
but refused). A new error class is one row.
"""

from __future__ import annotations

import re
from typing import Any

import redis
from flask import Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from engine import (
    EngineError,
    EventSequenceError,
    IllegalActionError,
    NotationError,
    SetupError,
    StateFormatError,
    UnknownGameError,
)
from engine.bga import BgaEnvelopeError, BgaLanguageError, BgaLogError, BgaPlayersError, BgaSyntaxError
from service.store.errors import (
    BranchClosingError,
    BranchGoneError,
    ConflictError,
    ForbiddenError,
    GoneError,
    IdempotencyKeyReusedError,
    InvalidRequestError,
    NotFoundError,
    StoreError,
)
from service.web.errors import ApiError as ApiError  # re-exported: the API's views raise it from here
from service.web.errors import error_response as error_response

#: (error class, HTTP status, error code), most specific first: the first row the error is an
#: instance of answers. Each root class closes its group, so a new subclass is answered
#: (and its handler installed) even before it has a row of its own.
ERROR_TABLE: tuple[tuple[type[Exception], int, str], ...] = (
    # engine: unreadable notation is the client's malformed input; the rest is what the rules refuse
    (NotationError, 400, "bad_notation"),
    (IllegalActionError, 422, "illegal_action"),
    (UnknownGameError, 422, "unknown_game"),
    (SetupError, 422, "bad_setup"),
    (StateFormatError, 500, "bad_stored_state"),  # a stored state we cannot read is our data's fault
    (EventSequenceError, 500, "bad_stored_history"),  # so is a stored branch whose seqs skip or repeat
    (EngineError, 422, "rules_error"),
    # stores
    (NotFoundError, 404, "not_found"),
    (BranchClosingError, 409, "branch_closing"),
    (ConflictError, 409, "conflict"),
    (BranchGoneError, 410, "branch_deleted"),
    (GoneError, 410, "gone"),
    (InvalidRequestError, 400, "bad_request"),
    (ForbiddenError, 403, "forbidden"),
    (IdempotencyKeyReusedError, 422, "idempotency_key_reused"),
    (StoreError, 500, "store_error"),
    # uploaded logs: unreadable bytes are 400, a readable document that is no usable log 422
    (BgaLanguageError, 400, "log_language"),  # log text in another language: names it, points to the JSON
    (BgaSyntaxError, 400, "bad_json"),
    (BgaEnvelopeError, 422, "unknown_envelope"),
    (BgaPlayersError, 422, "bad_setup"),
    (BgaLogError, 422, "bad_log"),
)



def status_of(exc: Exception) -> tuple[int, str]:
    """The HTTP status and error code :data:`ERROR_TABLE` gives ``exc`` (500 when no row fits)."""
    return next(((status, code) for kind, status, code in ERROR_TABLE if isinstance(exc, kind)), (500, "internal_error"))


def error_details(exc: Exception) -> dict[str, Any]:
    """What a client can act on, taken from the error's structured attributes."""
    if isinstance(exc, IllegalActionError):
        return {"action": exc.action, "reason": exc.reason, "rule": exc.rule, "seq": exc.seq}
    if isinstance(exc, NotationError):
        return {"text": exc.text, "expected": exc.expected}
    if isinstance(exc, UnknownGameError):
        return {"game": exc.name, "known": exc.known}
    details = getattr(exc, "details", None)
    return dict(details) if isinstance(details, dict) else {}


def handle_mapped_error(exc: Exception) -> tuple[Response, int]:
    """An error of the layers below, answered with its row of :data:`ERROR_TABLE`."""
    status, code = status_of(exc)
    if status >= 500:
        current_app.logger.exception("%s on stored data", type(exc).__name__)
    return error_response(status, code, str(exc), error_details(exc))


def handle_api_error(exc: ApiError) -> tuple[Response, int]:
    """Errors raised by the views themselves."""
    response, status = error_response(exc.status, exc.code, exc.message, exc.details)
    if status == 401:
        # RFC 6750: tell the client which scheme to use.
        response.headers["WWW-Authenticate"] = 'Bearer realm="ludolog"'
    if status == 429 and exc.details.get("retry_after") is not None:
        response.headers["Retry-After"] = str(exc.details["retry_after"])  # RFC 9110: seconds to wait
    return response, status


def handle_validation_error(exc: ValidationError) -> tuple[Response, int]:
    """A schema refused the input; the views normally wrap this with the input's location."""
    return error_response(400, "invalid", describe_validation(exc.messages), {"fields": exc.messages})


def _snake(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def handle_http_exception(exc: HTTPException) -> tuple[Response, int]:
    """werkzeug's errors (unknown route, wrong method, body too large) in our JSON shape."""
    status = exc.code or 500
    details: dict[str, Any] = {}
    message = exc.description or exc.name
    if isinstance(exc, MethodNotAllowed):
        details["allowed"] = sorted(exc.valid_methods or [])
    if isinstance(exc, RequestEntityTooLarge):
        details["limit"] = request.max_content_length
        message = "request body too large"
        if details["limit"]:
            message += f": at most {details['limit']} bytes"
    code = {404: "not_found", 413: "too_large"}.get(status, _snake(exc.name))
    response, status = error_response(status, code, message, details)
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        response.headers["Allow"] = ", ".join(sorted(exc.valid_methods))
    return response, status


def handle_redis_down(exc: redis.exceptions.ConnectionError | redis.exceptions.TimeoutError) -> tuple[Response, int]:
    """The store is unreachable: the server's trouble, and worth retrying later."""
    current_app.logger.error("redis unavailable: %s", exc)
    return error_response(503, "unavailable", "the event store is unreachable; try again shortly")


def handle_unexpected(exc: Exception) -> tuple[Response, int]:
    """A bug: log it with its traceback, answer without leaking internals."""
    if isinstance(exc, HTTPException):  # raised by Flask internals outside the HTTPException handler
        return handle_http_exception(exc)
    current_app.logger.exception("unhandled error")
    return error_response(500, "internal_error", "internal error; it has been logged")


def describe_validation(messages: Any, where: str = "request") -> str:
    """``invalid request body: 'players': Missing data for required field.; …``, for people."""
    if not isinstance(messages, dict):
        return f"invalid {where}: {messages}"
    parts = []
    for name, problem in messages.items():
        text = "; ".join(map(str, problem)) if isinstance(problem, list) else str(problem)
        parts.append(text if name == "_schema" else f"{name!r}: {text}")
    return f"invalid {where}: " + "; ".join(parts)


def register_error_handlers(app: Flask) -> None:
    """Install the handlers on ``app`` (most specific classes first, as Flask picks by MRO)."""
    app.register_error_handler(ApiError, handle_api_error)
    for kind in dict.fromkeys(kind for kind, _, _ in ERROR_TABLE):
        app.register_error_handler(kind, handle_mapped_error)
    app.register_error_handler(ValidationError, handle_validation_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(redis.exceptions.ConnectionError, handle_redis_down)
    app.register_error_handler(redis.exceptions.TimeoutError, handle_redis_down)
    app.register_error_handler(Exception, handle_unexpected)
