"""Issue 29: the web upload form offers the visibility the API accepts (public, unlisted, private); a private upload
is its uploader's alone, and a visitor who is not signed in cannot choose private (nobody could read it back)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Setup, get_rules, random_playout
from service.imports.importer import export_text
from tests.helpers import kill_with_work_horses, start_worker
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_home

pytestmark = pytest.mark.browser


def test_a_private_upload_from_the_form_is_the_uploaders_alone(live_server: LiveServer, watched: Watched, browser: Any,
                                                               redis_server: Any) -> None:
    events = random_playout(get_rules("golden_city"), Setup(("Anna", "Ben", "Cleo")), random.Random(5)).events
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "keeper")
        options = page.eval_on_selector_all("#upload-visibility option", "os => os.map(o => o.value)")
        assert options == ["public", "unlisted", "private"]
        page.fill("#upload-text", export_text(events))
        page.select_option("#upload-visibility", "private")
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a", )
        gid = page.get_attribute("#upload-report a", "href").split("/games/")[1].split("/")[0]
        game = page.evaluate("gid => fetch(`/api/games/${gid}`).then(r => r.json())", gid)
        assert game["visibility"] == "private" and game["owner"] == "keeper"
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)

    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        visitor = other.new_page()
        visitor.goto(f"{live_server.url}/games/{gid}")
        assert "Not found" in visitor.title(), "a private upload is hidden from everyone else"
        visitor.goto(live_server.url + "/")
        visitor.wait_for_selector("body[data-ready='true']")
        assert visitor.is_disabled("#upload-visibility option[value='private']"), "private needs an owner: sign in"
    finally:
        other.close()
