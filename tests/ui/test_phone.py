"""Issue 15 item 1 in the browser: every page at a phone's 390 x 844 (home, the four boards, a log-only game,
sign-in, sign-up, tokens) fits the width, puts the board first at full width with the panels under it, keeps
the step buttons on screen, and has no text under 12 px. Screenshots go to test-artifacts/; the time a step
takes at this size is printed (measured, never asserted)."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pytest

from service.imports.importer import import_bytes
from tests.engine.bga.samples import SAMPLES_DIR
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import fork_here, open_game, sign_up, wait_board
from tests.ui.test_table_chat import bobs_busy_table

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
BOARDS = ("demo-puerto-rico-1", "demo-amerigo-1", "demo-entdecker-1", "demo-golden-city-1")
TOKAIDO = SAMPLES_DIR / "tokaido_100004927.json"

#: HTML text (SVG labels scale with their board and are checked by the label test) smaller than 12 px.
SMALL_TEXT = """() => [...document.querySelectorAll('body *')].filter(e => !e.closest('svg'))
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .filter(e => parseFloat(getComputedStyle(e).fontSize) < 11.95)
  .map(e => `${e.tagName.toLowerCase()}.${e.className} ${getComputedStyle(e).fontSize}: ${e.textContent.trim().slice(0, 30)}`)"""


@pytest.fixture
def phone(watched: Watched) -> Watched:
    """The watched page at a phone's size."""
    watched.page.set_viewport_size(PHONE)
    return watched


