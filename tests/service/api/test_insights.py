"""Insights (issue 49, "your mistakes"): a real worker analyses short Pig games; the job that follows each analysis
counts them, claims settle the claimants' counters as they change, and ``GET /api/users/<name>/insights`` answers the
figures by phase and stage beside every analysed public game's, the worst moves, and each claimed game: all of a
user's games to the user, only their public games to anyone else (a private game's positions are never listed to a
stranger, through every route that serves insights or puzzles)."""

from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from engine import Setup, get_rules, random_playout
from service.api.claims import InsightsSchema
from service.games.insights import count_analysis
from service.store import keys
from service.store.games import MAIN, GameStore
from service.store.puzzles import PuzzleStore
from tests.helpers import ROOT, ludolog_env, run_to_end
from tests.service.api.helpers import assert_matches
from tests.service.api.test_analysis_api import _run_jobs

ROLLOUTS = 24
ANALYSIS = "/api/games/{gid}/branches/main/analysis"
INSIGHTS = "/api/users/{name}/insights"


def _pig_game(redis_client, seed: int, visibility: str) -> str:
    setup = Setup(("Anna", "Ben"), {"target": 40})
    playout = random_playout(get_rules("pig"), setup, random.Random(seed), check=False)
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", setup, owner="alice", visibility=visibility)
    games.append(record.id, MAIN, playout.events[1:], 1)
    return record.id


@pytest.fixture
def analysed(client, users, redis_client, redis_server) -> dict[str, str]:
    """A public and a private Pig game of alice's, each analysed by a real worker (the insights' job follows)."""
    made = {"public": _pig_game(redis_client, 3, "public"), "private": _pig_game(redis_client, 4, "private")}
    for gid in made.values():
        queued = client.post(ANALYSIS.format(gid=gid), json={"rollouts": ROLLOUTS}, headers=users.auth("alice"))
        assert queued.status_code == 202, queued.get_json()
    _run_jobs(redis_server)
    return made


def _expected(client, users, gid: str) -> dict[int, Counter]:
    """Per seat, from the analysis report itself: decisions judged, mistakes, blunders, summed loss."""
    report = client.get(ANALYSIS.format(gid=gid), query_string={"rollouts": ROLLOUTS}, headers=users.auth("alice"))
    assert report.get_json()["status"] == "done"
    sums: dict[int, Counter] = {0: Counter(), 1: Counter()}
    for position in report.get_json()["positions"]:
        played = position["played"]
        if played is None or played["loss"] is None:
            continue
        seat = sums[position["actor"]]
        seat["n"] += 1
        seat["m"] += played["mark"] in ("?", "??")
        seat["b"] += played["mark"] == "??"
        seat["l"] += round(max(0.0, played["loss"]) * 10_000)
    return sums


def _pig(body: dict) -> dict:
    assert_matches(InsightsSchema, body)
    games = {kind["game"]: kind for kind in body["games"]}
    return games.get("pig", {})


def _claim(client, users, who: str, gid: str, player: str) -> dict:
    made = client.post("/api/me/claims", json={"game": gid, "player": player}, headers=users.auth(who))
    assert made.status_code in (201, 202), made.get_json()
    return made.get_json()


