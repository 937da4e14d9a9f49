"""Take-back requests at a table (issue 46 item 6): a seated player asks to take back their last move, the other people
at the table approve or decline (the engine always agrees: a table whose other seats are the engine's grants it at
once); one open request per table; another move expires it; granted, the table plays on at a new line seated as it
was, and the old line takes no more moves. Races are real concurrent requests: the last approval against a move (one
wins, never both), and two approvals at once (one new line). A grant whose granter died (the state it leaves: the last
approval committed, nothing after it, or only its first steps) is finished by whoever touches it past the lease.
Real Redis, the real app, the Pig test game."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api import sse
from service.api.takeback_requests import TableRequestSchema
from service.store import takebacks
from service.store.takebacks import TakeBackRequest
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url
from tests.service.api.sse import SseClient

REQUEST = "takeback-request"


def _table(client: FlaskClient, users: Users, people: tuple[str, ...] = ("bob",), engines: int = 0) -> str:
    """A new public pig game of alice's, a table from its start: seat 0 hers, then ``people`` by invite, then
    ``engines`` engine seats (no worker runs: the engine never moves here). Its id."""
    seats = [{"holder": "me"}] + [{"holder": "invite"}] * len(people) + [{"holder": "engine", "level": "easy"}] * engines
    made = client.post("/api/games", json={"game": "pig", "players": [f"P{n}" for n in range(len(seats))],
                                           "seats": seats}, headers=users.auth("alice")).get_json()
    for n, person in enumerate(people, start=1):
        token = made["seats"][n]["invite_url"].rsplit("/", 1)[1]
        assert client.post(f"/api/invites/{token}", headers=users.auth(person)).status_code == 200
    return str(made["id"])


def _state(client: FlaskClient, users: Users, gid: str, bid: str = "main") -> dict[str, Any]:
    return dict(client.get(branch_url(gid, bid, "state"), headers=users.auth("alice")).get_json())


def _move(client: Any, users: Users, gid: str, who: str, bid: str = "main") -> Any:
    """``who`` rolls, or holds once they have something to hold; the answer."""
    legal = client.get(branch_url(gid, bid, "legal"), headers=users.auth(who)).get_json()
    action = "hold" if "hold" in [a["action"] for a in legal["actions"]] else "roll"
    return client.post(branch_url(gid, bid, "actions"), json={"action": action, "expected_seq": legal["seq"]},
                       headers=users.auth(who))


def _play_turn(client: FlaskClient, users: Users, gid: str, who: str, seat: int, bid: str = "main") -> None:
    """``who`` (at ``seat``) plays until the turn passes."""
    for _ in range(50):
        if _state(client, users, gid, bid)["actor"] != seat:
            return
        assert _move(client, users, gid, who, bid).status_code == 201
    raise AssertionError("the turn never passed")


def _ask(client: Any, users: Users, gid: str, who: str = "alice") -> Any:
    return client.post(branch_url(gid, what=REQUEST), json={}, headers=users.auth(who))


def _answer(client: Any, users: Users, gid: str, rid: str, who: str, how: str = "approve") -> Any:
    return client.post(branch_url(gid, what=f"{REQUEST}/{rid}/{how}"), json={}, headers=users.auth(who))


def _branches(client: FlaskClient, gid: str) -> set[str]:
    return {b["id"] for b in client.get(f"/api/games/{gid}").get_json()["branches"]}


def test_granted_the_table_plays_on_at_a_new_line_seated_as_it_was(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users)
    _play_turn(client, users, gid, "alice", 0)
    head = _state(client, users, gid)["seq"]
    said = client.post(branch_url(gid, what="chat"), json={"text": "oops, may I?"}, headers=users.auth("alice")).get_json()
    asked = _ask(client, users, gid)
    assert asked.status_code == 201, asked.get_json()
    assert_matches(TableRequestSchema, asked.get_json())
    request = asked.get_json()["request"]
    assert request["status"] == "open" and request["waiting"] == ["bob"] and request["requester"] == "alice"
    assert client.get(branch_url(gid, what="seats")).get_json()["takeback"]["id"] == request["id"], "pages see it"
    granted = _answer(client, users, gid, request["id"], "bob")
    assert granted.status_code == 200, granted.get_json()
    done = granted.get_json()["request"]
    assert done["status"] == "granted" and done["approved"] == ["bob"] and done["branch"]
    new = done["branch"]
    assert [s["holder"] for s in client.get(branch_url(gid, new, "seats")).get_json()["seats"]] == ["owner", "bob"]
    assert _state(client, users, gid, new)["actor"] == 0, "alice's move again"
    assert _state(client, users, gid, new)["seq"] <= request["at"] + 1 < head + 1
    assert_error(client.get(branch_url(gid, new, "state") + "?view=full", headers=users.auth("alice")), 403)
    refused = assert_error(_move(client, users, gid, "bob"), 409)
    assert new in refused["message"], "the old line takes no more moves and says where the table went"
    assert client.get(branch_url(gid, what="seats")).get_json()["moved_to"] == new
    for who in ("alice", "bob"):
        tables = client.get("/api/me/tables", headers=users.auth(who)).get_json()["tables"]
        assert [(t["game"], t["branch"]) for t in tables] == [(gid, new)], who
    assert _move(client, users, gid, "alice", new).status_code == 201, "the table plays on at the new line"
    assert client.get(branch_url(gid, new, "chat"), headers=users.auth("bob")).get_json()["messages"] == [said], \
        "the table's talk goes with it"


def test_declined_nothing_changes_and_the_requester_may_ask_again(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users)
    _play_turn(client, users, gid, "alice", 0)
    before = _branches(client, gid)
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    declined = _answer(client, users, gid, rid, "bob", "decline").get_json()["request"]
    assert declined["status"] == "declined" and declined["answered_by"] == "bob"
    assert client.get(branch_url(gid, what=REQUEST)).get_json()["request"]["status"] == "declined"
    assert _branches(client, gid) == before
    assert_error(_answer(client, users, gid, rid, "bob"), 409, "conflict")
    assert _ask(client, users, gid).status_code == 201
    assert _move(client, users, gid, "bob").status_code == 201, "bob plays on meanwhile"


def test_one_open_request_per_table_and_a_move_expires_it(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users)
    _play_turn(client, users, gid, "alice", 0)
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    assert "one at a time" in assert_error(_ask(client, users, gid), 409)["message"]
    assert _move(client, users, gid, "bob").status_code == 201
    assert client.get(branch_url(gid, what=REQUEST)).get_json()["request"]["status"] == "expired"
    error = assert_error(_answer(client, users, gid, rid, "bob"), 409)
    assert "expired: a move was played" in error["message"]


def test_only_the_people_at_the_table_ask_and_answer(client: FlaskClient, users: Users, new_game: Any) -> None:
    gid = _table(client, users)
    assert_error(_ask(client, users, gid, "bob"), 422, "nothing_to_take_back")
    _play_turn(client, users, gid, "alice", 0)
    assert_error(_ask(client, users, gid, "carol"), 403, "not_seated")
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    assert_error(_answer(client, users, gid, rid, "carol"), 403)
    assert_error(_answer(client, users, gid, rid, "alice"), 403)
    assert_error(_answer(client, users, gid, "another", "bob"), 404)
    assert_error(client.post(branch_url(gid, what=REQUEST), json={}), 401)
    solo = new_game()
    assert_error(_ask(client, users, solo["id"]), 409, "no_table")


def test_with_only_the_engine_beside_the_requester_it_is_granted_at_once(client: FlaskClient, users: Users) -> None:
    gid = _table(client, users, people=(), engines=1)
    _play_turn(client, users, gid, "alice", 0)
    asked = _ask(client, users, gid)
    assert asked.status_code == 201, asked.get_json()
    request = asked.get_json()["request"]
    assert request["status"] == "granted" and request["waiting"] == []
    seats = client.get(branch_url(gid, request["branch"], "seats")).get_json()["seats"]
    assert [(s["holder"], s.get("level")) for s in seats] == [("owner", None), ("engine", "easy")]


def _race(app: Flask, *calls: Callable[[FlaskClient], Any]) -> list[Any]:
    """Each call with its own client, let go at the same moment; their answers, in order."""
    answers: list[Any] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(n: int) -> None:
        own = app.test_client()
        start.wait()
        answers[n] = calls[n](own)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _approval_against_a_move(app: Flask, client: FlaskClient, users: Users) -> None:
    """One round: carol has approved alice's request; bob's approval (the last) and bob's move are sent together."""
    gid = _table(client, users, people=("bob", "carol"))
    _play_turn(client, users, gid, "alice", 0)
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    assert _answer(client, users, gid, rid, "carol").get_json()["request"]["status"] == "open"
    head = _state(client, users, gid)["seq"]
    approved, moved = _race(app, lambda c: _answer(c, users, gid, rid, "bob"), lambda c: _move(c, users, gid, "bob"))
    request = client.get(branch_url(gid, what=REQUEST)).get_json()["request"]
    if moved.status_code == 201:
        assert approved.status_code == 409 and request["status"] == "expired", approved.get_json()
        assert len(_branches(client, gid)) == 1 and _state(client, users, gid)["seq"] > head
    else:
        assert moved.status_code == 409 and approved.status_code == 200, (moved.get_json(), approved.get_json())
        assert request["status"] == "granted" and _state(client, users, gid)["seq"] == head, "no move landed"


