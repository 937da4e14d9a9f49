"""No 5xx for bad input, on any route: table-driven over every operation of GET /api/openapi.json.

Every operation the API documents is sent hostile bodies (deeply nested JSON, integers of
thousands of digits, NaN, 1e400, lone surrogates), the same values in each field of its body
schema, and hostile values in each documented query parameter and header. Nothing may answer
5xx, and every 4xx is the usual error body. A JSON body that is not JSON we accept is a 400
``bad_json``. The app runs with the production body cap (64 KB) on the real embedded Redis.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from service.runtime.config import Config
from tests.service.api.helpers import Users, assert_error, head_of

DEEP = 5000
#: Bodies that are not JSON we accept, each named.
MALFORMED_BODIES = {
    "unclosed deep array": "[" * DEEP,
    "deep array": "[" * DEEP + "]" * DEEP,
    "deep object": '{"a":' * DEEP + "1" + "}" * DEEP,
    "5000-digit integer": "9" * 5000,
    "huge integer in an object": '{"x": 99999999999999999999999}',
    "NaN": '{"x": NaN}',
    "1e400": '{"x": 1e400}',
    "lone surrogate": '{"x": "\\ud800"}',
}
#: Raw JSON values put in each field of a route's body schema.
BAD_FIELD_VALUES = {
    "20-digit integer": "99999999999999999999",
    "5000-digit integer": "9" * 5000,
    "2^53": str(2**53),
    "negative": "-1",
    "zero": "0",
    "float": "1.5",
    "1e400": "1e400",
    "lone surrogate": '"\\ud800"',
    "deep array": "[" * 100 + "]" * 100,
    "object": '{"a": [1, {"b": null}]}',
    "null": "null",
    "true": "true",
    "empty string": '""',
    "long string": json.dumps("x" * 20_000),
}
#: Values of each documented query parameter and header.
BAD_QUERY_VALUES = ["99999999999999999999", "9" * 5000, str(2**64), "-1", "0", "1e400", "abc", "", "\x00", "\ud800", "1.5"]
#: A valid body of each documented body schema, which the field tests then spoil one field at a time.
VALID_BODIES: dict[str, Any] = {
    "GameCreate": {"game": "pig", "players": ["Anna", "Ben"]},
    "Action": {"action": "roll", "expected_seq": "HEAD"},
    "Fork": {"from": "main", "at": 1},
    "TakeBack": {"decisions": 1},
    "AnnotationCreate": {"branch": "main", "seq": 1, "text": "x"},
    "AnnotationPatch": {"text": "y"},
    "VersionBody": {},
    "UploadBody": {"status": 1, "data": {"logs": [], "players": []}},
    "AnalysisRequest": {"rollouts": 2},
    "Assign": {"holder": "engine", "level": "easy"},
    "ChatPost": {"text": "hello"},
    "NotificationSettings": {"email": "alice@example.org", "turn_mail": False},
    "Answer": {"action": "roll"},
    "ClaimBody": {"game": "nosuchgame", "player": "Anna"},
}
PLACEHOLDER = "@@VALUE@@"


@pytest.fixture
def config(redis_server, redis_client) -> Config:
    """The production body cap (64 KB): the 5,000-deep bodies must reach the parser, not the 413."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="test-secret", queue_name="ludolog-test")


@pytest.fixture
def world(client: FlaskClient, users: Users, new_game) -> dict[str, str]:
    """Ids to fill the routes' path parameters with: a game, its main branch, an annotation, an upload, a seat, an
    invite."""
    gid = new_game()["id"]
    note = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 1, "text": "hi"},
                       headers=users.auth("alice")).get_json()
    return {"gid": gid, "bid": "main", "aid": note["id"], "uid": "nosuchupload", "seat": "1", "token": "nosuchinvite"}


