"""Issue 49 item 4 in the browser: the Puerto Rico explorer's table with its intervals and bars, worked from the
keyboard alone (stage, player count, a row to the games through it, a game at that move), at a phone's width too."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.games.explorer import rebuild
from service.store.explorer import ExplorerStore
from service.store.games import GameStore
from tests.ui.conftest import LiveServer, Watched

pytestmark = pytest.mark.browser


def test_the_explorer_from_the_keyboard_at_a_laptop_and_a_phone(live_server: LiveServer, watched: Watched,
                                                               redis_client, artifacts: Path) -> None:
    assert rebuild(GameStore(redis_client), ExplorerStore(redis_client)) > 0
    page = watched.page
    page.goto(f"{live_server.url}/explore/puerto_rico")
    assert page.locator(".explorer-table tbody tr").count() > 0
    assert page.locator(".explorer-table svg rect.explorer-bar").count() == page.locator(".explorer-table tbody tr").count()
    page.focus("#explorer-stage")
    page.keyboard.press("End")  # the last stage of the list
    last = page.eval_on_selector("#explorer-stage", "s => s.options[s.options.length - 1].value")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the Show button
    page.wait_for_url(lambda url: "stage=" in url)
    assert page.locator(".explorer-table caption").inner_text() == last
    page.focus(".explorer-table tbody tr:first-child th a")
    choice = page.inner_text(".explorer-table tbody tr:first-child th a")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/explore/puerto_rico/games" in url)
    assert choice in page.inner_text("h2")
    link = page.locator(".explorer-found a").first
    href = link.get_attribute("href") or ""
    assert "/games/demo-puerto-rico-1/b/main/" in href
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: "/games/demo-puerto-rico-1/b/main/" in url)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/explore/puerto_rico?stage=building%201")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    bar = page.eval_on_selector(".explorer-table svg", "e => e.getBoundingClientRect().width")
    assert bar > 20, "the bars stay visible on a phone"
    page.screenshot(path=str(artifacts / "explorer-390.png"), full_page=True)
    watched.assert_clean()
