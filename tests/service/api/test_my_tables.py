"""Your tables (issue 46 item 2): ``GET /api/me/tables`` lists the tables the caller sits at, those waiting for them
first, with whose turn it is; the index behind it follows every seat change in the seat's own transaction (taken,
taken back, deleted); ``GET /api/me/tables/stream`` tells the home page when one changed; an engine seat's move (a
real RQ worker) hands the turn back and the list says so. Real Redis, real gunicorn for the stream."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.runtime.redis_server import EmbeddedRedis
from service.store import keys
from service.store.users import UserStore
from tests.helpers import kill_with_work_horses, start_worker, wait_until
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url, head_of
from tests.service.api.sse import Gunicorn, SseClient
from tests.service.api.test_table_deletion import _table as fork_table

PIG_TABLE = {"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 100},
             "seats": [{"holder": "me"}, {"holder": "invite"}]}


def _tables(client: FlaskClient, users: Users, who: str) -> list[dict[str, Any]]:
    from service.api.tables import TablesSchema
    response = client.get("/api/me/tables", headers=users.auth(who))
    assert response.status_code == 200, response.get_json()
    assert_matches(TablesSchema, response.get_json())
    return list(response.get_json()["tables"])


def _seated_table(client: FlaskClient, users: Users, friend: str = "bob") -> str:
    """A pig table: seat 0 alice's, seat 1 ``friend``'s by invite. Its game id."""
    made = client.post("/api/games", json=PIG_TABLE, headers=users.auth("alice")).get_json()
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth(friend)).status_code == 200
    return str(made["id"])


def _hold_until(client: FlaskClient, users: Users, gid: str, who: str) -> None:
    """``who`` plays (roll, then hold) until their turn is over."""
    for action in ("roll", "hold"):
        head = head_of(client, gid, headers=users.auth(who))
        legal = [a["action"] for a in client.get(branch_url(gid, what="legal"), headers=users.auth(who)).get_json()["actions"]]
        if action in legal or not legal:
            client.post(branch_url(gid, what="actions"), json={"action": action, "expected_seq": head}, headers=users.auth(who))


def test_the_tables_waiting_for_you_come_first_with_whose_turn_it_is(client: FlaskClient, users: Users) -> None:
    first, second = _seated_table(client, users), _seated_table(client, users)
    mine = _tables(client, users, "alice")
    assert {t["game"] for t in mine} == {first, second} and all(t["your_turn"] for t in mine)
    assert all(t["to_move"] == {"seat": 0, "player": "Anna", "holder": "alice (the owner)"} for t in mine)
    bobs = _tables(client, users, "bob")
    assert [t["your_turn"] for t in bobs] == [False, False] and bobs[0]["waiting_since"] is not None
    _hold_until(client, users, second, "alice")
    bobs = _tables(client, users, "bob")
    assert [(t["game"], t["your_turn"]) for t in bobs] == [(second, True), (first, False)], "waiting for bob first"
    assert bobs[0]["to_move"]["player"] == "Ben" and bobs[0]["url"] == f"/games/{second}/b/main"
    assert _tables(client, users, "carol") == []
    assert_error(client.get("/api/me/tables"), 401)


def test_the_index_follows_seats_taken_back_and_branches_deleted(client: FlaskClient, users: Users,
                                                                 redis_client: redis.Redis) -> None:
    gid = _seated_table(client, users)
    assert redis_client.zrange(keys.tables_of("bob"), 0, -1) == [f"{gid}/main".encode()]
    assert client.delete(branch_url(gid, what="seats/1"), headers=users.auth("alice")).status_code == 200
    assert redis_client.zrange(keys.tables_of("bob"), 0, -1) == [], "bob's seat was taken back: not his table"
    assert _tables(client, users, "bob") == []
    head = head_of(client, gid, headers=users.auth("alice"))
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": head},
                       headers=users.auth("alice"))
    assert fork.status_code == 409, "still a live table: bob sat at it"
    other, branch = fork_table(client, users)  # alice's fork where bob took seat 1
    assert (other, branch) in {(t["game"], t["branch"]) for t in _tables(client, users, "alice")}
    assert [t["branch"] for t in _tables(client, users, "bob")] == [branch]
    assert client.delete(branch_url(other, branch, "seats/1"), headers=users.auth("alice")).status_code == 200
    assert client.delete(branch_url(other, branch), headers=users.auth("alice")).status_code == 204
    assert f"{other}/{branch}".encode() not in redis_client.zrange(keys.tables_of("alice"), 0, -1)
    assert redis_client.zrange(keys.tables_of("bob"), 0, -1) == []


@pytest.fixture
def server(redis_server: EmbeddedRedis, redis_client: redis.Redis) -> Iterator[Gunicorn]:
    """gunicorn (one gevent worker) on the emptied test Redis."""
    with Gunicorn(redis_server.url) as running:
        yield running


PR_TABLE = {"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"],
            "seats": [{"holder": "me"}, {"holder": "invite"}, {"holder": "me"}]}


def _move(server: Gunicorn, gid: str, tokens: dict[str, str]) -> None:
    """One move on main by whichever of alice and bob is to move."""
    for name in ("alice", "bob"):
        status, legal = server.get(f"/api/games/{gid}/branches/main/legal", tokens[name])
        if status == 200 and legal["actions"]:
            status, body = server.send(f"/api/games/{gid}/branches/main/actions",
                                       {"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]}, tokens[name])
            assert status == 201, body
            return
    raise AssertionError("neither alice nor bob may move")


def test_the_stream_tells_the_players_of_a_table_and_nobody_else(server: Gunicorn, redis_client: redis.Redis) -> None:
    tokens = {name: UserStore(redis_client).add(name) for name in ("alice", "bob", "carol")}
    follow = {name: SseClient(server.port, "/api/me/tables/stream", {"Authorization": f"Bearer {token}"}).open()
              for name, token in tokens.items()}
    status, made = server.send("/api/games", PR_TABLE, tokens["alice"])
    assert status == 201, made
    assert follow["alice"].next_message().json() == {"game": made["id"], "branch": "main"}, "a new table of hers"
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert server.send(f"/api/invites/{token}", {}, tokens["bob"])[0] == 200
    assert follow["bob"].next_message().json() == {"game": made["id"], "branch": "main"}, "bob sat down"
    _move(server, made["id"], tokens)
    assert follow["bob"].next_message().event == "tables", "the move reached bob's home page"
    status, public = server.send("/api/games", {"game": "puerto_rico", "players": ["A", "B", "C"]}, tokens["carol"])
    assert status == 201, public
    status, another = server.send("/api/games", PR_TABLE | {"seats": [{"holder": "me"}] * 3}, tokens["carol"])
    assert status == 201, another
    assert follow["carol"].next_message().json()["game"] == another["id"], (
        "carol heard of her own new table, not of alice's table nor of her game without seats before it")
    for client in follow.values():
        client.close()
    assert server.get("/api/me/tables/stream")[0] == 401


@pytest.fixture
def worker(redis_server: EmbeddedRedis, config: Any) -> Iterator[subprocess.Popen]:
    """A real ``ludolog worker`` on the app's queues."""
    process = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=config.queue_name)
    yield process
    if process.poll() is None:
        kill_with_work_horses(process)


def test_an_engine_seat_hands_the_turn_back_by_itself(app: Flask, client: FlaskClient, users: Users, worker) -> None:
    made = client.post("/api/games", json={"game": "pig", "players": ["Engine", "Anna"], "options": {"target": 100},
                                           "seats": [{"holder": "engine", "level": "easy"}, {"holder": "me"}]},
                       headers=users.auth("alice"))
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]
    wait_until(lambda: _tables(client, users, "alice")[0]["your_turn"], "the engine played its turn and handed it back")
    table = _tables(client, users, "alice")[0]
    assert table["game"] == gid and table["to_move"]["player"] == "Anna" and table["seq"] > made.get_json()["seq"]
    assert time.time() - table["waiting_since"] < 120
