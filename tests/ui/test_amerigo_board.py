"""The Amerigo board in headless Chromium: a demo game stepped through, real pieces on the board (the island
map laid from the layout, posts, tiles, ships, goods, cubes, tokens, players), jump-to by round and phase, the
move picker's groups on a fork, the tower hidden in a seat's view, three screenshots.

The demo game (played by Amerigo's demo player, which founds posts and builds) is replayed here as
``service.games.demo`` plays it, so that the test knows what the board must show at each position.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine import get_rules
from engine.amerigo.state import CHOOSE, OVER
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import (
    assert_next_step_redraws_and_fits,
    demo_states,
    first_seq,
    fork_here,
    open_game,
    screenshot_positions,
    sign_up,
)

pytestmark = pytest.mark.browser

DEMO = "demo-amerigo-1"
STATES = demo_states("amerigo")


def test_board_shows_the_map_and_every_public_piece(live_server: LiveServer, watched: Watched) -> None:
    seq = first_seq(STATES, lambda s: s.round == 4 and s.phase == CHOOSE)
    state = STATES[seq - 1]
    assert sum(1 for v in state.cover if v < 0) >= 4 and sum(1 for v in state.cover if v > 0) >= 4
    page = open_game(watched, live_server, seq, gid=DEMO)
    board = state.board
    assert page.locator("svg.am-map rect.am-cell").count() == board.height * board.width
    assert page.locator("svg.am-map .am-frame").count() == len(board.frames) == 16
    # Issue 16: the frame spaces carry the notation's names and say which side of the map they lie on.
    assert page.locator("svg.am-map .am-frame-label").all_text_contents()[:3] == ["F1", "F2", "F3"]
    assert page.locator("svg.am-map .am-frame title").first.text_content() == "frame space F1 (top-left corner)"
    assert int(page.get_attribute("svg.am-map", "data-islands")) == len(board.islands)
    assert page.locator("svg.am-map .am-post").count() == sum(1 for v in state.cover if v < 0)
    assert page.locator("svg.am-map rect.am-tile").count() == sum(1 for v in state.cover if v > 0)
    assert page.locator("svg.am-map .am-ship").count() == sum(1 for p in state.players for n in p.ships if n >= 0)
    assert page.locator("svg.am-map .am-chest").count() == sum(state.chests)
    goods_left = sum(1 for i, g in enumerate(board.goods) if g >= 0 and state.cover[i] == 0)
    assert page.locator("svg.am-map circle.am-good").count() == goods_left
    assert page.locator(".am-circuit .am-cube").count() == sum(state.storage) + sum(state.field)
    assert page.locator(".am-production .am-prod:not(.empty)").count() == sum(1 for k in state.production_spaces if k >= 0)
    assert page.locator(".am-progress .am-token").count() == sum(1 for t in state.progress_spaces if t >= 0)
    assert page.locator(".am-order .am-disc").count() == 4
    assert page.locator(".am-player").count() == 4
    for seat, player in enumerate(state.players):
        card = page.locator(".am-player").nth(seat)
        assert card.locator(".am-vp").inner_text() == f"{player.vp} VP"
        assert card.locator(".am-gold").inner_text() == str(player.gold)
        assert card.locator(".am-token").count() == len(player.tokens)
    assert page.inner_text("#caption").startswith("Round 4")
    assert "reconstructed" in page.inner_text("#board-notice")
    assert_next_step_redraws_and_fits(page, seq)
    watched.assert_clean()


def test_the_tower_is_hidden_in_a_seats_view(live_server: LiveServer, watched: Watched) -> None:
    seq = first_seq(STATES, lambda s: s.round == 2 and s.phase == CHOOSE)
    page = open_game(watched, live_server, seq, gid=DEMO)
    assert "(hidden)" not in page.inner_text(".am-circuit")
    page.select_option("#view-select", "2")
    page.wait_for_url(re.compile(r"\?view=2$"))
    page.wait_for_function("() => document.querySelector('.am-circuit').textContent.includes('(hidden)')")
    assert f"inside the cube tower: {sum(STATES[seq - 1].tower)} (hidden)" in page.inner_text(".am-circuit")
    watched.assert_clean()


def test_jump_to_round_and_phase(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 5, gid=DEMO)
    page.select_option("#jump-round", label="Round 3")
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 3')")
    page.keyboard.press("r")
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 4')")
    labels = page.locator("#jump-phase option").all_inner_texts()
    assert "R1 Setup" in labels and "R2 Preparation" in labels
    phase = next(label for label in labels if label.startswith("R2 ") and "phase (" in label)
    page.select_option("#jump-phase", label=phase)
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 2')")
    assert phase.split(" ", 1)[1] in page.inner_text("#caption")
    assert page.locator("#moves h4:has-text('phase (')").count() > 20
    watched.assert_clean()


def test_the_picker_groups_moves_on_a_fork(live_server: LiveServer, watched: Watched) -> None:
    rules = get_rules("amerigo")
    seq = first_seq(STATES, lambda s: s.phase == CHOOSE and len({a[0] for a in rules.legal_actions(s)}) >= 2, after=60)
    sign_up(watched, live_server)
    page = open_game(watched, live_server, seq, gid=DEMO)
    fork_here(page, "other action")
    page.wait_for_selector("#picker button.pick")
    legends = page.locator("#picker legend").all_inner_texts()
    assert legends[0] in ("Choose an action", "White special action (as another colour)") and "Instead of an action" in legends
    head = page.evaluate("window.ludolog.head")
    page.locator("#picker fieldset:has(legend:has-text('Instead of an action')) button.pick").first.click()
    page.wait_for_function("head => window.ludolog.head > head && window.ludolog.seq === window.ludolog.head", arg=head)
    # (waited for: the move list is drawn again once more when the branch's stream brings the same move)
    expect(page.locator("#moves li.current .mv-text")).to_have_text(re.compile(r"takes \d+ gold instead of an action"))
    watched.assert_clean()


def test_screenshots_of_three_positions(live_server: LiveServer, watched: Watched, artifacts: Path) -> None:
    """The demo game's first choice, building in round 4, and its end."""
    early = first_seq(STATES, lambda s: s.round == 1 and s.phase == CHOOSE)
    late = first_seq(STATES, lambda s: s.round == 4 and s.action == 4)
    page = open_game(watched, live_server, early, gid=DEMO)
    head = page.evaluate("window.ludolog.head")
    assert STATES[head - 1].phase == OVER
    screenshot_positions(page, artifacts, DEMO, (early, late, head))
    assert "game over" in page.inner_text("#caption")
    assert page.locator("#outcome table tbody tr").count() == 4
    watched.assert_clean()
