"""Throttles that cannot be raced (issue 45, item 4): a burst of requests sent at the same moment meets each limit as a
row of them would.

Against the real gunicorn of deploy/ (two gevent workers) on the real Redis: 40 sign-up form posts from one address at
once create at most the limit of accounts; 40 wrong passwords at once for one account get at most the limit of
password checks (401), every other one 429 with ``Retry-After``; 40 analysis requests at once from one user are granted
at most the work their allowance holds. Each client is a thread with its own cookies, all released by one barrier.
"""

from __future__ import annotations

import dataclasses
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

import redis
from flask import Flask
from werkzeug.serving import make_server

from engine import Setup
from ludolog.app import create_app
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.games import MAIN, GameStore
from service.store.quota import AnalysisQuota
from service.store.sessions import ACCOUNT_LIMIT, SIGNUP_LIMIT
from service.store.users import UserStore
from tests.helpers import pig_events
from tests.service.api.sse import Gunicorn
from tests.service.api.test_concurrency import _http_transport

BURST = 40
PASSWORD = "a long password"


class FormClient:
    """One browser: its own cookies, the CSRF token of the form it loaded."""

    def __init__(self, server: Gunicorn) -> None:
        self.server = server
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  _NoRedirects())
        self.token = ""

    def load(self, path: str) -> None:
        """GET the form page and keep its CSRF token."""
        with self.opener.open(self.server.url(path), timeout=60) as page:
            match = re.search(r'<meta name="csrf-token" content="([^"]*)">', page.read().decode())
        assert match
        self.token = match.group(1)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str | None]:
        """POST the form; (status, Retry-After)."""
        data = urllib.parse.urlencode(fields | {"csrf_token": self.token}).encode()
        try:
            with self.opener.open(urllib.request.Request(self.server.url(path), data=data), timeout=120) as answer:
                return answer.status, answer.headers.get("Retry-After")
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Retry-After")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 303 after a sign-up is the answer we count, not the page it leads to


def at_once(count: int, prepare: Callable[[int], Any], send: Callable[[int, Any], Any]) -> list[Any]:
    """Run ``prepare(i)`` in ``count`` threads, then ``send(i, prepared)`` in all of them released together."""
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count

    def run(i: int) -> None:
        prepared = prepare(i)
        barrier.wait(timeout=120)
        answers[i] = send(i, prepared)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return answers


def _form(server: Gunicorn, path: str) -> FormClient:
    client = FormClient(server)
    client.load(path)
    return client


def test_forty_sign_ups_at_once_from_one_address_make_at_most_the_limit(redis_server: EmbeddedRedis,
                                                                        redis_client: redis.Redis) -> None:
    with Gunicorn(redis_server.url, workers=2) as server:
        answers = at_once(BURST, lambda i: _form(server, "/signup"),
                           lambda i, form: form.post("/signup", {"name": f"racer{i}", "password": PASSWORD,
                                                                 "password2": PASSWORD}))
    made = [i for i in range(BURST) if UserStore(redis_client).exists(f"racer{i}")]
    statuses = sorted(status for status, _ in answers)
    assert len(made) <= SIGNUP_LIMIT, f"{len(made)} accounts made from one address, limit {SIGNUP_LIMIT}"
    assert statuses == [303] * SIGNUP_LIMIT + [429] * (BURST - SIGNUP_LIMIT)
    assert all(wait is not None and 0 < int(wait) <= 3600 for status, wait in answers if status == 429)


def test_forty_wrong_passwords_at_once_get_at_most_the_limit_of_checks(redis_server: EmbeddedRedis,
                                                                       redis_client: redis.Redis) -> None:
    UserStore(redis_client).add("ann", PASSWORD)
    with Gunicorn(redis_server.url, workers=2) as server:
        answers = at_once(BURST, lambda i: _form(server, "/signin"),
                           lambda i, form: form.post("/signin", {"name": "ann", "password": f"wrong {i}"}))
        statuses = sorted(status for status, _ in answers)
        assert statuses == [401] * ACCOUNT_LIMIT + [429] * (BURST - ACCOUNT_LIMIT), \
            f"{statuses.count(401)} passwords checked for one account, limit {ACCOUNT_LIMIT}"
        assert all(wait is not None and 0 < int(wait) <= 15 * 60 for status, wait in answers if status == 429)
        assert _form(server, "/signin").post("/signin", {"name": "ann", "password": PASSWORD})[0] == 429


def test_a_right_password_in_the_burst_is_not_counted_against_the_address(redis_server: EmbeddedRedis,
                                                                          redis_client: redis.Redis) -> None:
    """Attempts are counted before the password is checked: the right ones are given back, so only failures stay."""
    UserStore(redis_client).add("ann", PASSWORD)
    with Gunicorn(redis_server.url, workers=1) as server:
        for _ in range(3):
            assert _form(server, "/signin").post("/signin", {"name": "ann", "password": PASSWORD})[0] == 303
    counts = [int(redis_client.get(key) or 0) for key in redis_client.scan_iter("*signin-failures:address:*")]
    assert counts in ([], [0])


def _public_game(redis_client: redis.Redis) -> str:
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", Setup(("P0", "P1"), {"target": 10**9}), owner="alice", visibility="public")
    games.append(record.id, MAIN, pig_events(40), 1)
    return record.id


def _serve(app: Flask) -> tuple[Any, str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def test_forty_analysis_requests_at_once_are_granted_at_most_the_allowance(config: Config, redis_client: redis.Redis) -> None:
    """Each request (its own seed: its own work) asks the same work; the allowance holds three of them. The app behind
    a real threaded server (the test game is registered in this process only)."""
    token = UserStore(redis_client).add("alice")
    gid = _public_game(redis_client)
    url = f"/api/games/{gid}/branches/{MAIN}/analysis"
    server, base = _serve(create_app(config))
    status, first = _http_transport(base, token)("POST", url, {"rollouts": 16, "seed": 999})
    server.shutdown()
    assert status == 202, first
    work = AnalysisQuota(redis_client, limit=1).used("alice")
    redis_client.delete(*redis_client.keys("*analysis-quota*"))
    server, base = _serve(create_app(dataclasses.replace(config, analysis_work_per_hour=3 * work)))
    try:
        send = _http_transport(base, token)
        answers = at_once(BURST, lambda i: None, lambda i, _: send("POST", url, {"rollouts": 16, "seed": i + 1}))
    finally:
        server.shutdown()
    statuses = [status for status, _ in answers]
    assert sorted(statuses) == [202] * 3 + [429] * (BURST - 3), statuses
    assert AnalysisQuota(redis_client, limit=1).used("alice") == 3 * work
