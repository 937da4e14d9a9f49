"""Headers on every response and the session cookie's Secure flag (issue 45 item 9): ``Referrer-Policy`` and
``X-Content-Type-Options: nosniff`` on pages, API answers, errors, redirects and static files; the session cookie is
``Secure`` whenever the request came over https (straight, or through a trusted proxy's ``X-Forwarded-Proto``) even
with ``LUDOLOG_SECURE_COOKIES`` unset, and a forged ``X-Forwarded-Proto`` from a client that is not a trusted proxy
changes nothing (checked on the app and on the real gunicorn of deploy/)."""

from __future__ import annotations

import dataclasses
import socket

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ludolog.app import create_app
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.context import Stores
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.sse import Gunicorn

PROXY = "10.0.0.2"
SIGNIN = "/signin"  # a page that starts a session (its form's CSRF token), so it sets the session cookie


def _app(config: Config, **settings: object) -> Flask:
    changed = dataclasses.replace(config, **settings)
    app = create_app(changed, Stores(changed))
    app.testing = True
    return app


def _session_cookie(app: Flask, *, https: bool = False, peer: str = "127.0.0.1", forwarded_proto: str | None = None) -> str:
    """The session cookie a new visitor's first page sets."""
    headers = {"X-Forwarded-Proto": forwarded_proto} if forwarded_proto else {}
    answer = app.test_client().get(SIGNIN, base_url="https://localhost" if https else "http://localhost", headers=headers,
                        environ_base={"REMOTE_ADDR": peer})
    cookies = [c for c in answer.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(cookies) == 1, answer.headers
    return cookies[0]


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("GET", SIGNIN), ("GET", "/healthz"), ("GET", "/api/games"), ("GET", "/api/games/nope"),
    ("GET", "/no-such-page"), ("GET", "/static/ui/js/site.js"), ("GET", "/tokens"), ("POST", "/signin"),
    ("DELETE", "/api/games"), ("GET", "/api/openapi.json"),
])
def test_every_response_says_no_sniffing_and_keeps_its_address_home(client: FlaskClient, method: str, path: str) -> None:
    answer = client.open(path, method=method)
    assert answer.headers.get("Referrer-Policy") == "same-origin", (path, answer.status_code)
    assert answer.headers.get("X-Content-Type-Options") == "nosniff", (path, answer.status_code)


def test_the_session_cookie_is_secure_over_https_without_the_setting(config: Config) -> None:
    app = _app(config, secure_cookies=False)
    assert "Secure" in _session_cookie(app, https=True)
    plain = _session_cookie(app)
    assert "Secure" not in plain and "HttpOnly" in plain and "SameSite=Lax" in plain
    assert "Secure" in _session_cookie(_app(config, secure_cookies=True)), "the setting still forces it"


def test_a_trusted_proxy_says_https_and_a_forged_header_says_nothing(config: Config) -> None:
    app = _app(config, secure_cookies=False, trusted_proxies=frozenset({PROXY}))
    assert "Secure" in _session_cookie(app, peer=PROXY, forwarded_proto="https")
    assert "Secure" not in _session_cookie(app, peer=PROXY, forwarded_proto="http")
    assert "Secure" not in _session_cookie(app, peer="192.0.2.7", forwarded_proto="https"), "not from the proxy"
    assert "Secure" not in _session_cookie(_app(config, secure_cookies=False), forwarded_proto="https"), \
        "no proxy trusted: nobody's header is believed"


def _raw_get(port: int, path: str, headers: dict[str, str]) -> str:
    """The status line and headers of a GET sent over a plain socket (as any client could send them)."""
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
             *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE_SECONDS) as sock:
        sock.sendall("\r\n".join(lines).encode())
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    return received.split(b"\r\n\r\n", 1)[0].decode()


def _session_line(head: str) -> str:
    found = [line for line in head.split("\r\n") if line.lower().startswith("set-cookie: session=")]
    assert len(found) == 1, head
    return found[0]


def test_gunicorn_believes_the_forwarded_scheme_of_a_trusted_proxy_only(redis_server: EmbeddedRedis) -> None:
    """deploy/'s gunicorn: with no proxy trusted, a client on the same host forging X-Forwarded-Proto gets a plain
    cookie (gunicorn's own default would have believed 127.0.0.1); with 127.0.0.1 listed as the proxy, the same
    header from it is believed."""
    forged = {"X-Forwarded-Proto": "https"}
    with Gunicorn(redis_server.url) as server:
        head = _raw_get(server.port, SIGNIN, forged)
        assert "Secure" not in _session_line(head)
        assert "referrer-policy: same-origin" in head.lower() and "x-content-type-options: nosniff" in head.lower()
    behind = Gunicorn(redis_server.url)
    behind.env["LUDOLOG_TRUSTED_PROXIES"] = "127.0.0.1"
    with behind as server:
        assert "Secure" in _session_line(_raw_get(server.port, SIGNIN, forged))
        assert "Secure" not in _session_line(_raw_get(server.port, SIGNIN, {}))