def test_insights_count_the_claimed_seats_beside_every_analysed_player(app, client, users, redis_client, analysed):
    public, private = analysed["public"], analysed["private"]
    expected = {gid: _expected(client, users, gid) for gid in (public, private)}
    assert expected[public][0]["n"] > 5 and expected[public][1]["n"] > 5
    # Before any claim: the game is counted for everyone, nobody's insights hold it.
    assert _pig(client.get(INSIGHTS.format(name="alice"), headers=users.auth("alice")).get_json()) == {}
    _claim(client, users, "alice", public, "Anna")
    _claim(client, users, "alice", private, "Anna")
    mine = _pig(client.get(INSIGHTS.format(name="alice"), headers=users.auth("alice")).get_json())
    anna = expected[public][0] + expected[private][0]
    assert mine["overall"]["decisions"] == anna["n"] and mine["overall"]["mistakes"] == anna["m"]
    assert mine["overall"]["mistakes_per_100"] == round(100 * anna["m"] / anna["n"], 2)
    assert mine["overall"]["average_loss"] == round(anna["l"] / 10_000 / anna["n"], 4)
    everyone = expected[public][0] + expected[public][1]  # every seat of every analysed *public* game
    assert mine["everyone"]["decisions"] == everyone["n"] and mine["everyone"]["games"] == 1
    assert mine["everyone"]["mistakes"] == everyone["m"]
    assert sum(row["decisions"] for row in mine["by_stage"]) == anna["n"]
    assert [row["key"] for row in mine["by_stage"]] == [s for s in ("early", "middle", "late")
                                                        if s in {r["key"] for r in mine["by_stage"]}]
    assert sum(row["decisions"] for row in mine["by_phase"]) == anna["n"]
    assert {g["gid"]: g["decisions"] for g in mine["games"]} == {public: expected[public][0]["n"],
                                                                  private: expected[private][0]["n"]}
    losses = [w["loss"] for w in mine["worst"]]
    assert 0 < len(losses) <= 10 and losses == sorted(losses, reverse=True)
    assert {w["gid"] for w in mine["worst"]} <= {public, private}
    # Bob claims Ben of the public game: pending counts nothing; confirmed, it counts Ben's decisions.
    cid = _claim(client, users, "bob", public, "Ben")["id"]
    assert _pig(client.get(INSIGHTS.format(name="bob")).get_json()) == {}
    assert client.post(f"/api/claims/{cid}/confirm", headers=users.auth("alice")).status_code == 200
    bob = _pig(client.get(INSIGHTS.format(name="bob")).get_json())
    assert bob["overall"]["decisions"] == expected[public][1]["n"]
    # Declined, and taken back: his counters are empty again; counted twice over, nothing doubles.
    assert client.post(f"/api/claims/{cid}/decline", headers=users.auth("alice")).status_code == 200
    assert _pig(client.get(INSIGHTS.format(name="bob")).get_json()) == {}
    assert set(redis_client.hvals(keys.insights_user("bob", "all", "pig"))) == {b"0"}  # exactly what was added went
    again = _claim(client, users, "carol", public, "Ben")["id"]
    assert client.post(f"/api/claims/{again}/confirm", headers=users.auth("alice")).status_code == 200
    carol = _pig(client.get(INSIGHTS.format(name="carol")).get_json())
    assert carol["overall"] == bob["overall"] and carol["worst"] == bob["worst"]
    assert client.delete(f"/api/me/claims/{again}", headers=users.auth("carol")).status_code == 200
    assert _pig(client.get(INSIGHTS.format(name="carol")).get_json()) == {}
    # The job run again (a retry) changes nothing.
    stores = app.extensions["ludolog"].stores
    assert not count_analysis(stores.games, redis_client, stores.insights, stores.claims, public, ROLLOUTS)
    assert _pig(client.get(INSIGHTS.format(name="alice"), headers=users.auth("alice")).get_json()) == mine


def test_a_users_private_games_are_theirs_alone(client, users, redis_client, analysed):
    public, private = analysed["public"], analysed["private"]
    _claim(client, users, "alice", public, "Anna")
    _claim(client, users, "alice", private, "Anna")
    expected = _expected(client, users, public)[0]
    own = client.get(INSIGHTS.format(name="alice"), headers=users.auth("alice")).get_json()
    assert own["scope"] == "all" and {g["gid"] for g in _pig(own)["games"]} == {public, private}
    for headers in ({}, users.auth("bob")):  # the anonymous and a stranger: alice's public game only
        seen = client.get(INSIGHTS.format(name="alice"), headers=headers).get_json()
        assert seen["scope"] == "public"
        pig = _pig(seen)
        assert [g["gid"] for g in pig["games"]] == [public]
        assert pig["overall"]["decisions"] == expected["n"]
        assert private not in str(seen)  # no position of the private game, not even its id
    assert client.get(INSIGHTS.format(name="nobody")).status_code == 404
    # Were the public game made private later, its positions would no longer be listed to anyone but alice.
    GameStore(redis_client).set_game_fields(public, visibility="private")
    for headers in ({}, users.auth("bob")):
        seen = client.get(INSIGHTS.format(name="alice"), headers=headers).get_json()
        assert public not in str(seen) and private not in str(seen)
    assert {g["gid"] for g in _pig(client.get(INSIGHTS.format(name="alice"), headers=users.auth("alice")).get_json())[
        "games"]} == {public, private}


