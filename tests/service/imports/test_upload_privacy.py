"""A private upload is its owner's: others get the 404 of an unknown upload; an anonymous upload cannot be private."""

from __future__ import annotations

from service.store import keys
from tests.engine.bga import samples
from tests.engine.bga.samples import TOKAIDO_B
from tests.service.api.helpers import assert_error


def test_a_private_upload_is_404_to_everyone_but_its_owner(client, users, upload):
    mine = upload(samples.raw(TOKAIDO_B), query="?visibility=private")
    assert mine["status"] == "done" and mine["owner"] == "alice"
    url = f"/api/uploads/{mine['id']}"
    for headers in (users.auth("bob"), {}):
        error = assert_error(client.get(url, headers=headers), 404, "not_found")
        assert error["message"] == f"no upload {mine['id']!r}"  # the words of an upload that does not exist
        assert client.get(f"/api/games/{mine['game']}", headers=headers).status_code == 404
    assert client.get(url, headers=users.auth("alice")).get_json()["report"]


def test_public_and_unlisted_uploads_are_anyones_to_follow(client, users, upload):
    for visibility in ("public", "unlisted"):
        first = upload(samples.raw(TOKAIDO_B) + b" " * (visibility == "unlisted"), query=f"?visibility={visibility}")
        assert client.get(f"/api/uploads/{first['id']}").status_code == 200


def test_an_anonymous_upload_cannot_be_private_and_stores_nothing(client, redis_client):
    response = client.post("/api/uploads?visibility=private", data=samples.raw(TOKAIDO_B),
                           headers={"Content-Type": "application/json"})
    error = assert_error(response, 401, "unauthorized")
    assert "private" in error["message"] and "visibility" in error["details"]["fields"]
    assert not list(redis_client.scan_iter(match=keys.upload_for("*")))
    public = client.post("/api/uploads", data=samples.raw(TOKAIDO_B), headers={"Content-Type": "application/json"})
    assert public.status_code == 202
