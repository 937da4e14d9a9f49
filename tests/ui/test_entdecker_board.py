"""The Entdecker board in headless Chromium: a demo game stepped through, real pieces on the map, jump-to
by round and turn, the move picker's groups on a fork, three screenshots.

The demo game is replayed here with the same seed as ``service.games.demo`` so that the test knows what the
board must show at each position.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import get_rules
from engine.entdecker.state import EXPLORE, PLACE, SCORE_CHIP, State
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

DEMO = "demo-entdecker-1"


STATES = demo_states("entdecker")


def units_on_map(state: State) -> int:
    return sum(1 for code in state.units if code != -1)


def test_board_shows_the_map_and_every_public_piece(live_server: LiveServer, watched: Watched, artifacts: Path) -> None:
    seq = first_seq(STATES, lambda s: s.round >= 4 and s.phase == PLACE and units_on_map(s) >= 2)
    state = STATES[seq - 1]
    page = open_game(watched, live_server, seq, gid=DEMO)
    assert page.locator(".ed-map .ed-tile").count() == sum(1 for code in state.board if code != -1)
    assert page.locator(".ed-map .ed-unknown").count() == sum(1 for code in state.board if code == -1)
    assert page.locator(".ed-map .ed-unit-g").count() == units_on_map(state)
    assert page.locator(".ed-map .ed-ship").count() == 1
    assert page.locator(".ed-map .ed-target").count() >= 1  # the cells the drawn tile may go to
    assert page.locator(".ed-map .ed-circle").count() == 34
    assert page.locator(".ed-hand").count() == 1
    stacks = page.locator(".ed-stack .ed-num").all_inner_texts()
    assert stacks == [str(size) for size in state.stacks]
    assert page.locator(".ed-player").count() == 4
    for seat in range(4):
        card = page.locator(".ed-player").nth(seat)
        assert card.locator(".ed-coin").inner_text() == str(state.gold[seat])
        assert f"{state.score[seat]} pts" in card.inner_text()
    assert page.inner_text("#caption").startswith(f"Round {state.round}")
    assert "reconstructed" in page.inner_text("#board-notice")
    assert_next_step_redraws_and_fits(page, seq)
    watched.assert_clean()


def test_views_hide_the_chip_pool(live_server: LiveServer, watched: Watched) -> None:
    seq = first_seq(STATES, lambda s: s.round == 3)
    page = open_game(watched, live_server, seq, gid=DEMO)
    assert page.locator(".ed-box:has(h3:has-text('Bank')) .ed-chip").count() == 4  # chips per value, full view
    page.select_option("#view-select", "1")
    page.wait_for_url(re.compile(r"\?view=1$"))
    page.wait_for_function("() => !document.querySelector('.ed-box .ed-chip[title*=\"chips worth\"]')")
    assert page.locator(".ed-box:has(h3:has-text('Bank')) .ed-num").first.inner_text() == str(sum(STATES[seq - 1].pool))
    watched.assert_clean()


def test_jump_to_round_and_turn(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 5, gid=DEMO)
    page.select_option("#jump-round", label="Round 3")
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 3')")
    page.keyboard.press("r")
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 4')")
    labels = page.locator("#jump-phase option").all_inner_texts()
    expedition = next(label for label in labels if label.startswith("R2 ") and label.endswith(": Expedition"))
    page.select_option("#jump-phase", label=expedition)
    name = expedition.split(" ", 1)[1].split(":")[0]
    page.wait_for_function(
        "name => document.querySelector('#moves li.current .mv-text').textContent.startsWith(name)", arg=name)
    assert any(label.endswith("Income") for label in labels)
    assert page.locator("#moves h4:has-text('Expedition')").count() > 10
    watched.assert_clean()


def test_the_picker_groups_moves_on_a_fork(live_server: LiveServer, watched: Watched) -> None:
    rules = get_rules("entdecker")

    def can_draw_or_build(state: State) -> bool:
        verbs = {a[0] for a in rules.legal_actions(state)} if state.phase == EXPLORE else set()
        return {"draw", "build", "end"} <= verbs

    seq = first_seq(STATES, can_draw_or_build, after=30)
    sign_up(watched, live_server)
    page = open_game(watched, live_server, seq, gid=DEMO)
    fork_here(page, "stop here")
    page.wait_for_selector("#picker button.pick")
    legends = page.locator("#picker legend").all_inner_texts()
    assert legends[0] == "Turn over a tile from a stack" and legends[-1] == "Or stop", legends
    assert "Build on the new land (unit, land part)" in legends
    head = page.evaluate("window.ludolog.head")
    page.locator("#picker fieldset:has(legend:has-text('Or stop')) button.pick").click()
    page.wait_for_function("head => window.ludolog.head > head", arg=head)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#moves .mv-text')].some(m => m.textContent.includes('ends the expedition'))")
    watched.assert_clean()


def test_screenshots_of_three_positions(live_server: LiveServer, watched: Watched, artifacts: Path) -> None:
    """A tile being placed in round 2, an island being scored, the end."""
    placing = first_seq(STATES, lambda s: s.round == 2 and s.phase == PLACE)
    scoring = first_seq(STATES, lambda s: s.phase == SCORE_CHIP)
    page = open_game(watched, live_server, placing, gid=DEMO)
    head = page.evaluate("window.ludolog.head")
    screenshot_positions(page, artifacts, DEMO, (placing, scoring, head))
    assert page.locator(".ed-map .ed-scoring").count() == 0
    assert "game over" in page.inner_text("#caption")
    assert page.locator("#outcome table tbody tr").count() == 4
    watched.assert_clean()


#: The final table's rows: {column label: cell text}, with the row's player and total.
FINAL_ROWS = """() => { const labels = [...document.querySelectorAll('#outcome thead th')].map(th => th.textContent);
  return [...document.querySelectorAll('#outcome tbody tr')].map(tr =>
    Object.fromEntries([...tr.children].map((cell, i) => [labels[i], cell.textContent]))); }"""


def test_the_final_table_shows_the_island_points_that_make_up_each_total(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, gid=DEMO)
    page.wait_for_selector("#outcome table")
    rows = page.evaluate(FINAL_ROWS)
    assert rows and all("island points" in row and "ruins" in row for row in rows), rows
    for row in rows:
        islands = [int(p) for p in row["island points"].split("=")[0].split("+")]
        assert int(row["island points"].split("=")[-1]) == sum(islands)
        made_up = sum(islands) + int(row["ruins"]) + int(row["most-chips bonus"])
        assert made_up == int(row["total"]), f"{row['player']}: {row}"
    assert any(len(row["island points"].split("+")) > 1 for row in rows), "a player scored more than one island"
    watched.assert_clean()
