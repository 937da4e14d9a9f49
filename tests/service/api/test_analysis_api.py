"""POST/GET /api/games/<gid>/branches/<bid>/analysis: who may ask, bad input, the answer's shape, limits."""

from __future__ import annotations

import random

import pytest

from engine import Setup, get_rules, random_playout
from service.api.analysis import AnalysisSchema
from service.store.games import MAIN, GameStore
from tests.helpers import ROOT, ludolog_env, run_to_end
from tests.service.api.helpers import assert_error, assert_matches

URL = "/api/games/{gid}/branches/{bid}/analysis"


def _game(redis_client, owner: str = "alice", visibility: str = "public") -> str:
    setup = Setup(("Anna", "Ben"), {"target": 30})
    playout = random_playout(get_rules("pig"), setup, random.Random(4), check=False)
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", setup, owner=owner, visibility=visibility)
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


def _run_jobs(redis_server) -> None:
    """A burst worker does every queued job, however long a loaded machine makes it take (only a hang is bounded)."""
    import sys

    done = run_to_end([sys.executable, "-m", "ludolog.cli", "worker", "--burst", "--no-reconcile"],
                      "a burst worker to do every queued analysis job", cwd=ROOT,
                      env=ludolog_env(redis_server.url, LUDOLOG_QUEUE="ludolog-test"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_owner_queues_an_analysis_and_reads_every_decision_back(client, users, redis_client, redis_server):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    queued = client.post(url, json={"rollouts": 12}, headers=users.auth("alice"))
    assert queued.status_code == 202, queued.get_json()
    body = queued.get_json()
    assert body["jobs"] >= 1 and body["status"] == "running" and body["done"] == 0 and body["total"] > 0
    _run_jobs(redis_server)
    answer = client.get(url + "?rollouts=12")
    assert answer.status_code == 200
    data = answer.get_json()
    assert_matches(AnalysisSchema, data)
    assert (data["status"], data["done"]) == ("done", data["total"])
    assert (data["seed"], data["view"], data["rollouts"]) == (0, "full", 12)
    assert data["thresholds"] == {"?!": 0.05, "?": 0.10, "??": 0.20}
    first = data["positions"][0]
    assert set(first) == {"seq", "actor", "win", "win_ci", "best", "options", "played"}
    assert sum(first["win"]) == pytest.approx(1.0, abs=1e-3)
    assert all(lo <= p <= hi for p, (lo, hi) in zip(first["win"], first["win_ci"], strict=True))
    assert {"action", "text", "win", "ci", "n"} == set(first["best"][0]) == set(first["options"][0])
    assert [o["win"] for o in first["options"]] == sorted((o["win"] for o in first["options"]), reverse=True)
    assert set(first["played"]) == {"action", "text", "win", "ci", "loss", "loss_ci", "mark"}
    for entry in data["positions"]:
        played = entry["played"]
        if played is not None:
            assert played["loss"] >= 0 and played["loss_ci"][0] <= played["loss"] <= played["loss_ci"][1]
            assert played["action"] in [o["action"] for o in entry["options"]]
            best = entry["best"][0]
            judged = next(o for o in entry["options"] if o["action"] == played["action"])
            if played["action"] != best["action"]:  # the duel's count; the best's chance was narrowed afterwards
                rivals = [o["n"] for o in entry["options"] if o["action"] != best["action"]]
                assert judged["n"] == max(rivals) <= best["n"], "the played move gets the duel's paired playouts"
            if played["action"] == best["action"]:
                assert played["loss"] == 0 and played["mark"] is None
    again = client.post(url, json={"rollouts": 12}, headers=users.auth("alice"))
    assert again.get_json()["jobs"] == 0, "a finished analysis queues nothing"


def test_a_seat_view_lists_moves_only_where_that_seat_decides(client, users, redis_client, redis_server):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    assert client.post(url, json={"rollouts": 8, "view": "1"}, headers=users.auth("bob")).status_code == 202
    _run_jobs(redis_server)
    data = client.get(url + "?rollouts=8&view=1").get_json()
    assert data["status"] == "done"
    for entry in data["positions"]:
        assert bool(entry["best"]) == (entry["actor"] == 1), entry


def test_a_seed_is_a_second_opinion_stored_apart_and_echoed(client, users, redis_client, redis_server):
    gid = _game(redis_client)
    url = URL.format(gid=gid, bid=MAIN)
    assert client.post(url, json={"rollouts": 10, "seed": 0}, headers=users.auth("alice")).status_code == 202
    _run_jobs(redis_server)
    assert client.get(url + "?rollouts=10&seed=1").get_json()["status"] == "none", "another seed reads no other's results"
    queued = client.post(url, json={"rollouts": 10, "seed": 1}, headers=users.auth("alice")).get_json()
    assert queued["seed"] == 1 and queued["jobs"] >= 1 and queued["status"] == "running"
    _run_jobs(redis_server)
    first, second = (client.get(url + f"?rollouts=10&seed={seed}").get_json() for seed in (0, 1))
    assert (first["seed"], second["seed"]) == (0, 1) and first["status"] == second["status"] == "done"
    assert first == client.get(url + "?rollouts=10").get_json(), "seed 0 is the default"
    assert [p["seq"] for p in first["positions"]] == [p["seq"] for p in second["positions"]]
    assert [p["win"] for p in first["positions"]] != [p["win"] for p in second["positions"]]


def test_bad_seeds_are_a_400_naming_the_seed(client, users, redis_client):
    url = URL.format(gid=_game(redis_client), bid=MAIN)
    for seed in (-1, 2**31, "3", 1.5, True, None):
        error = assert_error(client.post(url, json={"seed": seed}, headers=users.auth("alice")), 400)
        assert "seed" in str(error), (seed, error)
    for seed in ("-1", "x", "1.5", str(2**31), ""):
        error = assert_error(client.get(url, query_string={"seed": seed}), 400)
        assert "seed" in str(error), (seed, error)
    assert client.get(url).get_json()["status"] == "none"


def test_who_may_ask(client, users, redis_client):
    unlisted = URL.format(gid=_game(redis_client, visibility="unlisted"), bid=MAIN)
    assert_error(client.post(unlisted, json={}), 401)
    assert_error(client.post(unlisted, json={}, headers=users.auth("bob")), 403, "forbidden")
    assert client.post(unlisted, json={"rollouts": 3}, headers=users.auth("alice")).status_code == 202
    private = URL.format(gid=_game(redis_client, visibility="private"), bid=MAIN)
    assert_error(client.post(private, json={}, headers=users.auth("bob")), 404)
    assert_error(client.get(private), 404)


def test_bad_input_is_a_400_naming_the_field_and_queues_nothing(client, users, redis_client):
    url = URL.format(gid=_game(redis_client), bid=MAIN)
    for body, field in (({"rollouts": 0}, "rollouts"), ({"rollouts": "9"}, "rollouts"), ({"view": "7"}, "view"),
                        ({"view": "north"}, "view"), ({"budget": 5}, "budget")):
        error = assert_error(client.post(url, json=body, headers=users.auth("alice")), 400)
        assert field in str(error), error
    assert_error(client.get(url + "?rollouts=-1"), 400)
    assert client.get(url).get_json()["status"] == "none"


@pytest.mark.parametrize(("game", "budget"), [("golden_city", 400), ("entdecker", 400), ("puerto_rico", 200),
                                              ("amerigo", 200), ("pig", 200)])
def test_without_a_budget_the_request_and_its_get_use_the_games_default(client, users, game, budget):
    """Die goldene Stadt's and Entdecker's marks need 400 rollouts to repeat under a second seed; the rest 200."""
    headers = users.auth("alice")
    created = client.post("/api/games", json={"game": game, "players": ["A", "B", "C"]}, headers=headers)
    assert created.status_code == 201, created.get_json()
    url = URL.format(gid=created.get_json()["id"], bid=MAIN)
    assert client.get(url).get_json()["rollouts"] == budget
    queued = client.post(url, json={}, headers=headers)
    assert queued.status_code == 202 and queued.get_json()["rollouts"] == budget
    assert client.get(url + f"?rollouts={budget}").get_json()["status"] == queued.get_json()["status"]
    assert client.post(url, json={"rollouts": 50}, headers=headers).get_json()["rollouts"] == 50, "asked: kept"
