"""Issue 47's "done when", in a real browser: a player whose browser asks for Hungarian signs up and finds every page
in Hungarian, forks the Puerto Rico demo game and plays a move, and reads the move list and the board in the Hungarian
rulebook's words; then switches to 繁體中文 from the menu and reads the Chinese rulebook's words. (That no text on
any page escapes the catalogs is the pseudo-locale walk's to say: ``tests/ui/test_pseudo_locale.py``.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import BROWSER_WAIT_MS, LiveServer
from tests.ui.helpers import sign_up_on, wait_board

pytestmark = pytest.mark.browser

#: The pages a signed-in player reaches from the header, each read in Hungarian and in English.
PAGES = ("/", "/account", "/tokens", "/puzzles", "/explore/puerto_rico", "/help/bga-logs")
#: Puerto Rico's mayor and builder roles as the rulebooks print them (service/i18n/games/glossary/puerto_rico.toml).
HUNGARIAN = ("polgármester", "építész")
CHINESE = ("市長", "建築師")


def _heading(page: Any, server: LiveServer, path: str, lang: str | None = None) -> str:
    page.goto(server.url + path + (f"?lang={lang}" if lang else ""))
    page.wait_for_load_state("networkidle")
    return str(page.inner_text("main h1"))


def _signed_up_in_hungarian(page: Any, server: LiveServer) -> None:
    page.goto(f"{server.url}/signup")
    assert page.get_attribute("html", "lang") == "hu"
    sign_up_on(page, server, "eszter")
    assert "Bejelentkezve" in page.inner_text(".who"), page.inner_text(".who")


def _fork_and_play(page: Any, server: LiveServer) -> None:
    """Fork the demo game at move 300 from its page's form and play the picker's first move there."""
    page.goto(f"{server.url}/games/demo-puerto-rico-1/b/main/300")
    page.wait_for_selector("body[data-ready='true']")
    page.fill("#fork-name", "mi lett volna")
    page.click("#fork-button")
    page.wait_for_url(lambda url: "/b/main" not in url)
    page.wait_for_selector("body[data-ready='true']")
    head = int(page.evaluate("window.ludolog.head"))
    page.click("#picker button.pick")
    page.wait_for_function("head => window.ludolog.head > head", arg=head)
    wait_board(page, int(page.evaluate("window.ludolog.head")))


def _reads(page: Any, words: tuple[str, ...]) -> None:
    """The board and the move list both say each of ``words`` (a board's heading may capitalise it)."""
    page.wait_for_function("() => document.querySelectorAll('#moves .mv-text').length > 100")
    board = page.inner_text("#board").casefold()
    moves = "\n".join(page.eval_on_selector_all("#moves .mv-text", "spans => spans.map(s => s.textContent)")).casefold()
    for word in words:
        assert word in board, f"{word} not on the board"
        assert word in moves, f"{word} not in the move list"


def test_a_hungarian_player_signs_up_plays_a_fork_and_switches_to_traditional_chinese(
        browser: Any, live_server: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="hu-HU")
    try:
        page = context.new_page()
        page.set_default_timeout(BROWSER_WAIT_MS)
        _signed_up_in_hungarian(page, live_server)
        for path in PAGES:
            hungarian = _heading(page, live_server, path)
            assert page.get_attribute("html", "lang") == "hu", path
            assert hungarian != _heading(page, live_server, path, "en"), f"{path}: its heading is English"
        _fork_and_play(page, live_server)
        assert page.get_attribute("html", "lang") == "hu"
        _reads(page, HUNGARIAN)
        page.select_option("#language-menu", "zh-Hant")
        page.click(".language-menu input[type=submit]")
        page.wait_for_selector("html[lang='zh-Hant']")
        page.wait_for_selector("body[data-ready='true']")
        _reads(page, CHINESE)
        assert "mi lett volna" in page.inner_text("#branch-tree"), "the menu brought the player back to the fork"
    finally:
        context.close()
