"""Forwarded headers are believed only from a configured proxy, and sign-ups are throttled per address (issue 29).

By default (``make run``, ``ludolog serve``) no proxy is trusted: a client on the same host rotating
``X-Forwarded-For`` still meets the per-address sign-in limit, and an address locked out cannot sign in by
naming another. With LUDOLOG_TRUSTED_PROXIES listing the proxy, only requests coming straight from it have
their last ``X-Forwarded-For`` entry taken as the client.
"""

from __future__ import annotations

import redis
from flask.testing import FlaskClient

from ludolog.app import create_app
from service.runtime.config import Config
from service.store.context import Stores
from service.store.sessions import ADDRESS_LIMIT, SIGNUP_LIMIT
from service.store.users import UserStore
from tests.ui.test_pages import csrf_of

PASSWORD = "a long password"
LOCAL = {"REMOTE_ADDR": "127.0.0.1"}


def _client(config: Config, **settings: object) -> FlaskClient:
    import dataclasses

    changed = dataclasses.replace(config, **settings)
    app = create_app(changed, Stores(changed))
    app.testing = True
    return app.test_client()


def _sign_in(client: FlaskClient, name: str, password: str, forwarded: str, peer: str = "127.0.0.1") -> int:
    data = {"name": name, "password": password, "csrf_token": csrf_of(client, "/signin")}
    return client.post("/signin", data=data, headers={"X-Forwarded-For": forwarded}, environ_base={"REMOTE_ADDR": peer}).status_code


def _sign_up(client: FlaskClient, name: str, forwarded: str = "", peer: str = "127.0.0.1") -> tuple[int, str | None]:
    data = {"name": name, "password": PASSWORD, "password2": PASSWORD, "csrf_token": csrf_of(client, "/signup")}
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    response = client.post("/signup", data=data, headers=headers, environ_base={"REMOTE_ADDR": peer})
    client.post("/signout", data={"csrf_token": csrf_of(client)})
    return response.status_code, response.headers.get("Retry-After")


def test_by_default_a_rotating_forwarded_for_does_not_dodge_the_sign_in_limit(config: Config, redis_client: redis.Redis) -> None:
    client = _client(config)
    UserStore(redis_client).add("ann", PASSWORD)
    statuses = [_sign_in(client, f"guess{i}", "wrong one", f"198.51.100.{i}") for i in range(ADDRESS_LIMIT + 1)]
    assert statuses == [401] * ADDRESS_LIMIT + [429]
    # Locked out, the address cannot sign in by naming another one, even with the right password.
    assert _sign_in(client, "ann", PASSWORD, "203.0.113.99") == 429


def test_a_configured_proxy_is_believed_for_its_own_requests_only(config: Config, redis_client: redis.Redis) -> None:
    client = _client(config, trusted_proxies=frozenset({"10.0.0.2"}))
    UserStore(redis_client).add("ann", PASSWORD)
    for i in range(ADDRESS_LIMIT):
        assert _sign_in(client, f"guess{i}", "wrong one", f"1.2.3.{i}, 203.0.113.5", peer="10.0.0.2") == 401
    assert _sign_in(client, "ann", PASSWORD, "203.0.113.5", peer="10.0.0.2") == 429  # the proxy's entry: the client
    assert _sign_in(client, "ann", PASSWORD, "203.0.113.6", peer="10.0.0.2") == 303  # another client behind it
    # A peer that is not the proxy names the locked-out client in vain: its own address counts, and it is free.
    assert _sign_in(client, "ann", PASSWORD, "203.0.113.5", peer="198.51.100.1") == 303
    for i in range(ADDRESS_LIMIT + 1):
        _sign_in(client, f"again{i}", "wrong one", f"192.0.2.{i}", peer="198.51.100.7")
    assert _sign_in(client, "ann", PASSWORD, "203.0.113.7", peer="198.51.100.7") == 429


def test_sign_ups_are_throttled_per_address_with_retry_after(config: Config, redis_client: redis.Redis) -> None:
    client = _client(config)
    answers = [_sign_up(client, f"user{i}", forwarded=f"198.51.100.{i}") for i in range(SIGNUP_LIMIT + 1)]
    assert [status for status, _ in answers] == [303] * SIGNUP_LIMIT + [429]
    retry_after = answers[-1][1]
    assert retry_after is not None and 0 < int(retry_after) <= 3600
    assert not UserStore(redis_client).exists(f"user{SIGNUP_LIMIT}")
    assert _sign_up(client, "elsewhere", peer="192.0.2.1")[0] == 303  # another address is not held back


def test_a_name_already_taken_counts_as_a_sign_up_try(config: Config, redis_client: redis.Redis) -> None:
    """Probing the user list for taken names is throttled like making accounts."""
    client = _client(config)
    UserStore(redis_client).add("ann", PASSWORD)
    statuses = [_sign_up(client, "ann")[0] for _ in range(SIGNUP_LIMIT + 1)]
    assert statuses == [409] * SIGNUP_LIMIT + [429]
