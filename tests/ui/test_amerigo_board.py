"""The Amerigo board in headless Chromium: a demo game stepped through, real pieces on the board (the island
map laid from the layout, posts, tiles, ships, goods, cubes, tokens, players), jump-to by round and phase, the
move picker's groups on a fork, the tower hidden in a seat's view, three screenshots.

The demo game is replayed here with the same seed as ``service.demo`` so that the test knows what the
board must show at each position.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine import CHANCE, Event, Setup, action_event, draw_chance, game_created, get_rules
from engine.amerigo.players import builder_player
from engine.amerigo.state import CHOOSE, OVER, State
from service.config import Config
from service.demo import DEMO_NAMES
from service.redis_server import EmbeddedRedis
from service.store.context import Stores
from service.store.games import MAIN
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import demo_states, first_seq, open_game, sign_up, wait_board

pytestmark = pytest.mark.timeout(120)

DEMO = "demo-amerigo-1"
BUILT = "test-amerigo-built"


def built_events(seed: int = 7) -> list[Event]:
    """A 4-player game with posts and tiles on the map."""
    rules = get_rules("amerigo")
    rng = random.Random(seed)
    setup = Setup(DEMO_NAMES[:4])
    state = rules.initial_state(setup)
    events = [game_created(rules.name, rules.version, setup)]
    while (actor := rules.current_actor(state)) is not None:
        if actor == CHANCE:
            action = draw_chance(rules.chance_outcomes(state), rng.random())
        else:
            action = builder_player(state, list(rules.legal_actions(state)), rng)
        state = rules.apply(state, action)
        events.append(action_event(len(events) + 1, actor, rules.format_action(action)))
    return events


@pytest.fixture
def built_game(live_server: LiveServer, redis_server: EmbeddedRedis) -> list[State]:
    """The built game stored under BUILT; returns its states by seq (index 0 is seq 1)."""
    rules = get_rules("amerigo")
    events = built_events()
    games = Stores(Config(redis_url=redis_server.url)).games
    setup = Setup(DEMO_NAMES[:4])
    games.create_game("amerigo", rules.version, setup, owner=None, gid=BUILT, source="demo", seed="7", title="Amerigo, built up")
    games.append(BUILT, MAIN, events[1:], 1)
    states = [rules.initial_state(setup)]
    for event in events[1:]:
        states.append(rules.apply(states[-1], rules.parse_action(event.action)))
    return states


STATES = demo_states("amerigo")


def test_board_shows_the_map_and_every_public_piece(live_server: LiveServer, watched: Watched, built_game: list[State]) -> None:
    seq = next(i for i, s in enumerate(built_game, start=1) if s.round == 4 and s.step == CHOOSE)
    state = built_game[seq - 1]
    assert sum(1 for v in state.cover if v < 0) >= 4 and sum(1 for v in state.cover if v > 0) >= 4
    page = open_game(watched, live_server, seq, gid=BUILT)
    board = state.board
    assert page.locator("svg.am-map rect.am-cell").count() == board.height * board.width
    assert page.locator("svg.am-map .am-frame").count() == len(board.frames) == 16
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
    before = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    wait_board(page, seq + 1)
    assert page.inner_html("#board") != before
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366, "the page scrolls sideways"
    watched.assert_clean()


def test_the_tower_is_hidden_in_a_seats_view(live_server: LiveServer, watched: Watched) -> None:
    seq = first_seq(STATES, lambda s: s.round == 2 and s.step == CHOOSE)
    page = open_game(watched, live_server, seq, gid=DEMO)
    assert "(hidden)" not in page.inner_text(".am-circuit")
    page.select_option("#view-select", "2")
    page.wait_for_url(re.compile(r"\?view=2$"))
    page.wait_for_function("() => document.querySelector('.am-circuit').textContent.includes('(hidden)')")
    assert f"inside the tower: {sum(STATES[seq - 1].tower)} (hidden)" in page.inner_text(".am-circuit")
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
    seq = first_seq(STATES, lambda s: s.step == CHOOSE and len({a[0] for a in rules.legal_actions(s)}) >= 2, after=60)
    sign_up(watched, live_server)
    page = open_game(watched, live_server, seq, gid=DEMO)
    page.fill("#fork-name", "other action")
    page.click("#fork-button")
    page.wait_for_url(re.compile(r"/b/(?!main)[^/]+/\d+$"))
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector("#picker button.pick")
    legends = page.locator("#picker legend").all_inner_texts()
    assert legends[0] in ("Choose an action", "White special action (as another colour)") and "Instead of an action" in legends
    head = page.evaluate("window.ludolog.head")
    page.locator("#picker fieldset:has(legend:has-text('Instead of an action')) button.pick").first.click()
    page.wait_for_function("head => window.ludolog.head > head && window.ludolog.seq === window.ludolog.head", arg=head)
    assert re.search(r"takes \d+ gold instead of an action", page.locator("#moves li.current .mv-text").inner_text())
    watched.assert_clean()


def test_screenshots_of_three_positions(live_server: LiveServer, watched: Watched, artifacts: Path,
                                       built_game: list[State]) -> None:
    """The demo game's first choice; the built-up game building in round 4 and at its end."""
    early = first_seq(STATES, lambda s: s.round == 1 and s.step == CHOOSE)
    page = open_game(watched, live_server, early, gid=DEMO)
    page.screenshot(path=str(artifacts / f"game-{DEMO}-{early}.png"))
    page.screenshot(path=str(artifacts / f"game-{DEMO}-{early}-full.png"), full_page=True)
    late = next(i for i, s in enumerate(built_game, start=1) if s.round == 4 and s.action == 4)
    page = open_game(watched, live_server, late, gid=BUILT)
    head = page.evaluate("window.ludolog.head")
    assert built_game[head - 1].step == OVER
    for seq in (late, head):
        page.evaluate("seq => window.ludolog.goTo(seq)", seq)
        wait_board(page, seq)
        page.screenshot(path=str(artifacts / f"game-{BUILT}-{seq}.png"))
        page.screenshot(path=str(artifacts / f"game-{BUILT}-{seq}-full.png"), full_page=True)
    assert "game over" in page.inner_text("#caption")
    assert page.locator("#outcome table tbody tr").count() == 4
    watched.assert_clean()
