"""Accounts and sessions (issue 13, items 4-7): same-site ``next`` only, sign-in throttling with equal
work for unknown users, server-side sessions that end at sign-out and expire, Secure cookies over
https, and the tokens page whose tokens the API accepts."""

from __future__ import annotations

import hashlib
import re
import time
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from ludolog.app import create_app
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.context import Stores
from service.store.sessions import ACCOUNT_LIMIT, ADDRESS_LIMIT
from service.store.users import UserStore
from tests.ui.test_pages import csrf_of, sign_up

pytestmark = pytest.mark.browser
PASSWORD = "a long password"


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client with cookies."""
    return app.test_client()


def _app(redis_server: EmbeddedRedis, **settings: Any) -> Flask:
    config = Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="ui-test-secret", queue_name="ludolog-ui-test",
                    **settings)
    app = create_app(config, Stores(config))
    app.testing = True
    return app


def _sign_in(client: FlaskClient, name: str, password: str, next_url: str | None = None, address: str = "10.0.0.1") -> Any:
    data = {"name": name, "password": password, "csrf_token": csrf_of(client, "/signin")}
    if next_url is not None:
        data["next"] = next_url
    return client.post("/signin", data=data, environ_base={"REMOTE_ADDR": address})


def _signed_in_as(client: FlaskClient) -> str | None:
    found = re.search(r"Signed in as <strong>([^<]*)</strong>", client.get("/").get_data(as_text=True))
    return found.group(1) if found else None


# -- 4. next= leads only to this site ----------------------------------------------------------------
@pytest.mark.parametrize("target", ["/\t/evil.example/phish", "/\n/evil.example", "/\nx", "/\r\nSet-Cookie: x=1",
                                    "//evil.example/", "https://evil.example/", "/\\evil.example", "/\u2028/evil.example",
                                    "javascript:alert(1)", "/\x00x"])
def test_sign_in_and_sign_up_never_lead_off_site(client: FlaskClient, redis_client: redis.Redis, target: str) -> None:
    UserStore(redis_client).add("ann", PASSWORD)
    signed_in = _sign_in(client, "ann", PASSWORD, target)
    assert signed_in.status_code == 303 and signed_in.headers["Location"] == "/", signed_in.headers.get("Location")
    other = client.application.test_client()
    data = {"name": "ben", "password": PASSWORD, "password2": PASSWORD, "next": target, "csrf_token": csrf_of(other, "/signup")}
    signed_up = other.post("/signup", data=data)
    assert signed_up.status_code == 303 and signed_up.headers["Location"] == "/"
    page = other.get("/signin", query_string={"next": target})
    assert page.status_code == 200 and "evil.example" not in page.get_data(as_text=True)


def test_a_same_site_next_with_a_query_is_kept(client: FlaskClient, redis_client: redis.Redis) -> None:
    UserStore(redis_client).add("ann", PASSWORD)
    response = _sign_in(client, "ann", PASSWORD, "/games/x/b/main?view=1")
    assert response.headers["Location"] == "/games/x/b/main?view=1"


# -- 5. throttling, and the same work for unknown users ------------------------------------------------
def test_wrong_passwords_lock_the_account_for_a_while_even_for_the_right_one(client: FlaskClient, redis_client: redis.Redis) -> None:
    UserStore(redis_client).add("ann", PASSWORD)
    for _ in range(ACCOUNT_LIMIT):
        assert _sign_in(client, "ann", "wrong password").status_code == 401
    refused = _sign_in(client, "ann", PASSWORD)
    assert refused.status_code == 429 and "Too many failed sign-ins" in refused.get_data(as_text=True)
    assert 0 < int(refused.headers["Retry-After"]) <= 15 * 60
    assert _signed_in_as(client) is None
    elsewhere = client.application.test_client()  # the lock is the account's, from any address
    assert _sign_in(elsewhere, "ann", PASSWORD, address="10.9.9.9").status_code == 429
    UserStore(redis_client).add("bob", PASSWORD)
    assert _sign_in(client, "bob", PASSWORD).status_code == 303  # another account from the same address is not locked
    redis_client.delete(keys.signin_failures_for("account", hashlib.sha256(b"ann").hexdigest()))
    assert _sign_in(client, "ann", PASSWORD).status_code == 303  # once the window is over


def test_one_address_trying_many_names_is_throttled(client: FlaskClient, redis_client: redis.Redis) -> None:
    UserStore(redis_client).add("ann", PASSWORD)
    for i in range(ADDRESS_LIMIT):
        assert _sign_in(client, f"guess{i}", "whatever1", address="10.0.0.7").status_code == 401
    refused = _sign_in(client, "ann", PASSWORD, address="10.0.0.7")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert _sign_in(client, "ann", PASSWORD, address="10.0.0.8").status_code == 303


def test_an_unknown_user_costs_the_same_scrypt_as_a_known_one(redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch) -> None:
    """No timing oracle: the work is counted (scrypt calls and their cost parameters), not timed."""
    store = UserStore(redis_client)
    store.add("ann", PASSWORD)
    calls: list[dict[str, Any]] = []
    real = hashlib.scrypt

    def counted(password: bytes, **params: Any) -> bytes:
        calls.append({k: v for k, v in params.items() if k != "salt"})
        return real(password, **params)

    monkeypatch.setattr(hashlib, "scrypt", counted)
    assert not store.check_password("ann", "wrong password")
    known = list(calls)
    calls.clear()
    assert not store.check_password("nobody-here", "wrong password")
    assert calls == known and len(known) == 1


# -- 6. sessions end on the server, expire, and go only over https when set ----------------------------
def test_signing_out_ends_the_session_for_a_copied_cookie_too(client: FlaskClient, redis_client: redis.Redis) -> None:
    sign_up(client, "ann")
    cookie = client.get_cookie("session")
    assert cookie is not None and _signed_in_as(client) == "ann"
    thief = client.application.test_client()
    thief.set_cookie("session", cookie.value)
    assert _signed_in_as(thief) == "ann"
    assert client.post("/signout", data={"csrf_token": csrf_of(client)}).status_code == 303
    assert _signed_in_as(thief) is None  # the same cookie, after sign-out
    with thief.session_transaction() as stolen:  # a signed cookie is readable: the thief has its CSRF token too
        csrf = stolen["csrf"]
    made = thief.post("/api/games", json={"game": "puerto_rico", "players": ["A", "B", "C"]}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 401
    assert not list(redis_client.scan_iter(match=keys.session_for("*")))


def test_sessions_expire_on_the_server(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    app = _app(redis_server, session_seconds=1)
    client = app.test_client()
    sign_up(client, "ann")
    (key,) = list(redis_client.scan_iter(match=keys.session_for("*")))
    assert 0 < redis_client.ttl(key) <= 1
    cookie = client.get_cookie("session")
    assert cookie is not None
    time.sleep(1.5)  # Redis ends the session by itself; the cookie, even replayed, is then worth nothing
    replayed = app.test_client()
    replayed.set_cookie("session", cookie.value)
    assert _signed_in_as(replayed) is None


def test_cookies_are_secure_when_served_over_https(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    plain = _app(redis_server).test_client()
    assert "Secure" not in plain.get("/signin").headers.get("Set-Cookie", "")
    secure = _app(redis_server, secure_cookies=True).test_client()
    header = secure.get("/signin", base_url="https://localhost").headers["Set-Cookie"]
    assert "Secure" in header and "HttpOnly" in header and "SameSite=Lax" in header


def test_the_deploy_template_turns_secure_cookies_on() -> None:
    from service.runtime.config import ROOT

    lines = (ROOT / "deploy" / "env.example").read_text().splitlines()
    assert "LUDOLOG_SECURE_COOKIES=1" in lines


# -- 7. the tokens page -----------------------------------------------------------------------------
def _create_token(client: FlaskClient, name: str) -> Any:
    return client.post("/tokens", data={"name": name, "csrf_token": csrf_of(client, "/tokens")})


def test_tokens_page_makes_names_lists_and_revokes_tokens_the_api_accepts(client: FlaskClient, redis_client: redis.Redis) -> None:
    assert client.get("/tokens").headers["Location"].startswith("/signin?next=")
    sign_up(client, "ann")
    assert "None yet" in client.get("/tokens").get_data(as_text=True)
    made = _create_token(client, "laptop script")
    assert made.status_code == 201
    token = re.search(r'id="new-token" class="token">([^<]+)</code>', made.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    api = client.application.test_client()  # no cookie: the token alone
    game = api.post("/api/games", json={"game": "puerto_rico", "players": ["A", "B", "C"]},
                    headers={"Authorization": f"Bearer {token}"})
    assert game.status_code == 201 and game.get_json()["id"]
    listing = client.get("/tokens").get_data(as_text=True)
    assert "<strong class=\"token-name\">laptop script</strong>" in listing and token not in listing  # shown once only
    assert token.encode() not in b"".join(redis_client.get(k) or b"" for k in redis_client.scan_iter(match=keys.token_for("*")))
    token_id = re.search(r'/tokens/([0-9a-f]+)/revoke', listing).group(1)  # type: ignore[union-attr]
    other = client.application.test_client()
    sign_up(other, "bob")
    assert other.post(f"/tokens/{token_id}/revoke", data={"csrf_token": csrf_of(other, "/tokens")}).status_code == 404
    assert client.post(f"/tokens/{token_id}/revoke", data={"csrf_token": csrf_of(client, "/tokens")}).status_code == 303
    refused = api.get("/api/games", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 401
    assert "None yet" in client.get("/tokens").get_data(as_text=True)


def test_token_names_are_checked_and_forms_need_the_csrf_token(client: FlaskClient) -> None:
    sign_up(client, "ann")
    assert _create_token(client, "").status_code == 400
    bidi = _create_token(client, "my\u202etoken")
    assert bidi.status_code == 400 and "U+202E" in bidi.get_data(as_text=True)
    assert client.post("/tokens", data={"name": "no csrf"}).status_code == 403
    assert "None yet" in client.get("/tokens").get_data(as_text=True)


def test_behind_a_trusted_proxy_the_forwarded_client_is_counted(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> None:
    """The proxy's own entry (the last) counts; a forged earlier entry or an untrusted peer's header does not."""
    client = _app(redis_server, trusted_proxies=frozenset({"127.0.0.1"})).test_client()
    UserStore(redis_client).add("ann", PASSWORD)
    for i in range(ADDRESS_LIMIT):
        data = {"name": f"guess{i}", "password": "whatever1", "csrf_token": csrf_of(client, "/signin")}
        headers = {"X-Forwarded-For": f"1.2.3.{i}, 203.0.113.5"}
        assert client.post("/signin", data=data, headers=headers, environ_base={"REMOTE_ADDR": "127.0.0.1"}).status_code == 401
    data = {"name": "ann", "password": PASSWORD, "csrf_token": csrf_of(client, "/signin")}
    via_proxy = client.post("/signin", data=data, headers={"X-Forwarded-For": "203.0.113.5"}, environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert via_proxy.status_code == 429
    other_client = client.post("/signin", data=data, headers={"X-Forwarded-For": "203.0.113.6"},
                               environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert other_client.status_code == 303
    untrusted = client.application.test_client()
    forged = {"name": "ann", "password": PASSWORD, "csrf_token": csrf_of(untrusted, "/signin")}
    assert untrusted.post("/signin", data=forged, headers={"X-Forwarded-For": "203.0.113.5"},
                          environ_base={"REMOTE_ADDR": "198.51.100.1"}).status_code == 303
