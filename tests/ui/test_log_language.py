"""Issue 47 item 7 in a real browser: a Hungarian visitor who pastes a German BGA review text on the home page is told,
in Hungarian, that the log seems to be in German and where a log in any language can be had (the archive JSON, the
bookmarklet); an English reader reads the API's own sentence."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.bga.review_languages import GERMAN_REVIEW
from tests.ui.conftest import LiveServer, Watched

pytestmark = pytest.mark.browser


def _refusal(watched: Watched, server: LiveServer, language: str) -> str:
    page: Any = watched.page
    page.goto(f"{server.url}/?lang={language}")
    page.wait_for_selector("body[data-ready='true']")
    page.fill("#upload-text", GERMAN_REVIEW)
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#upload-status .error")
    text: str = page.inner_text("#upload-status")
    return text


def test_a_hungarian_visitor_reads_in_hungarian_that_the_log_seems_german(live_server: LiveServer, watched: Watched) -> None:
    said = _refusal(watched, live_server, "hu")
    assert said.startswith("Ez a napló német nyelvűnek tűnik: "), said
    assert "archív JSON" in said and "könyvjelző" in said, said


def test_an_english_reader_reads_the_api_s_sentence(live_server: LiveServer, watched: Watched) -> None:
    said = _refusal(watched, live_server, "en")
    assert said.startswith("This log seems to be in German: ") and "bookmarklet" in said, said
