"""Forks that keep the draws (issue 15 item 8): ``chance: "keep"`` replays the parent line's later chance outcomes
in order wherever the rules still allow them (else the fork's seed decides); ``"redraw"`` (the default) draws from
the fork's own seed as before. Real Redis, the real play service, the Pig test game's dice."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from engine import Setup, get_rules
from service.games.play import chance_uniform, draw_chance_events
from tests.service.api.helpers import Users, assert_error, branch_url


def _events(client: FlaskClient, gid: str, bid: str = "main") -> list[dict[str, Any]]:
    return list(client.get(branch_url(gid, bid, "events")).get_json()["events"])


def _play(client: FlaskClient, gid: str, bid: str, action: str, who: dict[str, str]) -> None:
    head = client.get(branch_url(gid, bid, "state")).get_json()["seq"]
    response = client.post(branch_url(gid, bid, "actions"), json={"action": action, "expected_seq": head}, headers=who)
    assert response.status_code in (200, 201), response.get_json()


def _main_line(client: FlaskClient, users: Users) -> tuple[str, int, list[dict[str, Any]]]:
    """Alice's game: ten decisions (roll, hold when holding is allowed every third time); returns it, the fork point
    (the first position a player acts at) and main's events."""
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "keep"}, headers=users.auth("alice"))
    gid = made.get_json()["id"]
    fork_at = made.get_json()["seq"]
    for n in range(10):
        legal = [a["action"] for a in client.get(branch_url(gid, what="legal")).get_json()["actions"]]
        _play(client, gid, "main", "hold" if n % 3 == 2 and "hold" in legal else "roll", users.auth("alice"))
    return gid, fork_at, _events(client, gid)


def _replay_decisions(client: FlaskClient, gid: str, bid: str, main: list[dict[str, Any]], after: int, who: dict[str, str]) -> None:
    """Main's decisions after ``after`` on ``bid``, as far as its own dice let them be played (a roll where a hold is not
    allowed; until the game is over)."""
    for event in main[after:]:
        if event["actor"] == "chance":
            continue
        legal = client.get(branch_url(gid, bid, "legal")).get_json()
        if legal["actor"] is None:
            return
        allowed = [a["action"] for a in legal["actions"]]
        _play(client, gid, bid, event["action"] if event["action"] in allowed else "roll", who)


def test_a_keep_fork_that_decides_the_same_gets_the_same_dice(client: FlaskClient, users: Users) -> None:
    gid, fork_at, main = _main_line(client, users)
    made = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at, "chance": "keep"}, headers=users.auth("bob"))
    assert made.status_code == 201, made.get_json()
    kept = made.get_json()["branch"]
    _replay_decisions(client, gid, kept, main, fork_at, users.auth("bob"))
    assert [e["action"] for e in _events(client, gid, kept)] == [e["action"] for e in main]
    tree = {b["id"]: b for b in client.get(f"/api/games/{gid}").get_json()["branches"]}
    assert tree[kept]["chance"] == "keep" and tree["main"]["chance"] == "redraw"
    # Redraw (the default) rolls its own dice: over the same decisions the dice differ somewhere.
    redrawn = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at},
                          headers=users.auth("carol")).get_json()["branch"]
    _replay_decisions(client, gid, redrawn, main, fork_at, users.auth("carol"))
    dice = lambda events: [e["action"] for e in events if e["actor"] == "chance"]  # noqa: E731
    assert dice(_events(client, gid, redrawn)) != dice(main)


def test_a_keep_fork_that_decides_otherwise_still_gets_the_parents_dice_in_order(client: FlaskClient, users: Users) -> None:
    gid, fork_at, main = _main_line(client, users)
    kept = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at, "chance": "keep"},
                       headers=users.auth("bob")).get_json()["branch"]
    for _ in range(4):  # always roll: other decisions than main's holds, the same dice in the same order
        _play(client, gid, kept, "roll", users.auth("bob"))
        if client.get(branch_url(gid, kept, "state")).get_json()["actor"] is None:
            break
    parents = [e["action"] for e in main[fork_at:] if e["actor"] == "chance"]
    mine = [e["action"] for e in _events(client, gid, kept)[fork_at:] if e["actor"] == "chance"]
    assert mine == parents[:len(mine)] and mine


def test_an_outcome_no_longer_possible_falls_back_to_the_seed() -> None:
    rules = get_rules("pig")
    state = rules.initial_state(Setup(("A", "B")))
    bluffs, state = draw_chance_events(rules, state, "seed", 2)
    state = rules.apply(state, "roll")
    seq = 2 + len(bluffs) + 1
    kept, _ = draw_chance_events(rules, state, "seed", seq, ["d4"])
    assert [e.action for e in kept] == ["d4"]
    fallback, _ = draw_chance_events(rules, state, "seed", seq, ["b2"])  # a bluff card is no die face
    seeded, _ = draw_chance_events(rules, state, "seed", seq)
    assert [e.action for e in fallback] == [e.action for e in seeded]
    assert 0 <= chance_uniform("seed", seq) < 1


def test_an_unknown_chance_option_is_refused_and_nothing_is_forked(client: FlaskClient, users: Users) -> None:
    gid, fork_at, _ = _main_line(client, users)
    error = assert_error(client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at, "chance": "same"},
                                     headers=users.auth("bob")), 400, "invalid")
    assert "chance" in str(error)
    assert [b["id"] for b in client.get(f"/api/games/{gid}").get_json()["branches"]] == ["main"]


def test_a_fork_given_a_seed_draws_the_same_dice_every_time_and_a_bad_seed_is_refused(client: FlaskClient,
                                                                                       users: Users) -> None:
    """A fork may name its seed, as a new game may: two forks with the same seed that decide the same get the same dice
    (a test or a lesson replayed alike); a seed that is not a string of 1-100 characters is a 400 that forks nothing."""
    gid, fork_at, main = _main_line(client, users)
    dice = []
    for who in ("bob", "carol"):
        made = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at, "seed": "lesson-1"},
                           headers=users.auth(who))
        assert made.status_code == 201, made.get_json()
        _replay_decisions(client, gid, made.get_json()["branch"], main, fork_at, users.auth(who))
        dice.append([e["action"] for e in _events(client, gid, made.get_json()["branch"]) if e["actor"] == "chance"])
    assert dice[0] == dice[1] and dice[0]
    before = [b["id"] for b in client.get(f"/api/games/{gid}").get_json()["branches"]]
    for bad in ("", "x" * 101, 7):
        error = assert_error(client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": fork_at, "seed": bad},
                                         headers=users.auth("bob")), 400, "invalid")
        assert "seed" in str(error)
    assert [b["id"] for b in client.get(f"/api/games/{gid}").get_json()["branches"]] == before
