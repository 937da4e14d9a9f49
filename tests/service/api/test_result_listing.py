"""The result filters of ``GET /api/games`` (``result=finished|unfinished``, ``winner=``): a game played to its end
through the API (its branch folded by a real RQ worker) moves from unfinished to finished with its winner; a fork
played to its end leaves the game unfinished; visibility is as for every other filter."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from service.api.schemas import GameListSchema
from service.store.games import MAIN, GameStore
from service.store.listing import normalise
from service.store.snapshots import SnapshotStore
from tests.helpers import PATIENCE_SECONDS, ROOT, ludolog_env
from tests.service.api.helpers import assert_error, assert_matches
from workers.reconcile import reconcile


def _listing(client, query: str, headers=None) -> list[dict[str, Any]]:
    body = client.get(f"/api/games?{query}", headers=headers or {}).get_json()
    assert_matches(GameListSchema, body)
    return body["games"]


def _ids(client, query: str, headers=None) -> list[str]:
    return [g["id"] for g in _listing(client, query, headers)]


def _play_until_over(client, users, gid: str, bid: str = MAIN, owner: str = "alice") -> int:
    """Roll, and hold as soon as there is something to hold, until nobody is to act; returns the head."""
    for _ in range(500):
        legal = client.get(f"/api/games/{gid}/branches/{bid}/legal", headers=users.auth(owner)).get_json()
        if legal["actor"] is None:
            return int(legal["seq"])
        action = "hold" if "hold" in {a["action"] for a in legal["actions"]} else "roll"
        response = client.post(f"/api/games/{gid}/branches/{bid}/actions", json={"action": action, "expected_seq": legal["seq"]},
                               headers=users.auth(owner))
        assert response.status_code in (200, 201), response.get_json()
    raise AssertionError("the game did not end")


def _run_burst_worker(url: str, queue: str) -> None:
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "worker", "--burst"], cwd=ROOT, capture_output=True,
                          text=True, env=ludolog_env(url, LUDOLOG_QUEUE=queue), timeout=PATIENCE_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_game_ending_live_moves_from_unfinished_to_finished_with_its_winner(client, users, new_game, config,
                                                                               redis_client, redis_server):
    gid = new_game(players=["Zoé", "Ben"], options={"target": 4})["id"]
    other = new_game(players=["Ánna", "Dan"], options={"target": 4})["id"]
    assert _ids(client, "result=unfinished") == [other, gid]
    assert _ids(client, "result=finished") == []

    head = _play_until_over(client, users, gid)
    _run_burst_worker(redis_server.url, config.queue_name)  # the live path whole: appends queued a fold; a worker folds
    assert SnapshotStore(redis_client).seqs(gid, MAIN)[-1] == head

    finished = _listing(client, "result=finished")
    assert [g["id"] for g in finished] == [gid]
    (winner,) = finished[0]["winners"]
    assert finished[0]["finished"] is True and winner in ("Zoé", "Ben")
    assert _ids(client, "result=unfinished") == [other]
    typed = normalise(winner).upper()[:2]  # accents and case as a person types them
    assert _ids(client, f"winner={typed}") == [gid]
    assert _ids(client, f"winner={typed}&result=finished&player=z&game=pig&source=live") == [gid]
    loser = "Ben" if winner == "Zoé" else "Zoé"
    assert _ids(client, f"winner={loser}") == []
    assert _ids(client, f"winner={loser}&player={loser}") == []  # played, but did not win
    assert _listing(client, "result=unfinished")[0]["winners"] == []
    report = reconcile(GameStore(redis_client), SnapshotStore(redis_client), 10)
    assert report.results == [] and report.reindexed == []  # the store recorded it with the append: nothing to repair


def test_a_fork_played_to_its_end_leaves_the_game_unfinished(client, users, new_game):
    gid = new_game(players=["Zoé", "Ben"], options={"target": 4})["id"]
    fork = client.post(f"/api/games/{gid}/branches", json={"from": MAIN, "at": 2, "name": "what if"},
                       headers=users.auth("bob")).get_json()
    _play_until_over(client, users, gid, fork["branch"], owner="bob")
    assert _ids(client, "result=unfinished") == [gid]
    assert _ids(client, "result=finished") == [] and _ids(client, "winner=z") == [] and _ids(client, "winner=b") == []


def test_finished_private_games_are_listed_to_their_owner_only_and_unlisted_ones_to_nobody_else(client, users, new_game):
    made = {vis: new_game(players=["Zoé", "Ben"], options={"target": 4}, visibility=vis)["id"]
            for vis in ("public", "unlisted", "private")}
    for gid in made.values():
        _play_until_over(client, users, gid)
    for query in ("result=finished", "winner=zo", "winner=b", "result=finished&owner=alice"):
        found = set(_ids(client, query)) | set(_ids(client, query.replace("winner=zo", "winner=ben")))
        assert found <= {made["public"]}, query
        assert set(_ids(client, query, users.auth("bob"))) <= {made["public"]}, query
    assert set(_ids(client, "result=finished")) == {made["public"]}
    assert set(_ids(client, "result=finished", users.auth("bob"))) == {made["public"]}
    assert set(_ids(client, "result=finished", users.auth("alice"))) == set(made.values())
    assert _ids(client, "result=unfinished", users.auth("alice")) == []


def test_bad_result_filters_are_a_400_naming_the_field(client):
    for bad in ("result=won", "result=", "winner="):
        response = client.get(f"/api/games?{bad}")
        assert_error(response, 400, "invalid")
        assert bad.split("=")[0] in response.get_data(as_text=True)


def test_openapi_documents_the_result_filters(client):
    params = {p["name"] for p in client.get("/api/openapi.json").get_json()["paths"]["/api/games"]["get"]["parameters"]}
    assert {"result", "winner"} <= params
