"""Issue 46's defects of a first evening at the table that live in the API: right after a fork at a decision, the
seat to move is named as waiting (a demo game's events carry no time, and a fork's head is its parent's event)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from engine import get_rules
from service.games.demo import demo_playout, demo_setup
from service.store.games import MAIN, GameStore
from tests.service.api.helpers import Users, branch_url

GAME = "golden_city"
GID = "evening-golden-city"


def _stored_demo(app: Any) -> list[Any]:
    """Die goldene Stadt's second demo game (forked at 100 in the issue) stored as ``GID`` the way the demo loader
    stores it: no event has a time."""
    games: GameStore = app.extensions["ludolog"].games
    events = demo_playout(GAME, 2).events
    games.create_game(GAME, get_rules(GAME).version, demo_setup(GAME, 2), owner="nobody", gid=GID, visibility="public")
    games.append(GID, MAIN, events[1:], 1)
    return events


def test_right_after_a_fork_at_a_decision_the_seat_to_move_waits(app: Any, client: FlaskClient, users: Users) -> None:
    events = _stored_demo(app)
    assert not any("time" in e.meta for e in events), "the demo's events carry no time"
    fork = client.post(f"/api/games/{GID}/branches", json={"from": MAIN, "at": 100, "name": "evening"},
                       headers=users.auth("alice"))
    assert fork.status_code == 201, fork.get_json()
    bid = fork.get_json()["branch"]
    state = client.get(branch_url(GID, bid, "state"), headers=users.auth("alice")).get_json()
    seats = client.get(branch_url(GID, bid, "seats"), headers=users.auth("alice")).get_json()["seats"]
    assert isinstance(state["actor"], int) and state["actor"] >= 0, "the fork is at a decision"
    waiting = [s["seat"] for s in seats if "waiting_since" in s]
    assert waiting == [state["actor"]], (state["actor"], seats)
