"""The fuzz walk (issue 29): every route of the OpenAPI document and every page of the app's url_map, sent
hostile values in every path parameter, query parameter, JSON body field, form field and request header the service
reads (issue 45), never answers 5xx.

Each answer must be a 2xx or 3xx, or a clear 4xx: the JSON error body on ``/api`` (and on the UI's JSON
endpoints), a page with a message otherwise. The values are a fixed list (Unicode digits and letters of many
scripts, lone surrogates as raw invalid UTF-8, huge and negative numbers, control characters, empty and very
long strings), so the walk is deterministic and bounded: one test per value, a few hundred requests each,
against the real app on the embedded Redis.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ludolog.app import create_app
from replay_ui.views import HOME_FILTERS, THEME_COOKIE
from service.runtime.config import Config
from tests.service.api.helpers import Users, assert_error

#: Hostile values, as the bytes that go (percent-encoded) into a URL; named for the test ids.
HOSTILE: dict[str, bytes] = {
    "empty": b"",
    "superscript two": "²".encode(),
    "arabic-indic one": "١".encode(),
    "devanagari five": "५".encode(),
    "fullwidth one": "１".encode(),
    "math bold one": "𝟙".encode(),
    "roman twelve": "Ⅻ".encode(),
    "thai zero": "๐".encode(),
    "underscored number": b"1_0",
    "plus one": b"+1",
    "spaced zero": b" 0 ",
    "negative": b"-1",
    "huge": b"99999999999999999999",
    "5000 digits": b"9" * 5000,
    "2^64": str(2**64).encode(),
    "1e400": b"1e400",
    "float": b"1.5",
    "hex": b"0x1",
    "greek": "Ωμέγα".encode(),
    "cyrillic": "Ярослав".encode(),
    "han": "中文字".encode(),
    "arabic": "اللعبة".encode(),
    "emoji": "🎲♟".encode(),
    "combining": "e\u0301".encode(),
    "right-to-left override": "\u202egnp.exe".encode(),
    "zero-width space": "\u200b".encode(),
    "lone surrogate (raw bytes)": b"\xed\xa0\x80",
    "invalid utf-8": b"\xff\xfe",
    "overlong slash": b"\xc0\xaf",
    "nul": b"\x00",
    "control characters": b"\x1b[31m\x07\x7f",
    "header injection": b"a\r\nX-Injected: 1",
    "path traversal": b"../../etc/passwd",
    "quotes and angles": b"\"'><script>x</script>",
    "very long": b"x" * 20_000,
}
#: Query parameters the pages read (the API's are in its OpenAPI document).
PAGE_QUERY = ("view", "from", "to", "at", "a", "b", "next", "seq", "format") + HOME_FILTERS
#: A valid body of each documented body schema, which the walk then spoils one field at a time.
VALID_BODIES: dict[str, Any] = {
    "GameCreate": {"game": "pig", "players": ["Anna", "Ben"]},
    "Action": {"action": "roll", "expected_seq": 1},
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
#: The pages' forms: their fields (each spoiled in turn; the others valid).
FORMS: dict[str, dict[str, str]] = {
    "/signup": {"name": "zoe", "password": "pw-long-enough", "password2": "pw-long-enough", "next": "/"},
    "/signin": {"name": "zoe", "password": "pw-long-enough", "next": "/"},
    "/tokens": {"name": "laptop"},
}

#: The request headers read app-wide (authentication, the CSRF check, the proxy's forwarded headers, the theme and
#: session cookies, content negotiation), each walked on every operation, as are the headers the service parses itself
#: (below) and an operation's own documented headers. Each is a (header, text before the hostile value).
APP_HEADERS = (("Authorization", ""), ("Authorization", "Bearer "), ("X-CSRF-Token", ""), ("X-Forwarded-For", ""),
               ("X-Forwarded-Proto", ""), ("Cookie", f"{THEME_COOKIE}="), ("Cookie", "session="), ("Accept", ""))
#: Header values a WSGI server can hand over that no URL-encoded value gives: raw Latin-1 bytes (b"\xb2" is the
#: text "²", a digit to ``str.isdigit``).
HEADER_HOSTILE: dict[str, bytes] = {**HOSTILE, "latin-1 superscript two": b"\xb2", "latin-1 digits": b"1\xb9\xb2"}
#: Headers the service parses itself: a 400 or 401 caused by one must name it (Last-Event-ID: the live streams' resume
#: point; Idempotency-Key: a play's retry).
NAMED_HEADERS = ("Authorization", "Last-Event-ID", "Idempotency-Key")


def encoded(value: bytes) -> str:
    """``value`` percent-encoded for a path segment or query value (every byte outside the unreserved set)."""
    return quote(value, safe="")


@pytest.fixture
def world(client: FlaskClient, users: Users, new_game) -> dict[str, str]:
    """Valid ids for every path parameter: a game, its main branch, a seq, an annotation, an upload, a token."""
    gid = new_game()["id"]
    note = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 1, "text": "hi"},
                       headers=users.auth("alice")).get_json()
    return {"gid": gid, "bid": "main", "seq": "1", "aid": note["id"], "uid": "nosuchupload", "token_id": "nosuchtoken",
            "filename": "js/app.js", "seat": "1", "token": "nosuchinvite"}


def _fill(template: str, world: dict[str, str], spoiled: str | None = None, value: bytes = b"") -> str:
    """The path with its ``{name}`` or ``<conv:name>`` parameters filled in, ``spoiled`` with ``value``."""
    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return encoded(value) if name == spoiled else world.get(name, "x")

    return re.sub(r"\{(\w+)\}|<(?:\w+(?:\([^)]*\))?:)?(\w+)>", one, template)


def _parameters(template: str) -> list[str]:
    return [a or b for a, b in re.findall(r"\{(\w+)\}|<(?:\w+(?:\([^)]*\))?:)?(\w+)>", template)]


def api_operations(client: FlaskClient) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path template, operation) of every operation in the served OpenAPI document."""
    spec = client.get("/api/openapi.json").get_json()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            yield method.upper(), path, op


