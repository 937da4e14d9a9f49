"""Turn e-mail settings (issue 46 item 3): ``GET``/``PUT /api/me/notifications`` validated with marshmallow (a clear
400 for an address that is not one), the account page's form over the same schema, and a server without
``LUDOLOG_SMTP_URL``: no mail queued at all, and the page and the API say mails are off."""

from __future__ import annotations

import re

import pytest
import redis
from flask.testing import FlaskClient
from rq import Queue
from rq.serializers import JSONSerializer

from service.api.notifications import NotificationsSchema
from service.store.users import UserStore
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url, head_of


def test_settings_are_read_and_written_by_their_user_only(client: FlaskClient, users: Users) -> None:
    first = client.get("/api/me/notifications", headers=users.auth("bob"))
    assert first.status_code == 200 and first.get_json() == {"email": None, "turn_mail": False, "mail_enabled": False}
    assert_matches(NotificationsSchema, first.get_json())
    saved = client.put("/api/me/notifications", json={"email": "bob@example.org", "turn_mail": True}, headers=users.auth("bob"))
    assert saved.status_code == 200 and saved.get_json() == {"email": "bob@example.org", "turn_mail": True,
                                                            "mail_enabled": False}
    assert client.get("/api/me/notifications", headers=users.auth("carol")).get_json()["email"] is None
    assert_error(client.get("/api/me/notifications"), 401)
    assert_error(client.put("/api/me/notifications", json={"email": None, "turn_mail": False}), 401)
    off = client.put("/api/me/notifications", json={"email": None, "turn_mail": False}, headers=users.auth("bob"))
    assert off.get_json() == {"email": None, "turn_mail": False, "mail_enabled": False}


@pytest.mark.parametrize(("body", "field"), [
    ({"email": "not an address", "turn_mail": True}, "email"),
    ({"email": "bob@example.org\r\nBcc: eve@example.org", "turn_mail": True}, "email"),
    ({"email": "b" * 250 + "@example.org", "turn_mail": True}, "email"),
    ({"email": None, "turn_mail": True}, "email"),
    ({"email": "bob@example.org", "turn_mail": "yes"}, "turn_mail"),
    ({"email": "bob@example.org"}, "turn_mail"),
    ({"email": "bob@example.org", "turn_mail": False, "sms": True}, "sms"),
])
def test_a_bad_address_or_setting_is_a_400_naming_the_field(client: FlaskClient, users: Users, body: dict,
                                                             field: str) -> None:
    error = assert_error(client.put("/api/me/notifications", json=body, headers=users.auth("bob")), 400, "invalid")
    assert field in error["details"]["fields"], error
    assert client.get("/api/me/notifications", headers=users.auth("bob")).get_json()["turn_mail"] is False


def test_without_a_mail_server_no_check_is_ever_queued(client: FlaskClient, users: Users, redis_client: redis.Redis,
                                                       config) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 100},
                                           "seats": [{"holder": "me"}, {"holder": "invite"}]},
                       headers=users.auth("alice")).get_json()
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    client.put("/api/me/notifications", json={"email": "bob@example.org", "turn_mail": True}, headers=users.auth("bob"))
    gid = made["id"]
    for action in ("roll", "hold"):
        client.post(branch_url(gid, what="actions"), json={"action": action, "expected_seq": head_of(client, gid)},
                    headers=users.auth("alice"))
    assert client.get("/api/me/tables", headers=users.auth("bob")).get_json()["tables"][0]["your_turn"]
    queue = Queue(config.queue_name, connection=redis_client, serializer=JSONSerializer)
    assert queue.scheduled_job_registry.get_job_ids() == [] and all(
        job.func_name != "workers.turn_mail.send_turn_mail" for job in queue.get_jobs())


def _signed_in(client: FlaskClient, redis_client: redis.Redis, name: str = "dora") -> None:
    UserStore(redis_client).create(name, "a long password")
    page = client.get("/signin").get_data(as_text=True)
    csrf = re.search(r'<meta name="csrf-token" content="([^"]*)">', page)
    assert csrf
    answer = client.post("/signin", data={"name": name, "password": "a long password", "csrf_token": csrf.group(1)})
    assert answer.status_code == 303


def _csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def test_the_account_page_sets_turn_mails_and_says_this_server_sends_none(client: FlaskClient,
                                                                         redis_client: redis.Redis) -> None:
    assert client.get("/account").status_code == 303, "signed out: to the sign-in page"
    _signed_in(client, redis_client)
    page = client.get("/account")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="mail-off"' in html and "LUDOLOG_SMTP_URL" in html
    bad = client.post("/account", data={"csrf_token": _csrf(html), "email": "dora at home", "turn_mail": "on"})
    assert bad.status_code == 400 and 'id="email-error"' in bad.get_data(as_text=True)
    assert 'value="dora at home"' in bad.get_data(as_text=True), "what was typed is shown again"
    good = client.post("/account", data={"csrf_token": _csrf(html), "email": "dora@example.org", "turn_mail": "on"})
    assert good.status_code == 200 and 'id="account-saved"' in good.get_data(as_text=True)
    assert 'checked' in good.get_data(as_text=True)
    assert client.post("/account", data={"email": "x@example.org"}).status_code == 403, "the form's CSRF check"


def test_an_unsubscribe_link_this_server_did_not_make_is_a_404_page(client: FlaskClient) -> None:
    for token in ("", "bob.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "x" * 5000, "\u202ebob.x"):
        answer = client.get("/mail/unsubscribe", query_string={"token": token})
        assert answer.status_code == 404 and answer.mimetype == "text/html", token


@pytest.mark.parametrize("url", ["http://mail.example.org", "smtp://", "smtp://mail.example.org:99999",
                                 "smtps://user:secret@:465", "smtp://mail.example.org/path"])
def test_a_mistyped_smtp_url_stops_the_start_naming_the_setting_not_the_password(url: str) -> None:
    from service.runtime.config import checked_smtp_url
    with pytest.raises(SystemExit) as stopped:
        checked_smtp_url(url)
    assert "LUDOLOG_SMTP_URL" in str(stopped.value) and "secret" not in str(stopped.value)


def test_the_smtp_urls_ludolog_sends_through() -> None:
    from service.runtime.config import checked_smtp_url
    for url in ("smtp://127.0.0.1:2525", "smtps://user:p%40ss@mail.example.org", "smtp://mail.example.org"):
        assert checked_smtp_url(url) == url
    assert checked_smtp_url("") is None and checked_smtp_url(None) is None
