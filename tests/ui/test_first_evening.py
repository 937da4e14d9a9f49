"""Issue 46's defects of a first evening at the table, each as the page shows it, in headless Chromium: no "null" in
the analysis verdict, no "Game over" above a mid-game position; at a table with a friend, the owner's seat menu
names the friend (Assign alone keeps them seated), and the friend's view menu offers only the views they may have,
a refused one said on the page; a table made on the page offers no fork nor take-back and asks no analysis; the
analysis budget kept in the URL (a second opinion asked at it), and the agreement line only once both are done; a
file uploaded again said to be already here, and so is a demo game's export; the upload's counts that agree (the log
entries the progress read are those the summary counts)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Setup, get_rules, random_playout
from engine.bga import export_log
from service.imports.importer import export_text
from service.store.users import UserStore
from tests.helpers import kill_with_work_horses, start_worker
from tests.ui.analysed import GID, analysed_game_with_fork, analysis_report
from tests.ui.conftest import BROWSER_WAIT_MS, DEMO_PR, LiveServer, Watched
from tests.ui.helpers import open_game, open_home, sign_up, wait_board

pytestmark = pytest.mark.browser


def test_an_unmarked_move_verdict_says_no_null(live_server: LiveServer, watched: Watched, redis_client,
                                              redis_server) -> None:
    """Every analysed move's verdict, marked or not, ends with words (or the mark), never with "null"."""
    analysed_game_with_fork(redis_client, redis_server.url)
    page = open_game(watched, live_server, seq=1, gid=GID)
    page.wait_for_selector("#win-chart svg.win-chart")
    report = analysis_report(page, live_server, GID)
    unmarked = [p["seq"] + 1 for p in report["positions"] if p["played"] and not p["played"]["mark"]]
    marked = [p["seq"] + 1 for p in report["positions"] if p["played"] and p["played"]["mark"]]
    assert unmarked and marked
    for move in (unmarked[0], unmarked[-1], marked[0]):
        page.locator(f'#moves .mv[data-seq="{move}"]').click()
        wait_board(page, move)
        page.wait_for_selector("#analysis-verdict:not([hidden])")
        verdict = page.locator("#analysis-verdict").inner_text()
        assert verdict.startswith(f"Move {move},") and "null" not in verdict, verdict
    watched.assert_clean()


def test_game_over_shows_only_above_the_final_position(live_server: LiveServer, watched: Watched) -> None:
    """A finished demo game at a mid-game position has no "Game over" banner; at its last position it has."""
    page = open_game(watched, live_server, seq=286, gid=DEMO_PR)
    banner = page.locator("#turn-banner")
    assert not (banner.is_visible() and "Game over" in banner.inner_text()), banner.inner_text()
    page.keyboard.press("End")
    head = int(page.evaluate("window.ludolog.head"))
    wait_board(page, head)
    page.wait_for_function("() => document.getElementById('turn-banner').textContent.includes('Game over')")
    page.keyboard.press("Home")
    wait_board(page, 1)
    page.wait_for_function("() => !document.getElementById('turn-banner').textContent.includes('Game over')")
    watched.assert_clean()


@pytest.fixture
def friend(browser: Any) -> Iterator[Watched]:
    """A second browser (own cookies) for the friend at the table (its console is not watched: a refusal is asked)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(BROWSER_WAIT_MS)
    yield Watched(context.new_page())
    context.close()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _table_with_bob(server: LiveServer, alice: str, bob: str) -> tuple[str, str]:
    """Alice's new Puerto Rico table (``POST /api/games`` with its seats) where bob took seat 1 (Ben) by invite."""
    client = server.app.test_client()
    seats = [{"holder": "me"}, {"holder": "invite"}, {"holder": "me"}]
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"], "seats": seats},
                       headers=_auth(alice)).get_json()
    invite = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{invite}", headers=_auth(bob)).status_code == 200
    return made["id"], made["branch"]


