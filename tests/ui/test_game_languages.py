"""A game's move sentences in the reader's language, in a real browser (issue 47): a Puerto Rico game page read in
Hungarian shows its moves in the Hungarian rulebook's words; in Chinese (traditional), the Chinese rulebook's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import BROWSER_WAIT_MS, DEMO_PR, LiveServer

pytestmark = pytest.mark.browser


def _move_texts(browser: Any, server: LiveServer, locale: str) -> tuple[str, str]:
    """Every move sentence of the demo Puerto Rico game's move list, and the board's caption, read by a browser whose
    language is ``locale``."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale=locale)
    try:
        page = context.new_page()
        page.set_default_timeout(BROWSER_WAIT_MS)
        page.goto(f"{server.url}/games/{DEMO_PR}/b/main/120")
        page.wait_for_selector("body[data-ready='true']")
        page.wait_for_function("() => document.querySelectorAll('#moves .mv-text').length > 100")
        texts: list[str] = page.eval_on_selector_all("#moves .mv-text", "spans => spans.map(s => s.textContent)")
        return "\n".join(texts), page.inner_text("#caption")
    finally:
        context.close()


def test_a_puerto_rico_game_reads_in_the_hungarian_rulebooks_words(browser: Any, live_server: LiveServer) -> None:
    hungarian, caption = _move_texts(browser, live_server, "hu-HU")
    for word in ("polgármester", "építész", "ültetvényes", "kapitány", "telepest"):
        assert word in hungarian, f"{word!r} is not in the Hungarian move list"
    assert "chooses the" not in hungarian, "an English sentence in the Hungarian move list"
    assert "kormányzó:" in caption and ". kör" in caption, caption


def test_the_same_game_reads_in_the_chinese_rulebooks_words_and_in_english(browser: Any, live_server: LiveServer) -> None:
    chinese, caption = _move_texts(browser, live_server, "zh-TW")
    for word in ("市長", "建築師", "開拓者", "船長", "移民"):
        assert word in chinese, f"{word!r} is not in the Chinese move list"
    assert "總督:" in caption, caption
    english, caption = _move_texts(browser, live_server, "en-US")
    assert "chooses the mayor" in english
    assert "governor" in caption and "Round" in caption, caption
