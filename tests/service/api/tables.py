"""A table to test hidden information at: half a demo game of Die goldene Stadt played as a table through the API."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from engine import get_rules
from service.games.demo import demo_playout, demo_setup
from service.store.games import MAIN, GameStore
from service.store.seats import Seat
from tests.service.api.helpers import Users, branch_url

GAME = "golden_city"
#: The demo game's events (seq 1 first).
EVENTS = demo_playout(GAME, 1).events
#: Where bob (seat 1) is to move and his move (seq 183: he keeps a bonus card) is hidden from everyone else.
BOBS_HIDDEN_MOVE = 182


def first_turn_of(seat: int, start: int = len(EVENTS) // 3) -> int:
    """The index in :data:`EVENTS` of ``seat``'s first move from ``start`` on."""
    return next(i for i in range(start, len(EVENTS)) if EVENTS[i].actor == seat)


def golden_table(app: Any, client: FlaskClient, users: Users, gid: str, cut: int) -> list[Any]:
    """The demo game stored up to ``EVENTS[cut]`` (excluded) as game ``gid``, played as a table: seat 0 alice's (the
    owner), seat 1 bob's by invite, the rest the engine's (easy; no worker runs). The events stored."""
    games: GameStore = app.extensions["ludolog"].games
    setup = demo_setup(GAME, 1)
    games.create_game(GAME, get_rules(GAME).version, setup, owner="alice", gid=gid, source="live",
                      visibility="unlisted")
    games.append(gid, MAIN, EVENTS[1:cut], 1)
    seats = app.extensions["ludolog"].stores.seats
    for seat in range(2, len(setup.players)):
        seats.assign(gid, MAIN, Seat(seat, "engine", level="easy"))
    invite = client.put(branch_url(gid, what="seats/1"), json={"holder": "invite"},
                        headers=users.auth("alice")).get_json()["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{invite}", headers=users.auth("bob")).status_code == 200
    return EVENTS[:cut]
