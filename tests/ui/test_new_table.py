"""A new table from the home page (issue 46 items 1 and 2), in real browsers: alice starts Puerto Rico with the home
page's New table form (seat 0 hers, seat 1 an invite, seat 2 the engine at easy, played by a real ``ludolog worker``),
copies the invite link it shows, bob opens it in his own browser and takes the seat; then each one's home page, open
all along and never reloaded, lists the table, says "your turn" to the one to move and names the mover to the other;
finished tables are listed apart, the latest first, ten at a time."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.store.seats import Seat
from tests.helpers import ROOT, kill_with_work_horses, ludolog_env
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_home

WAIT_MS = 300_000


@pytest.fixture
def engine_worker(live_server: LiveServer, redis_server: Any, tmp_path: Path) -> Iterator[subprocess.Popen]:
    """A real ``ludolog worker`` on the app's queues (the engine seat's moves)."""
    queue = live_server.app.extensions["ludolog"].stores.config.queue_name
    with (tmp_path / "worker.log").open("wb") as out:
        worker = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "worker", "--no-reconcile"], cwd=ROOT,
                                  env=ludolog_env(redis_server.url, LUDOLOG_QUEUE=queue),
                                  start_new_session=True, stdout=out, stderr=subprocess.STDOUT)
    yield worker
    kill_with_work_horses(worker)


def _second_user(browser: Any, server: LiveServer, name: str) -> Watched:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    watched = Watched(page)
    page.on("pageerror", lambda exc: watched.errors.append(f"page error: {exc}"))
    open_home(watched, server, name)
    return watched


def _to_move(server: LiveServer, gid: str) -> int:
    """The seat to move at the table's head, once it is a person's (the engine's seat moves by itself)."""
    stores = server.app.extensions["ludolog"].stores
    position = stores.reader.position(gid, "main")
    return int(position.rules.current_actor(position.state))


def test_a_table_started_from_the_home_page_lists_whose_turn_it_is(watched: Watched, browser: Any, live_server: LiveServer,
                                                                   engine_worker, artifacts: Path) -> None:
    alice = open_home(watched, live_server, "alice")
    alice.set_default_timeout(WAIT_MS)
    alice.select_option("#new-game", "puerto_rico")
    assert alice.locator("#new-seat-rows .seat-row").count() == 3
    alice.select_option("#new-holder-1", "invite")
    alice.select_option("#new-holder-2", "engine:easy")
    assert alice.is_disabled("#new-seed"), "a table with an invite takes no named seed"
    alice.click("#new-game-form button[type=submit]")
    link = alice.wait_for_selector(".invite-links .invite-url").get_attribute("value")
    assert link and "/invite/" in link
    alice.screenshot(path=str(artifacts / "new-table-invites.png"), full_page=True)
    table = alice.get_attribute("#new-table-link", "href")
    gid = table.split("/")[2]

    bob_watched = _second_user(browser, live_server, "bob")
    bob = bob_watched.page
    bob.goto(link)
    bob.click("#take-seat")
    bob.wait_for_selector("body[data-ready='true']")
    bob.goto(live_server.url + "/")
    bob.wait_for_selector(f".table-row[data-game='{gid}']")

    # the engine plays seat 2 whenever it is to move: wait until a person is to move, as both home pages show it
    pages = {0: alice, 1: bob}
    alice.wait_for_function("""gid => { const row = document.querySelector(`.table-row[data-game='${gid}']`);
        return row && !row.querySelector('.table-turn').textContent.includes('engine'); }""", arg=gid)
    mover = _to_move(live_server, gid)
    other = 1 - mover
    pages[mover].wait_for_selector(f".table-row.your-turn[data-game='{gid}']")
    assert pages[mover].text_content(f".table-row[data-game='{gid}'] .table-turn").startswith("your turn")
    named = ["Anna", "Ben"][mover]
    pages[other].wait_for_function("""([gid, named]) => {
        const row = document.querySelector(`.table-row[data-game='${gid}']`);
        return row && row.querySelector('.table-turn').textContent.startsWith(`${named}'s turn`); }""", arg=[gid, named])
    assert "waiting for you" in pages[mover].text_content("#tables-status")
    pages[mover].screenshot(path=str(artifacts / "your-tables.png"))
    watched.assert_clean()
    assert not bob_watched.errors, bob_watched.errors
    bob.context.close()


def _finished_table(server: LiveServer, owner: str) -> str:
    """A pig table of ``owner``'s to 1 point (seat 1 the engine's), played to its end by the play service: its id."""
    context = server.app.extensions["ludolog"]
    record, _ = context.play.create_game("pig", ["Anna", "Ben"], owner=owner, options={"target": 1})
    context.stores.seats.assign(record.id, "main", Seat(1, "engine", level="easy"), owner=owner)
    for _ in range(200):
        position = context.stores.reader.position(record.id, "main")
        if position.rules.current_actor(position.state) is None:
            return str(record.id)
        legal = [position.rules.format_action(a) for a in position.rules.legal_actions(position.state)]
        context.play.play(record.id, "main", "hold" if "hold" in legal else "roll", position.seq, author=owner)
    raise AssertionError("the game did not end")


def test_finished_tables_are_listed_apart_the_latest_first_with_more(watched: Watched, live_server: LiveServer) -> None:
    """The home page lists the tables whose game is over under their own heading, the latest ended first, ten of them
    and "More finished tables" for the rest; the tables being played stay in the list above."""
    page = open_home(watched, live_server, "finisher")
    ended = [_finished_table(live_server, "finisher") for _ in range(12)]
    page.reload()
    page.wait_for_selector("#finished-tables:not([hidden])")
    assert page.inner_text("#finished-h") == "Finished tables"
    rows = page.locator("#finished-list .table-row")
    assert [rows.nth(i).get_attribute("data-game") for i in range(rows.count())] == ended[::-1][:10]
    assert "game over" in rows.first.inner_text()
    assert page.locator("#tables-list .table-row").count() == 0
    assert page.inner_text("#finished-more") == "More finished tables (2 not shown)"
    page.click("#finished-more")
    page.wait_for_function("() => document.querySelectorAll('#finished-list .table-row').length === 12")
    assert page.locator("#finished-more").is_hidden()
    watched.assert_clean()
