"""Puzzles from real mistakes (issue 49 item 1): the generator run by a real RQ worker after an analysis ends, its
recorded decisions, and the routes that list, ask and answer puzzles, with who may see them.

The game is a short real game of Pig (two players, to 50) whose analysis at 100 rollouts marks a few of its holds and
rolls as mistakes with one move clearly best; the generator's own confirmation (another seed, four budgets) keeps some.
"""

from __future__ import annotations

import json
import random

import pytest

from engine import Setup, get_rules, random_playout
from service.api.puzzles import AnswerResultSchema, PuzzleListSchema, PuzzleSchema
from service.games.puzzles import REJECTIONS, Analysed, Generator
from service.store import keys
from service.store.games import MAIN, GameStore
from service.store.puzzles import PuzzleStore
from tests.helpers import ROOT, ludolog_env, run_to_end
from tests.service.api.helpers import assert_error, assert_matches
from tests.service.api.test_analysis_api import _run_jobs

ROLLOUTS = 100
ANALYSIS = "/api/games/{gid}/branches/main/analysis"


def _pig_game(redis_client, visibility: str = "public") -> str:
    setup = Setup(("Anna", "Ben"), {"target": 50})
    playout = random_playout(get_rules("pig"), setup, random.Random(2), check=False)
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", setup, owner="alice", visibility=visibility)
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


@pytest.fixture
def analysed(client, users, redis_client, redis_server) -> str:
    """A public Pig game analysed by a real worker, which then runs the puzzle generator: the game's id."""
    gid = _pig_game(redis_client)
    queued = client.post(ANALYSIS.format(gid=gid), json={"rollouts": ROLLOUTS}, headers=users.auth("alice"))
    assert queued.status_code == 202, queued.get_json()
    _run_jobs(redis_server)
    return gid


def _decisions(redis_client, gid: str) -> dict[str, dict]:
    raw = redis_client.hgetall(keys.puzzle_decisions_for(gid))
    return {k.decode(): json.loads(v) for k, v in raw.items()}


def test_the_worker_cuts_puzzles_after_the_analysis_and_records_every_decision(app, client, redis_client, analysed):
    answer = client.get(ANALYSIS.format(gid=analysed), query_string={"rollouts": ROLLOUTS}).get_json()
    judged = [p for p in answer["positions"] if p["played"] is not None and p["played"]["loss"] is not None]
    decided = _decisions(redis_client, analysed)
    assert len(decided) == len(judged) > 10  # every judged decision has its record: kept or rejected with a reason
    kept = [d["kept"] for d in decided.values() if "kept" in d]
    reasons = {d["rejected"] for d in decided.values() if "rejected" in d}
    assert kept and reasons <= set(REJECTIONS) and "no_mistake" in reasons
    marked = {p["seq"] for p in judged if p["played"]["mark"] in ("?", "??")}
    for field, decision in decided.items():
        if "kept" in decision:  # only a confirmed mistake is kept
            assert int(field.split()[1]) in marked, field
    listed = client.get("/api/puzzles").get_json()
    assert_matches(PuzzleListSchema, listed)
    assert sorted(p["id"] for p in listed["puzzles"]) == sorted(kept)
    # A rerun decides nothing again.
    stores = app.extensions["ludolog"].stores
    again = Generator(stores.games, stores.reader, redis_client, PuzzleStore(redis_client)).run(
        analysed, MAIN, Analysed(ROLLOUTS, "full"))
    assert (again.analysed, again.kept, again.skipped) == (0, 0, len(decided))


