"""Issue 29, downloads on the website: a branch in every export format (BGA log, JSON lines, text) from the game page,
in the view the board is shown in, so that a download in a seat's view never holds another seat's hidden
information; a log-only game's lines for anyone and its file as uploaded for its owner only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.imports.importer import import_bytes
from tests.engine.bga import samples
from tests.engine.bga.samples import TOKAIDO_A
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game, sign_up

pytestmark = pytest.mark.browser

GOLDEN_CITY = "demo-golden-city-1"
FORMATS = ("bga", "jsonl", "text")


def download(page: Any, link: str) -> str:
    """Click ``link`` and return the text of the file it downloads."""
    with page.expect_download() as info:
        page.click(link)
    return Path(info.value.path()).read_text(encoding="utf-8")


def secrets_of_seat(page: Any, gid: str, seat: int) -> set[str]:
    """The notations of the events hidden from ``seat`` that the seat never sees taken anywhere else (so any of them
    in a download of the seat's view is a leak): asked of the API, as the page's own requests do."""
    url = f"/api/games/{gid}/branches/main/events?limit=5000"
    full = page.evaluate("url => fetch(url).then(r => r.json())", url)["events"]
    seen = page.evaluate("url => fetch(url).then(r => r.json())", f"{url}&view={seat}")["events"]
    hidden = {e["action"] for e, s in zip(full, seen, strict=True) if s.get("hidden")}
    return hidden - {s["action"] for s in seen if not s.get("hidden")}


def test_a_seats_download_holds_no_other_seats_secrets_in_any_format(live_server: LiveServer, watched: Watched,
                                                                     artifacts: Path) -> None:
    page = open_game(watched, live_server, gid=GOLDEN_CITY)
    secrets = secrets_of_seat(page, GOLDEN_CITY, 0)
    assert secrets, "the demo game has bonus cards kept face down"
    page.select_option("#view-select", "0")
    # the links follow a view once the page has it (the view is read from the server first: a table may refuse it)
    page.wait_for_function("() => document.getElementById('download-view').textContent === 'as Anna'")
    page.eval_on_selector("#downloads", "e => e.scrollIntoView()")
    page.screenshot(path=str(artifacts / "downloads-game.png"))
    for fmt in FORMATS:
        assert "view=0" in page.get_attribute(f"#download-{fmt}", "href")
        body = download(page, f"#download-{fmt}")
        assert body.strip(), fmt
        leaked = [s for s in secrets if s in body]
        assert not leaked, f"{fmt}: seat 0's download names {leaked}"
    rows = [json.loads(line) for line in download(page, "#download-jsonl").splitlines()]
    assert rows[0]["type"] == "game_created" and any(r.get("hidden") for r in rows)
    # The full view is anyone's to read, and its download has every draw: the check above can see a leak.
    page.select_option("#view-select", "full")
    page.wait_for_function("() => document.getElementById('download-view').textContent === 'in full'")
    for fmt in FORMATS:
        body = download(page, f"#download-{fmt}")
        assert all(s in body for s in secrets), f"{fmt}: the full view's download lacks a draw"
    watched.assert_clean()


def test_a_log_only_games_downloads(live_server: LiveServer, watched: Watched, browser: Any, redis_client: Any,
                                    artifacts: Path) -> None:
    raw = samples.raw(TOKAIDO_A)
    sign_up(watched, live_server, "uploader")
    outcome = import_bytes(redis_client, raw, gid="tok-1", owner="uploader", filename=TOKAIDO_A)
    assert outcome.status == "done", outcome.error
    page = watched.page
    page.goto(f"{live_server.url}/games/tok-1")
    page.wait_for_selector("body[data-ready='true']")
    page.screenshot(path=str(artifacts / "downloads-log-only.png"), full_page=True)
    with page.expect_download() as info:
        page.click("#download-original")
    assert Path(info.value.path()).read_bytes() == raw, "the file as it was uploaded"
    assert "Bhaichata wins" in download(page, "#download-text")
    watched.assert_clean()

    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        stranger = other.new_page()
        stranger.goto(f"{live_server.url}/games/tok-1")
        stranger.wait_for_selector("body[data-ready='true']")
        assert stranger.locator("#download-original").count() == 0, "only the owner is offered the original"
        lines = download(stranger, "#download-jsonl").splitlines()
        assert json.loads(lines[0])["players"] and len(lines) > 10
    finally:
        other.close()
