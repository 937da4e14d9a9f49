"""Issue 22 in the browser: the replay page from the keyboard and for screen readers (move list Up/Down with the
focus following, one-key shortcuts that can be turned off, jump selects that go on Enter rather than on every
arrow key, the slider's words, the board in words kept in step), and the page's own race after a played move:
a step the user takes while the page reloads its timeline is not undone by the page's late jump to the new head."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import HeldRequests, board_seq, fork_demo_and_wait_for_picker, open_game, wait_board

pytestmark = pytest.mark.browser


def _focused_seq(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.seq : null")


def test_up_and_down_in_the_move_list_move_the_selection_and_the_focus(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 100)
    page.focus("#moves li.current > button.mv")
    assert _focused_seq(page) == "100"
    page.keyboard.press("ArrowDown")
    wait_board(page, 101)
    assert _focused_seq(page) == "101"
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    wait_board(page, 99)
    assert _focused_seq(page) == "99"
    assert page.get_attribute("#moves li.current > button.mv", "aria-current") == "step"
    watched.assert_clean()


def test_one_key_shortcuts_can_be_turned_off_and_stay_off(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 50)
    page.keyboard.press("ArrowRight")
    wait_board(page, 51)
    page.uncheck("#shortcuts-on")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    page.click("#nav-next")  # a step by the button: 52 only if the keys did nothing
    wait_board(page, 52)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert not page.is_checked("#shortcuts-on")
    page.keyboard.press("ArrowRight")
    page.click("#nav-prev")
    wait_board(page, 51)
    watched.assert_clean()


def test_jump_selects_go_on_enter_not_on_each_arrow_key(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 1)
    entries = page.evaluate("history.length")
    page.focus("#jump-round")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    target = int(page.input_value("#jump-round"))
    assert board_seq(page) == 1 and page.evaluate("history.length") == entries
    page.keyboard.press("Enter")
    wait_board(page, target)
    assert page.evaluate("history.length") == entries + 1
    # A pick with the mouse still goes at once.
    phase = page.eval_on_selector("#jump-phase", "s => s.options[3].value")
    page.select_option("#jump-phase", phase)
    wait_board(page, int(phase))
    watched.assert_clean()


def test_the_slider_says_the_move_and_the_board_has_words_kept_in_step(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 286)
    text = page.evaluate("fetch(location.pathname.replace(/\\/\\d+$/, '') + '/timeline.json').then(r => r.json())"
                         ".then(t => t.moves.find(m => m.seq === 286).text)")
    head = page.evaluate("window.ludolog.head")
    assert page.get_attribute("#scrubber", "aria-valuetext") == f"move 286 of {head}: {text}"
    # Each step is said: the move played and where it leaves the game (a polite live region).
    page.keyboard.press("ArrowLeft")
    wait_board(page, 285)
    said = page.inner_text("#move-said")
    assert said.startswith(f"move 285 of {head}: ") and page.inner_text("#caption") in said
    assert page.get_attribute("#move-said", "aria-live") == "polite"
    page.keyboard.press("ArrowRight")
    wait_board(page, 286)
    page.click("#board-text summary")
    page.wait_for_function("() => document.getElementById('board-text-body').dataset.seq === '286'")
    areas = page.locator("#board-text-body h3").all_inner_texts()
    players = page.evaluate("JSON.parse(document.getElementById('page-data').textContent).players")
    for name in players:
        assert f"{name}'s board" in areas, areas
    assert "Cargo ships" in areas and "Trading house" in areas
    words = page.inner_text("#board-text-body")
    assert "cargo ship:" in words and "doubloons" in words
    page.keyboard.press("ArrowRight")
    wait_board(page, 287)
    page.wait_for_function("() => document.getElementById('board-text-body').dataset.seq === '287'")
    watched.assert_clean()


def test_a_step_taken_while_a_played_move_reloads_the_page_is_not_undone(live_server: LiveServer, watched: Watched) -> None:
    page, head = fork_demo_and_wait_for_picker(watched, live_server, "race")
    held = HeldRequests(page, "**/timeline.json*")
    page.click("#picker button.pick >> nth=0")
    held.wait()  # the move is stored and the page has started reloading its timeline: hold that reload
    page.click("#nav-prev")  # meanwhile the user steps back
    wait_board(page, head - 1)
    held.release()
    page.wait_for_selector("body[data-played]")
    assert int(page.get_attribute("body", "data-played") or 0) > head
    assert board_seq(page) == head - 1, "the page's late jump to the new head undid the user's step"
    watched.assert_clean()


def test_a_step_taken_after_playing_is_not_undone_when_the_stream_brings_the_move_before_its_answer(
        live_server: LiveServer, watched: Watched) -> None:
    """The other order of the race above (seen on a loaded machine): the move is stored and the branch's stream brings
    it before the POST's answer reaches the page; the user steps back while the stream's reload of the timeline is on
    its way, and the answer is taken in after it. The step still wins: the page counts the user's steps from when the
    move was played, not from when its answer is taken in."""
    page, head = fork_demo_and_wait_for_picker(watched, live_server, "race-stream")
    posts: list[Any] = []
    page.route("**/actions", lambda route: posts.append(route))  # the POST held before it reaches the server
    held = HeldRequests(page, "**/timeline.json*")
    page.click("#picker button.pick >> nth=0")
    while not posts:
        page.wait_for_timeout(50)
    answer = posts[0].fetch()  # now the server stores the move and its stream tells the page
    held.wait()  # the stream's batch is being taken in: its timeline reload is held
    page.click("#nav-prev")
    wait_board(page, head - 1)
    posts[0].fulfill(response=answer)  # the POST's answer reaches the page only now, queued behind the stream's batch
    page.unroute("**/actions")
    held.release()
    page.wait_for_selector("body[data-played]")
    assert int(page.get_attribute("body", "data-played") or 0) > head
    assert board_seq(page) == head - 1, "the answer to the move, taken in after the user's step, undid it"
    assert page.is_visible("#live-new"), "the reader who stepped back is offered the new moves instead"
    watched.assert_clean()
