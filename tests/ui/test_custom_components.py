"""Games played with a custom component set (``Setup.options["components"]``) are drawn with that set.

The game page's data carries the board's tables built from the game's own setup (through the
engine's function that the rules' setup reads it with), not the default set: checked through
Flask's test client for Amerigo, Entdecker and Die goldene Stadt, and in headless Chromium for the
Golden City and Entdecker boards of small custom sets.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from engine import Setup, get_rules, random_playout
from engine.entdecker.components import DEFAULT_COMPONENTS as ENTDECKER_DEFAULT
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.context import Stores
from service.store.games import MAIN
from service.store.users import UserStore
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game

pytestmark = pytest.mark.browser

#: Amerigo: one village tile kind, shorter progress and order tracks, a map of one big island tile.
AMERIGO_BIG = ["~~~~~~~", "~.....~", "~.....~", "~.....~", "~.....~", "~P....~", "~A~~~~~"]
AMERIGO_SET = {
    "island_tiles": {f"B{i:02d}": AMERIGO_BIG for i in range(9)},
    "village_tiles": [["M1", 2, 5, 9]],
    "progress_track": {"last": 6, "vp": [[2, 1], [6, 4]]},
    "order_track": {"last": 8, "vp": [[4, 1], [8, 2]]},
}


def entdecker_set() -> dict[str, Any]:
    """Entdecker on a 4 x 3 board: 12 plain tiles, two '?' tiles, cheaper forts, a one-value wheel."""
    data = copy.deepcopy(ENTDECKER_DEFAULT)
    data["board"] = {"w": 4, "h": 3, "rim": "water"}
    data["draw_tiles"] = [
        {"type": "SEA", "topology": "SEA", "event": None, "count": 6},
        {"type": "CAPE", "topology": "CAPE", "event": None, "count": 6},
        {"type": "CAPE?ruins", "topology": "CAPE", "event": "ruins", "count": 2},
    ]
    data["stack_sizes"] = [7, 7]
    data["wheel"] = [3]
    data["units"]["fort"] = {"cost": 2, "copies": 1}
    return data


def site(sid: str, kind: str, terrain: str, river: str | None, reward: str, *neighbours: str) -> dict[str, Any]:
    return {"id": sid, "kind": kind, "terrain": terrain, "river": river, "reward": reward, "neighbours": list(neighbours)}


#: Die goldene Stadt on seven sites of its own, two scoring cards, fewer landscape cards.
GOLDEN_CITY_SET = {
    "sites": [
        site("H1", "harbour", "CO", None, "card", "S1"),
        site("H2", "harbour", "CO", None, "goods", "S1", "S2"),
        site("H3", "harbour", "CO", None, "bonus", "S2"),
        site("S1", "suburb", "MT", "R1", "key", "H1", "H2", "O1"),
        site("S2", "suburb", "DE", "R1", "coin2", "H2", "H3", "O1"),
        site("O1", "outer", "MT", None, "outer+coin", "S1", "S2", "I1"),
        site("I1", "inner", "MT", None, "inner", "O1"),
    ],
    "scoring_cards": [
        {"id": "K1", "back": 1, "good": "wine", "regions": ["R1"]},
        {"id": "K2", "back": 2, "good": "spices", "regions": ["D-MT", "R1"]},
    ],
    "landscape": {"CO": 8, "MT": 8, "ME": 4, "FO": 4, "DE": 8},
}
GOLDEN_CITY_ROADS = 7


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def create(client: FlaskClient, redis_client: redis.Redis, game: str, players: list[str], components: Any) -> str:
    """A live game created through the API with ``components`` as its component set; returns its id."""
    token = UserStore(redis_client).add("maker")
    made = client.post("/api/games", json={"game": game, "players": players, "options": {"components": components}},
                       headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 201, made.get_json()
    gid: str = made.get_json()["id"]
    return gid


def page_data(client: FlaskClient, gid: str) -> dict[str, Any]:
    """The JSON a game page's scripts start from."""
    response = client.get(f"/games/{gid}/b/main")
    assert response.status_code == 200
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', response.get_data(as_text=True), re.S)
    assert match
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_amerigo_page_draws_the_games_own_tiles_kinds_and_tracks(client: FlaskClient, redis_client: redis.Redis) -> None:
    gid = create(client, redis_client, "amerigo", ["Ann", "Bob"], AMERIGO_SET)
    components = page_data(client, gid)["components"]
    assert components["island_tiles"] == {f"B{i:02d}": AMERIGO_BIG for i in range(9)}
    villages = [components["kinds"][k] for k in components["village_kinds"]]
    assert [(k["name"], k["copies"], k["vp"]) for k in villages] == [("village M1", 2, [5, 9])]
    assert components["progress_track"] == {"last": 6, "vp": [[2, 1], [6, 4]]}
    assert components["order_track"]["last"] == 8 and components["order_track"]["vp"] == [[4, 1], [8, 2]]
    assert len(components["order_track"]["colours"]) == 8 + 1  # spaces 0 (start) to 8
    assert components["grid"] == [3, 3] and "custom component set" in components["notice"]
    default = page_data(client, "demo-amerigo-1")["components"]
    assert len(default["village_kinds"]) > 1 and default["progress_track"]["last"] != 6
    assert set(default["island_tiles"]) != set(components["island_tiles"]) and "reconstructed" in default["notice"]


