"""Issue 22 in the browser: axe-core finds no critical and no serious WCAG 2.2 A/AA violation on any page
(home, sign-in, sign-up, tokens, compare, an upload report, a log-only game, each game at three positions),
at a laptop's width (1366 px) and a phone's (390 px); each board is also saved in grayscale, to look at
whether players and goods can be told apart without colour.

axe-core comes bundled in the ``axe-playwright-python`` package (its ``axe.min.js``), so nothing is downloaded
at test time. Every run's findings (all impacts) are saved as ``test-artifacts/axe-<page>-<width>.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import kill_with_work_horses, start_worker
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game, wait_board
from tests.ui.test_compare_browser import _fork_that_chose_otherwise
from tests.ui.test_log_only import TOKAIDO, _imported, _sample
from tests.ui.test_table_chat import bobs_busy_table

#: The slow tier (`make test` runs it, `make check` leaves it out): axe-core swept over every page at two widths.
pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDTHS = {1366: 768, 390: 844}
BLOCKING = ("critical", "serious")
#: The WCAG 2.0-2.2 A and AA rules (axe's tags), axe's best practices (landmarks, headings), and the rule that a
#: control's name starts with its visible text (WCAG 2.5.3; still marked experimental in axe, so named here).
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]},
               "rules": {"label-content-name-mismatch": {"enabled": True}},
               "resultTypes": ["violations"]}
GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")


def _axe() -> Any:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    return axe.Axe()


def _blocking(page: Any, name: str, artifacts: Path) -> list[str]:
    """axe's critical and serious findings on ``page`` now (saving every finding as an artifact)."""
    results = _axe().run(page, options=AXE_OPTIONS)
    violations = results.response["violations"]
    (artifacts / f"axe-{name}.json").write_text(json.dumps(violations, indent=1))
    return [f"{name}: {v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:4]]}"
            for v in violations if v["impact"] in BLOCKING]


def _check_both_widths(page: Any, name: str, artifacts: Path, found: list[str]) -> None:
    for width, height in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        found += _blocking(page, f"{name}-{width}", artifacts)


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='true'], body:not(.game-body)")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_at_three_positions_has_no_serious_violation(live_server: LiveServer, watched: Watched, artifacts: Path,
                                                               game: str) -> None:
    gid = f"demo-{game.replace('_', '-')}-1"
    page = open_game(watched, live_server, 1, gid=gid)
    head = page.evaluate("window.ludolog.head")
    found: list[str] = []
    for seq in (1, head // 2, head):
        page.evaluate("seq => window.ludolog.goTo(seq)", seq)
        wait_board(page, seq)
        _check_both_widths(page, f"{game}-{seq}", artifacts, found)
        _grayscale_board(page, artifacts / f"grayscale-{game}-{seq}.png")
    assert not found, "\n".join(found)
    watched.assert_clean()


def _grayscale_board(page: Any, path: Path) -> None:
    """The board alone, drawn in grayscale (a filter set from script: the page's policy allows no injected style)."""
    page.set_viewport_size({"width": 1366, "height": 768})
    page.evaluate("document.getElementById('board').style.filter = 'grayscale(1)'")
    page.locator("#board").screenshot(path=str(path))
    page.evaluate("document.getElementById('board').style.filter = ''")


def test_the_other_pages_have_no_serious_violation(live_server: LiveServer, watched: Watched, artifacts: Path,
                                                   redis_server: Any, redis_client: Any) -> None:
    page = watched.page
    found: list[str] = []
    for name, path in (("home-anonymous", "/"), ("signin", "/signin"), ("signup", "/signup")):
        _open(page, live_server.url + path)
        _check_both_widths(page, name, artifacts, found)
    log_gid = _imported(redis_client, _sample(TOKAIDO), "tokaido-a11y", TOKAIDO.name)
    page, bid, head = _fork_that_chose_otherwise(watched, live_server, 300)  # signs up as "tester"
    _check_both_widths(page, "fork-page", artifacts, found)
    page.goto(f"{live_server.url}/games/demo-puerto-rico-1/compare?a=main&b={bid}&at={head}")
    page.wait_for_selector("#board-a [data-differs='true']")
    _check_both_widths(page, "compare", artifacts, found)
    page.set_viewport_size({"width": 1366, "height": 768})
    _open(page, live_server.url + "/tokens")
    _check_both_widths(page, "tokens", artifacts, found)
    page.fill("#token-name", "a script")
    page.click("button:has-text('Create token')")
    page.wait_for_selector("#new-token")
    _check_both_widths(page, "tokens-new", artifacts, found)
    _open(page, live_server.url + "/account")
    _check_both_widths(page, "account", artifacts, found)
    _open(page, f"{live_server.url}/games/{log_gid}/b/main/40")
    _check_both_widths(page, "log-only", artifacts, found)
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page.set_viewport_size({"width": 1366, "height": 768})
        _open(page, live_server.url + "/")
        _check_both_widths(page, "home-signed-in", artifacts, found)
        page.set_input_files("#upload-file", str(TOKAIDO))
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a", )
        _check_both_widths(page, "upload-report", artifacts, found)
    finally:
        kill_with_work_horses(worker)
    assert not found, "\n".join(found)
    watched.assert_clean()


def test_a_tables_chat_and_take_back_request_have_no_serious_violation(live_server: LiveServer, watched: Watched,
                                                                      artifacts: Path) -> None:
    """Issue 46 item 6: a table's page with its chat (messages, the form, Delete buttons) and a take-back request waiting
    for the reader's answer, at both widths."""
    gid = bobs_busy_table(watched, live_server)
    page = watched.page
    _open(page, f"{live_server.url}/games/{gid}/b/main")
    page.wait_for_selector("#chat-messages .chat-message >> nth=2")
    page.wait_for_selector("#takeback-answers:not([hidden])")
    found: list[str] = []
    _check_both_widths(page, "table-chat", artifacts, found)
    assert not found, "\n".join(found)
    watched.assert_clean()
