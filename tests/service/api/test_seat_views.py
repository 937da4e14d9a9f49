"""Hidden information per seat at a table (issue 33 item 2): while a branch is played by more than its owner, every
route shows a seat's holder that seat's view by default and refuses them the full view or another seat's; anyone
else, the anonymous included, gets the spectator view. The walk of ``test_hidden_information`` (every GET route of
the OpenAPI document, the UI's data routes and the game page), asked without a view and with forbidden ones."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine import get_rules
from service.games.demo import demo_playout, demo_setup
from service.store.games import MAIN, GameStore
from service.store.seats import Seat, SeatStore
from tests.service.api.helpers import Users, assert_error
from tests.service.api.test_hidden_information import (
    FULL_VIEW_ONLY,
    UI_DATA_ROUTES,
    Secrets,
    _check_response,
    _get_routes,
    hidden_events,
)

GAME = "golden_city"
GID = "table-golden-city"
PAGE = "/games/{gid}/b/{bid}"
COMPARE_PAGE = "/games/{gid}/compare"


@pytest.fixture
def table(app: Any, client: FlaskClient, users: Users) -> tuple[list[Any], int]:
    """Half a demo game of Die goldene Stadt on main: seat 0 alice's (the owner), seat 1 bob's by invite, the rest
    the engine's (no worker runs: it never moves). The events stored and the seat count."""
    games: GameStore = app.extensions["ludolog"].games
    rules = get_rules(GAME)
    setup = demo_setup(GAME, 1)
    events = demo_playout(GAME, 1).events
    events = events[:len(events) // 2]
    games.create_game(GAME, rules.version, setup, owner="alice", gid=GID, source="live", visibility="unlisted")
    games.append(GID, MAIN, events[1:], 1)
    seats = SeatStore(app.extensions["ludolog"].stores.redis)
    for seat in range(2, len(setup.players)):
        seats.assign(GID, MAIN, Seat(seat, "engine", level="easy"))
    invite = client.put(f"/api/games/{GID}/branches/{MAIN}/seats/1", json={"holder": "invite"},
                        headers=users.auth("alice")).get_json()["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{invite}", headers=users.auth("bob")).status_code == 200
    return events, len(setup.players)


def _routes(client: FlaskClient) -> list[tuple[str, set[str]]]:
    # The analysis is refused altogether while the table plays (test_seat_analysis.py), whatever the view.
    routes = [(p, q) for p, q in _get_routes(client)
              if p not in FULL_VIEW_ONLY and "view" in q and ("{bid}" in p or p.endswith("/compare")) and "/analysis" not in p]
    assert len(routes) >= 5, routes
    return routes + [(p, {"view"}) for p in UI_DATA_ROUTES] + [(PAGE, {"view"}), (COMPARE_PAGE, {"view"})]


def _base_query(path: str, params: set[str]) -> dict[str, str]:
    """What a route needs besides the view: both branches to compare, an export's format."""
    if path.endswith("/compare"):
        return {"a": MAIN, "b": MAIN}
    return {"format": "jsonl"} if "format" in params else {}


def _url(path: str) -> str:
    return path.replace("{gid}", GID).replace("{bid}", MAIN)


def _page_view(response: Any) -> str:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', response.get_data(as_text=True))
    assert found, "the game page embeds its data"
    return str(json.loads(found.group(1))["view"])


def _read_whole(path: str) -> bool:
    """Whether the walk can read the route's whole answer: not a live stream, which stays open while the table plays
    (its views at a table are walked against a real server in test_live_stream.py)."""
    return not path.endswith("/stream")


@pytest.mark.parametrize("who, seat", [("alice", 0), ("bob", 1), ("carol", None), (None, None)])
def test_every_route_shows_a_holder_their_seat_and_anyone_else_the_spectator_view(client, users, table, who, seat):
    events, seats = table
    headers = users.auth(who) if who else {}
    secrets = Secrets(seats, seat, hidden_events(GAME, events, seat))
    assert secrets.hidden_events or seat is not None, "the walk has secrets to look for"
    looked = 0
    for path, params in filter(lambda route: _read_whole(route[0]), _routes(client)):
        query = _base_query(path, params)
        response = client.get(_url(path), query_string=query, headers=headers)
        where = f"{who} {path} (no view) {query}"
        if path in (PAGE, COMPARE_PAGE):
            assert response.status_code == 200 and _page_view(response) == ("spectator" if seat is None else str(seat))
            continue
        assert response.status_code == 200, (where, response.get_data(as_text=True)[:200])
        looked += _check_response(GAME, response, secrets, events, where)
    assert looked > 20


@pytest.mark.parametrize("who, seat", [("alice", 0), ("bob", 1), ("carol", None), (None, None)])
def test_no_one_may_ask_for_the_full_view_or_another_seats_while_the_table_plays(client, users, table, who, seat):
    _, seats = table
    headers = users.auth(who) if who else {}
    forbidden = ["full"] + [str(s) for s in range(seats) if s != seat]
    for path, params in _routes(client):
        for view in forbidden:
            response = client.get(_url(path), query_string=_base_query(path, params) | {"view": view}, headers=headers)
            if path in (PAGE, COMPARE_PAGE):
                assert response.status_code == 403, (who, path, view)
                continue
            error = assert_error(response, 403, "hidden_while_played")
            assert "until the game is over" in error["message"], (who, path, view, error)
        allowed = client.get(_url(path), query_string=_base_query(path, params) | {"view": "spectator"}, headers=headers)
        assert allowed.status_code == 200, (who, path)


def test_a_table_whose_seats_are_all_the_owners_again_stays_a_table_once_a_person_sat(client, users, table):
    # Issue 45 item 10 (was: read as before): bob sat here, so the owner's taking every seat back re-opens nothing.
    for seat in range(table[1]):
        assert client.delete(f"/api/games/{GID}/branches/{MAIN}/seats/{seat}", headers=users.auth("alice")).status_code == 200
    state = client.get(f"/api/games/{GID}/branches/{MAIN}/state").get_json()["state"]
    assert all(player["hand"] is None for player in state["players"]), "no view asked: the spectator's"
    assert client.get(f"/api/games/{GID}/branches/{MAIN}/state", query_string={"view": "1"},
                      headers=users.auth("carol")).status_code == 403