def test_entdecker_page_draws_the_games_own_board_tiles_units_and_wheel(client: FlaskClient, redis_client: redis.Redis) -> None:
    gid = create(client, redis_client, "entdecker", ["Ann", "Bob"], entdecker_set())
    components = page_data(client, gid)["components"]
    assert (components["width"], components["height"]) == (4, 3)
    assert components["wheel"] == [3] and components["stacks"] == 2
    assert components["unit_costs"][1] == 2 and components["unit_copies"][1] == 1  # the fort
    assert {k["topology"] for k in components["kinds"] if not k["reserve"]} == {"SEA", "CAPE"}
    assert len(components["faces"]) == 4 * len(components["kinds"])
    assert "custom component set" in components["notice"]
    default = page_data(client, "demo-entdecker-1")["components"]
    assert (default["width"], default["height"]) == (10, 7) and default["stacks"] == 5
    timeline = client.get(f"/games/{gid}/b/main/timeline.json").get_json()
    assert timeline["positions"] and all("tables" not in p for p in timeline["positions"])  # the page data has them


def test_golden_city_page_draws_the_games_own_sites_and_cards(client: FlaskClient, redis_client: redis.Redis) -> None:
    gid = create(client, redis_client, "golden_city", ["Ann", "Bob", "Cy"], GOLDEN_CITY_SET)
    components = page_data(client, gid)["components"]
    sites = components["sites"]
    assert [s["id"] for s in sites] == ["H1", "H2", "H3", "S1", "S2", "O1", "I1"]
    assert {s["id"]: s["neighbours"] for s in sites} == {s["id"]: s["neighbours"] for s in GOLDEN_CITY_SET["sites"]}
    assert [s["river"] for s in sites if s["river"]] == ["R1", "R1"]
    assert all(isinstance(s["x"], float) and isinstance(s["y"], float) for s in sites)
    assert len({(s["x"], s["y"]) for s in sites}) == len(sites), "two sites drawn on one spot"
    assert components["regions"] == [] and components["rivers"] == []  # laid out in rings: no island picture
    assert components["scoring_cards"] == {
        "K1": {"back": 1, "good": "wine", "regions": ["R1"], "region_names": ["the river R1"]},
        "K2": {"back": 2, "good": "spices", "regions": ["D-MT", "R1"], "region_names": ["the mountains district", "the river R1"]},
    }
    assert "rings" in components["notice"]
    default = page_data(client, "demo-golden-city-1")["components"]
    assert len(default["sites"]) == 58 and len(default["regions"]) == 4 and len(default["rivers"]) == 4
    assert set(default["scoring_cards"]) != {"K1", "K2"}


