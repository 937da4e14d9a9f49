"""``GET /api/games/<gid>/compare`` (issue 15 item 6): two branches at one move, their scores and the fields that
differ, through the same seat view as the state route; bad input is a 4xx naming the parameter."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.api.compare import CompareSchema, differing_paths
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url


def _pr_game_with_a_fork(client: FlaskClient, users: Users) -> tuple[str, str, int]:
    """A Puerto Rico game played a few decisions on main, and bob's fork choosing another role at one of them."""
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"], "seed": "cmp"},
                       headers=users.auth("alice")).get_json()
    gid = made["id"]
    for _ in range(6):
        legal = client.get(branch_url(gid, what="legal")).get_json()
        head = client.get(branch_url(gid, what="state")).get_json()["seq"]
        response = client.post(branch_url(gid, what="actions"), json={"action": legal["actions"][0]["action"], "expected_seq": head},
                               headers=users.auth("alice"))
        assert response.status_code in (200, 201), response.get_json()
    at = client.get(branch_url(gid, what="state")).get_json()["seq"]
    # The last position where a player chose on main: the fork chooses otherwise there.
    fork_at = max(seq for seq in range(1, at) if isinstance(client.get(branch_url(gid, what=f"state?at={seq}")).get_json()["actor"], int))
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at, "name": "other role"},
                       headers=users.auth("bob")).get_json()
    bid = fork["branch"]
    legal = client.get(branch_url(gid, bid, "legal")).get_json()
    response = client.post(branch_url(gid, bid, "actions"), json={"action": legal["actions"][-1]["action"], "expected_seq": fork["seq"]},
                           headers=users.auth("bob"))
    assert response.status_code in (200, 201), response.get_json()
    return gid, bid, fork["seq"] + 1


def test_compare_gives_both_states_scores_and_the_differing_fields(client: FlaskClient, users: Users) -> None:
    gid, bid, at = _pr_game_with_a_fork(client, users)
    response = client.get(f"/api/games/{gid}/compare?a=main&b={bid}&at={at}")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert_matches(CompareSchema, body)
    assert body["at"] == at and body["a"]["branch"] == "main" and body["b"]["branch"] == bid
    assert len(body["a"]["scores"]) == 3 and all(isinstance(s, int) for s in body["a"]["scores"])
    state_a = client.get(branch_url(gid, what=f"state?at={at}")).get_json()["state"]
    state_b = client.get(branch_url(gid, bid, f"state?at={at}")).get_json()["state"]
    assert body["a"]["state"] == state_a and body["b"]["state"] == state_b
    assert body["differences"] == differing_paths(state_a, state_b) and body["differences"]
    assert all(path.startswith("players.") for path in body["differences"]), body["differences"]
    # Before the fork point the two lines are one.
    same = client.get(f"/api/games/{gid}/compare?a=main&b={bid}&at=2").get_json()
    assert same["differences"] == [] and same["a"]["state"] == same["b"]["state"]
    # Without at: the last move both have.
    assert client.get(f"/api/games/{gid}/compare?a=main&b={bid}").get_json()["at"] == at


def test_compare_goes_through_the_seat_view(client: FlaskClient, users: Users) -> None:
    gid, bid, at = _pr_game_with_a_fork(client, users)
    for view in ("spectator", "1"):
        body = client.get(f"/api/games/{gid}/compare?a=main&b={bid}&at={at}&view={view}").get_json()
        seen: dict[str, Any] = {side: client.get(branch_url(gid, body[side]["branch"], f"state?at={at}&view={view}")).get_json()["state"]
                                for side in ("a", "b")}
        assert body["a"]["state"] == seen["a"] and body["b"]["state"] == seen["b"]
        assert body["differences"] == differing_paths(seen["a"], seen["b"])
        visible = [seat for seat, score in enumerate(body["a"]["scores"]) if score is not None]
        assert visible == ([] if view == "spectator" else [1])


def test_compare_refuses_bad_input_naming_it(client: FlaskClient, users: Users) -> None:
    gid, bid, at = _pr_game_with_a_fork(client, users)
    assert_error(client.get(f"/api/games/{gid}/compare?a=main"), 400, "invalid")
    assert_error(client.get(f"/api/games/{gid}/compare?a=main&b=nope"), 404)
    error = assert_error(client.get(f"/api/games/{gid}/compare?a=main&b={bid}&at={at + 50}"), 400, "invalid")
    assert f"at {at + 50}" in error["message"] and "has moves 1 to" in error["message"]
    assert_error(client.get(f"/api/games/{gid}/compare?a=main&b={bid}&view=7"), 400, "invalid")
    assert_error(client.get(f"/api/games/{gid}/compare?a=main&b={bid}&colour=red"), 400, "invalid")
    assert_error(client.get("/api/games/nope/compare?a=main&b=main"), 404)
