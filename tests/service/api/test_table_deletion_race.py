"""A table is not deleted under a seat taken meanwhile (issue 45 item 7): the check that nobody sits at a branch and its
deletion are one step as far as seats go. Whatever the order in which an owner's ``DELETE`` of a branch and an invite's
redemption (or a seat's assignment) interleave, afterwards either the branch is there with the seat taken, or it is
gone and no seat, usable invite or "your tables" entry points at it; and the side that lost is told so with a 4xx that
names the branch.

Each interleaving that broke it is forced by a hook at the point where the other request used to slip in (a real second
request, run from another thread while the first waits), and the two requests also race freely, many rounds, released
together by a barrier. Real Redis, the real app, the Pig test game."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.store import keys
from service.store.games import GameStore
from service.store.seats import SeatStore
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import Users, assert_error, branch_url

ROUNDS = 24


def _open_table(client: FlaskClient, users: Users) -> tuple[str, str, str]:
    """Alice's pig game and her fork of it with an invite to seat 1 (Ben) nobody has taken yet: (gid, fork, token)."""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"]}, headers=users.auth("alice"))
    assert made.status_code == 201, made.get_json()
    gid = made.get_json()["id"]
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": made.get_json()["seq"]},
                       headers=users.auth("alice")).get_json()["branch"]
    invited = client.put(branch_url(gid, fork, "seats/1"), json={"holder": "invite"}, headers=users.auth("alice"))
    assert invited.status_code == 200, invited.get_json()
    return gid, fork, invited.get_json()["invite_url"].rsplit("/", 1)[1]


def _in_another_thread(call: Callable[[], Any]) -> Any:
    """``call()``'s answer, run on a thread of its own (a request of its own: no Flask context of the caller's), waited
    for here."""
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(call()))
    thread.start()
    thread.join(timeout=PATIENCE_SECONDS)
    assert answers, "the second request did not answer"
    return answers[0]


def _assert_consistent(client: FlaskClient, redis_client: redis.Redis, gid: str, fork: str) -> bool:
    """Either the branch is there (True), or it is gone and nothing of its seats is left pointing at it (False)."""
    invites = [json.loads(raw) for raw in redis_client.hvals(keys.invites_for(gid))]
    usable = [invite for invite in invites if invite["branch"] == fork and invite["status"] in ("open", "used")]
    listed = {name: redis_client.zrange(keys.tables_of(name), 0, -1) for name in ("alice", "bob")}
    if client.get(branch_url(gid, fork, "state")).status_code == 200:
        return True
    assert redis_client.hgetall(keys.seats_for(gid, fork)) == {}, "a seat is left at a deleted branch"
    assert usable == [], f"an invite still points at the deleted branch: {usable}"
    assert all(f"{gid}/{fork}".encode() not in members for members in listed.values()), listed
    assert not redis_client.exists(keys.branch_closing_for(gid, fork))
    return False


def _bobs_seat(client: FlaskClient, gid: str, fork: str) -> str:
    return str(client.get(branch_url(gid, fork, "seats")).get_json()["seats"][1]["holder"])