def test_the_last_approval_racing_a_move_has_one_winner(app: Flask, client: FlaskClient, users: Users) -> None:
    # which one wins varies from round to round (both do, over six rounds, on this machine); never both
    for _ in range(6):
        _approval_against_a_move(app, client, users)


def test_two_approvals_at_once_grant_it_once(app: Flask, client: FlaskClient, users: Users) -> None:
    gid = _table(client, users, people=("bob", "carol"))
    _play_turn(client, users, gid, "alice", 0)
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    answers = _race(app, lambda c: _answer(c, users, gid, rid, "bob"), lambda c: _answer(c, users, gid, rid, "carol"),
                    lambda c: _answer(c, users, gid, rid, "carol"))
    assert [a.status_code for a in answers] == [200, 200, 200], [a.get_json() for a in answers]
    request = client.get(branch_url(gid, what=REQUEST)).get_json()["request"]
    assert request["status"] == "granted" and sorted(request["approved"]) == ["bob", "carol"]
    assert _branches(client, gid) == {"main", request["branch"]}, "one new line"


def _granter_died(app: Flask, client: FlaskClient, users: Users) -> tuple[str, TakeBackRequest, dict[str, Any]]:
    """A table whose take-back's last approval (bob's) was committed by a process that died at once: exactly what the
    store's ``answer`` writes, and nothing after it. The game, the request (granting) and the chat message said."""
    gid = _table(client, users)
    _play_turn(client, users, gid, "alice", 0)
    said = client.post(branch_url(gid, what="chat"), json={"text": "oops, may I?"}, headers=users.auth("alice")).get_json()
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    request = app.extensions["ludolog"].stores.takebacks.answer(gid, "main", rid, "bob", approve=True)
    assert request.status == "granting", request
    return gid, request, said