def test_a_friends_seat_stays_theirs_and_their_view_menu_offers_only_their_views(
        live_server: LiveServer, watched: Watched, friend: Watched) -> None:
    sign_up(friend, live_server, "bob")
    sign_up(watched, live_server, "alice")
    users = UserStore(live_server.app.extensions["ludolog"].stores.redis)
    gid, fork = _table_with_bob(live_server, users.create_token("alice", "t")[1], users.create_token("bob", "t")[1])
    page = open_game(watched, live_server, gid=gid, bid=fork)
    waiting = " ".join(page.inner_text(".seat[data-seat='0'] .seat-waiting").split())
    assert waiting.startswith("· to move, waiting for ") and waiting.endswith(" sec"), waiting  # never "… sec ago"
    assert page.input_value("#seat-choice-1") == "", "the owner's menu names bob, not 'me'"
    assert page.locator("#seat-choice-1 option:checked").inner_text() == "bob (holds it)"
    page.click(".seat-assign[data-seat='1']")
    page.wait_for_function("() => document.getElementById('seats-status').textContent.includes('stays with its holder')")
    seats = page.request.get(f"{live_server.url}/api/games/{gid}/branches/{fork}/seats").json()["seats"]
    assert seats[1]["holder"] == "bob", seats
    watched.assert_clean()

    bobs = open_game(friend, live_server, gid=gid, bid=fork)
    assert bobs.input_value("#view-select") == "1"
    disabled = bobs.eval_on_selector_all("#view-select option", "os => os.filter(o => o.disabled).map(o => o.value)")
    assert disabled == ["full", "0", "2"], disabled
    # Asked all the same (an old menu, a script): refused, said on the page, and the menu keeps the seat's view.
    bobs.eval_on_selector("#view-select", "s => { s.value = 'full'; s.dispatchEvent(new Event('change')); }")
    bobs.wait_for_function("() => document.getElementById('view-status').textContent.startsWith('Cannot show the full')")
    assert bobs.input_value("#view-select") == "1"
    assert "hidden information" in bobs.inner_text("#view-status")


def test_a_table_made_on_the_page_offers_no_fork_nor_take_back_and_asks_no_analysis(
        live_server: LiveServer, watched: Watched) -> None:
    """alice invites a friend from the Seats card of her fork: the page takes in the table's rules at once (her view
    is her seats', the invite link still shown), offers neither a fork nor a take-back of the table, and her moves
    ask for nothing it refuses (no 403 in the console)."""
    sign_up(watched, live_server, "alice")
    alice = _auth(UserStore(live_server.app.extensions["ludolog"].stores.redis).create_token("alice", "t")[1])
    client = live_server.app.test_client()
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"], "seed": "eve"},
                       headers=alice).get_json()
    fork = client.post(f"/api/games/{made['id']}/branches", json={"from": "main", "at": made["seq"]},
                       headers=alice).get_json()["branch"]
    page = open_game(watched, live_server, gid=made["id"], bid=fork)
    assert page.is_visible("#fork-form"), "a branch of her own alone is forked as ever"
    page.select_option("#seat-choice-1", "invite")
    page.click(".seat-assign[data-seat='1']")
    page.wait_for_selector("#invite-link:not([hidden])")
    assert "/invite/" in page.input_value("#invite-url")
    assert page.input_value("#view-select") == "0"
    assert page.locator("#fork-form, #takeback-button").count() == 0
    assert "cannot be forked" in page.inner_text("#table-closed")
    page.locator("#picker button.pick").first.click()
    page.wait_for_selector("body[data-played]", state="attached")
    page.wait_for_timeout(1000)  # what the move sets off (the timeline, the analysis, the seats) has been asked
    watched.assert_clean()


def test_the_budget_stays_through_a_reload_and_the_agreement_waits_for_both(
        live_server: LiveServer, watched: Watched, redis_client, redis_server) -> None:
    """A second opinion still running (its report as the API gives it, marked running) shows no agreement line; the
    budget picked is kept in the URL through a reload, and a second opinion is then asked at that budget."""
    analysed_game_with_fork(redis_client, redis_server.url, main_seeds=(0, 1))
    sign_up(watched, live_server, "budgeter")
    page = watched.page

    def running(route: Any) -> None:
        report = route.fetch().json()
        route.fulfill(json={**report, "status": "running", "done": 1})

    page.route("**/analysis?*seed=1*", running)
    page.goto(f"{live_server.url}/games/{GID}/b/main/1?seed=1")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => document.getElementById('opinion-status').textContent.includes('analysing')")
    assert not page.locator("#opinion-agreement").is_visible()
    page.unroute("**/analysis?*seed=1*")
    page.reload()
    page.wait_for_function("() => document.getElementById('opinion-agreement').textContent.startsWith('The second')")

    page.select_option("#analysis-budget", "50")
    page.wait_for_function("() => location.search.includes('rollouts=50')")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert page.input_value("#analysis-budget") == "50" and "seed=1" in page.url
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Not analysed')")
    with page.expect_request(lambda r: r.method == "POST" and "/analysis" in r.url) as asked:
        page.click("#opinion-request")
    assert json.loads(asked.value.post_data)["rollouts"] == 50
    watched.assert_clean()


