"""Idempotency keys under concurrency, through a real threaded server on the real embedded Redis.

Six clients send the same request with the same ``Idempotency-Key`` at once: every one gets
the first request's 201 answer (not a 409), and the branch holds it once. The same key with
another body is 422 ``idempotency_key_reused``, whether it comes later or races the first.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import assert_error, branch_url, head_of

CLIENTS = 6
ROUNDS = 5


def _post(base: str, url: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, Any]:
    request = urllib.request.Request(base + url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _at_once(requests: list[tuple[dict[str, Any], dict[str, str]]], base: str, url: str) -> list[tuple[int, Any]]:
    """Send each (body, headers) from its own thread, all released together; answers in request order."""
    barrier = threading.Barrier(len(requests))
    answers: list[tuple[int, Any] | None] = [None] * len(requests)

    def client(i: int) -> None:
        barrier.wait(timeout=PATIENCE_SECONDS)
        answers[i] = _post(base, url, *requests[i])

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    assert all(answer is not None for answer in answers)
    return answers  # type: ignore[return-value]


def _events(client, gid: str) -> list[dict[str, Any]]:
    return client.get(branch_url(gid, what="events")).get_json()["events"]


def test_six_clients_with_one_key_all_get_the_first_201(client, users, new_game, live_server):
    gid = new_game(options={"target": 10_000})["id"]
    auth = users.auth("alice")
    for round_ in range(ROUNDS):
        head = head_of(client, gid)
        headers = auth | {"Idempotency-Key": f"round-{round_}"}
        answers = _at_once([({"action": "roll", "expected_seq": head}, headers)] * CLIENTS, live_server,
                           branch_url(gid, what="actions"))
        assert [status for status, _ in answers] == [201] * CLIENTS, answers
        first = answers[0][1]
        assert all(body == first for _, body in answers), "every client gets the same answer"
        stored = _events(client, gid)
        assert [e["seq"] for e in stored] == list(range(1, first["seq"] + 1)), "stored once, no gap"
        assert stored[head:] == first["events"]
        assert head_of(client, gid) == head + len(first["events"])


def test_a_retry_after_the_head_moved_on_still_gets_the_first_answer(client, users, new_game):
    gid = new_game(options={"target": 10_000})["id"]
    url, auth = branch_url(gid, what="actions"), users.auth("alice")
    head = head_of(client, gid)
    first = client.post(url, json={"action": "roll", "expected_seq": head}, headers=auth | {"Idempotency-Key": "k1"})
    assert first.status_code == 201
    assert client.post(url, json={"action": "roll", "expected_seq": first.get_json()["seq"]}, headers=auth).status_code == 201
    again = client.post(url, json={"action": "roll", "expected_seq": head}, headers=auth | {"Idempotency-Key": "k1"})
    assert (again.status_code, again.get_json()) == (201, first.get_json())


def test_the_same_key_with_another_body_is_422_and_stores_nothing(client, users, new_game):
    gid = new_game(options={"target": 10_000})["id"]
    url, headers = branch_url(gid, what="actions"), users.auth("alice") | {"Idempotency-Key": "k2"}
    head = head_of(client, gid)
    first = client.post(url, json={"action": "roll", "expected_seq": head}, headers=headers).get_json()
    after = head_of(client, gid)
    for other in ({"action": "roll", "expected_seq": after}, {"action": "hold", "expected_seq": head}):
        error = assert_error(client.post(url, json=other, headers=headers), 422, "idempotency_key_reused")
        assert error["details"] == {"key": "k2", "first_seq": head + 1, "last_seq": first["seq"]}
    assert head_of(client, gid) == after


def _hold_is_legal(client, gid: str, auth: dict[str, str]) -> int:
    """Roll until the player may hold; returns the head there."""
    for _ in range(200):
        legal = client.get(branch_url(gid, what="legal")).get_json()
        if "hold" in [a["action"] for a in legal["actions"]]:
            return int(legal["seq"])
        response = client.post(branch_url(gid, what="actions"), json={"action": "roll", "expected_seq": legal["seq"]},
                                headers=auth)
        assert response.status_code == 201, response.get_json()
    raise AssertionError("never allowed to hold")


def test_racing_requests_with_one_key_and_two_bodies_store_one_and_refuse_the_other(client, users, new_game, live_server):
    gid = new_game(options={"target": 10_000})["id"]
    auth = users.auth("alice")
    head = _hold_is_legal(client, gid, auth)
    headers = auth | {"Idempotency-Key": "race"}
    bodies = [{"action": "roll" if i % 2 else "hold", "expected_seq": head} for i in range(CLIENTS)]
    answers = _at_once([(body, headers) for body in bodies], live_server, branch_url(gid, what="actions"))
    won = {body["action"] for body, (status, _) in zip(bodies, answers, strict=True) if status == 201}
    assert len(won) == 1, answers
    winner = won.pop()
    results = [answer for body, answer in zip(bodies, answers, strict=True) if body["action"] == winner]
    refused = [answer for body, answer in zip(bodies, answers, strict=True) if body["action"] != winner]
    assert all(result == results[0] for result in results), "the winning body's copies all get the first answer"
    assert all(status == 422 and body["error"]["code"] == "idempotency_key_reused" for status, body in refused), refused
    first = results[0][1]
    assert first["events"][0]["action"] == winner
    assert head_of(client, gid) == head + len(first["events"]) == first["seq"]