def api_query_names(client: FlaskClient, op: dict[str, Any]) -> list[str]:
    """The operation's query parameters (inline, or the properties of a query schema)."""
    names = [p["name"] for p in op.get("parameters", []) if p["in"] == "query" and "name" in p]
    for param in op.get("parameters", []):
        if param["in"] == "query" and "name" not in param:
            names += list(param.get("schema", {}).get("properties", {}))
    return names


def body_schema(op: dict[str, Any]) -> str | None:
    """The name of the operation's JSON body schema, if it takes one."""
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    return content["schema"]["$ref"].rsplit("/", 1)[-1] if content else None


def page_routes(app: Flask) -> list[tuple[str, str]]:
    """(method, rule) of every route outside /api in the app's url_map (GET, and the forms' POSTs)."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api"):
            continue
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            found.append((method, rule.rule))
    return found


class Walk:
    """Sends requests and keeps every answer that is not a 2xx, a 3xx or a clear 4xx."""

    def __init__(self, client: FlaskClient, headers: dict[str, str]) -> None:
        self.client, self.headers, self.failures, self.sent = client, headers, [], 0
        #: Whether a 400 or 401 answer to a request with a hostile header must name that header.
        self.named = True

    def send(self, method: str, url: str, what: str, *, header: tuple[str, str] | None = None, **kwargs: Any) -> None:
        """One request, with ``header`` (name, value) besides the walk's own; a failure is noted with ``what``."""
        self.sent += 1
        headers = {**self.headers, **dict([header] if header else [])}
        response = self.client.open(url, method=method, headers=headers, **kwargs)
        status = response.status_code
        self._check_headers(response, what)
        if status >= 500:
            self.failures.append(f"{what}: {status} {response.get_data(as_text=True)[:160]!r}")
        elif status >= 400:
            self._check_clear(response, url, what)
            if header and header[0] in NAMED_HEADERS and status in (400, 401) and self.named:
                self._check_named(response, header[0], what)

    def _check_named(self, response: Any, header: str, what: str) -> None:
        error = response.get_json()["error"]
        if header.lower() not in f"{error['message']} {json.dumps(error['details'])}".lower():
            self.failures.append(f"{what}: {response.status_code} does not name the {header} header: {error}")

    def _check_headers(self, response: Any, what: str) -> None:
        """Every header a WSGI server can send: Latin-1 only (PEP 3333), no line break (else gunicorn answers
        its own 500, which the test client would not show)."""
        for name, text in response.headers.items():
            try:
                text.encode("latin-1")
            except UnicodeEncodeError:
                self.failures.append(f"{what}: header {name} is not Latin-1: {text[:80]!r}")
            if "\r" in text or "\n" in text:
                self.failures.append(f"{what}: header {name} has a line break: {text[:80]!r}")

    def _check_clear(self, response: Any, url: str, what: str) -> None:
        if url.startswith("/api") or response.is_json:
            try:
                assert_error(response, response.status_code)
            except AssertionError as exc:
                self.failures.append(f"{what}: not the JSON error body: {str(exc)[:160]}")
        elif response.mimetype != "text/html" or len(response.get_data()) < 40:
            self.failures.append(f"{what}: {response.status_code} without a page ({response.mimetype})")


