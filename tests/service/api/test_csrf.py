"""One CSRF check, owned by the app, guards the API and the UI alike (service.web.csrf).

The API's JSON writes and the UI's form posts are refused the same way when a session
cookie rides on them without the page's token, and pass with it; the safe methods are one
list for both; a bearer token needs no CSRF token.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.web import csrf
from tests.service.api.helpers import assert_error

PAGE_TOKEN = "page-token"
# (path, request keyword arguments) of a cookie-authenticated write: an API call and a UI form.
WRITES = {
    "api": ("/api/games", {"json": {"game": "pig", "players": ["alice", "bob"]}}),
    "ui": ("/signout", {"data": {}}),
}


def _signed_in(app: Flask, client: FlaskClient, user: str = "alice") -> None:
    with client.session_transaction() as session:
        session["sid"] = app.extensions["ludolog"].sessions.start(user)
        session["csrf"] = PAGE_TOKEN


def test_the_app_installs_the_check_once_for_every_blueprint(app: Flask) -> None:
    installed = [(where, hook) for where, hooks in app.before_request_funcs.items() for hook in hooks
                 if hook is csrf.protect_writes]
    assert installed == [(None, csrf.protect_writes)]


@pytest.mark.parametrize("where", sorted(WRITES))
def test_a_cookie_write_without_the_page_token_is_refused(app: Flask, client: FlaskClient, users: Any, where: str) -> None:
    path, kwargs = WRITES[where]
    _signed_in(app, client)
    refused = client.post(path, **kwargs, headers={"Accept": "application/json"})
    assert_error(refused, 403, "csrf")
    guessed = client.post(path, **kwargs, headers={"Accept": "application/json", csrf.CSRF_HEADER: "guess"})
    assert_error(guessed, 403, "csrf")


@pytest.mark.parametrize("where", sorted(WRITES))
def test_a_cookie_write_with_the_page_token_passes(app: Flask, client: FlaskClient, users: Any, where: str) -> None:
    path, kwargs = WRITES[where]
    _signed_in(app, client)
    response = client.post(path, **kwargs, headers={csrf.CSRF_HEADER: PAGE_TOKEN})
    assert response.status_code in (201, 303), response.get_data(as_text=True)


def test_a_ui_form_refusal_is_a_page(app: Flask, client: FlaskClient, users: Any) -> None:
    _signed_in(app, client)
    response = client.post("/signout", data={"csrf_token": "guess"})
    assert response.status_code == 403 and response.mimetype == "text/html"


@pytest.mark.parametrize("method", sorted(csrf.SAFE_METHODS))
@pytest.mark.parametrize("path", ["/api/games", "/signin"])
def test_safe_methods_need_no_token_anywhere(app: Flask, client: FlaskClient, users: Any, method: str, path: str) -> None:
    _signed_in(app, client)
    assert client.open(path, method=method).status_code != 403


def test_a_bearer_token_needs_no_csrf_token(app: Flask, client: FlaskClient, users: Any) -> None:
    _signed_in(app, client)
    path, kwargs = WRITES["api"]
    assert client.post(path, **kwargs, headers=users.auth("bob")).status_code == 201
