"""A table others sit at is not deleted under them (issue 45 item 7): deleting a branch while a person other than its
owner holds a seat and its game is not over is refused with 409 ``seats_held``, saying who sits where and what allows
it; once the owner takes the seats back, or once the game is over, the branch is deleted. An engine seat or an invite
nobody took holds no one. A release reaches the seated player's open page at once (the branch's seats stream, on the
real gunicorn), and so does the deletion. Real Redis, the real play service, the Pig test game."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.runtime.redis_server import EmbeddedRedis
from service.store.games import GameStore
from service.store.users import UserStore
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import Users, assert_error, branch_url
from tests.service.api.sse import Gunicorn, SseClient


def _table(client: FlaskClient, users: Users, **options: int) -> tuple[str, str]:
    """Alice's pig game and her fork of it where bob took seat 1 (Ben) by invite. (gid, fork)"""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "del", "options": options},
                       headers=users.auth("alice")).get_json()
    fork = client.post(f"/api/games/{made['id']}/branches", json={"from": "main", "at": made["seq"]},
                       headers=users.auth("alice")).get_json()["branch"]
    invite = client.put(branch_url(made["id"], fork, "seats/1"), json={"holder": "invite"},
                        headers=users.auth("alice")).get_json()["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{invite}", headers=users.auth("bob")).status_code == 200
    return made["id"], fork


def _delete(client: FlaskClient, users: Users, gid: str, bid: str) -> object:
    return client.delete(branch_url(gid, bid), headers=users.auth("alice"))


def test_deleting_a_table_others_sit_at_is_refused_saying_who_and_why(client: FlaskClient, users: Users) -> None:
    gid, fork = _table(client, users)
    error = assert_error(_delete(client, users, gid, fork), 409, "seats_held")
    assert "bob at seat 1 (Ben)" in error["message"] and f"branch {fork!r}" in error["message"]
    assert "take their seats back" in error["message"] and "game is over" in error["message"]
    assert error["details"]["seated"] == [{"seat": 1, "user": "bob"}]
    assert client.get(branch_url(gid, fork, "state")).status_code == 200, "the table is still there"
    assert_error(client.delete(branch_url(gid, fork), headers=users.auth("bob")), 403)  # not his to delete anyway


def test_the_table_is_deleted_once_its_seats_are_taken_back(client: FlaskClient, users: Users) -> None:
    gid, fork = _table(client, users)
    assert_error(_delete(client, users, gid, fork), 409, "seats_held")
    assert client.delete(branch_url(gid, fork, "seats/1"), headers=users.auth("alice")).status_code == 200
    assert _delete(client, users, gid, fork).status_code == 204
    assert client.get(branch_url(gid, fork, "state")).status_code == 404


def test_bobs_seat_handed_to_the_engine_releases_it_and_an_open_invite_holds_no_one(client: FlaskClient, users: Users) -> None:
    gid, fork = _table(client, users)
    assert_error(_delete(client, users, gid, fork), 409, "seats_held")
    client.put(branch_url(gid, fork, "seats/1"), json={"holder": "engine", "level": "easy"}, headers=users.auth("alice"))
    client.put(branch_url(gid, fork, "seats/0"), json={"holder": "invite"}, headers=users.auth("alice"))
    assert _delete(client, users, gid, fork).status_code == 204


def test_the_table_is_deleted_once_its_game_is_over(client: FlaskClient, users: Users) -> None:
    gid, fork = _table(client, users, target=1)
    assert_error(_delete(client, users, gid, fork), 409, "seats_held")
    holders = {0: users.auth("alice"), 1: users.auth("bob")}
    for _ in range(100):
        actor = client.get(branch_url(gid, fork, "state")).get_json()["actor"]
        if actor is None:
            break
        legal = client.get(branch_url(gid, fork, "legal"), headers=holders[actor]).get_json()
        actions = [a["action"] for a in legal["actions"]]
        played = client.post(branch_url(gid, fork, "actions"), headers=holders[legal["actor"]],
                             json={"action": "hold" if "hold" in actions else "roll", "expected_seq": legal["seq"]})
        assert played.status_code == 201, played.get_json()
    assert client.get(branch_url(gid, fork, "seats")).get_json()["seats"][1]["holder"] == "bob", "bob still sits there"
    told = client.get(branch_url(gid, fork, "seats/stream"), headers=users.auth("bob")).get_data(as_text=True)
    assert told.index("event: seats") < told.index("event: end"), "a finished table's seats stream closes"
    assert _delete(client, users, gid, fork).status_code == 204