@pytest.fixture
def walk(client: FlaskClient, users: Users) -> Walk:
    """A walk signed in as alice with her bearer token."""
    return Walk(client, users.auth("alice"))


@pytest.mark.parametrize("name", list(HOSTILE))
def test_api_path_and_query_parameters(client: FlaskClient, walk: Walk, world: dict[str, str], name: str) -> None:
    value = HOSTILE[name]
    operations = list(api_operations(client))
    assert len(operations) >= 20, "the OpenAPI document lists the API's operations"
    for method, path, op in operations:
        schema = body_schema(op)
        body = json.dumps(VALID_BODIES.get(schema or "", {})) if schema else None
        kwargs = {"data": body, "content_type": "application/json"} if body else {}
        for param in _parameters(path):
            walk.send(method, _fill(path, world, param, value), f"{method} {path} {param}={name}", **kwargs)
        for param in api_query_names(client, op):
            walk.send(method, f"{_fill(path, world)}?{param}={encoded(value)}", f"{method} {path}?{param}={name}", **kwargs)
    assert walk.sent > 50
    assert not walk.failures, "\n".join(walk.failures)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_api_body_fields(client: FlaskClient, walk: Walk, world: dict[str, str], name: str) -> None:
    text = HOSTILE[name].decode("utf-8", "surrogateescape")
    # As a JSON string (invalid UTF-8 becomes \udcxx escapes: lone surrogates in the JSON text), and as a bare
    # JSON number where the value is one (a 5,000-digit integer, 1e400, -1).
    raws = [json.dumps(text)] + ([text.strip()] if re.fullmatch(r"\s*[-+]?[0-9][0-9_.e]*\s*", text) else [])
    for method, path, op in api_operations(client):
        schema = body_schema(op)
        if schema is None:
            continue
        assert schema in VALID_BODIES, f"{method} {path}: add a valid {schema} body to VALID_BODIES"
        for field in VALID_BODIES[schema] or ["extra"]:
            for raw in raws:
                body = json.dumps({**VALID_BODIES[schema], field: "@@"}).replace('"@@"', raw)
                walk.send(method, _fill(path, world), f"{method} {path} body {field}={name}", data=body,
                          content_type="application/json")
    assert not walk.failures, "\n".join(walk.failures)


def header_text(value: bytes) -> str:
    """``value`` as a WSGI server hands a header's raw bytes to the app (Latin-1, PEP 3333), line breaks left out
    (no server lets them through: they end the header)."""
    return value.replace(b"\r", b"").replace(b"\n", b"").decode("latin-1")


