"""Authentication: bearer tokens, and the session cookie the UI will set at sign-in."""

from __future__ import annotations

from flask import Blueprint

from tests.service.api.helpers import assert_error, branch_url


def _sign_in(app, session, user: str) -> str:
    """Put a server-side session of ``user`` in the cookie, as the sign-in form does; returns its id."""
    sid = app.extensions["ludolog"].sessions.start(user)
    session["sid"] = sid
    return sid


def test_session_user_reads_like_a_token(app, client, users, new_game):
    gid = new_game(visibility="private")["id"]
    assert_error(client.get(f"/api/games/{gid}"), 404)
    with client.session_transaction() as session:
        sid = _sign_in(app, session, "alice")
    assert client.get(f"/api/games/{gid}").status_code == 200
    app.extensions["ludolog"].sessions.end(sid)
    assert_error(client.get(f"/api/games/{gid}"), 404)  # ended on the server: the same cookie is worth nothing


def test_a_signed_cookie_naming_a_user_is_not_a_session(client, users, new_game):
    """Only the server's session store says who is signed in; a cookie's own say-so counts for nothing."""
    gid = new_game(visibility="private")["id"]
    with client.session_transaction() as session:
        session["user"] = "alice"
        session["sid"] = "made-up"
    assert_error(client.get(f"/api/games/{gid}"), 404)


def test_session_writes_need_the_csrf_header(app, client, users, new_game):
    gid = new_game()["id"]
    with client.session_transaction() as session:
        _sign_in(app, session, "alice")
        session["csrf"] = "page-token"
    body = {"action": "roll", "expected_seq": 3}
    assert_error(client.post(branch_url(gid, what="actions"), json=body), 403, "csrf")
    assert_error(client.post(branch_url(gid, what="actions"), json=body, headers={"X-CSRF-Token": "guess"}), 403, "csrf")
    response = client.post(branch_url(gid, what="actions"), json=body, headers={"X-CSRF-Token": "page-token"})
    assert response.status_code == 201
    assert response.get_json()["events"][0]["meta"]["author"] == "alice"


def test_a_bearer_token_wins_over_the_session(app, client, users, new_game):
    gid = new_game()["id"]
    with client.session_transaction() as session:
        _sign_in(app, session, "alice")
    body = {"action": "roll", "expected_seq": 3}
    assert_error(client.post(branch_url(gid, what="actions"), json=body, headers=users.auth("bob")), 403, "forbidden")


def test_a_bug_answers_500_in_the_error_shape(app, config):
    broken = Blueprint("broken", __name__)

    @broken.get("/api/broken")
    def explode():
        raise RuntimeError("secret internals")

    app.register_blueprint(broken)
    error = assert_error(app.test_client().get("/api/broken"), 500, "internal_error")
    assert "secret" not in error["message"]