def operations(client: FlaskClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path template, operation) of every documented operation."""
    spec = client.get("/api/openapi.json").get_json()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            yield method.upper(), path, op


def _body_schema(op: dict[str, Any]) -> str | None:
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    return content["schema"]["$ref"].rsplit("/", 1)[-1] if content else None


def _body_fields(client: FlaskClient, schema: str) -> list[str]:
    spec = client.get("/api/openapi.json").get_json()
    return list(spec["components"]["schemas"][schema].get("properties", {}))


def _query_names(op: dict[str, Any], where: str) -> list[str]:
    return [p["name"] for p in op["parameters"] if p["in"] == where and "name" in p]


def _query_params(client: FlaskClient, op: dict[str, Any]) -> list[str]:
    """Names of the query parameters (given inline, or as a schema of the spec's components)."""
    names = _query_names(op, "query")
    for param in op["parameters"]:
        if param["in"] == "query" and "schema" in param and "name" not in param:
            names += list(param["schema"].get("properties", {}))
    return names


def _send(client: FlaskClient, users: Users, method: str, url: str, body: str | None = None,
          headers: dict[str, str] | None = None) -> Any:
    return client.open(url, method=method, data=None if body is None else body.encode("utf-8", "surrogatepass"),
                       headers={**users.auth("alice"), "Content-Type": "application/json", **(headers or {})})


def _check(response: Any, what: str, failures: list[str]) -> None:
    try:
        if response.status_code >= 500:
            failures.append(f"{what}: {response.status_code} {response.get_data(as_text=True)[:200]}")
        elif response.status_code >= 400:
            try:
                assert_error(response, response.status_code)
            except AssertionError as exc:
                failures.append(f"{what}: not the usual error body: {exc}")
    finally:  # a stream's answer (200, never ending) is closed here, not by the collector inside a later request
        response.close()


def _url(path: str, world: dict[str, str]) -> str:
    for name, value in world.items():
        path = path.replace("{" + name + "}", value)
    return path


def _documented_spec(client: FlaskClient) -> list[tuple[str, str, dict[str, Any]]]:
    found = list(operations(client))
    assert len(found) >= 20, "the OpenAPI document lists the API's operations"
    return found


@pytest.mark.parametrize("name", list(MALFORMED_BODIES))
def test_malformed_json_bodies_are_400_on_every_route_that_takes_one(client, users, world, name):
    failures: list[str] = []
    for method, path, op in _documented_spec(client):
        response = _send(client, users, method, _url(path, world), MALFORMED_BODIES[name])
        what = f"{method} {path} with {name}"
        _check(response, what, failures)
        # An upload is read by the BGA reader: JSON it can parse but in no BGA envelope is its documented 422.
        expected = (400, 422) if _body_schema(op) == "UploadBody" else (400,)
        if _body_schema(op) and response.status_code not in expected:
            failures.append(f"{what}: {response.status_code}, expected {expected}")
        if _body_schema(op) and _body_schema(op) != "UploadBody" and response.status_code == 400:
            assert response.get_json()["error"]["code"] == "bad_json", (what, response.get_json())
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("value", list(BAD_FIELD_VALUES))
def test_bad_values_in_each_body_field_never_give_a_5xx(client, users, world, value):
    failures: list[str] = []
    for method, path, op in _documented_spec(client):
        schema = _body_schema(op)
        if schema is None:
            continue
        assert schema in VALID_BODIES, f"{method} {path}: add a valid {schema} body to VALID_BODIES"
        for field in _body_fields(client, schema):
            body = {k: (head_of(client, world["gid"]) if v == "HEAD" else v) for k, v in VALID_BODIES[schema].items()}
            body[field] = PLACEHOLDER
            text = json.dumps(body).replace(json.dumps(PLACEHOLDER), BAD_FIELD_VALUES[value])
            _check(_send(client, users, method, _url(path, world), text), f"{method} {path} with {field}={value}", failures)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("value", BAD_QUERY_VALUES, ids=lambda v: repr(v[:24]))
def test_bad_query_and_header_values_never_give_a_5xx(client, users, world, value):
    failures: list[str] = []
    for method, path, op in _documented_spec(client):
        url = _url(path, world)
        body = json.dumps(VALID_BODIES.get(_body_schema(op) or "", {})).replace('"HEAD"', str(head_of(client, world["gid"])))
        for name in _query_params(client, op):
            response = _send(client, users, method, f"{url}?{name}={quote(value, errors='surrogatepass')}", body)
            _check(response, f"{method} {path}?{name}={value[:24]!r}", failures)
        for name in _query_names(op, "header"):
            safe = value.encode("latin-1", "replace").decode("latin-1")  # what an HTTP header can carry
            _check(_send(client, users, method, url, body, {name: safe}), f"{method} {path} with {name}: {value[:24]!r}", failures)
    assert not failures, "\n".join(failures)


def test_a_huge_after_is_a_400_naming_the_parameter(client, users, world):
    response = client.get(f"/api/games/{world['gid']}/branches/main/events?after=99999999999999999999")
    error = assert_error(response, 400, "invalid")
    assert "after" in error["details"]["fields"], error


def test_a_body_nested_5000_deep_is_a_400_saying_so(client, users, world):
    response = _send(client, users, "POST", "/api/games", "[" * DEEP + "]" * DEEP)
    error = assert_error(response, 400, "bad_json")
    assert "nested too deeply" in error["message"], error


def test_a_5000_digit_integer_is_a_400_saying_so(client, users, world):
    response = _send(client, users, "POST", f"/api/games/{world['gid']}/branches/main/actions",
                     '{"action": "roll", "expected_seq": ' + "9" * 5000 + "}")
    error = assert_error(response, 400, "bad_json")
    assert "out of range" in error["message"] and error["details"]["digits"] == 5000, error
