"""Fixtures of the import tests: an app with a small upload cap on the embedded Redis, users, a job runner."""

from __future__ import annotations

import pytest

from ludolog.app import create_app
from service.imports.importer import run_import
from service.runtime.config import Config
from service.store.users import UserStore
from tests.service.api.helpers import Users

MAX_UPLOAD = 3 * 1024 * 1024


@pytest.fixture
def config(redis_server, redis_client) -> Config:
    """Settings pointing at the test Redis; a 3 MB upload cap (the Gaia sample is 1.6 MB)."""
    return Config(redis_url=redis_server.url, queue_redis_url=None, max_upload_bytes=MAX_UPLOAD, secret_key="test-secret",
                  queue_name="ludolog-import-test", snapshot_every=50)


@pytest.fixture
def app(config):
    app = create_app(config)
    app.testing = True
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def users(redis_client) -> Users:
    store = UserStore(redis_client)
    return Users({name: store.add(name) for name in ("alice", "bob")})


@pytest.fixture
def upload(client, users, redis_client):
    """POST a file as alice (raw body), run its import job in-process, return the final upload record."""

    def send(raw: bytes, *, query: str = "", user: str = "alice", run: bool = True):
        response = client.post(f"/api/uploads{query}", data=raw, headers={**users.auth(user), "Content-Type": "application/json"})
        assert response.status_code in (200, 202), response.get_json()  # 200: uploaded before, already here
        uid = response.get_json()["id"]
        if run:
            run_import(redis_client, uid, every=50)
        return client.get(f"/api/uploads/{uid}", headers=users.auth(user)).get_json()

    return send