def test_an_invite_redeemed_after_its_branch_was_deleted_takes_no_seat(app: Flask, client: FlaskClient, users: Users,
                                                                      redis_client: redis.Redis,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob's redemption has found the branch; before it writes his seat, alice's whole deletion runs. His seat must not
    land at the branch that is gone: he is told it was deleted (410), and nothing is left of the table."""
    gid, fork, token = _open_table(client, users)
    redeem, deletions = SeatStore.redeem, []

    def deleted_first(store: SeatStore, *args: Any, **kwargs: Any) -> Any:
        if not deletions:
            deletions.append(_in_another_thread(lambda: app.test_client().delete(branch_url(gid, fork),
                                                                                 headers=users.auth("alice"))))
        return redeem(store, *args, **kwargs)

    monkeypatch.setattr(SeatStore, "redeem", deleted_first)
    taken = client.post(f"/api/invites/{token}", headers=users.auth("bob"))
    assert deletions[0].status_code == 204, deletions[0].get_json()
    error = assert_error(taken, 410, "branch_deleted")
    assert f"branch {fork!r}" in error["message"] and "deleted" in error["message"], error
    assert _assert_consistent(client, redis_client, gid, fork) is False
    monkeypatch.undo()
    again = assert_error(client.post(f"/api/invites/{token}", headers=users.auth("bob")), 410, "branch_deleted")
    assert f"branch {fork!r}" in again["message"], "the invite says its branch was deleted, later too"


@pytest.mark.parametrize("second", ["bob redeems the invite", "alice gives the seat to the engine"])
def test_a_seat_taken_while_the_branch_is_being_deleted_is_refused(app: Flask, client: FlaskClient, users: Users,
                                                                   redis_client: redis.Redis,
                                                                   monkeypatch: pytest.MonkeyPatch, second: str) -> None:
    """Alice's deletion has checked that nobody sits at the branch; before the branch goes, bob redeems his invite (or
    alice, in another tab, hands the seat to the engine). That seat is refused with 409 ``branch_closing`` naming the
    branch, and the deletion goes on: nobody was seated under it, and nothing is left of the table."""
    gid, fork, token = _open_table(client, users)
    delete, seconds = GameStore.delete_branch, []
    request: Callable[[], Any] = (
        (lambda: app.test_client().post(f"/api/invites/{token}", headers=users.auth("bob"))) if second.startswith("bob")
        else (lambda: app.test_client().put(branch_url(gid, fork, "seats/1"), json={"holder": "engine", "level": "easy"},
                                            headers=users.auth("alice"))))

    def seated_meanwhile(store: GameStore, *args: Any, **kwargs: Any) -> Any:
        if not seconds:
            seconds.append(_in_another_thread(request))
        return delete(store, *args, **kwargs)

    monkeypatch.setattr(GameStore, "delete_branch", seated_meanwhile)
    assert client.delete(branch_url(gid, fork), headers=users.auth("alice")).status_code == 204
    error = assert_error(seconds[0], 409, "branch_closing")
    assert f"branch {fork!r}" in error["message"] and "being deleted" in error["message"], error
    assert _assert_consistent(client, redis_client, gid, fork) is False


def test_a_deletion_refused_after_the_check_leaves_the_table_as_it_was(client: FlaskClient, users: Users,
                                                                      redis_client: redis.Redis) -> None:
    """The game store refuses the deletion of a branch with forks only after the seats were checked (and the branch
    marked closing): the mark is lifted, the invite still works and the seats are as they were."""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"]}, headers=users.auth("alice")).get_json()
    gid = made["id"]
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": made["seq"]},
                       headers=users.auth("alice")).get_json()["branch"]
    child = client.post(f"/api/games/{gid}/branches", json={"from": fork, "at": made["seq"]}, headers=users.auth("alice"))
    assert child.status_code == 201, child.get_json()
    invite = client.put(branch_url(gid, fork, "seats/1"), json={"holder": "invite"}, headers=users.auth("alice"))
    token = invite.get_json()["invite_url"].rsplit("/", 1)[1]
    assert_error(client.delete(branch_url(gid, fork), headers=users.auth("alice")), 409, "conflict")
    assert not redis_client.exists(keys.branch_closing_for(gid, fork)), "the closing mark was lifted"
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    assert _bobs_seat(client, gid, fork) == "bob"
    assert f"{gid}/{fork}".encode() in redis_client.zrange(keys.tables_of("bob"), 0, -1)


def _race_once(app: Flask, users: Users, gid: str, fork: str, token: str) -> tuple[int, int, dict[str, Any]]:
    """Alice's DELETE and bob's redemption released together: (delete's status, redemption's status, its body)."""
    barrier = threading.Barrier(2)
    answers: dict[str, Any] = {}

    def run(name: str, call: Callable[[FlaskClient], Any]) -> None:
        own = app.test_client()
        barrier.wait(timeout=PATIENCE_SECONDS)
        answers[name] = call(own)

    threads = [threading.Thread(target=run, args=("delete", lambda c: c.delete(branch_url(gid, fork), headers=users.auth("alice")))),
               threading.Thread(target=run, args=("redeem", lambda c: c.post(f"/api/invites/{token}", headers=users.auth("bob"))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    return answers["delete"].status_code, answers["redeem"].status_code, answers["redeem"].get_json()


def test_a_deletion_and_a_redemption_racing_leave_one_of_two_consistent_outcomes(app: Flask, client: FlaskClient,
                                                                                users: Users,
                                                                                redis_client: redis.Redis) -> None:
    """Many rounds of the two requests at once: either bob sits at the table and the deletion was refused (409
    seats_held), or the table is gone, his redemption was refused naming the branch, and nothing points at it."""
    for _ in range(ROUNDS):
        gid, fork, token = _open_table(client, users)
        deleted, redeemed, body = _race_once(app, users, gid, fork, token)
        there = _assert_consistent(client, redis_client, gid, fork)
        if there:
            assert (deleted, redeemed) == (409, 200) and _bobs_seat(client, gid, fork) == "bob", (deleted, redeemed, body)
        else:
            assert deleted == 204 and redeemed in (404, 409, 410), (deleted, redeemed, body)
            assert body["error"]["code"] in ("not_found", "branch_closing", "branch_deleted"), body
            assert repr(fork) in body["error"]["message"], body