def test_golden_city_set_of_the_islands_own_sites_keeps_the_island(client: FlaskClient, redis_client: redis.Redis) -> None:
    """A set that changes only the houses keeps the default board's picture, and its own house count."""
    gid = create(client, redis_client, "golden_city", ["Ann", "Bob", "Cy"], {"houses": {"3": 12}})
    components = page_data(client, gid)["components"]
    default = page_data(client, "demo-golden-city-1")["components"]
    assert components["sites"] == default["sites"] and components["regions"] == default["regions"]
    assert components["rivers"] == default["rivers"]
    assert components["houses"] == 12 and "custom component set" in components["notice"]


# ---- in the browser ------------------------------------------------------------------------------

def store_playout(redis_server: EmbeddedRedis, game: str, gid: str, players: tuple[str, ...], components: Any,
                  seed: int) -> list[Any]:
    """A random game of ``game`` with ``components`` stored as ``gid``; returns its states by seq (index 0: seq 1)."""
    rules = get_rules(game)
    setup = Setup(players, {"components": components})
    playout = random_playout(rules, setup, random.Random(seed))
    games = Stores(Config(redis_url=redis_server.url)).games
    games.create_game(game, rules.version, setup, owner=None, gid=gid, source="demo", seed=str(seed), title=f"Custom {game}")
    games.append(gid, MAIN, playout.events[1:], 1)
    states = [rules.initial_state(setup)]
    for event in playout.events[1:]:
        states.append(rules.apply(states[-1], rules.parse_action(event.action)))
    return states


def test_golden_city_board_draws_a_custom_set_in_rings(live_server: LiveServer, watched: Watched, redis_server: EmbeddedRedis,
                                                        artifacts: Path) -> None:
    states = store_playout(redis_server, "golden_city", "custom-golden-city", ("Ann", "Bob", "Cy"), GOLDEN_CITY_SET, seed=3)
    seq, state = next((seq, s) for seq, s in enumerate(states, start=1)
                      if s.scoring_card and any(p.houses for p in s.players))
    page = open_game(watched, live_server, seq, gid="custom-golden-city")
    assert page.locator(".gc-map .gc-site").count() == 7
    assert sorted(page.locator(".gc-map .gc-site").evaluate_all("els => els.map(e => e.dataset.site)")) == \
        sorted(s["id"] for s in GOLDEN_CITY_SET["sites"])
    assert page.locator(".gc-map .gc-road").count() == GOLDEN_CITY_ROADS
    assert page.locator(".gc-map .gc-region").count() == 0 and page.locator(".gc-map .gc-river").count() == 0
    assert page.locator(".gc-map .gc-house").count() == sum(p.houses.bit_count() for p in state.players)
    card = page.inner_text(".gc-scoring-card")
    assert f"{state.scoring_card} · back" in card and "river R1" in card
    total = state.players[0].houses_left + state.players[0].houses.bit_count()
    assert f"{state.players[0].houses_left}/{total} houses" in page.locator(".gc-player").first.inner_text()
    assert "rings" in page.inner_text("#board-notice")
    page.locator("#board").screenshot(path=str(artifacts / "golden_city-custom-set.png"))
    page.keyboard.press("End")
    page.wait_for_function("() => document.getElementById('board').dataset.seq === String(window.ludolog.head)")
    assert page.locator(".gc-map .gc-site").count() == 7
    watched.assert_clean()


def test_entdecker_board_draws_a_custom_set(live_server: LiveServer, watched: Watched, redis_server: EmbeddedRedis) -> None:
    states = store_playout(redis_server, "entdecker", "custom-entdecker", ("Ann", "Bob"), entdecker_set(), seed=5)
    seq = next(seq for seq, s in enumerate(states, start=1) if seq > 5 and sum(code >= 0 for code in s.board) >= 3)
    state = states[seq - 1]
    page = open_game(watched, live_server, seq, gid="custom-entdecker")
    assert page.locator(".ed-map .ed-tile").count() == sum(code >= 0 for code in state.board)
    assert page.locator(".ed-map .ed-unknown").count() == sum(code < 0 for code in state.board)
    assert page.locator(".ed-map .ed-circle").count() == 2 * (4 + 3)
    assert page.locator(".ed-map .ed-coord").count() == 4 + 3
    watched.assert_clean()
