"""``GET /api/openapi.json``: the API described, generated from the views' schemas by apispec."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Flask, current_app, jsonify
from flask.typing import ResponseReturnValue

from service.api.docs import Operation, documented, operation_of
from service.api.schemas import ErrorSchema
from service.api.version import service_version

bp = Blueprint("openapi", __name__)

_IGNORED_METHODS = {"HEAD", "OPTIONS"}
_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_STATUS_TEXT = {
    400: "malformed request: broken JSON, a refused field, a bad query parameter or notation",
    401: "authentication required, or an unknown token",
    403: "authenticated, but not allowed (not the owner or author)",
    404: "unknown, or not visible to the caller",
    409: "conflict: a stale expected_seq or expected_version",
    410: "gone: an invite already used or revoked",
    413: "request body too large",
    422: "refused by the rules: illegal action, unknown game, bad setup, log-only game",
    503: "the event store is unreachable",
}


def openapi_path(rule: str) -> str:
    """Flask's ``/games/<gid>`` as OpenAPI's ``/games/{gid}``."""
    return _CONVERTER.sub(r"{\1}", rule)


def _json(schema: Any) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _operation(op: Operation, path_args: list[str]) -> dict[str, Any]:
    parameters: list[dict[str, Any]] = [{"in": "path", "name": a, "required": True, "schema": {"type": "string"}} for a in path_args]
    if op.query is not None:
        parameters.append({"in": "query", "schema": op.query})
    for name, text in op.headers:
        parameters.append({"in": "header", "name": name, "required": False, "schema": {"type": "string"}, "description": text})
    ok: dict[str, Any] = {"description": op.summary}
    if op.response is not None:
        ok.update(_json(op.response))
    responses: dict[str, Any] = {str(op.status): ok}
    for status, meaning in op.also:
        responses[str(status)] = {**ok, "description": meaning}
    errors = set(op.errors) | ({401} if op.auth != "none" else set())
    for status in sorted(errors):
        responses[str(status)] = {"description": _STATUS_TEXT.get(status, "error"), **_json(ErrorSchema)}
    result: dict[str, Any] = {"summary": op.summary, "tags": [op.tag], "parameters": parameters, "responses": responses}
    if op.description:
        result["description"] = op.description
    if op.body is not None:
        result["requestBody"] = {"required": op.body_required, **_json(op.body)}
    if op.auth == "required":
        result["security"] = [{"bearerAuth": []}]
    elif op.auth == "optional":
        result["security"] = [{}, {"bearerAuth": []}]
    return result


def build_spec(app: Flask) -> dict[str, Any]:
    """The OpenAPI 3 document for every documented route of ``app``."""
    spec = APISpec(title="ludolog", version=service_version(), openapi_version="3.0.3", plugins=[MarshmallowPlugin()],
                   info={"description": "Event-sourced board game logs: replay, annotate, fork and play on."})
    spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer",
                                                    "description": "a token from the tokens page (/tokens) or 'ludolog user add'"})
    spec.components.schema("Error", schema=ErrorSchema)
    by_path: dict[str, dict[str, Any]] = defaultdict(dict)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        op = operation_of(app.view_functions.get(rule.endpoint))
        if op is None:
            continue
        args = _CONVERTER.findall(rule.rule)
        for method in sorted((rule.methods or set()) - _IGNORED_METHODS):
            by_path[openapi_path(rule.rule)][method.lower()] = _operation(op, args)
    for path, operations in by_path.items():
        spec.path(path=path, operations=operations)
    return spec.to_dict()


@bp.get("/api/openapi.json")
@documented("This document: the API in OpenAPI 3", response=None, auth="none", tag="meta")
def openapi_json() -> ResponseReturnValue:
    """The spec, built once per app (the routes do not change while it runs)."""
    cached = current_app.extensions.get("ludolog_openapi")
    if cached is None:
        cached = current_app.extensions["ludolog_openapi"] = build_spec(current_app)
    return jsonify(cached)