def test_puzzles_from_my_games_are_those_of_my_claimed_players(client, users, redis_client, analysed):
    public = analysed["public"]
    store = PuzzleStore(redis_client)
    made = {}
    for seat, seq in ((0, 2), (1, 3)):  # one puzzle per seat, stored as the generator stores one
        pid = f"p{seat}"
        store.keep(public, f"{MAIN} {seq} x", {"id": pid, "gid": public, "bid": MAIN, "seq": seq, "game": "pig",
                                                 "seat": seat, "players": 2, "theme": "any", "stage": "early"})
        made[seat] = pid
    mine = {"mine": "true"}
    assert client.get("/api/puzzles", query_string=mine, headers=users.auth("bob")).get_json()["puzzles"] == []
    cid = _claim(client, users, "bob", public, "Ben")["id"]
    assert client.get("/api/puzzles", query_string=mine, headers=users.auth("bob")).get_json()["puzzles"] == []
    client.post(f"/api/claims/{cid}/confirm", headers=users.auth("alice"))
    listed = client.get("/api/puzzles", query_string=mine, headers=users.auth("bob")).get_json()["puzzles"]
    assert [p["id"] for p in listed] == [made[1]]
    assert redis_client.exists(keys.insights_game_for(public))


def test_a_claim_made_before_the_analysis_counts_once_the_analysis_ends(client, users, redis_client, redis_server):
    gid = _pig_game(redis_client, 5, "public")
    _claim(client, users, "alice", gid, "Ben")
    assert _pig(client.get(INSIGHTS.format(name="alice")).get_json()) == {}
    client.post(ANALYSIS.format(gid=gid), json={"rollouts": ROLLOUTS}, headers=users.auth("alice"))
    _run_jobs(redis_server)  # the analysis, then the insights' job it queues, which settles the claims on the game
    counted = _pig(client.get(INSIGHTS.format(name="alice")).get_json())
    assert counted["overall"]["decisions"] == _expected(client, users, gid)[1]["n"] > 0


def test_the_insights_page_shows_the_figures_and_hides_a_private_game_from_others(client, users, redis_client,
                                                                                  analysed):
    public, private = analysed["public"], analysed["private"]
    _claim(client, users, "alice", public, "Anna")
    _claim(client, users, "alice", private, "Anna")
    own = client.get("/users/alice/insights", headers=users.auth("alice"))
    assert own.status_code == 200
    page = own.get_data(as_text=True)
    figures = _pig(client.get(INSIGHTS.format(name="alice"), headers=users.auth("alice")).get_json())
    assert f'class="insights-decisions">{figures["overall"]["decisions"]}<' in page
    assert f"/games/{public}/b/main" in page and f"/games/{private}/b/main" in page
    assert "/puzzles?mine=true" in page
    for headers in ({}, users.auth("bob")):
        seen = client.get("/users/alice/insights", headers=headers)
        assert seen.status_code == 200 and public in seen.get_data(as_text=True)
        assert private not in seen.get_data(as_text=True)
    assert client.get("/users/nobody/insights").status_code == 404


def test_the_rebuild_counts_the_analyses_that_ended_before_and_never_twice(app, client, users, redis_client,
                                                                           redis_server, analysed):
    from service.games.insights import rebuild

    public = analysed["public"]
    _claim(client, users, "alice", public, "Anna")
    before = _pig(client.get(INSIGHTS.format(name="alice")).get_json())
    # As a store from before the insights: no summary, no all-players counts (the claim's counters go with them).
    redis_client.delete(*(keys.insights_game_for(gid) for gid in analysed.values()), keys.insights_everyone("pig"),
                        keys.insights_everyone_counted("pig"))
    stores = app.extensions["ludolog"].stores
    redis_client.delete(keys.insights_user("alice", "public", "pig"), keys.insights_user("alice", "all", "pig"),
                        keys.insights_user_counted("alice", "public"), keys.insights_user_counted("alice", "all"),
                        keys.insights_user_worst("alice", "public", "pig"), keys.insights_user_worst("alice", "all", "pig"))
    done = run_to_end([sys.executable, "-m", "ludolog.cli", "insights", "rebuild", "--rollouts", str(ROLLOUTS)],
                      "ludolog insights rebuild", cwd=ROOT, env=ludolog_env(redis_server.url))
    assert done.returncode == 0 and "insights: 2 analysed games counted" in done.stdout, done.stdout + done.stderr
    assert _pig(client.get(INSIGHTS.format(name="alice")).get_json()) == before
    assert rebuild(stores.games, redis_client, stores.insights, stores.claims, rollouts=ROLLOUTS) == 0
    assert rebuild(stores.games, redis_client, stores.insights, stores.claims, rollouts=ROLLOUTS + 1) == 0
    assert _pig(client.get(INSIGHTS.format(name="alice")).get_json()) == before
