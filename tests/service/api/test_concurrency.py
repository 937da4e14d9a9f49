"""Reliability: 8 writers race on one branch; the expected-seq check lets exactly one win each time.

Each writer reads the head from the state, then posts a roll at that seq. Every answer is
201 or 409; the 201 answers' events (the roll and the die the server drew after it) tile
the seqs after the opening with no gap and no duplicate, and the head is where they end.
Run both through Flask's test client (one per thread) and through a real threaded server.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import branch_url

WRITERS = 8
ROUNDS = 8
Send = Callable[[str, str, dict[str, Any] | None], tuple[int, Any]]


def _client_transport(app, token: str) -> Send:
    client = app.test_client()

    def send(method: str, url: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        response = client.open(url, method=method, json=body, headers={"Authorization": f"Bearer {token}"})
        return response.status_code, response.get_json()

    return send


def _http_transport(base: str, token: str) -> Send:
    def send(method: str, url: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base + url, data=data, method=method,
                                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    return send


def _race(make_send: Callable[[], Send], gid: str) -> list[tuple[int, int, Any]]:
    """Every writer posts a roll at the head it just read, ROUNDS times; (expected, status, body) of each."""
    barrier = threading.Barrier(WRITERS)
    answers: list[tuple[int, int, Any]] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def writer() -> None:
        send = make_send()
        try:
            for _ in range(ROUNDS):
                barrier.wait(timeout=PATIENCE_SECONDS)  # start each round together: maximal contention
                status, state = send("GET", branch_url(gid, what="state"), None)
                assert status == 200, state
                status, body = send("POST", branch_url(gid, what="actions"), {"action": "roll", "expected_seq": state["seq"]})
                with lock:
                    answers.append((state["seq"], status, body))
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=writer) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    assert not failures, failures
    return answers


@pytest.mark.parametrize("transport", ["test-client", "http"])
def test_concurrent_writers_never_both_win(request, app, client, users, new_game, transport):
    gid = new_game(options={"target": 10_000})["id"]  # a game that cannot end during the race
    opening = client.get(branch_url(gid, what="state")).get_json()["seq"]
    token = users.tokens["alice"]
    if transport == "http":
        base = request.getfixturevalue("live_server")
        answers = _race(lambda: _http_transport(base, token), gid)
    else:
        answers = _race(lambda: _client_transport(app, token), gid)

    assert len(answers) == WRITERS * ROUNDS
    statuses = [status for _, status, _ in answers]
    assert set(statuses) <= {201, 409}, [body for _, status, body in answers if status not in (201, 409)]
    won = [body for _, status, body in answers if status == 201]
    lost = [(expected, body) for expected, status, body in answers if status == 409]
    assert won and lost
    for expected, body in lost:
        assert body["error"]["code"] == "conflict" and body["error"]["details"]["head"] > expected

    stored = [event["seq"] for body in won for event in body["events"]]
    assert all(len(body["events"]) == 2 for body in won)  # the roll, and the die the server drew
    head = client.get(branch_url(gid, what="state")).get_json()["seq"]
    assert sorted(stored) == list(range(opening + 1, head + 1)), "a gap or a duplicate seq"
    assert head == opening + sum(len(body["events"]) for body in won)
    events = client.get(branch_url(gid, what="events")).get_json()["events"]
    assert [e["seq"] for e in events] == list(range(1, head + 1))
    by_seq = {e["seq"]: e for body in won for e in body["events"]}
    assert all(by_seq[e["seq"]] == e for e in events[opening:])
