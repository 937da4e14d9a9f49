"""The Die goldene Stadt board in headless Chromium: a demo game stepped through, real pieces on the board,
jump-to by round and phase, the move picker's groups on a fork, three screenshots.

The demo game is replayed here with the same seed as ``service.games.demo`` so that the test knows what the
board must show at each position.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engine import Setup, get_rules, random_playout
from engine.golden_city.state import BID, BUILD, State
from service.store.games import MAIN, GameStore
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

DEMO = "demo-golden-city-1"


STATES = demo_states("golden_city")


def houses_on_board(state: State) -> int:
    return sum(p.houses.bit_count() for p in state.players)


def test_board_shows_the_island_and_every_public_piece(live_server: LiveServer, watched: Watched, artifacts: Path) -> None:
    seq = first_seq(STATES, lambda s: s.round == 8 and s.phase == BUILD)
    state = STATES[seq - 1]
    page = open_game(watched, live_server, seq, gid=DEMO)
    assert page.locator(".gc-map .gc-site").count() == 58
    assert page.locator(".gc-map .gc-house").count() == houses_on_board(state)
    assert page.locator(".gc-player").count() == 4
    for seat, player in enumerate(state.players):
        card = page.locator(".gc-player").nth(seat)
        assert card.locator(".gc-coin").inner_text() == str(player.coins)
        assert f"{player.letters} letters" in card.inner_text()
        assert f"{player.houses_left}/16 houses" in card.inner_text()
    for card in state.goods_display:
        assert page.locator(f".gc-display .gc-goods-card:has-text('{card}')").count() == 1
    assert f"{state.scoring_card} · back" in page.inner_text(".gc-scoring-card")
    assert page.inner_text("#caption").startswith("Round 8")
    assert "reconstructed" in page.inner_text("#board-notice")
    assert_next_step_redraws_and_fits(page, seq)
    watched.assert_clean()


def test_views_hide_hands_bonus_cards_and_letters(live_server: LiveServer, watched: Watched) -> None:
    seq = first_seq(STATES, lambda s: s.round == 6 and s.phase == BID)
    page = open_game(watched, live_server, seq, gid=DEMO)
    page.select_option("#view-select", "1")
    page.wait_for_url(re.compile(r"\?view=1$"))
    page.wait_for_function("() => document.querySelectorAll('.gc-player .gc-hidden').length >= 6")
    texts = page.locator(".gc-player .gc-letters").all_inner_texts()
    assert texts[1] != "? letters" and all(t == "? letters" for i, t in enumerate(texts) if i != 1), texts
    assert page.locator(".gc-player").nth(1).locator(".gc-hidden").count() == 0
    watched.assert_clean()


def test_jump_to_round_and_phase(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 5, gid=DEMO)
    page.select_option("#jump-round", label="Round 4")
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 4')")
    page.keyboard.press("r")
    page.wait_for_function("() => document.getElementById('caption').textContent.startsWith('Round 5')")
    labels = page.locator("#jump-phase option").all_inner_texts()
    building = next(label for label in labels if label.startswith("R3 ") and label.endswith(": Building"))
    page.select_option("#jump-phase", label=building)
    name = building.split(" ", 1)[1].split(":")[0]
    page.wait_for_function(
        "name => document.querySelector('#moves li.current .mv-text').textContent.startsWith(name)", arg=name)
    assert any(label.endswith(": Bidding") for label in labels) and any("Scoring card and layout" in label for label in labels)
    assert page.locator("#moves h4:has-text('Building')").count() > 10
    watched.assert_clean()


def test_the_picker_groups_moves_on_a_fork(live_server: LiveServer, watched: Watched) -> None:
    rules = get_rules("golden_city")
    seq = first_seq(STATES, lambda s: s.phase == BUILD and any(a[0] == "build" for a in rules.legal_actions(s)), after=40)
    sign_up(watched, live_server)
    page = open_game(watched, live_server, seq, gid=DEMO)
    fork_here(page, "other house")
    page.wait_for_selector("#picker button.pick")
    legends = page.locator("#picker legend").all_inner_texts()
    assert legends == ["Build a house (site, cards paid)", "Or"], legends
    head = page.evaluate("window.ludolog.head")
    page.locator("#picker fieldset:has(legend:has-text('Or')) button.pick").click()
    page.wait_for_function("head => window.ludolog.head > head && window.ludolog.seq === window.ludolog.head", arg=head)
    # (waited for: the move list is drawn again once more when the branch's stream brings the same move)
    expect(page.locator("#moves li.current .mv-text")).to_contain_text("passes without building")
    watched.assert_clean()


def test_screenshots_of_three_positions(live_server: LiveServer, watched: Watched, artifacts: Path) -> None:
    """Bidding in round 2, building in round 9, the end."""
    bidding = first_seq(STATES, lambda s: s.round == 2 and s.phase == BID and s.displacements > 0)
    building = first_seq(STATES, lambda s: s.round == 9 and s.phase == BUILD and s.built == 1)
    page = open_game(watched, live_server, bidding, gid=DEMO)
    head = page.evaluate("window.ludolog.head")
    screenshot_positions(page, artifacts, DEMO, (bidding, building, head))
    assert "game over" in page.inner_text("#caption")
    assert page.locator("#outcome table tbody tr").count() == 4
    watched.assert_clean()


def test_the_result_table_and_the_chart_give_the_engines_places(live_server: LiveServer, watched: Watched,
                                                                 redis_client: Any) -> None:
    """Issue 16: "Ez a játékos lesz a játék vesztese." (This player is the loser.) In this seeded game the blocked
    seat C has the most letters; the result table lists the players in the engine's places (C last) and the chart's
    legend ends on the same places."""
    rules = get_rules("golden_city")
    playout = random_playout(rules, Setup(("A", "B", "C")), random.Random(2))
    assert rules.outcome(playout.state).ranks == (2, 1, 3)
    games = GameStore(redis_client)
    gid = games.create_game("golden_city", rules.version, Setup(("A", "B", "C")), owner=None, gid="blocked-last").id
    games.append(gid, MAIN, playout.events[1:], 1)
    page = open_game(watched, live_server, gid=gid)
    page.wait_for_selector("#outcome table")
    rows = page.locator("#outcome table tbody tr")
    assert [rows.nth(i).locator("th").inner_text() for i in range(3)] == ["B", "A", "C"]
    assert [rows.nth(i).locator("td.place").inner_text() for i in range(3)] == ["1", "2", "3"]
    assert page.locator("#chart .legend li.p2 .place").inner_text() == " · place 3"
    watched.assert_clean()


def test_a_reshuffle_during_the_layout_is_captioned_as_the_layout() -> None:
    """The reshuffle the moment the draw pile runs out (issue 16) interrupts a phase; the caption keeps that phase."""
    from engine.golden_city.state import RESHUFFLE
    from replay_ui.games import adapter_for
    from replay_ui.timeline import caption_words
    from tests.engine.golden_city.helpers import after_setup, cards, play

    state = after_setup().evolve(pile=cards("MT"), discard=cards("DE DE"))
    state = play(state, "reveal scoring S1", "deal MT")
    assert state.phase == RESHUFFLE
    caption = caption_words(adapter_for("golden_city").position(state, state.names)["caption"])
    assert "laying out the landscape pairs" in caption
