"""Issue 32: the routes of the BGA bookmarklet: the versioned bookmarklet script with its integrity, the receiving
page with its accepted origins and the games with full rules it tells apart, and the LUDOLOG_BGA_ORIGINS setting.
Bad input gets a 4xx naming where and why, and changes nothing."""

from __future__ import annotations

import base64
import hashlib
import json
from html import unescape
from urllib.parse import unquote

import pytest
from flask.testing import FlaskClient

from engine import registered_games
from engine.bga.mapping import game_for_bga_name, recognised_game
from service.runtime.config import DEFAULT_BGA_ORIGINS, bga_origin_patterns


def test_the_bookmarklet_script_is_served_with_its_integrity_to_any_origin(client: FlaskClient) -> None:
    page = client.get("/import/bga").get_data(as_text=True)
    href = page.split('id="bookmarklet" class="bookmarklet" href="')[1].split('"')[0]
    assert href.startswith("javascript:")
    loader = unquote(href.removeprefix("javascript:").replace("&#39;", "'").replace("&amp;", "&"))
    src = loader.split("s.src='")[1].split("'")[0]
    integrity = loader.split("s.integrity='")[1].split("'")[0]
    assert "s.crossOrigin='anonymous'" in loader
    script = client.get(src.removeprefix("http://localhost"))
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert script.headers["Access-Control-Allow-Origin"] == "*"
    digest = base64.b64encode(hashlib.sha384(script.get_data()).digest()).decode()
    assert integrity == f"sha384-{digest}", "the loader pins the very bytes served"
    assert "drag" in page.lower() and "again" in page, "the page says a new version means dragging the bookmark again"


def test_another_version_of_the_script_is_not_found(client: FlaskClient) -> None:
    assert client.get("/import/bga/bookmarklet.0123456789abcdef.js").status_code == 404
    assert client.get("/import/bga/bookmarklet.x.js").status_code == 404


def test_the_receiving_page_names_the_accepted_origins_and_refuses_framing(client: FlaskClient) -> None:
    response = client.get("/import/bga/receive")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    origins = json.loads(page.split('data-origins="')[1].split('"')[0].replace("&#34;", '"'))
    assert origins == ["https://boardgamearena.com", "https://*.boardgamearena.com"]
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]


def test_the_receiving_page_names_the_games_with_rules_as_the_uploads_reader_tells_them(client: FlaskClient) -> None:
    page = client.get("/import/bga/receive").get_data(as_text=True)
    games = json.loads(unescape(page.split('data-games="')[1].split('"')[0]))
    by_name = {g["game"]: g for g in games}
    assert sorted(by_name) == registered_games(), "every game an upload replays with rules, no other"
    assert by_name["puerto_rico"] == {"game": "puerto_rico", "bga": "puertorico", "label": "Puerto Rico", "marks": ["rol_type"]}
    for game in games:
        assert game_for_bga_name(game["bga"], registered_games()) == game["game"]
        for mark in game["marks"]:
            assert recognised_game({mark: 1}) == game["game"], f"{game['game']}: {mark} is a mark its mapping recognises"
    assert recognised_game({"player_id": 1, "player_name": "Anna"}) is None


def test_the_help_page_lists_the_games_with_rules_from_the_registry(client: FlaskClient) -> None:
    page = client.get("/help/bga-logs").get_data(as_text=True)
    rules = page.split('id="games-with-rules">')[1].split("</ul>")[0]
    for label in ("Puerto Rico", "Amerigo", "Entdecker", "Die goldene Stadt"):
        assert f"<li>{label}</li>" in rules
    assert "Pig" not in rules, "a game registered unlisted is offered by no page"
    assert "/import/bga" in page and "/archive/archive/logs.html" in page and "gamereview" in page


def test_the_home_page_links_the_help_page(client: FlaskClient) -> None:
    assert 'href="/help/bga-logs"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("raw", ["boardgamearena.com", "https://x.com/path", "https://a.*.com", "*", "https://x.com?q=1",
                                 "ftp://x.com"])
def test_an_origin_setting_that_is_no_origin_stops_the_start_naming_it(raw: str) -> None:
    with pytest.raises(SystemExit, match="LUDOLOG_BGA_ORIGINS"):
        bga_origin_patterns(raw)


def test_origin_patterns_are_read_lower_case_without_a_trailing_slash() -> None:
    assert bga_origin_patterns(" HTTP://127.0.0.1:8201/ , https://*.example.org") == ("http://127.0.0.1:8201", "https://*.example.org")
    assert bga_origin_patterns(DEFAULT_BGA_ORIGINS) == ("https://boardgamearena.com", "https://*.boardgamearena.com")


def test_the_deploy_template_names_the_default_origins() -> None:
    from service.runtime.config import ROOT

    lines = (ROOT / "deploy" / "env.example").read_text().splitlines()
    assert f"LUDOLOG_BGA_ORIGINS={DEFAULT_BGA_ORIGINS}" in lines
