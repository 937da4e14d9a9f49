"""Reading a request's input: the JSON body and the query string, through marshmallow.

Errors name what was wrong and where: the parse position of broken JSON, the fields a
schema refused. Body size is capped per view (``config.max_body_bytes`` by default; an
upload view can raise its own cap with :func:`body_limit`), checked before anything else
runs so that an oversized request is refused without being read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from service.api.errors import ApiError, describe_validation
from service.imports.jsontext import JsonTextError, parse_json

F = TypeVar("F", bound=Callable[..., Any])


def body_limit(nbytes: int | Callable[[], int]) -> Callable[[F], F]:
    """Give a view its own request body cap (bytes, or a callable read per request)."""

    def mark(view: F) -> F:
        view.max_body_bytes = nbytes  # type: ignore[attr-defined]
        return view

    return mark


def _limit_for_request(app: Flask) -> int:
    view = app.view_functions.get(request.endpoint or "")
    limit = getattr(view, "max_body_bytes", None)
    if limit is None:
        return int(app.config["MAX_CONTENT_LENGTH"])
    return int(limit() if callable(limit) else limit)


def enforce_body_limit() -> None:
    """before_request hook: 413 as soon as the declared length exceeds the view's cap.

    Setting ``request.max_content_length`` also makes werkzeug stop reading a body sent
    without a Content-Length (chunked) once it passes the cap.
    """
    limit = _limit_for_request(current_app)
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge()


def json_body(*, optional: bool = False) -> Any:
    """The request body parsed as JSON (:func:`service.imports.jsontext.parse_json`: bounded depth and numbers);
    400 naming the position or the reason when it does not parse.

    The Content-Type is not insisted on: a client that forgot the header but sent JSON
    is served, and one that sent something else gets the parse error, which says more.
    """
    raw = request.get_data(cache=True)
    limit = request.max_content_length
    if request.content_length is None and limit is not None and len(raw) >= limit:
        # A body sent without a length (chunked) is cut at the cap by werkzeug, silently:
        # reaching the cap means there was more, so refuse it rather than parse a stump.
        raise RequestEntityTooLarge()
    if not raw.strip():
        if optional:
            return {}
        raise ApiError(400, "bad_json", "request body is empty: expected a JSON object")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "bad_json", f"request body is not UTF-8: byte {exc.start} cannot be decoded", position=exc.start) from None
    try:
        return parse_json(text)
    except JsonTextError as exc:
        raise ApiError(400, "bad_json", f"malformed JSON body: {exc.message}", **exc.details) from None


def load_body(schema: type[Schema], *, optional: bool = False) -> dict[str, Any]:
    """The JSON body validated by ``schema``; 400 naming the refused fields."""
    data = json_body(optional=optional)
    if not isinstance(data, dict):
        raise ApiError(400, "invalid", f"request body must be a JSON object, not {type(data).__name__}")
    return _load(schema, data, "request body", "body")


def load_query(schema: type[Schema]) -> dict[str, Any]:
    """The query string validated by ``schema`` (a repeated parameter is refused)."""
    data: dict[str, Any] = {}
    for name, values in request.args.lists():
        if len(values) > 1:
            raise ApiError(400, "invalid", f"invalid query string: {name!r} given {len(values)} times",
                           fields={name: ["given more than once"]}, location="query")
        data[name] = values[0]
    return _load(schema, data, "query string", "query")


def _load(schema: type[Schema], data: dict[str, Any], where: str, location: str) -> dict[str, Any]:
    try:
        loaded: dict[str, Any] = schema().load(data)
    except ValidationError as exc:
        raise ApiError(400, "invalid", describe_validation(exc.messages, where), fields=exc.messages, location=location) from None
    return loaded
