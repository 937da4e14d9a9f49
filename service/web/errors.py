"""The errors of the HTTP layer itself, shared by the API and the pages.

The layers below raise their own errors (the engine's, the stores'); what only a web request can get wrong
(not signed in, a malformed body, a game that has no rules for what was asked) is an :class:`ApiError`,
answered as JSON by the API's error table and as an error page by the UI.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify


class ApiError(Exception):
    """An error the HTTP layer itself decides on (auth, malformed body, log-only game…)."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details


def error_document(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON error body: ``{"error": {"code", "message", "details"}}``."""
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(status: int, code: str, message: str, details: dict[str, Any] | None = None) -> tuple[Response, int]:
    """The JSON error body with its status (the API's, and the pages' JSON endpoints')."""
    return jsonify(error_document(code, message, details)), status
