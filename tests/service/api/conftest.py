"""Fixtures of the API tests: an app on the embedded Redis (emptied per test), clients, users."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from ludolog.app import create_app
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.users import UserStore
from tests.service.api.helpers import Users

MAX_BODY = 4096


@pytest.fixture
def config(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Config:
    """Settings pointing at the test Redis, with a small body cap to test 413 cheaply."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, max_body_bytes=MAX_BODY, secret_key="test-secret",
                  queue_name="ludolog-test")


@pytest.fixture
def app(config: Config) -> Flask:
    """A fresh app."""
    app = create_app(config)
    app.testing = True
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client."""
    return app.test_client()


@pytest.fixture
def users(redis_client: redis.Redis) -> Users:
    """alice, bob and carol."""
    store = UserStore(redis_client)
    return Users({name: store.add(name) for name in ("alice", "bob", "carol")})


@pytest.fixture
def new_game(client: FlaskClient, users: Users) -> Callable[..., dict[str, Any]]:
    """Create a pig game as ``owner`` (default alice); returns the 201 body."""

    def make(owner: str = "alice", **fields: Any) -> dict[str, Any]:
        body = {"game": "pig", "players": ["Anna", "Ben"], "seed": "s1"} | fields
        response = client.post("/api/games", json=body, headers=users.auth(owner))
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    return make



@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """The app behind a real threaded WSGI server on a free port; its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=10)
