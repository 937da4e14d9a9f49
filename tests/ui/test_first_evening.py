"""Issue 46's defects of a first evening at the table, each as the page shows it, in headless Chromium: no "null" in
the analysis verdict, no "Game over" above a mid-game position."""

from __future__ import annotations

import pytest

from tests.ui.analysed import GID, analysed_game_with_fork, analysis_report
from tests.ui.conftest import DEMO_PR, LiveServer, Watched
from tests.ui.helpers import open_game, wait_board

pytestmark = pytest.mark.browser


def test_an_unmarked_move_verdict_says_no_null(live_server: LiveServer, watched: Watched, redis_client,
                                              redis_server) -> None:
    """Every analysed move's verdict, marked or not, ends with words (or the mark), never with "null"."""
    analysed_game_with_fork(redis_client, redis_server.url)
    page = open_game(watched, live_server, seq=1, gid=GID)
    page.wait_for_selector("#win-chart svg.win-chart")
    report = analysis_report(page, live_server, GID)
    unmarked = [p["seq"] + 1 for p in report["positions"] if p["played"] and not p["played"]["mark"]]
    marked = [p["seq"] + 1 for p in report["positions"] if p["played"] and p["played"]["mark"]]
    assert unmarked and marked
    for move in (unmarked[0], unmarked[-1], marked[0]):
        page.locator(f'#moves .mv[data-seq="{move}"]').click()
        wait_board(page, move)
        page.wait_for_selector("#analysis-verdict:not([hidden])")
        verdict = page.locator("#analysis-verdict").inner_text()
        assert verdict.startswith(f"Move {move},") and "null" not in verdict, verdict
    watched.assert_clean()


def test_game_over_shows_only_above_the_final_position(live_server: LiveServer, watched: Watched) -> None:
    """A finished demo game at a mid-game position has no "Game over" banner; at its last position it has."""
    page = open_game(watched, live_server, seq=286, gid=DEMO_PR)
    banner = page.locator("#turn-banner")
    assert not (banner.is_visible() and "Game over" in banner.inner_text()), banner.inner_text()
    page.keyboard.press("End")
    head = int(page.evaluate("window.ludolog.head"))
    wait_board(page, head)
    page.wait_for_function("() => document.getElementById('turn-banner').textContent.includes('Game over')")
    page.keyboard.press("Home")
    wait_board(page, 1)
    page.wait_for_function("() => !document.getElementById('turn-banner').textContent.includes('Game over')")
    watched.assert_clean()
