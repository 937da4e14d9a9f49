"""Issue 29, what every page shares: the home page says what ludolog is; `?` lists the keyboard shortcuts (Esc closes
the list, and it keeps quiet while typing or with one-key shortcuts off); a dark theme follows the system and a header
switch whose choice is remembered, with boards kept light and axe finding no serious violation in the dark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import DEMO_PR, LiveServer, Watched
from tests.ui.helpers import open_game
from tests.ui.test_accessibility import _blocking

pytestmark = pytest.mark.browser

BACKGROUND = "s => getComputedStyle(document.querySelector(s)).backgroundColor"


def _luminance(css_rgb: str) -> float:
    """The relative brightness (0 black … 1 white) of an ``rgb(r, g, b)`` colour."""
    r, g, b = (int(part) for part in css_rgb[css_rgb.index("(") + 1:].split(")")[0].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def _open_home(page: Any, server: LiveServer) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='true']")


def test_the_home_page_says_what_ludolog_is(live_server: LiveServer, watched: Watched) -> None:
    page = watched.page
    _open_home(page, live_server)
    intro = page.inner_text("#intro")
    assert page.is_visible("#intro") and "replays them move by move" in intro and "Board Game Arena" in intro
    box, table = (page.eval_on_selector(s, "e => e.getBoundingClientRect().top") for s in ("#intro", "#games-table"))
    assert box < table, "said before the games list"
    watched.assert_clean()


def test_question_mark_lists_the_shortcuts_and_escape_closes_the_list(live_server: LiveServer, watched: Watched,
                                                                      artifacts: Path) -> None:
    page = open_game(watched, live_server, 40)
    assert not page.is_visible("#shortcuts-help")
    page.keyboard.press("?")
    page.wait_for_selector("#shortcuts-help[open]")
    listed = page.inner_text("#shortcuts-help")
    assert "next / previous round" in listed and "previous / next move" in listed and "first / last position" in listed
    page.screenshot(path=str(artifacts / "shortcuts-help.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#shortcuts-help:not([open])", state="attached")
    assert not page.is_visible("#shortcuts-help")
    page.keyboard.press("?")
    page.click("#shortcuts-help-close")
    assert not page.is_visible("#shortcuts-help")
    # Off with the one-key shortcuts; and on the home page, typed into a field, `?` is only a character.
    page.uncheck("#shortcuts-on")
    page.keyboard.press("?")
    assert not page.is_visible("#shortcuts-help")
    page.check("#shortcuts-on")
    _open_home(page, live_server)
    page.fill("#f-q", "")
    page.focus("#f-q")
    page.keyboard.press("?")
    assert page.input_value("#f-q") == "?" and not page.is_visible("#shortcuts-help")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("?")
    assert page.is_visible("#shortcuts-help")
    watched.assert_clean()


def test_the_dark_theme_follows_the_system_and_the_switch_and_is_remembered(live_server: LiveServer, browser: Any) -> None:
    dark = browser.new_context(viewport={"width": 1366, "height": 768}, color_scheme="dark")
    try:
        page = dark.new_page()
        _open_home(page, live_server)
        assert _luminance(page.evaluate(BACKGROUND, "html")) < 0.15, "the system prefers dark"
        assert page.get_attribute("#theme-toggle", "aria-pressed") == "true"
        page.click("#theme-toggle")
        assert _luminance(page.evaluate(BACKGROUND, "html")) > 0.85
        page.reload()
        page.wait_for_selector("body[data-ready='true']")
        assert _luminance(page.evaluate(BACKGROUND, "html")) > 0.85, "the choice of light is remembered"
        assert page.get_attribute("#theme-toggle", "aria-pressed") == "false"
    finally:
        dark.close()
    light = browser.new_context(viewport={"width": 1366, "height": 768}, color_scheme="light")
    try:
        page = light.new_page()
        page.goto(f"{live_server.url}/games/{DEMO_PR}/b/main/40")
        page.wait_for_selector("body[data-ready='true']")
        assert _luminance(page.evaluate(BACKGROUND, "html")) > 0.85
        assert page.evaluate(BACKGROUND, "#board") == "rgba(0, 0, 0, 0)", "in the light theme a board lies on the page"
        page.click("#theme-toggle")
        _open_home(page, live_server)
        assert _luminance(page.evaluate(BACKGROUND, "html")) < 0.15
        page.goto(f"{live_server.url}/games/{DEMO_PR}/b/main/40")
        page.wait_for_selector("body[data-ready='true']")
        assert _luminance(page.evaluate(BACKGROUND, "html")) < 0.15, "the choice of dark is remembered on every page"
        assert _luminance(page.evaluate(BACKGROUND, "#board")) > 0.85, "the board stays light"
    finally:
        light.close()


@pytest.mark.slow  # an accessibility sweep (axe-core over three pages): the slow tier
@pytest.mark.parametrize("width", [1366, 390])
def test_the_dark_theme_has_no_serious_axe_violation(live_server: LiveServer, browser: Any, artifacts: Path, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 844}, color_scheme="dark")
    try:
        page = context.new_page()
        found: list[str] = []
        _open_home(page, live_server)
        page.screenshot(path=str(artifacts / f"dark-home-{width}.png"))
        found += _blocking(page, f"dark-home-{width}", artifacts)
        for gid, seq in ((DEMO_PR, 300), ("demo-golden-city-1", 363)):
            page.goto(f"{live_server.url}/games/{gid}/b/main/{seq}")
            page.wait_for_selector("body[data-ready='true']")
            page.screenshot(path=str(artifacts / f"dark-{gid}-{width}.png"))
            found += _blocking(page, f"dark-{gid}-{width}", artifacts)
        assert not found, "\n".join(found)
    finally:
        context.close()
