"""Puzzle ratings (issue 49 item 2): an answer updates the solver's and the puzzle's Glicko-2 ratings atomically, with
real racing requests over HTTP; only a first answer is rated; lists offer the puzzles nearest the solver's rating; the
solver's history comes back.

The puzzles are cut by a real worker from a Pig game's analysis (``tests/service/api/test_puzzles.py``'s fixture).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest

from service.store import keys
from service.store.puzzles import PuzzleStore
from service.store.ratings import RatingStore
from service.store.users import UserStore
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import assert_error
from tests.service.api.test_puzzles import analysed  # noqa: F401  (the fixture)

SOLVERS = 8


def _post(base: str, url: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
    request = urllib.request.Request(base + url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE_SECONDS) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _race(base: str, calls: list[tuple[str, dict[str, Any], str]]) -> list[tuple[int, Any]]:
    """Every call posted at once from its own thread (a barrier starts them together); their answers."""
    barrier = threading.Barrier(len(calls))
    answers: list[tuple[int, Any]] = [(0, None)] * len(calls)

    def send(index: int) -> None:
        barrier.wait(timeout=PATIENCE_SECONDS)
        answers[index] = _post(base, *calls[index])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    return answers


@pytest.fixture
def puzzle(redis_client, analysed) -> dict[str, Any]:  # noqa: F811
    """The first puzzle the worker cut."""
    store = PuzzleStore(redis_client)
    return store.get(store.all_ids()[0])


def test_racing_answers_of_many_solvers_lose_no_update(redis_client, live_server, puzzle):
    tokens = {f"solver{i}": UserStore(redis_client).add(f"solver{i}") for i in range(SOLVERS)}
    answers = [puzzle["best"][0] if i % 2 == 0 else puzzle["played"]["action"] for i in range(SOLVERS)]
    url = f"/api/puzzles/{puzzle['id']}/answer"
    results = _race(live_server, [(url, {"action": answers[i]}, tokens[f"solver{i}"]) for i in range(SOLVERS)])
    assert all(status == 200 and body["rating"]["rated"] for status, body in results), results
    ratings = RatingStore(redis_client)
    (final, _, _), attempts = ratings.puzzle(puzzle["id"])
    assert attempts == SOLVERS  # every answer counted
    entries = sorted((entry for user in tokens for entry in ratings.history(user)), key=lambda e: e["puzzle_attempt"])
    assert [e["puzzle_attempt"] for e in entries] == list(range(1, SOLVERS + 1))
    # Serialised: each answer was rated against the puzzle's rating the one before left, and the last one is stored.
    assert entries[0]["puzzle_before"] == 1500.0
    for before, after in zip(entries, entries[1:], strict=False):
        assert after["puzzle_before"] == before["puzzle_after"]
    assert final == entries[-1]["puzzle_after"]
    assert redis_client.zscore(keys.puzzles_by_rating(), puzzle["id"]) == final
    for i, (_status, body) in enumerate(results):  # each solver's rating is what its own update computed
        assert body["correct"] is (i % 2 == 0)
        assert (body["rating"]["rating"] > 1500) is body["correct"]


def test_one_solvers_racing_answers_to_one_puzzle_are_rated_once(redis_client, live_server, users, puzzle):
    token = users.tokens["alice"]
    url = f"/api/puzzles/{puzzle['id']}/answer"
    results = _race(live_server, [(url, {"action": puzzle["best"][0]}, token)] * 4)
    assert [body["rating"]["rated"] for _, body in results].count(True) == 1
    assert RatingStore(redis_client).solver("alice")[1] == 1 and RatingStore(redis_client).puzzle(puzzle["id"])[1] == 1


def test_a_solvers_history_and_the_puzzles_near_their_rating(client, users, redis_client, analysed):  # noqa: F811
    assert_error(client.get("/api/me/puzzles"), 401)
    headers = users.auth("alice")
    store = PuzzleStore(redis_client)
    pids = store.all_ids()
    first = client.post(f"/api/puzzles/{pids[0]}/answer", json={"action": store.get(pids[0])["best"][0]},
                        headers=headers).get_json()
    assert first["rating"]["rated"] and first["rating"]["before"] == 1500 and first["rating"]["rating"] > 1500
    mine = client.get("/api/me/puzzles", headers=headers).get_json()
    assert mine["attempts"] == 1 and [h["puzzle"] for h in mine["history"]] == [pids[0]]
    assert mine["history"][0]["correct"] is True and mine["rating"] == first["rating"]["rating"]
    assert client.post(f"/api/puzzles/{pids[0]}/answer", json={"action": "roll"}, headers=headers).get_json()[
        "rating"]["rated"] is False  # a second answer to the same puzzle is not rated
    listed = client.get("/api/puzzles", headers=headers).get_json()
    assert listed["rating"] == round(mine["rating"])
    distances = [abs(p["rating"] - mine["rating"]) for p in listed["puzzles"]]
    assert distances == sorted(distances) and len(listed["puzzles"]) == len(pids)