def test_the_same_file_uploaded_again_is_said_to_be_already_here(live_server: LiveServer, watched: Watched,
                                                                 redis_server: Any) -> None:
    """The second upload of the same log by the same user gives back the first's game, and the page says it is
    already here (a link to it), instead of reporting a new import."""
    events = random_playout(get_rules("golden_city"), Setup(("Anna", "Ben", "Cleo")), random.Random(46)).events
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "again")
        hrefs = []
        for _ in range(2):
            page.fill("#upload-text", export_text(events))
            page.click("#upload-form button[type=submit]")
            page.wait_for_selector("#upload-report a")
            hrefs.append(page.get_attribute("#upload-report a", "href"))
            said = page.inner_text("#upload-report p")
        assert hrefs[0] == hrefs[1], hrefs
        assert said.startswith("Already here: Die goldene Stadt"), said
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)


def test_a_demo_games_export_uploaded_is_already_here(live_server: LiveServer, watched: Watched, redis_server: Any,
                                                      redis_client: Any) -> None:
    """The export of a demo game, downloaded and uploaded again, stores nothing: the page says the demo game is already
    here (a link to it), where it made a second "Demo Puerto Rico #1"."""
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "demoagain")
        games = redis_client.zcard("ll:games")
        export = page.evaluate(f"fetch('/api/games/{DEMO_PR}/branches/main/export?format=jsonl').then(r => r.text())")
        page.fill("#upload-text", export)
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a")
        said = page.inner_text("#upload-report p")
        assert said.startswith("Already here: Demo Puerto Rico #1"), said
        assert page.get_attribute("#upload-report a", "href") == f"/games/{DEMO_PR}"
        assert redis_client.zcard("ll:games") == games, "no second Demo Puerto Rico #1"
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)


def test_the_upload_counts_the_log_entries_it_read_once(live_server: LiveServer, watched: Watched, redis_server: Any,
                                                        tmp_path: Any) -> None:
    """A Puerto Rico log (our BGA export of a whole game: haciendas, bonus lines, draws): the progress line's log entries
    are the summary's, each used, skipped or refused once (the summary had counted report rows: "447 of 447 log entries
    read" then "479 lines used"), and moves and chance draws add up to the events stored."""
    events = random_playout(get_rules("puerto_rico"), Setup(("Anna", "Ben", "Cleo")), random.Random(7)).events
    file = tmp_path / "pr.json"
    file.write_text(json.dumps(export_log(events)))
    worker = start_worker(redis_server.url, LUDOLOG_QUEUE="ludolog-ui-test")
    try:
        page = open_home(watched, live_server, "counter")
        page.set_input_files("#upload-file", str(file))
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#upload-report a")
        status = page.inner_text("#upload-status")
        read = re.fullmatch(r"Import done: (\d+) of \1 log entries read", status)
        assert read, status
        summary = page.inner_text("#upload-summary")
        counts = re.match(r"(\d+) moves and (\d+) chance draws imported from (\d+) log entries: (\d+) used · (\d+) skipped"
                          r" \(silent or housekeeping\) · (\d+) refused · (\d+) moves? inferred", summary)
        assert counts, summary
        moves, draws, entries, used, skipped, refused, _ = (int(n) for n in counts.groups())
        assert entries == int(read.group(1)) == used + skipped + refused, (status, summary)
        assert moves + draws == len(events) - 1, summary
        watched.assert_clean()
    finally:
        kill_with_work_horses(worker)