def _call(server: Gunicorn, method: str, path: str, token: str, body: object = None) -> tuple[int, Any]:
    """(status, parsed JSON or None) of a request with ``token``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url(path), data=data, method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE_SECONDS) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_a_release_and_the_deletion_reach_the_seated_players_open_stream(redis_server: EmbeddedRedis,
                                                                         redis_client: redis.Redis) -> None:
    """The real gunicorn of deploy/ (gevent): bob, seated at alice's table, follows its seats; alice takes his seat
    back and he is told at once on the open stream; she deletes the branch and the stream says so and ends."""
    alice, bob = UserStore(redis_client).add("alice"), UserStore(redis_client).add("bob")
    with Gunicorn(redis_server.url) as server:
        status, made = server.send("/api/games", {"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"], "seed": "t"}, alice)
        assert status == 201, made
        gid = made["id"]
        fork = server.send(f"/api/games/{gid}/branches", {"from": "main", "at": made["seq"]}, alice)[1]["branch"]
        invite = _call(server, "PUT", f"/api/games/{gid}/branches/{fork}/seats/1", alice, {"holder": "invite"})[1]
        assert server.send(f"/api/invites/{invite['invite_url'].rsplit('/', 1)[1]}", {}, bob)[0] == 200
        seats = SseClient(server.port, f"/api/games/{gid}/branches/{fork}/seats/stream",
                          {"Authorization": f"Bearer {bob}"}).open()
        assert seats.status == 200 and seats.retry is None
        first = seats.next_message()
        assert first.event == "seats" and first.json()["mine"] == [1] and seats.retry is not None
        assert _call(server, "DELETE", f"/api/games/{gid}/branches/{fork}", alice)[0] == 409, "bob sits there"
        assert _call(server, "DELETE", f"/api/games/{gid}/branches/{fork}/seats/1", alice)[0] == 200
        released = seats.next_message()
        assert released.event == "seats" and released.json()["mine"] == []
        assert released.json()["seats"][1]["holder"] == "owner"
        assert _call(server, "DELETE", f"/api/games/{gid}/branches/{fork}", alice)[0] == 204
        gone = seats.next_message()
        assert gone.event == "deleted" and gone.json() == {"branch": fork}
        with pytest.raises(EOFError):
            seats.next_message()
        assert SseClient(server.port, f"/api/games/{gid}/branches/{fork}/seats/stream").open().status == 404


def test_a_branch_deleted_while_its_stream_opens_ends_the_stream_with_deleted(client: FlaskClient, users: Users,
                                                                              redis_client: redis.Redis) -> None:
    """The route checks the branch, then the stream's first read finds it gone (deleted in between): the stream says
    ``deleted`` and ends, where it ended on the store's NotFoundError's traceback."""
    gid, fork = _table(client, users)
    assert client.delete(branch_url(gid, fork, "seats/1"), headers=users.auth("alice")).status_code == 200
    response = client.get(branch_url(gid, fork, "stream"), buffered=False)
    assert response.status_code == 200
    # after the route's checks, before any read; by the store, since the open streamed request keeps its app context
    # (and its signed-in user) pushed, which a second request through the test client would reuse
    GameStore(redis_client).delete_branch(gid, fork)
    text = b"".join(response.response).decode()  # the stream ends by itself: no read waits on the hub
    assert "event: deleted" in text
