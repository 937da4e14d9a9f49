"""Issue 15 item 6 in the browser: a fork that chose otherwise, compared with the main line at the same move
(both boards, differences highlighted, both score charts, one stepper), at a laptop's and a phone's width; the
branch tree's links keep the shown move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import DEMO_PR, LiveServer, Watched
from tests.ui.helpers import fork_here, open_game, sign_up, wait_board

pytestmark = pytest.mark.browser


def _fork_that_chose_otherwise(watched: Watched, server: LiveServer, at: int) -> tuple[Any, str, int]:
    """Fork main at ``at`` and play an action main did not play there; returns the page, the fork and its head."""
    sign_up(watched, server)
    page = open_game(watched, server, at)
    played = page.evaluate("s => fetch(`/games/demo-puerto-rico-1/b/main/timeline.json`).then(r => r.json())"
                           ".then(t => t.moves.find(m => m.seq === s + 1).action)", at)
    fork_here(page, "otherwise")
    bid = page.url.split("/b/")[1].split("/")[0]
    head = page.evaluate("window.ludolog.head")
    page.wait_for_selector("#picker button.pick")
    actions = page.eval_on_selector_all("#picker button.pick", "bs => bs.map(b => b.dataset.action)")
    other = next(a for a in actions if a != played)
    page.click(f"#picker button.pick[data-action='{other}']")
    page.wait_for_function("head => window.ludolog.head > head", arg=head)
    new_head = page.evaluate("window.ludolog.head")
    # The page goes to the new head only after reloading its timeline and branch tree: wait for that
    # last step, or a later goTo of the test's own could be overtaken by it.
    wait_board(page, new_head)
    return page, bid, new_head


def test_compare_two_lines_side_by_side_then_stacked_on_a_phone(live_server: LiveServer, watched: Watched,
                                                                 artifacts: Path) -> None:
    page, bid, head = _fork_that_chose_otherwise(watched, live_server, 300)
    # The branch tree links keep the shown move: main at 299 from the fork's page at 299.
    page.evaluate("window.ludolog.goTo(299)")
    wait_board(page, 299)
    # The tree may be redrawn by its own fetch after the fork's move: wait for the link rather than race that.
    page.wait_for_function("() => document.querySelector(\"#branch-tree li[data-branch='main'] > a.branch-link\")"
                           ".getAttribute('href').endsWith('/b/main/299')")
    page.click("#branch-tree li[data-branch='main'] > a.compare-link")
    page.wait_for_selector("body[data-ready='true']")
    assert "/compare?" in page.url and "at=299" in page.url
    assert page.get_attribute("#compare-summary", "data-differences") == "0"
    page.goto(f"{live_server.url}/games/{DEMO_PR}/compare?a=main&b={bid}&at={head}")
    page.wait_for_selector("#board-a [data-differs='true']")
    assert int(page.get_attribute("#compare-summary", "data-differences") or 0) > 0
    assert page.locator("#board-b [data-differs='true']").count() > 0
    assert page.locator("#chart polyline.side-a").count() == 5 and page.locator("#chart polyline.side-b").count() == 5
    a_box = page.eval_on_selector("#side-a", "e => e.getBoundingClientRect().toJSON()")
    b_box = page.eval_on_selector("#side-b", "e => e.getBoundingClientRect().toJSON()")
    assert b_box["left"] >= a_box["right"] - 1, "side by side on a laptop"
    page.screenshot(path=str(artifacts / "compare-1366.png"), full_page=True)
    # One stepper for both boards; a step replaces the history entry.
    length = page.evaluate("history.length")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("s => document.getElementById('board-a').dataset.seq === String(s - 1)", arg=head)
    assert page.get_attribute("#board-b", "data-seq") == str(head - 1) and page.evaluate("history.length") == length
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    a_box = page.eval_on_selector("#side-a", "e => e.getBoundingClientRect().toJSON()")
    b_box = page.eval_on_selector("#side-b", "e => e.getBoundingClientRect().toJSON()")
    assert b_box["top"] >= a_box["bottom"] - 1, "stacked on a phone"
    page.screenshot(path=str(artifacts / "compare-390.png"), full_page=True)
    watched.assert_clean()


def test_fork_form_keeps_the_draws_and_the_tree_says_so(live_server: LiveServer, watched: Watched) -> None:
    sign_up(watched, live_server)
    gid = "demo-amerigo-1"
    page = open_game(watched, live_server, 2, gid=gid)
    timeline = page.evaluate(f"fetch('/games/{gid}/b/main/timeline.json').then(r => r.json())")
    positions, moves = timeline["positions"], {m["seq"]: m for m in timeline["moves"]}
    # A position where a player decides and chance follows the decision.
    at = next(seq for seq in range(40, len(positions)) if isinstance(positions[seq - 1]["actor"], int)
              and positions[seq]["actor"] == "chance")
    page = open_game(watched, live_server, at, gid=gid)
    page.select_option("#fork-chance", "keep")
    fork_here(page, "same luck")
    assert "same luck (draws kept)" in page.inner_text("#branch-tree li.here")
    head = page.evaluate("window.ludolog.head")
    page.wait_for_selector("#picker button.pick")
    page.click(f"#picker button.pick[data-action='{moves[at + 1]['action']}']")
    page.wait_for_function("head => window.ludolog.head > head + 1", arg=head)
    bid = page.url.split("/b/")[1].split("/")[0]
    mine = page.evaluate(f"fetch('/api/games/{gid}/branches/{bid}/events?after={at}').then(r => r.json())")["events"]
    assert [e["action"] for e in mine] == [moves[e["seq"]]["action"] for e in mine], "the same draws as the main line"
    watched.assert_clean()


def test_take_back_on_a_fork_then_delete_the_leaf(live_server: LiveServer, watched: Watched) -> None:
    page, bid, head = _fork_that_chose_otherwise(watched, live_server, 300)
    page.click("#takeback-button")
    page.wait_for_url(lambda url: f"/b/{bid}/" not in url)
    page.wait_for_selector("body[data-ready='true']")
    new = page.url.split("/b/")[1].split("/")[0]
    assert page.evaluate("window.ludolog.head") == 300, "back before the decision played on the fork"
    # Nothing deleted: the old line is still there, and the new one hangs under it like a variation.
    assert page.locator(f"#branch-tree li[data-branch='{bid}'] li[data-branch='{new}']").count() == 1
    assert f"{head} moves" in page.inner_text(f"#branch-tree li[data-branch='{bid}'] > .muted")
    page.click("#delete-branch-button")
    assert "Click again" in page.inner_text("#delete-branch-button")
    page.click("#delete-branch-button")
    page.wait_for_url(lambda url: f"/b/{bid}/300" in url)
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator(f"#branch-tree li[data-branch='{new}']").count() == 0
    assert page.is_visible("#delete-branch-button"), "the fork is a leaf again: deletable"
    watched.assert_clean()


def test_compare_names_the_branches_and_lists_the_fields_that_differ(live_server: LiveServer, watched: Watched,
                                                                     artifacts: Path) -> None:
    page, bid, head = _fork_that_chose_otherwise(watched, live_server, 300)
    page.goto(f"{live_server.url}/games/{DEMO_PR}/compare?a=main&b={bid}&at={head}")
    page.wait_for_selector("#board-a [data-differs='true']")
    assert page.inner_text("#link-a") == "main" and page.inner_text("#link-b") == "otherwise", "labelled by name, not id"
    assert bid not in page.inner_text("#side-b-h")
    count = int(page.get_attribute("#compare-summary", "data-differences") or 0)
    page.click("#compare-fields summary")
    fields = page.eval_on_selector_all("#compare-field-list li", "lis => lis.map(li => [li.textContent, li.title])")
    assert count > 0 and len(fields) == count, (count, fields)
    paths = [path for _, path in fields]
    assert all(words and path for words, path in fields) and len(set(paths)) == count
    names = page.evaluate("JSON.parse(document.getElementById('page-data').textContent).players")
    seated = [words for words, path in fields if path.startswith("players.")]
    assert seated and all(words.split(" › ")[0] in names for words in seated), "a seat is named by its player"
    page.screenshot(path=str(artifacts / "compare-fields-1366.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "compare-fields-390.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("s => document.getElementById('board-a').dataset.seq === String(s - 1)", arg=head)
    assert page.locator("#compare-field-list li").count() == int(page.get_attribute("#compare-summary", "data-differences") or 0)
    watched.assert_clean()