def assert_fits_a_phone(page: Any, artifacts: Path, name: str) -> None:
    """No sideways scroll, no small text; the window and the full page saved as ``phone-<name>[-full].png``."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: the page is {width} px wide at 390"
    small = page.evaluate(SMALL_TEXT)
    assert not small, f"{name}: text under 12 px: {small[:8]}"
    page.screenshot(path=str(artifacts / f"phone-{name}.png"))
    page.screenshot(path=str(artifacts / f"phone-{name}-full.png"), full_page=True)


def test_every_board_fits_a_phone_board_first_and_steps(live_server: LiveServer, phone: Watched, artifacts: Path) -> None:
    for gid in BOARDS:
        page = open_game(phone, live_server, 40, gid=gid)
        assert_fits_a_phone(page, artifacts, gid)
        board = page.eval_on_selector("#board", "e => e.getBoundingClientRect().toJSON()")
        side = page.eval_on_selector(".side-col", "e => e.getBoundingClientRect().toJSON()")
        assert board["width"] >= PHONE["width"] - 30, f"{gid}: the board is {board['width']} px wide, not the screen's"
        assert side["top"] >= board["bottom"], f"{gid}: the panels are not under the board"
        # The step buttons stay under the thumb: scrolled half-way down the board they are still on screen.
        page.evaluate("window.scrollTo(0, document.getElementById('board').offsetTop + 300)")
        button = page.eval_on_selector("#nav-next", "e => e.getBoundingClientRect().toJSON()")
        assert 0 <= button["top"] and button["bottom"] <= PHONE["height"] and button["height"] >= 30, button
        page.click("#nav-next")
        wait_board(page, 41)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        page.evaluate("window.ludolog.goTo(window.ludolog.head)")
        wait_board(page, page.evaluate("window.ludolog.head"))
        assert_fits_a_phone(page, artifacts, f"{gid}-end")
    phone.assert_clean()


def test_step_time_at_390_px_is_reported(live_server: LiveServer, phone: Watched) -> None:
    page = open_game(phone, live_server, 30, gid="demo-amerigo-1")
    times = []
    for seq in range(31, 51):
        page.keyboard.press("ArrowRight")
        wait_board(page, seq)
        times.append(page.evaluate("window.ludolog.timings.draw"))
    print(f"\nstep time at 390 px (Amerigo, draw of one position): median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms over {len(times)} steps")
    phone.assert_clean()


def test_home_accounts_tokens_and_a_log_only_game_fit_a_phone(live_server: LiveServer, phone: Watched,
                                                               redis_client: Any, artifacts: Path) -> None:
    page = phone.page
    for path, name in (("/signin", "signin"), ("/signup", "signup")):
        page.goto(live_server.url + path)
        assert_fits_a_phone(page, artifacts, name)
    sign_up(phone, live_server, "phoebe")
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert_fits_a_phone(page, artifacts, "home")
    page.goto(live_server.url + "/tokens")
    assert_fits_a_phone(page, artifacts, "tokens")
    if not TOKAIDO.exists():
        pytest.skip(f"BGA sample missing: {TOKAIDO}")
    outcome = import_bytes(redis_client, TOKAIDO.read_bytes(), gid="tok-1", owner=None, filename=TOKAIDO.name)
    assert outcome.status == "done", outcome.error
    page = open_game(phone, live_server, 5, gid="tok-1")
    assert_fits_a_phone(page, artifacts, "log-only")
    phone.assert_clean()


# ---- issue 29: playing on a phone, the step bar, the games table, the log-only page ----

#: The box of the fixed or sticky element that holds the step buttons (the step bar), as it is on screen.
STEP_BAR = """() => { let e = document.getElementById('nav-next');
  while (e && !['fixed', 'sticky'].includes(getComputedStyle(e).position)) e = e.parentElement;
  return e ? e.getBoundingClientRect().toJSON() : null; }"""


def _box(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(selector, "e => e.getBoundingClientRect().toJSON()")


def _on_screen(box: dict[str, float]) -> bool:
    return box["height"] > 0 and box["top"] >= 0 and box["bottom"] <= PHONE["height"]


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """How many pixels of height two boxes share."""
    return max(0.0, min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]))


def test_playing_a_fork_on_a_phone_shows_board_and_picker_together(live_server: LiveServer, phone: Watched,
                                                                   artifacts: Path) -> None:
    sign_up(phone, live_server)
    page = open_game(phone, live_server, 300)
    fork_here(page, "on the bus")
    page.wait_for_selector("#picker button.pick")
    page.screenshot(path=str(artifacts / "phone-fork-playing.png"))
    _assert_board_and_picker_on_screen(page, "at the fork's start")
    # The player to act (their city, plantations and goods): scrolled to, it shows above the picker.
    page.eval_on_selector(".to-act", "e => e.scrollIntoView({block: 'start'})")
    picker, acting = _box(page, "#play-section"), _box(page, ".to-act")
    assert _on_screen(picker), picker
    assert acting["top"] >= -1 and acting["top"] + 120 <= picker["top"], (acting, picker)  # (-1: sub-pixel scrolling)
    page.screenshot(path=str(artifacts / "phone-fork-playing-player.png"))
    head = page.evaluate("window.ludolog.head")
    page.click("#picker button.pick >> nth=0")
    page.wait_for_function("head => Number(document.body.dataset.played) > head", arg=head)
    page.wait_for_selector("#picker button.pick")
    _assert_board_and_picker_on_screen(page, "after a move")
    page.screenshot(path=str(artifacts / "phone-fork-playing-after.png"))
    assert_fits_a_phone(page, artifacts, "fork-playing-end")
    phone.assert_clean()


def _assert_board_and_picker_on_screen(page: Any, when: str) -> None:
    """The move picker is wholly on screen, and at least a third of the screen above it shows the board."""
    picker, board = _box(page, "#play-section"), _box(page, "#board")
    assert _on_screen(picker) and picker["height"] >= 150, f"{when}: the picker is not on screen: {picker}"
    shown = _overlap(board, {"top": 0, "bottom": picker["top"]})
    assert shown >= PHONE["height"] / 3, f"{when}: only {shown} px of the board show beside the picker"


def test_the_step_bar_is_small_and_covers_no_heading(live_server: LiveServer, phone: Watched) -> None:
    for gid in BOARDS:
        page = open_game(phone, live_server, 40, gid=gid)
        page.evaluate("window.scrollTo(0, document.getElementById('board').offsetTop + 600)")
        bar = page.evaluate(STEP_BAR)
        assert bar is not None and _on_screen(bar), f"{gid}: the step buttons do not stay on screen: {bar}"
        assert bar["height"] <= 0.15 * PHONE["height"], f"{gid}: the step bar is {bar['height']} px high"
        headings = page.eval_on_selector_all("main h2", "hs => hs.filter(h => h.getClientRects().length).map(h => h.id)")
        assert len(headings) >= 3, headings
        for heading in headings:
            page.eval_on_selector(f"#{heading}", "h => h.scrollIntoView()")
            covered = _overlap(_box(page, f"#{heading}"), page.evaluate(STEP_BAR))
            assert covered == 0, f"{gid}: the step bar covers the heading #{heading}"
    phone.assert_clean()


#: Words of the games table drawn on more than one line (a word broken inside, as "Playe rs").
BROKEN_WORDS = """() => { const out = [];
  const walker = document.createTreeWalker(document.getElementById('games-table'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index); range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) out.push(match[0]);
    } }
  return out; }"""


def test_the_games_table_breaks_no_word_on_a_phone(live_server: LiveServer, phone: Watched, artifacts: Path) -> None:
    page = phone.page
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("#games-table tbody tr").count() >= 4
    assert not page.evaluate(BROKEN_WORDS), "words broken across lines in the games table"
    assert_fits_a_phone(page, artifacts, "home-table")
    phone.assert_clean()


def test_the_log_only_page_opens_at_its_top(live_server: LiveServer, phone: Watched, redis_client: Any) -> None:
    if not TOKAIDO.exists():
        pytest.skip(f"BGA sample missing: {TOKAIDO}")
    outcome = import_bytes(redis_client, TOKAIDO.read_bytes(), gid="tok-1", owner=None, filename=TOKAIDO.name)
    assert outcome.status == "done", outcome.error
    for seq in (5, 120, None):
        page = open_game(phone, live_server, seq, gid="tok-1")
        page.wait_for_timeout(300)  # the list's own scrolling to the current move has settled
        assert page.evaluate("window.scrollY") == 0, f"the log-only page at {seq} opens scrolled down"
    phone.assert_clean()


#: Visible elements under `root` whose right edge passes the window's, or that scroll sideways inside themselves.
OVERFLOWING = """root => [...document.querySelectorAll(`${root}, ${root} *`)]
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5 || e.scrollWidth > e.clientWidth + 1
               && getComputedStyle(e).overflowX !== 'visible')
  .map(e => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${Math.round(e.getBoundingClientRect().right)}`)"""

#: Each filter label whose field is not on its row (the label's middle outside the field's top and bottom).
LABELS_APART = """() => [...document.querySelectorAll('#filters label[for]')].filter(label => {
  const field = document.getElementById(label.htmlFor).getBoundingClientRect(), own = label.getBoundingClientRect();
  const middle = (own.top + own.bottom) / 2;
  return middle < field.top || middle > field.bottom || own.left > field.left; }).map(label => label.htmlFor)"""


def test_the_home_table_and_filters_fit_a_phone_each_label_by_its_field(live_server: LiveServer, phone: Watched,
                                                                      artifacts: Path) -> None:
    """Issue 46: at 390 px no element of the games table or the filters passes the right edge or hides columns in a
    sideways scroll (the owner is on screen), and each filter's label sits on its field's row, before it; the same
    page at 1366 px is kept beside it."""
    page = phone.page
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("#games-table tbody tr").count() >= 4
    for root in ("#games-table", "#filters"):
        assert not page.evaluate(OVERFLOWING, root), page.evaluate(OVERFLOWING, root)[:6]
    assert page.locator("#games-table thead th", has_text="Owner").is_visible()
    assert not page.evaluate(LABELS_APART), page.evaluate(LABELS_APART)
    assert_fits_a_phone(page, artifacts, "home-filters")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artifacts / "laptop-home-filters.png"), full_page=True)
    phone.assert_clean()


#: Elements of the board's cards (`.box`) that pass their card's right edge.
OUT_OF_CARD = """() => [...document.querySelectorAll('#board .box')].flatMap(box => {
  const edge = box.getBoundingClientRect().right;
  return [...box.querySelectorAll('*')].filter(e => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > edge + 0.5; })
    .map(e => `${box.className} > ${e.tagName.toLowerCase()}.${e.className} right ${Math.round(e.getBoundingClientRect().right)}`); })"""


def test_puerto_ricos_cards_keep_their_rows_inside_on_a_phone(live_server: LiveServer, phone: Watched,
                                                             artifacts: Path) -> None:
    """Issue 46: at 390 px no row of Puerto Rico's cards (the cargo ships' above all: a ship of 8) spills out of its
    card; the board at 1366 px is kept beside it."""
    page = open_game(phone, live_server, seq=100)
    assert page.locator("#board .ships .ship").count() >= 3
    assert not page.evaluate(OUT_OF_CARD), page.evaluate(OUT_OF_CARD)[:6]
    page.locator("#board").screenshot(path=str(artifacts / "phone-puerto-rico-cards.png"))
    page.set_viewport_size({"width": 1366, "height": 768})
    assert not page.evaluate(OUT_OF_CARD), page.evaluate(OUT_OF_CARD)[:6]
    page.locator("#board").screenshot(path=str(artifacts / "laptop-puerto-rico-cards.png"))
    phone.assert_clean()


def test_on_a_phone_your_turn_stays_in_sight_and_the_picker_folds_away(live_server: LiveServer, phone: Watched,
                                                                       artifacts: Path) -> None:
    """Issue 46: scrolled down the board to the player to act, whose turn it is is still on screen above the picker;
    the picker's sheet folds to its heading to show the board under it, and opens again."""
    sign_up(phone, live_server)
    page = open_game(phone, live_server, 300)
    fork_here(page, "on the tram")
    page.wait_for_selector("#picker button.pick")
    page.eval_on_selector(".to-act", "e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(100)
    banner, picker = _box(page, "#turn-banner"), _box(page, "#play-section")
    assert page.inner_text("#turn-banner").endswith("turn")  # whose turn ("Your turn" in a seat's view)
    assert banner["top"] >= -1 and banner["bottom"] <= picker["top"], (banner, picker)
    page.screenshot(path=str(artifacts / "phone-your-turn-scrolled.png"))
    page.click("#play-fold")
    folded = _box(page, "#play-section")
    assert folded["height"] < 90 and not page.is_visible("#picker button.pick"), folded
    assert page.get_attribute("#play-fold", "aria-expanded") == "false"
    page.screenshot(path=str(artifacts / "phone-picker-folded.png"))
    page.click("#play-fold")
    page.wait_for_selector("#picker button.pick")
    page.set_viewport_size({"width": 1366, "height": 768})
    assert not page.is_visible("#play-fold"), "a laptop's picker is no sheet: nothing to fold"
    page.screenshot(path=str(artifacts / "laptop-your-turn.png"))
    phone.assert_clean()


def test_a_tables_chat_and_take_back_request_fit_a_phone(live_server: LiveServer, phone: Watched, artifacts: Path) -> None:
    """Issue 46 item 6: the chat card (under the Seats card) and a take-back request with its answers, at 390 px."""
    gid = bobs_busy_table(phone, live_server)
    page = phone.page
    page.goto(f"{live_server.url}/games/{gid}/b/main")
    page.wait_for_selector("#chat-messages .chat-message >> nth=2")
    page.wait_for_selector("#takeback-answers:not([hidden])")
    page.locator("#chat-section").scroll_into_view_if_needed()
    assert_fits_a_phone(page, artifacts, "table-chat")
    box = page.locator("#chat-section").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def test_the_home_list_of_tables_and_a_table_fit_a_phone(live_server: LiveServer, phone: Watched,
                                                         artifacts: Path) -> None:
    """Issue 46's "done when": bob's home page at 390 px lists the table he sits at (his turn, with how long it has
    waited) within the width, and the table itself fits too (board, Seats, chat)."""
    gid = bobs_busy_table(phone, live_server)
    page = phone.page
    page.goto(live_server.url + "/")
    page.wait_for_selector(f".table-row.your-turn[data-game='{gid}']")
    row = page.locator(f".table-row[data-game='{gid}']").bounding_box()
    assert row is not None and row["x"] >= 0 and row["x"] + row["width"] <= PHONE["width"], row
    assert_fits_a_phone(page, artifacts, "home-your-tables")
    page.goto(f"{live_server.url}/games/{gid}/b/main")
    page.wait_for_selector("body[data-ready='true']")
    assert_fits_a_phone(page, artifacts, "table")
    phone.assert_clean()
