"""The home page's search: results as you type (player prefix, accents forgiven), title words, my games, order."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from engine import Setup, get_rules
from service.store.games import GameStore
from service.store.results import GameResult
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import open_home


def _rows(page: Any) -> list[str]:
    return [row.inner_text() for row in page.locator("#games-table tbody tr").all()]


def _wait_rows(page: Any, count: int) -> list[str]:
    """The rows, once there are ``count`` of them (the page updates a moment after typing)."""
    expect(page.locator("#games-table tbody tr")).to_have_count(count)
    if count == 0:
        expect(page.locator("#games-status")).to_have_text("No games match.")
    return _rows(page)


def test_typing_a_name_lists_its_games_as_you_type(live_server: LiveServer, watched: Watched, redis_client: Any) -> None:
    store = GameStore(redis_client)
    version = get_rules("puerto_rico").version
    xochitl = store.create_game("puerto_rico", version, Setup(("Xóchitl", "Ben", "Cleo")), owner="other",
                                title="Zebrafish night").id
    store.create_game("puerto_rico", version, Setup(("Anna", "Ben", "Cleo")), owner="other", title="Big cup")
    mine = store.create_game("puerto_rico", version, Setup(("Xoan", "Dan", "Eve")), owner="seeker", visibility="private",
                             title="Practice").id
    page = open_home(watched, live_server, "seeker")
    page.locator("#f-player").press_sequentially("XO", delay=60)
    rows = _wait_rows(page, 2)
    assert "Xóchitl" in rows[1] and "Xoan" in rows[0]  # newest first; the private game is the signed-in owner's
    page.locator("#f-player").press_sequentially("C", delay=60)  # "xoc" finds Xóchitl: accents and case forgiven
    rows = _wait_rows(page, 1)
    assert "Xóchitl" in rows[0] and f"/games/{xochitl}" in page.inner_html("#games-table")
    assert "player=XOC" in page.url
    page.locator("#f-player").fill("xo")
    page.select_option("#f-order", "oldest")
    expect(page.locator("#games-table tbody tr").first).to_contain_text("Xóchitl")
    page.select_option("#f-order", "newest")
    expect(page.locator("#games-table tbody tr").first).to_contain_text("Xoan")
    page.locator("#f-player").fill("")
    page.locator("#f-q").press_sequentially("zebrafish", delay=30)
    expect(page.locator("#games-table tbody tr").first).to_contain_text("Zebrafish night")
    assert len(_wait_rows(page, 1)) == 1
    page.locator("#f-q").fill("")
    page.check("#f-mine")
    expect(page.locator("#games-table tbody tr").first).to_contain_text("Practice")
    assert len(_wait_rows(page, 1)) == 1 and f"/games/{mine}" in page.inner_html("#games-table")
    page.locator("#f-player").press_sequentially("nobody", delay=20)
    _wait_rows(page, 0)
    watched.assert_clean()


def test_result_and_winner_filters_list_finished_games_by_who_won(live_server: LiveServer, watched: Watched,
                                                                   redis_client: Any) -> None:
    store = GameStore(redis_client)
    version = get_rules("puerto_rico").version
    won = store.create_game("puerto_rico", version, Setup(("Zoé", "Ben", "Cleo")), owner="other", title="Quokka won").id
    store.record_result(won, GameResult(("Zoé",)))
    shared = store.create_game("puerto_rico", version, Setup(("Zoltan", "Ben", "Cleo")), owner="other",
                               title="Quokka shared").id
    store.record_result(shared, GameResult(("Ben", "Zoltan")))
    store.create_game("puerto_rico", version, Setup(("Zoé", "Dan", "Eve")), owner="other", title="Quokka still on")
    page = open_home(watched, live_server, "seeker")
    page.locator("#f-q").press_sequentially("quokka", delay=30)
    _wait_rows(page, 3)
    page.select_option("#f-result", "finished")
    rows = _wait_rows(page, 2)
    assert "won by Ben and Zoltan" in rows[0] and "won by Zoé" in rows[1]
    assert "result=finished" in page.url
    page.locator("#f-winner").press_sequentially("ZOE", delay=60)  # accents and case forgiven, as for players
    rows = _wait_rows(page, 1)
    assert "Quokka won" in rows[0] and f"/games/{won}" in page.inner_html("#games-table")
    page.locator("#f-winner").fill("")
    page.select_option("#f-result", "unfinished")
    expect(page.locator("#games-table tbody tr").first).to_contain_text("Quokka still on")
    rows = _wait_rows(page, 1)
    assert "—" in rows[0]
    page.locator("#f-winner").press_sequentially("zo", delay=60)  # no unfinished game has a winner
    _wait_rows(page, 0)
    watched.assert_clean()
