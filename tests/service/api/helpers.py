"""Helpers shared by the API tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from marshmallow import Schema


@dataclass
class Users:
    """Tokens of the test users."""

    tokens: dict[str, str]

    def auth(self, name: str) -> dict[str, str]:
        """The Authorization header of ``name``."""
        return {"Authorization": f"Bearer {self.tokens[name]}"}


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The response is a JSON error of ``status`` (and ``code``); returns its error object."""
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.is_json, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return dict(body["error"])


def assert_matches(schema: type[Schema], body: Any) -> None:
    """The body has exactly the fields the (documented) response schema declares, well typed."""
    errors = schema().validate(body)
    assert not errors, errors


def branch_url(gid: str, bid: str = "main", what: str = "") -> str:
    """``/api/games/<gid>/branches/<bid>/<what>``."""
    return f"/api/games/{gid}/branches/{bid}/{what}".rstrip("/")


def head_of(client: FlaskClient, gid: str, bid: str = "main", headers: dict[str, str] | None = None) -> int:
    """The branch's head seq, read through the API."""
    response = client.get(branch_url(gid, bid, "state"), headers=headers or {})
    assert response.status_code == 200, response.get_json()
    return int(response.get_json()["seq"])


def play(client: FlaskClient, gid: str, action: str, headers: dict[str, str], bid: str = "main", expected: int | None = None) -> Any:
    """POST an action at the current head (or at ``expected``)."""
    seq = head_of(client, gid, bid, headers) if expected is None else expected
    return client.post(branch_url(gid, bid, "actions"), json={"action": action, "expected_seq": seq}, headers=headers)


def play_to_end(client: FlaskClient, gid: str, headers: dict[str, str], bid: str = "main", max_moves: int = 500) -> None:
    """Hold whenever possible, else roll, until the game is over."""
    for _ in range(max_moves):
        legal = client.get(branch_url(gid, bid, "legal"), headers=headers).get_json()
        if legal["actor"] is None:
            return
        actions = [a["action"] for a in legal["actions"]]
        response = play(client, gid, "hold" if "hold" in actions else "roll", headers, bid, legal["seq"])
        assert response.status_code == 201, response.get_json()
    raise AssertionError("the game did not end")
