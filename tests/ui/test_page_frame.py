"""Issue 22 on the server side, through Flask's test client: responses compressed (brotli or gzip, as the
browser asks), a meta description on every page, the game page's caption and first board's state in the
HTML itself (so the first board needs no request), and one frame for the three replay pages."""

from __future__ import annotations

import gzip
import json
import re

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay_ui.timeline import caption_at
from tests.ui.conftest import DEMO_PR

pytestmark = pytest.mark.browser
GAME = f"/games/{DEMO_PR}/b/main"


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client with cookies."""
    return app.test_client()


def _page_data(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match
    return dict(json.loads(match.group(1)))


STATIC = ("/static/ui/js/game.js", "/static/ui/css/app.css")


# Static files are streamed from disk, and flask-compress streams only brotli and deflate (every browser
# that sends gzip sends br too); pages and JSON come in either.
@pytest.mark.parametrize("encoding, decode, paths", [("br", brotli.decompress, (f"{GAME}/timeline.json", GAME + "/5", *STATIC)),
                                                     ("gzip", gzip.decompress, (f"{GAME}/timeline.json", GAME + "/5"))])
def test_json_pages_scripts_and_styles_come_compressed_as_asked(client: FlaskClient, encoding: str, decode: object,
                                                                paths: tuple[str, ...]) -> None:
    for path in paths:
        plain = client.get(path)
        packed = client.get(path, headers={"Accept-Encoding": f"{encoding}, identity"})
        assert plain.status_code == packed.status_code == 200, path
        assert "Content-Encoding" not in plain.headers, path
        assert packed.headers["Content-Encoding"] == encoding, path
        assert "Accept-Encoding" in packed.headers["Vary"]
        body = decode(packed.get_data())  # type: ignore[operator]
        if path.endswith(".json") or path.startswith("/static"):
            assert body == plain.get_data(), path
        assert len(packed.get_data()) < len(body) / 2, path
        plain.close()
        packed.close()


def test_a_timeline_is_a_fraction_of_its_size_on_the_wire(client: FlaskClient) -> None:
    plain = client.get(f"{GAME}/timeline.json")
    packed = client.get(f"{GAME}/timeline.json", headers={"Accept-Encoding": "br"})
    assert len(packed.get_data()) * 5 < len(plain.get_data())


def test_every_page_has_a_meta_description(client: FlaskClient) -> None:
    for path in ("/", "/signin", "/signup", GAME, f"/games/{DEMO_PR}/compare?a=main&b=main"):
        html = client.get(path).get_data(as_text=True)
        match = re.search(r'<meta name="description" content="([^"]+)">', html)
        assert match and len(match.group(1)) > 40, path


def test_the_game_page_carries_its_caption_and_first_state(client: FlaskClient) -> None:
    positions = client.get(f"{GAME}/timeline.json").get_json()["positions"]
    seq = next(seq for seq, info in enumerate(positions, start=1) if seq > 30 and isinstance(info["actor"], int))
    html = client.get(f"{GAME}/{seq}").get_data(as_text=True)
    page = _page_data(html)
    # The very state the page's own states window gives for that position.
    window = client.get(f"{GAME}/states.json?from={seq}&to={seq}").get_json()
    assert page["state"] == window["states"][str(seq)]
    caption = re.search(r'<p id="caption"[^>]*>(.*?)</p>', html, re.S)
    assert caption and caption.group(1).strip() == page["caption"] and "to act" in page["caption"]
    assert page["position"]["actor"] in range(len(page["players"]))


def test_the_server_caption_words_a_finished_game_as_the_script_does(client: FlaskClient) -> None:
    timeline = client.get(f"{GAME}/timeline.json").get_json()
    head = timeline["head"]
    caption = caption_at(timeline, head)
    names = timeline["players"]
    winner = names[timeline["outcome"]["winners"][0]]
    assert f"game over: {winner}" in caption and caption.endswith(str(timeline["outcome"]["scores"][timeline["outcome"]["winners"][0]]))
    assert caption_at(timeline, head + 1) == ""


def test_the_three_replay_pages_share_one_frame(client: FlaskClient) -> None:
    for path in (GAME, f"/games/{DEMO_PR}/compare?a=main&b=main"):
        html = client.get(path).get_data(as_text=True)
        # The step buttons' names are their words; the glyphs shown are hidden from screen readers.
        assert '<span aria-hidden="true">‹</span><span class="sr-only">Previous move</span>' in html, path
        assert 'id="shortcuts-on"' in html and 'aria-valuetext="move ' in html, path
        assert 'aria-label="Previous move' not in html, path