def _shown(client: Any, users: Users, gid: str, who: str = "bob") -> dict[str, Any]:
    answer = client.get(branch_url(gid, what=REQUEST), headers=users.auth(who))
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json()["request"])


def _chat(client: FlaskClient, users: Users, gid: str, bid: str) -> list[Any]:
    return list(client.get(branch_url(gid, bid, "chat"), headers=users.auth("bob")).get_json()["messages"])


def test_a_grant_whose_granter_died_is_finished_by_the_next_reader(app: Flask, client: FlaskClient, users: Users,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    gid, request, said = _granter_died(app, client, users)
    assert _shown(client, users, gid)["status"] == "granting", "within the lease its granter may still be at work"
    assert_error(_move(client, users, gid, "bob"), 409)
    monkeypatch.setattr(takebacks, "GRANT_LEASE_S", 0.0)
    shown = _shown(client, users, gid)
    assert shown["status"] == "granted" and shown["branch"] == request.branch, shown
    new = request.branch
    assert [s["holder"] for s in client.get(branch_url(gid, new, "seats")).get_json()["seats"]] == ["owner", "bob"]
    assert _chat(client, users, gid, new) == [said], "the table's talk goes with it"
    assert _move(client, users, gid, "alice", new).status_code == 201, "the table plays on at the new line"
    assert new in assert_error(_move(client, users, gid, "bob"), 409)["message"], "the old line stays closed"
    assert _branches(client, gid) == {"main", new}


def test_a_move_refused_on_the_closed_line_finishes_the_grant_and_says_where_it_went(
        app: Flask, client: FlaskClient, users: Users, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, request, _ = _granter_died(app, client, users)
    monkeypatch.setattr(takebacks, "GRANT_LEASE_S", 0.0)
    refused = assert_error(_move(client, users, gid, "bob"), 409)
    assert str(request.branch) in refused["message"], refused
    assert client.get(branch_url(gid, what=REQUEST)).get_json()["request"]["status"] == "granted"
    assert _state(client, users, gid, str(request.branch))["actor"] == 0, "alice's move again"


def test_a_grant_that_died_after_the_fork_is_finished_with_one_line_and_the_chat_once(
        app: Flask, client: FlaskClient, users: Users, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, request, said = _granter_died(app, client, users)
    context, new = app.extensions["ludolog"], str(request.branch)
    context.stores.seats.carry_table(gid, "main", new)  # the dead granter's first steps
    context.play.fork(gid, "main", request.at, owner="alice", chance="keep", bid=new)
    monkeypatch.setattr(takebacks, "GRANT_LEASE_S", 0.0)
    assert _shown(client, users, gid, "alice")["status"] == "granted"
    assert _branches(client, gid) == {"main", new}, "one new line"
    context.stores.chat.carry(gid, "main", new)  # once more: nothing to add
    assert _chat(client, users, gid, new) == [said]
    assert _move(client, users, gid, "alice", new).status_code == 201


def test_two_resumers_at_once_make_one_line_and_one_grant(app: Flask, client: FlaskClient, users: Users,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    gid, request, said = _granter_died(app, client, users)
    monkeypatch.setattr(takebacks, "GRANT_LEASE_S", 0.0)
    shown = _race(app, lambda c: _shown(c, users, gid, "bob"), lambda c: _shown(c, users, gid, "alice"),
                  lambda c: _answer(c, users, gid, request.id, "bob").get_json()["request"])
    assert [(r["status"], r["branch"]) for r in shown] == [("granted", request.branch)] * 3, shown
    assert _branches(client, gid) == {"main", str(request.branch)}, "one new line"
    assert _chat(client, users, gid, str(request.branch)) == [said], "the chat carried once"


def test_a_grant_whose_granter_died_is_finished_by_the_seats_stream_of_pages_that_only_watch(
        app: Flask, client: FlaskClient, users: Users, live_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody asks, answers or moves: the seats streams open at the table (bob's, and a spectator's of the public game)
    see the request granting, and once its lease lapsed one of them finishes it and every one is moved to the new
    line."""
    monkeypatch.setattr(takebacks, "GRANT_LEASE_S", 1.0)
    monkeypatch.setattr(sse, "KEEPALIVE_S", 0.5)  # quiet spells come often: the lapse is noticed soon
    gid = _table(client, users)
    _play_turn(client, users, gid, "alice", 0)
    rid = _ask(client, users, gid).get_json()["request"]["id"]
    port, path = int(live_server.rsplit(":", 1)[1]), f"/api/games/{gid}/branches/main/seats/stream"
    streams = [SseClient(port, path, headers=users.auth("bob"), timeout=30).open(),
               SseClient(port, path, timeout=30).open()]
    try:
        for stream in streams:
            assert stream.next_message().json()["takeback"]["status"] == "open"
        request = app.extensions["ludolog"].stores.takebacks.answer(gid, "main", rid, "bob", approve=True)
        assert request.status == "granting", "the granter died right after its approval committed"
        for stream in streams:
            said = [stream.next_message(within=30) for _ in range(2)]
            assert said[0].event == "seats" and said[0].json()["takeback"]["status"] == "granting", said[0]
            assert (said[1].event, said[1].json()) == ("moved", {"branch": "main", "to": request.branch}), said[1]
    finally:
        for stream in streams:
            stream.close()
    shown = _shown(client, users, gid)
    assert (shown["status"], shown["branch"]) == ("granted", request.branch)
    assert _branches(client, gid) == {"main", str(request.branch)}, "one new line"
    assert _move(client, users, gid, "alice", str(request.branch)).status_code == 201, "the table plays on there"