def test_a_puzzle_is_asked_in_the_movers_view_and_answered_right_or_wrong(client, redis_client, analysed):
    pid = client.get("/api/puzzles").get_json()["puzzles"][0]["id"]
    shown = client.get(f"/api/puzzles/{pid}")
    assert shown.status_code == 200
    body = shown.get_json()
    assert_matches(PuzzleSchema, body)
    assert {"best", "played", "best_move", "gid", "seq"}.isdisjoint(body)  # no solution, no way back to the game
    stored = PuzzleStore(redis_client).get(pid)
    assert {a["action"] for a in body["actions"]} == {"roll", "hold"} and body["seat"] == stored["seat"]
    best, played = stored["best"][0], stored["played"]["action"]
    right = client.post(f"/api/puzzles/{pid}/answer", json={"action": best}).get_json()
    assert_matches(AnswerResultSchema, right)
    assert right["correct"] is True and right["best"]["action"] == best
    wrong = client.post(f"/api/puzzles/{pid}/answer", json={"action": played}).get_json()
    assert wrong["correct"] is False and wrong["played"]["action"] == played
    assert wrong["best"]["win"] - wrong["played"]["win"] >= 0.10
    assert wrong["best"]["ci"][0] > wrong["played"]["ci"][1]
    assert wrong["played"]["mark"] in ("?", "??")
    assert_error(client.post(f"/api/puzzles/{pid}/answer", json={"action": "jump"}), 400)


@pytest.mark.parametrize("visibility", ["private", "unlisted"])
def test_a_private_or_unlisted_games_puzzles_are_its_owners_only(client, users, redis_client, analysed, visibility):
    GameStore(redis_client).set_game_fields(analysed, visibility=visibility)
    pid = PuzzleStore(redis_client).all_ids()[0]
    for who in (None, "bob"):
        headers = users.auth(who) if who else {}
        assert client.get("/api/puzzles", headers=headers).get_json()["puzzles"] == []
        assert client.get("/api/puzzles", query_string={"mine": "true"}, headers=headers).get_json()["puzzles"] == []
        assert_error(client.get(f"/api/puzzles/{pid}", headers=headers), 404)
        assert_error(client.post(f"/api/puzzles/{pid}/answer", json={"action": "roll"}, headers=headers), 404)
    owner = users.auth("alice")
    seat = PuzzleStore(redis_client).get(pid)["seat"]
    claimed = client.post("/api/me/claims", json={"game": analysed, "player": ("Anna", "Ben")[seat]}, headers=owner)
    assert claimed.status_code == 201, claimed.get_json()  # "mine": the decisions of the players the caller claimed
    assert pid in {p["id"] for p in client.get("/api/puzzles", query_string={"mine": "true"},
                                               headers=owner).get_json()["puzzles"]}
    assert client.get(f"/api/puzzles/{pid}", headers=owner).status_code == 200
    assert client.post(f"/api/puzzles/{pid}/answer", json={"action": "roll"}, headers=owner).status_code == 200


def test_the_list_filters_by_game_theme_and_stage(client, redis_client, analysed):
    puzzles = PuzzleStore(redis_client).get_many(PuzzleStore(redis_client).all_ids())
    one = puzzles[0]
    for name in ("game", "theme", "stage"):
        listed = client.get("/api/puzzles", query_string={name: one[name]}).get_json()["puzzles"]
        assert listed and all(p[name] == one[name] for p in listed)
    assert client.get("/api/puzzles", query_string={"game": "amerigo"}).get_json()["puzzles"] == []
    assert_error(client.get("/api/puzzles", query_string={"stage": "endgame"}), 400)


def test_the_command_line_generates_the_same_puzzles_and_prints_the_yield(redis_client, redis_server, analysed):
    import sys

    before = _decisions(redis_client, analysed)
    redis_client.delete(keys.puzzle_decisions_for(analysed))
    done = run_to_end([sys.executable, "-m", "ludolog.cli", "puzzles", "generate", "--game", analysed,
                       "--rollouts", str(ROLLOUTS)], "ludolog puzzles generate", cwd=ROOT,
                      env=ludolog_env(redis_server.url))
    assert done.returncode == 0, done.stdout + done.stderr
    assert _decisions(redis_client, analysed) == before  # the same seeds, the same decisions
    kept = sum("kept" in d for d in before.values())
    assert f"{len(before)} decisions looked at, {kept} kept" in done.stdout
    assert "no_mistake" in done.stdout and f"puzzles from {analysed}/main" in done.stderr
    skipped = run_to_end([sys.executable, "-m", "ludolog.cli", "puzzles", "generate", "--rollouts", "7"],
                         "ludolog puzzles generate", cwd=ROOT, env=ludolog_env(redis_server.url))
    assert "is none (0 of" in skipped.stderr and "skipped" in skipped.stderr, skipped.stderr
