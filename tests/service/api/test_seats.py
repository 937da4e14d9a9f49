"""Seats and invites (issue 33 items 1 and 4): a branch's owner assigns each seat to themselves, the engine or an
invite; an invite is single-use and revocable, and a forged one is refused; only the holder of the seat to move
plays it. Real Redis, the real play service, the Pig test game."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.service.api.helpers import Users, assert_error, branch_url


def _fork(client: FlaskClient, users: Users, owner: str = "alice") -> tuple[str, str]:
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "seats"},
                       headers=users.auth(owner)).get_json()
    fork = client.post(f"/api/games/{made['id']}/branches", json={"from": "main", "at": made["seq"], "name": "together"},
                       headers=users.auth(owner)).get_json()
    return made["id"], fork["branch"]


def _seats(client: FlaskClient, gid: str, bid: str) -> dict[str, Any]:
    response = client.get(branch_url(gid, bid, "seats"))
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def _invite(client: FlaskClient, users: Users, gid: str, bid: str, seat: int) -> str:
    response = client.put(branch_url(gid, bid, f"seats/{seat}"), json={"holder": "invite"}, headers=users.auth("alice"))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["holder"] == "invited" and body["invite_url"].startswith("http")
    return str(body["invite_url"].rsplit("/", 1)[1])


def _play_first(client: FlaskClient, gid: str, bid: str, who: dict[str, str]) -> Any:
    """Play the first legal action as ``who`` (Pig's turn starts with a roll: the action a seat not shown its
    choices would send)."""
    state = client.get(branch_url(gid, bid, "state"), headers=who).get_json()
    legal = client.get(branch_url(gid, bid, "legal"), headers=who).get_json()["actions"]
    return client.post(branch_url(gid, bid, "actions"), json={"action": legal[0]["action"] if legal else "roll",
                                                               "expected_seq": state["seq"]}, headers=who)


def test_a_branch_with_no_seats_assigned_is_the_owners_as_before(client: FlaskClient, users: Users) -> None:
    gid, bid = _fork(client, users)
    body = _seats(client, gid, bid)
    assert [s["holder"] for s in body["seats"]] == ["owner", "owner"] and body["live"] is False
    assert sum("waiting_since" in s for s in body["seats"]) == 1, "the seat to move shows since when it waits"
    assert _play_first(client, gid, bid, users.auth("alice")).status_code == 201
    refused = _play_first(client, gid, bid, users.auth("bob"))
    assert "only its owner may play" in assert_error(refused, 403)["message"]


def test_an_invite_gives_its_seat_once_and_only_its_holder_plays_it(client: FlaskClient, users: Users) -> None:
    gid, bid = _fork(client, users)
    actor = client.get(branch_url(gid, bid, "state")).get_json()["actor"]
    token = _invite(client, users, gid, bid, actor)
    assert _seats(client, gid, bid)["live"] is True
    waiting = _play_first(client, gid, bid, users.auth("alice"))
    assert f"seat {actor} is to move" in assert_error(waiting, 403)["message"]
    assert "invite not yet taken" in waiting.get_json()["error"]["message"]

    taken = client.post(f"/api/invites/{token}", headers=users.auth("bob"))
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json() == {"game": gid, "branch": bid, "seat": actor}
    assert _seats(client, gid, bid)["seats"][actor]["holder"] == "bob"

    refused = _play_first(client, gid, bid, users.auth("alice"))
    error = assert_error(refused, 403)
    assert f"seat {actor} is to move" in error["message"] and "held by bob" in error["message"]
    assert "you hold seat" in error["message"], "the owner is told which seat is theirs"
    assert "you hold none of its seats" in assert_error(_play_first(client, gid, bid, users.auth("carol")), 403)["message"]
    assert _play_first(client, gid, bid, users.auth("bob")).status_code == 201

    reused = client.post(f"/api/invites/{token}", headers=users.auth("carol"))
    assert "already used" in assert_error(reused, 410, "gone")["message"]
    assert _seats(client, gid, bid)["seats"][actor]["holder"] == "bob", "a refused invite changes nothing"


def test_revoked_and_forged_invites_are_refused(client: FlaskClient, users: Users) -> None:
    gid, bid = _fork(client, users)
    first = _invite(client, users, gid, bid, 1)
    second = _invite(client, users, gid, bid, 1)  # a new invite to the same seat revokes the first
    assert "revoked" in assert_error(client.post(f"/api/invites/{first}", headers=users.auth("bob")), 410)["message"]
    taken_back = client.delete(branch_url(gid, bid, "seats/1"), headers=users.auth("alice"))
    assert taken_back.status_code == 200 and taken_back.get_json() == {"seat": 1, "holder": "owner"}
    assert "revoked" in assert_error(client.post(f"/api/invites/{second}", headers=users.auth("bob")), 410)["message"]

    forged = second[:-4] + ("AAAA" if not second.endswith("AAAA") else "BBBB")
    for token in (forged, "nonsense", f"{gid}.{'x' * 43}", "zzzz." + second.split(".", 1)[1]):
        assert "no such invite" in assert_error(client.post(f"/api/invites/{token}", headers=users.auth("bob")), 404)["message"]
    assert [s["holder"] for s in _seats(client, gid, bid)["seats"]] == ["owner", "owner"]
    assert_error(client.post(f"/api/invites/{second}"), 401)


def test_only_the_owner_assigns_seats_and_bad_requests_say_why(client: FlaskClient, users: Users) -> None:
    gid, bid = _fork(client, users)
    url = branch_url(gid, bid, "seats/0")
    assert "only its owner" in assert_error(client.put(url, json={"holder": "me"}, headers=users.auth("bob")), 403)["message"]
    assert_error(client.put(branch_url(gid, bid, "seats/2"), json={"holder": "me"}, headers=users.auth("alice")), 404)
    assert_error(client.put(branch_url(gid, bid, "seats/x"), json={"holder": "me"}, headers=users.auth("alice")), 404)
    no_level = assert_error(client.put(url, json={"holder": "engine"}, headers=users.auth("alice")), 400)
    assert "level" in str(no_level)
    assert_error(client.put(url, json={"holder": "engine", "level": "godlike"}, headers=users.auth("alice")), 400)
    assert_error(client.put(url, json={"holder": "bob"}, headers=users.auth("alice")), 400)
    own = client.post(f"/api/invites/{_invite(client, users, gid, bid, 0)}", headers=users.auth("alice"))
    assert "hold its seats already" in assert_error(own, 409)["message"]
    assert [s["holder"] for s in _seats(client, gid, bid)["seats"]] == ["invited", "owner"]


def test_an_engine_seat_refuses_moves_from_people(client: FlaskClient, users: Users) -> None:
    gid, bid = _fork(client, users)
    actor = client.get(branch_url(gid, bid, "state")).get_json()["actor"]
    put = client.put(branch_url(gid, bid, f"seats/{actor}"), json={"holder": "engine", "level": "easy"},
                     headers=users.auth("alice"))
    assert put.get_json() == {"seat": actor, "holder": "engine", "level": "easy"}
    refused = assert_error(_play_first(client, gid, bid, users.auth("alice")), 403)
    assert "the engine (easy)" in refused["message"]


def test_a_live_table_is_neither_forked_nor_taken_back_until_its_game_ends(client: FlaskClient, users: Users) -> None:
    gid, bid = _fork(client, users)
    actor = client.get(branch_url(gid, bid, "state")).get_json()["actor"]
    assert _play_first(client, gid, bid, users.auth("alice")).status_code == 201  # a decision to take back
    head = client.get(branch_url(gid, bid, "state")).get_json()["seq"]
    token = _invite(client, users, gid, bid, 1 - actor)
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    for who in ("alice", "bob", "carol"):
        forked = client.post(f"/api/games/{gid}/branches", json={"from": bid, "at": head}, headers=users.auth(who))
        assert "cannot be forked" in assert_error(forked, 409)["message"]
    taken = client.post(branch_url(gid, bid, "takeback"), json={}, headers=users.auth("alice"))
    assert "cannot be taken back" in assert_error(taken, 409)["message"]
    assert client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 1}, headers=users.auth("carol")).status_code == 201
    assert client.delete(branch_url(gid, bid, f"seats/{1 - actor}"), headers=users.auth("alice")).status_code == 200
    again = client.post(branch_url(gid, bid, "takeback"), json={}, headers=users.auth("alice"))
    assert "cannot be taken back" in assert_error(again, 409)["message"], "bob sat here: still a table (issue 45 item 10)"