@pytest.fixture
def proxied_client(config: Config) -> FlaskClient:
    """A client of an app that trusts the test client's address as its proxy, so that X-Forwarded-* are read."""
    app = create_app(dataclasses.replace(config, trusted_proxies=frozenset({"127.0.0.1"})))
    app.testing = True
    return app.test_client()


def header_walk_operations(client: FlaskClient) -> list[tuple[str, str, dict[str, Any]]]:
    """The API's operations, deletions last (a walk with a valid id deletes the world it walks)."""
    return sorted(api_operations(client), key=lambda found: found[0] == "DELETE")


@pytest.mark.parametrize("name", list(HEADER_HOSTILE))
def test_api_request_headers(proxied_client: FlaskClient, users: Users, world: dict[str, str], name: str) -> None:
    text = header_text(HEADER_HOSTILE[name])
    walk = Walk(proxied_client, users.auth("alice"))
    for method, path, op in header_walk_operations(proxied_client):
        schema = body_schema(op)
        kwargs = {"data": json.dumps(VALID_BODIES[schema]), "content_type": "application/json"} if schema else {}
        own = {(p["name"], "") for p in op.get("parameters", []) if p["in"] == "header"} | {
            (header, "") for header in NAMED_HEADERS if header != "Authorization"}
        # A request refused without any hostile header (a required query parameter left out) is refused for that,
        # not for the header: its refusals need not name the header.
        walk.named = proxied_client.open(_fill(path, world), method=method, headers=walk.headers, **kwargs).status_code < 400
        for header, before in (*APP_HEADERS, *sorted(own)):
            walk.send(method, _fill(path, world), f"{method} {path} {header}: {before}{name}",
                      header=(header, before + text), **kwargs)
    assert walk.sent > 200
    assert not walk.failures, "\n".join(walk.failures)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_pages_path_and_query_parameters(app: Flask, walk: Walk, world: dict[str, str], name: str) -> None:
    value = HOSTILE[name]
    routes = [(m, r) for m, r in page_routes(app) if m == "GET"]
    assert len(routes) >= 10, "the url_map lists the pages"
    for _, rule in routes:
        for param in _parameters(rule):
            walk.send("GET", _fill(rule, world, param, value), f"GET {rule} {param}={name}")
        for param in PAGE_QUERY:
            walk.send("GET", f"{_fill(rule, world)}?{param}={encoded(value)}", f"GET {rule}?{param}={name}")
    assert not walk.failures, "\n".join(walk.failures)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_page_forms(app: Flask, client: FlaskClient, world: dict[str, str], name: str) -> None:
    """Every form field of sign-up, sign-in and the tokens page, spoiled in turn, with the session's CSRF token
    (read again before each post: signing up or in renews it). The walk signs up first, so the tokens form is
    reached signed in."""
    value = encoded(HOSTILE[name])
    walk = Walk(client, {})
    valid = FORMS["/signup"]
    signed_up = client.post("/signup", data={**valid, "name": "walker", "csrf_token": _csrf_token(client)})
    assert signed_up.status_code == 303
    for url, fields in FORMS.items():
        for field in fields:
            form = "&".join(f"{k}={value if k == field else quote(v)}" for k, v in fields.items())
            walk.send("POST", url, f"POST {url} {field}={name}", data=f"{form}&csrf_token={_csrf_token(client)}",
                      content_type="application/x-www-form-urlencoded")
    token = _csrf_token(client)
    posts = [rule for method, rule in page_routes(app) if method == "POST"]
    assert set(FORMS) <= set(posts), "every form of FORMS is a POST route of the url_map"
    for rule in posts:  # the other POST routes (revoking a token…), each path parameter spoiled
        for param in _parameters(rule):
            walk.send("POST", _fill(rule, world, param, HOSTILE[name]), f"POST {rule} {param}={name}",
                      data=f"csrf_token={token}", content_type="application/x-www-form-urlencoded")
    assert not walk.failures, "\n".join(walk.failures)


def _csrf_token(client: FlaskClient) -> str:
    page = client.get("/signin").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the sign-in page carries its CSRF token"
    return found.group(1)
