"""The one error handler: every failure becomes ``{"error": {"code", "message", "details"}}``.

Engine errors (bad moves, bad setups), store errors (unknown ids, stale seqs), marshmallow
validation errors, werkzeug's HTTP errors (unknown route, wrong method, body too large) and
:class:`ApiError` raised by the views all go through here, so a client can rely on one shape
and a status that says whose fault it was: 4xx for the request, 5xx only for the server.
"""

from __future__ import annotations

import re
from typing import Any

import redis
from flask import Flask, Response, current_app, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from engine import EngineError, IllegalActionError, NotationError, SetupError, StateFormatError, UnknownGameError
from engine.bga import BgaEnvelopeError, BgaLogError, BgaPlayersError, BgaSyntaxError
from service.store.errors import StoreError

# Engine errors by status and code. NotationError is the client's malformed input (400);
# the others are well-formed requests the rules refuse (422). Order matters: first match wins.
_ENGINE_ERRORS: tuple[tuple[type[EngineError], int, str], ...] = (
    (NotationError, 400, "bad_notation"),
    (IllegalActionError, 422, "illegal_action"),
    (UnknownGameError, 422, "unknown_game"),
    (SetupError, 422, "bad_setup"),
    # A stored state or event the engine cannot read is our data's fault, not the caller's.
    (StateFormatError, 500, "bad_stored_state"),
)


# BGA log errors by status and code: unreadable bytes are 400, a readable document that is no usable log 422.
_BGA_ERRORS: tuple[tuple[type[BgaLogError], int, str], ...] = (
    (BgaSyntaxError, 400, "bad_json"),
    (BgaEnvelopeError, 422, "unknown_envelope"),
    (BgaPlayersError, 422, "bad_setup"),
    (BgaLogError, 422, "bad_log"),
)


def handle_bga_error(exc: BgaLogError) -> tuple[Response, int]:
    """An uploaded log that cannot be read: its status and code from the table above, its details as they are."""
    status, code = next((s, c) for kind, s, c in _BGA_ERRORS if isinstance(exc, kind))
    return error_response(status, code, exc.message, dict(exc.details))


class ApiError(Exception):
    """An error the HTTP layer itself decides on (auth, malformed body, log-only game…)."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details


def error_response(status: int, code: str, message: str, details: dict[str, Any] | None = None) -> tuple[Response, int]:
    """The JSON error body with its status."""
    return jsonify({"error": {"code": code, "message": message, "details": details or {}}}), status


def _engine_details(exc: EngineError) -> dict[str, Any]:
    """What a client can act on, taken from the error's attributes."""
    if isinstance(exc, IllegalActionError):
        return {"action": exc.action, "reason": exc.reason, "rule": exc.rule, "seq": exc.seq}
    if isinstance(exc, NotationError):
        return {"text": exc.text, "expected": exc.expected}
    if isinstance(exc, UnknownGameError):
        return {"game": exc.name, "known": exc.known}
    return {}


def handle_engine_error(exc: EngineError) -> tuple[Response, int]:
    """400 for unreadable notation, 422 for what the rules refuse."""
    status, code = next(((s, c) for kind, s, c in _ENGINE_ERRORS if isinstance(exc, kind)), (422, "rules_error"))
    if status >= 500:
        current_app.logger.exception("engine error on stored data")
    return error_response(status, code, str(exc), _engine_details(exc))


def handle_store_error(exc: StoreError) -> tuple[Response, int]:
    """Each store error carries its own status and code."""
    if exc.status >= 500:
        current_app.logger.exception("store error")
    return error_response(exc.status, exc.code, exc.message, dict(exc.details))


def handle_api_error(exc: ApiError) -> tuple[Response, int]:
    """Errors raised by the views themselves."""
    response, status = error_response(exc.status, exc.code, exc.message, exc.details)
    if status == 401:
        # RFC 6750: tell the client which scheme to use.
        response.headers["WWW-Authenticate"] = 'Bearer realm="ludolog"'
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
    app.register_error_handler(EngineError, handle_engine_error)
    app.register_error_handler(StoreError, handle_store_error)
    app.register_error_handler(BgaLogError, handle_bga_error)
    app.register_error_handler(ValidationError, handle_validation_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(redis.exceptions.ConnectionError, handle_redis_down)
    app.register_error_handler(redis.exceptions.TimeoutError, handle_redis_down)
    app.register_error_handler(Exception, handle_unexpected)
