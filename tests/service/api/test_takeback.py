"""Taking back on a fork and deleting a leaf fork (issue 15 item 7): a take-back forks a new line just before the
last decision(s) of the owner's own branch and deletes nothing; only the owner may; a leaf fork of one's own can be
deleted, main and a branch with forks cannot. Real Redis, the real play service, the Pig test game."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from engine import Setup
from service.store.errors import ConflictError
from service.store.games import GameStore
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url


def _play(client: FlaskClient, gid: str, bid: str, action: str, who: dict[str, str]) -> None:
    head = client.get(branch_url(gid, bid, "state")).get_json()["seq"]
    response = client.post(branch_url(gid, bid, "actions"), json={"action": action, "expected_seq": head}, headers=who)
    assert response.status_code in (200, 201), response.get_json()


def _events(client: FlaskClient, gid: str, bid: str) -> list[dict[str, Any]]:
    return list(client.get(branch_url(gid, bid, "events")).get_json()["events"])


def _bobs_fork(client: FlaskClient, users: Users) -> tuple[str, str, int]:
    """Alice's pig game; bob's fork of it where a player acts, with four decisions of bob's own on it."""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "tb"}, headers=users.auth("alice")).get_json()
    gid, at = made["id"], made["seq"]
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": at, "name": "bob's"}, headers=users.auth("bob")).get_json()
    for _ in range(4):
        legal = client.get(branch_url(gid, fork["branch"], "legal")).get_json()
        _play(client, gid, fork["branch"], legal["actions"][0]["action"], users.auth("bob"))
    return gid, fork["branch"], at


def test_take_back_forks_a_line_before_the_last_decisions_and_keeps_the_old_one(client: FlaskClient, users: Users) -> None:
    from service.api.takeback import TakenBackSchema

    gid, bid, fork_at = _bobs_fork(client, users)
    before = _events(client, gid, bid)
    decisions = [e for e in before if isinstance(e["actor"], int) and e["seq"] > fork_at]
    response = client.post(branch_url(gid, bid, "takeback"), json={"decisions": 2}, headers=users.auth("bob"))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert_matches(TakenBackSchema, body)
    assert body["from"] == bid and body["seq"] == decisions[-2]["seq"] - 1
    assert _events(client, gid, body["branch"]) == before[:body["seq"]]
    assert _events(client, gid, bid) == before, "nothing is deleted"
    tree = {b["id"]: b for b in client.get(f"/api/games/{gid}").get_json()["branches"]}
    assert tree[body["branch"]]["parent"] == bid and tree[body["branch"]]["owner"] == "bob"
    assert tree[body["branch"]]["chance"] == "keep"
    # The default takes back one decision.
    one = client.post(branch_url(gid, bid, "takeback"), json={}, headers=users.auth("bob")).get_json()
    assert one["seq"] == decisions[-1]["seq"] - 1


def test_only_the_owner_takes_back_and_only_decisions_of_the_branch(client: FlaskClient, users: Users) -> None:
    gid, bid, _ = _bobs_fork(client, users)
    assert_error(client.post(branch_url(gid, bid, "takeback"), json={}), 401)
    assert_error(client.post(branch_url(gid, bid, "takeback"), json={}, headers=users.auth("carol")), 403)
    error = assert_error(client.post(branch_url(gid, bid, "takeback"), json={"decisions": 50}, headers=users.auth("bob")),
                         422, "nothing_to_take_back")
    assert "cannot take back 50" in error["message"]
    assert_error(client.post(branch_url(gid, bid, "takeback"), json={"decisions": 0}, headers=users.auth("bob")), 400, "invalid")
    assert_error(client.post(branch_url(gid, bid, "takeback"), json={"decisions": "2"}, headers=users.auth("bob")), 400, "invalid")
    assert len(client.get(f"/api/games/{gid}").get_json()["branches"]) == 2, "a refused take-back forks nothing"


def test_delete_a_leaf_fork_of_ones_own_only(client: FlaskClient, users: Users) -> None:
    gid, bid, _ = _bobs_fork(client, users)
    child = client.post(branch_url(gid, bid, "takeback"), json={}, headers=users.auth("bob")).get_json()["branch"]
    assert_error(client.delete(f"/api/games/{gid}/branches/{bid}", headers=users.auth("carol")), 403)
    error = assert_error(client.delete(f"/api/games/{gid}/branches/{bid}", headers=users.auth("bob")), 409, "conflict")
    assert child in error["message"]
    assert_error(client.delete(f"/api/games/{gid}/branches/main", headers=users.auth("alice")), 400)
    assert client.delete(f"/api/games/{gid}/branches/{child}", headers=users.auth("bob")).status_code == 204
    assert client.delete(f"/api/games/{gid}/branches/{bid}", headers=users.auth("bob")).status_code == 204
    assert [b["id"] for b in client.get(f"/api/games/{gid}").get_json()["branches"]] == ["main"]
    assert_error(client.get(branch_url(gid, bid, "events")), 404)
    assert_error(client.delete(f"/api/games/{gid}/branches/{bid}", headers=users.auth("bob")), 404)


def test_a_fork_made_during_a_delete_stops_the_delete(redis_client: Any) -> None:
    """The check for forks and the delete are one transaction: a fork stored by another client after the check
    (just before the delete is queued) makes the delete a conflict, and the branch stays."""
    games = GameStore(redis_client)
    other = GameStore(redis.Redis(connection_pool=redis_client.connection_pool))
    record = games.create_game("pig", "1", Setup(("A", "B")), owner="ann")
    leaf = games.fork(record.id, "main", 1, owner="ann")
    original = redis_client.pipeline

    def pipeline_forked_between(*args: Any, **kwargs: Any) -> Any:
        pipe = original(*args, **kwargs)
        multi = pipe.multi

        def fork_then_multi() -> Any:
            other.fork(record.id, leaf.id, 1, owner="bob")
            return multi()

        pipe.multi = fork_then_multi
        return pipe

    redis_client.pipeline = pipeline_forked_between
    try:
        with pytest.raises(ConflictError, match="changed while being deleted"):
            games.delete_branch(record.id, leaf.id)
    finally:
        redis_client.pipeline = original
    assert leaf.id in games.branches(record.id)
