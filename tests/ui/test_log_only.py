"""Issue 14 in the browser: the upload form (every export format pasted, which input is used, the report's
summary) and the page of a log-only game as a BGA player knows it (players, colours, final scores and ranks,
move numbers and times, one block per move, icon tokens in words, step / jump / search, annotations)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from engine import CHANCE, Setup, get_rules, random_playout
from engine.bga import export_log
from service.imports.importer import import_bytes
from tests.engine.bga.samples import SAMPLES_DIR
from tests.helpers import kill_with_work_horses, start_worker
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_game, open_home

BGA_SAMPLES = SAMPLES_DIR
GAIA = BGA_SAMPLES / "gaiaproject_798145204_fullresponse.json"
TOKAIDO = BGA_SAMPLES / "tokaido_100004927.json"

pytestmark = pytest.mark.browser


def _sample(path: Any) -> bytes:
    if not path.exists():
        pytest.skip(f"BGA sample missing: {path}")
    return bytes(path.read_bytes())


def _imported(redis_client: Any, raw: bytes, gid: str, filename: str) -> str:
    outcome = import_bytes(redis_client, raw, gid=gid, owner=None, filename=filename)
    assert outcome.status == "done", outcome.error
    return gid


def _current(page: Any) -> str:
    return str(page.get_attribute("#current-move", "data-seq"))


def _wait_current(page: Any, seq: int) -> None:
    page.wait_for_function("seq => document.getElementById('current-move').dataset.seq === String(seq)", arg=seq)


def test_gaia_log_page_shows_players_scores_moves_and_readable_tokens(live_server: LiveServer, watched: Watched,
                                                                        redis_client: Any, artifacts: Any) -> None:
    gid = _imported(redis_client, _sample(GAIA), "gaia-1", GAIA.name)
    page = open_game(watched, live_server, 2, gid=gid)
    players = page.inner_text("#log-players")
    assert "Final scores" in page.inner_text("#players-h")
    rows = [re.split(r"\s+", row.strip()) for row in page.locator("#log-players tbody tr").all_inner_texts()]
    assert rows == [["1", "AlabeSons", "175"], ["2", "felipetoito", "166"]], players
    colors = page.eval_on_selector_all("#log-players .swatch", "els => els.map(e => getComputedStyle(e).backgroundColor)")
    assert colors == ["rgb(255, 255, 0)", "rgb(255, 165, 0)"]
    assert "Gaia Project" in page.inner_text(".game-head") and "798145204" in page.inner_text(".game-head")
    # No controls of games with rules: no round or phase selects, no view select, no board.
    for absent in ("#jump-round", "#jump-phase", "#view-select", "#board", "#moves"):
        assert page.locator(absent).count() == 0, absent
    # One block per move, with BGA's move number and time; the main panel holds one move, not the list.
    blocks = page.locator("#log-moves > li.log-move")
    assert blocks.count() > 100
    assert re.fullmatch(r"Move \d+", blocks.nth(3).locator(".log-move-no").inner_text())
    assert re.fullmatch(r"\d\d:\d\d:\d\d( [AP]M)?", blocks.nth(3).locator(".log-move-time").inner_text())
    assert page.locator("#current-move .log-move").count() == 0
    # Jump to BGA's move 47: its three lines, tokens in words (the raw token as a tooltip).
    page.fill("#jump-move", "47")
    page.press("#jump-move", "Enter")
    page.wait_for_function("() => document.getElementById('current-h').textContent.startsWith('Move 47')")
    lines = page.locator("#current-lines li").all_inner_texts()
    assert "null" not in page.inner_text("#current-move") and "undefined" not in page.inner_text("#current-move")
    assert lines == ["felipetoito performs action 11", "felipetoito spends 3 power, 1 QIC, 1 ore, 2 credits to build a mine",
                     "Faction bonus: felipetoito gains 3 knowledge", "AlabeSons charges 1 power"]
    assert "[" not in page.inner_text("#log-moves")
    assert page.get_attribute("#current-lines li:nth-child(2)", "title").startswith("BGA: felipetoito spends [POWER3]")
    assert page.locator("#log-moves li.current .log-move-lines li").count() == len(lines)
    page.screenshot(path=str(artifacts / "log-only-gaia.png"))
    watched.assert_clean()


def test_log_page_steps_searches_and_annotates_with_glyphs(live_server: LiveServer, watched: Watched, redis_client: Any) -> None:
    from tests.ui.helpers import sign_up

    gid = _imported(redis_client, _sample(TOKAIDO), "tok-1", TOKAIDO.name)
    sign_up(watched, live_server, "reader")
    page = open_game(watched, live_server, gid=gid)
    head = page.evaluate("() => window.ludolog.head")
    assert _current(page) == str(head)
    assert [r.split("\t")[0:2] for r in page.locator("#log-players tbody tr").all_inner_texts()][0][1].strip() == "Bhaichata"
    page.click("#nav-first")
    _wait_current(page, 1)
    page.click("#nav-next")
    _wait_current(page, 2)
    assert page.url.endswith(f"/games/{gid}/b/main/2")
    page.focus("#log-move-5 button.log-move-no")  # every move is reachable from the keyboard
    page.keyboard.press("Enter")
    _wait_current(page, 5)
    # Search: every matching move is marked, Enter walks through them.
    page.fill("#log-search", "sea panorama")
    assert re.fullmatch(r"\d+ moves match", page.inner_text("#search-count"))
    count = int(page.inner_text("#search-count").split()[0])
    assert page.locator("#log-moves li.match").count() == count > 1
    page.press("#log-search", "Enter")
    page.wait_for_function("() => /sea panorama/i.test(document.getElementById('current-lines').textContent)")
    first_match = int(_current(page))
    page.press("#log-search", "Enter")
    page.wait_for_function("s => document.getElementById('current-move').dataset.seq !== s", arg=str(first_match))
    assert int(_current(page)) > first_match and page.locator("#current-lines mark").count() >= 1
    # A comment with a glyph on this move: shown beside the move in the log and in the main panel.
    page.select_option("#note-glyph", "!?")
    page.fill("#note-text", "Why the sea here?")
    page.click("#note-save")
    page.wait_for_selector("#log-moves li.current .glyphs:text('!?')")
    assert "!?" in page.inner_text("#current-h")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert "Why the sea here?" in page.inner_text("#notes-list")
    watched.assert_clean()


def test_upload_form_pastes_a_text_export_says_which_input_and_shows_a_summary(live_server: LiveServer, watched: Watched,
                                                                             redis_server: Any, redis_client: Any,
                                                                             tmp_path: Any) -> None:
    events = random_playout(get_rules("golden_city"), Setup(("Anna", "Ben", "Cleo")), random.Random(2)).events
    from service.imports.importer import export_text

    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "paster")
        page.fill("#upload-text", export_text(events))
        assert page.inner_text("#upload-source") == "Using the pasted text."
        file = tmp_path / "export.json"
        file.write_text(json.dumps(export_log(events)))
        page.set_input_files("#upload-file", str(file))
        assert "Using the chosen file export.json; the pasted text is not used" in page.inner_text("#upload-source")
        page.set_input_files("#upload-file", [])
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a", )
        report = page.inner_text("#upload-report")
        assert "null" not in report
        summary = page.inner_text("#upload-summary")
        draws = sum(1 for e in events if e.actor == CHANCE)
        status = page.inner_text("#upload-status")  # the log's entries read, never "0 of ?", never called moves
        read = re.fullmatch(r"Import done: (\d+) of \1 log entries read", status)
        assert read, status
        assert summary.startswith(f"{len(events) - 1 - draws} moves and {draws} chance draws imported from "
                                  f"{read.group(1)} log entries: "), summary
        assert summary.endswith(" · 0 refused · 0 moves inferred (not in the log)"), summary
        # The many lines used as they stand are folded away behind their count.
        assert page.locator("#upload-report details.report-used").count() == 1
        assert not page.locator("#upload-report details.report-used li").first.is_visible()
        assert "full rules replay" in report
        page.click("#upload-report a")
        page.wait_for_selector("body[data-ready='true']")
        assert page.inner_text("#game-title").startswith("Die goldene Stadt · Anna, Ben, Cleo · ")
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)


def test_upload_form_folds_silent_lines_and_the_home_filter_offers_the_title(live_server: LiveServer, watched: Watched,
                                                                            redis_server: Any, artifacts: Any) -> None:
    sample = _sample(TOKAIDO)
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "uploader2")
        assert page.locator("#f-game option[value='tokaido']").count() == 0
        page.set_input_files("#upload-file", str(TOKAIDO))
        assert sample
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a", )
        summary = page.inner_text("#upload-summary")
        skipped = int(re.search(r"(\d+) skipped", summary).group(1))
        assert skipped > 100 and "null" not in page.inner_text("#upload-report")
        fold = page.locator("#upload-report details.report-skipped")
        assert fold.locator("summary").inner_text() == f"{skipped} silent or skipped lines"
        assert not fold.locator("li").first.is_visible()
        page.screenshot(path=str(artifacts / "upload-report-tokaido.png"))
        page.goto(live_server.url + "/")
        page.wait_for_selector("body[data-ready='true']")
        page.select_option("#f-game", "tokaido")
        page.click("#filters button[type=submit]")
        # The filter is applied in the page (no navigation): the unfiltered rows stay until its answer comes.
        expect(page.locator("#games-table tbody tr")).to_have_count(1)
        assert "Tokaido · Frank77, agila13, annie3, Bhaichata" in page.inner_text("#games-table")
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)


def test_a_second_public_upload_of_a_table_links_to_the_first_game(live_server: LiveServer, watched: Watched,
                                                                     redis_server: Any, redis_client: Any) -> None:
    raw = _sample(TOKAIDO)
    outcome = import_bytes(redis_client, raw, gid="tok-first", owner="alice", filename=TOKAIDO.name)
    assert outcome.status == "done"
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "second")
        page.set_input_files("#upload-file", str(TOKAIDO))
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a", )
        assert "already here: linked to it" in page.inner_text("#upload-report")
        assert page.get_attribute("#upload-report a", "href") == "/games/tok-first"
        assert "null" not in page.inner_text("#upload-report")
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)


def test_a_game_started_from_the_web_is_titled_and_position_zero_opens_the_start(live_server: LiveServer,
                                                                                  watched: Watched) -> None:
    page = open_home(watched, live_server, "starter2")
    page.select_option("#new-game", "entdecker")
    for seat, name in enumerate(("Ann", "Bob")):
        page.fill(f"#new-name-{seat}", name)
        page.select_option(f"#new-holder-{seat}", "me")
    page.click("#new-game-form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/[^/]+/b/main/\d+$"))
    page.wait_for_selector("body[data-ready='true']")
    assert re.fullmatch(r"Entdecker · Ann, Bob · \d{4}-\d\d-\d\d", page.inner_text("#game-title"))
    gid = page.url.split("/games/")[1].split("/")[0]
    page.goto(f"{live_server.url}/games/{gid}/b/main/0")
    page.wait_for_selector("body[data-ready='true']")
    assert page.url.endswith(f"/games/{gid}/b/main/1") and page.get_attribute("#board", "data-seq") == "1"
    watched.assert_clean()
