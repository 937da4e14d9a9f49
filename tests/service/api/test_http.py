"""The HTTP edge: error shape for unknown routes and methods, body size and JSON parsing, health, OpenAPI."""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.test import EnvironBuilder, run_wsgi_app

from service.api.docs import operation_of
from service.api.openapi import openapi_path
from service.api.schemas import HealthSchema
from tests.service.api.conftest import MAX_BODY
from tests.service.api.helpers import assert_error, assert_matches, branch_url, head_of


def test_unknown_route_and_wrong_method_answer_json(client):
    assert_error(client.get("/api/nothing/here"), 404, "not_found")
    assert_error(client.get("/no/such/page"), 404, "not_found")
    error = assert_error(client.delete("/api/games"), 405, "method_not_allowed")
    assert error["details"]["allowed"] == ["GET", "HEAD", "OPTIONS", "POST"]


def test_a_body_over_the_limit_is_413_and_appends_nothing(client, users, new_game):
    gid = new_game()["id"]
    body = {"action": "roll", "expected_seq": 3, "pad": "x" * MAX_BODY}
    error = assert_error(client.post(branch_url(gid, what="actions"), json=body, headers=users.auth("alice")), 413, "too_large")
    assert error["details"]["limit"] == MAX_BODY
    assert head_of(client, gid) == 3
    # Without authentication too: a large body is refused before anything else is looked at.
    assert_error(client.post("/api/games", json={"pad": "x" * MAX_BODY}), 413, "too_large")


def test_a_body_without_length_over_the_limit_is_413(app, users):
    """A chunked upload declares no length: werkzeug must stop reading at the cap."""
    raw = b'{"game": "pig", "players": ["A", "B"], "title": "' + b"y" * MAX_BODY + b'"}'
    environ = EnvironBuilder(path="/api/games", method="POST", data=raw, content_type="application/json",
                             headers=users.auth("alice")).get_environ()
    del environ["CONTENT_LENGTH"]
    environ["HTTP_TRANSFER_ENCODING"] = "chunked"
    environ["wsgi.input_terminated"] = True  # what a server sets when it de-chunks the body itself
    _, status, headers = run_wsgi_app(app, environ, buffered=True)
    assert status.startswith("413")


@pytest.mark.parametrize("raw, where", [
    ('{"game": "pig", "players": ["A", "B"]', "line 1 column 38"),
    ('{"game": "pig",\n "players": [A]}', "line 2 column 14"),
    ("", "empty"),
])
def test_broken_json_is_400_naming_the_position(client, users, raw, where):
    error = assert_error(client.post("/api/games", data=raw, content_type="application/json", headers=users.auth("alice")), 400, "bad_json")
    assert where in error["message"]


def test_body_that_is_not_utf8_is_400(client, users):
    assert_error(client.post("/api/games", data=b'{"game": "\xff"}', content_type="application/json", headers=users.auth("alice")),
                 400, "bad_json")


def test_healthz_reports_redis_workers_and_version(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.get_json()
    assert_matches(HealthSchema, body)
    assert body["redis"] is True and body["workers"] == 0 and body["version"]


def test_healthz_is_503_when_redis_is_down(redis_client):
    from ludolog.app import create_app
    from service.runtime.config import Config
    from service.runtime.redis_server import free_port

    app = create_app(Config(redis_url=f"redis://127.0.0.1:{free_port()}/0"))
    response = app.test_client().get("/healthz")
    assert response.status_code == 503 and response.get_json()["redis"] is False
    assert_error(app.test_client().get("/api/games"), 503, "unavailable")


def test_openapi_describes_every_route(app: Flask, client):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec = response.get_json()
    assert spec["openapi"].startswith("3.") and spec["info"]["title"] == "ludolog"
    api_rules = [r for r in app.url_map.iter_rules() if r.rule.startswith("/api/") or r.rule == "/healthz"]
    for rule in api_rules:  # the UI's pages are HTML, not part of the API
        assert operation_of(app.view_functions[rule.endpoint]) is not None, f"{rule.rule} has no @documented"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in spec["paths"][openapi_path(rule.rule)], (rule.rule, method)
    # 12, plus uploads, an upload, a branch export, a log-only game's lines, compare, take-back, a branch, analysis,
    # a log-only game's original file and its lines for download; a branch's seats, one seat, an invite
    assert len(spec["paths"]) == 52  # and the live streams of a branch, its analysis, its seats, a game's notes and the game list,
    # and your tables and their stream, turn notifications and mail, take-back requests (a request, its approval and
    # its refusal), cancelling an analysis, a table's chat (its messages, one message, its stream) (issue 46), and a
    # game's explorer with the games behind one of its rows (issue 49); the puzzles, a puzzle, its answer and your
    # puzzle rating (issue 49); your claims, one claim, its confirmation and its refusal, and a user's insights (issue 49)


#: The POSTs whose address is the whole request, so they take no body: undoing a note, redeeming an invite, asking
#: for a take-back and answering it, and a mail program's one-click unsubscribe (its token is in the query).
BODILESS_POSTS = ("/undo", "/api/invites/{token}", "/takeback-request", "/approve", "/decline", "/api/mail/unsubscribe",
                  "/confirm")


def test_openapi_structure_and_refs_resolve(client):
    spec = client.get("/api/openapi.json").get_json()
    try:
        from openapi_spec_validator import validate
    except ImportError:
        validate = None
    if validate is not None:
        validate(spec)
    schemas = spec["components"]["schemas"]
    assert {"Error", "GameCreate", "Action", "Fork", "AnnotationCreate", "State", "Legal", "EventsPage"} <= set(schemas)

    def refs(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from refs(value)
        elif isinstance(node, list):
            for item in node:
                yield from refs(item)

    for ref in refs(spec):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas, ref
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            assert op["summary"] and op["responses"], (path, method)
            declared = {p["name"] for p in op["parameters"] if p["in"] == "path"}
            assert declared == {part[1:-1] for part in path.split("/") if part.startswith("{")}, (path, method)
            if method in ("post", "patch") and not path.endswith(BODILESS_POSTS):
                assert op["requestBody"]["required"] is True, (path, method)
            for status, answer in op["responses"].items():
                if int(status) >= 400:
                    assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    actions = spec["paths"]["/api/games/{gid}/branches/{bid}/actions"]["post"]
    assert {"201", "400", "401", "403", "404", "409", "413", "422"} <= set(actions["responses"])
    assert actions["security"] == [{"bearerAuth": []}]
    assert set(schemas["Fork"]["properties"]) == {"from", "at", "name", "chance", "seed"}
    assert schemas["Fork"]["additionalProperties"] is False
