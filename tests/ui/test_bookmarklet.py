"""Issue 32: from a (local stand-in of a) Board Game Arena page to the imported game in two clicks.

Real headless Chromium, the real app over HTTP, the embedded Redis and a real RQ worker. The stand-in BGA site
(``tests/ui/bga_standin.py``) runs on a second origin, which the app's LUDOLOG_BGA_ORIGINS names; a third origin,
not named there, plays a stranger. The bookmarklet runs as a bookmark runs it: the page navigates to the
``javascript:`` address that ludolog's ``/import/bga`` page offers to drag. Click one is that bookmark, click two the
receiving tab's Import button. On BGA's page nothing may be left behind: no global name, no uncaught exception.
Every request of the browser is recorded: before Import none carries the log or anything of it (the receiving tab
reads it in the browser, ``static/js/bgasummary.js``); on Import exactly one does, the upload.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from werkzeug.serving import make_server

from engine.bga import parse_log, render_notification
from engine.bga.errors import BgaLogError
from engine.bga.importer import detect_game, is_our_export
from engine.bga.logonly import to_log_only
from ludolog.app import create_app
from service.runtime.config import DEFAULT_BGA_ORIGINS, Config, bga_origin_patterns
from service.runtime.redis_server import EmbeddedRedis
from service.store.context import Stores
from tests.engine.bga import samples
from tests.engine.bga.helpers import export_doc, playout
from tests.helpers import ROOT, kill_with_work_horses, ludolog_env
from tests.ui.bga_standin import SIGNED_OUT, Table, serve, standin_app
from tests.ui.conftest import BROWSER_WAIT_MS, LiveServer
from tests.ui.helpers import sign_up
from tests.ui.test_accessibility import _check_both_widths

pytestmark = pytest.mark.browser

QUEUE = "ludolog-bookmarklet-test"
PR_TABLE, BROKEN_TABLE, TOKAIDO_TABLE, REVIEW_TABLE, GAIA_TABLE = "101", "102", "100004927", "161915629", "798145204"
UNREADABLE_TABLE, SHAPELESS_TABLE = "103", "104"
IMPORT_WAIT_MS = BROWSER_WAIT_MS


def _tables() -> dict[str, Table]:
    puerto_rico = export_doc(playout(3, 1))
    broken = json.loads(json.dumps(puerto_rico))
    del broken["data"]["logs"][10]  # a whole move left out: the rules refuse the next one
    shapeless = samples.doc(samples.TOKAIDO_A)
    shapeless[5]["channel"] = "/somewhere/else"  # in a known envelope, but a packet the upload's reader refuses
    return {
        PR_TABLE: Table("puertorico", puerto_rico),
        BROKEN_TABLE: Table("puertorico", broken),
        TOKAIDO_TABLE: Table("tokaido", samples.doc(samples.TOKAIDO_A)),
        REVIEW_TABLE: Table("tokaido", samples.doc(samples.TOKAIDO_B)),
        GAIA_TABLE: Table("gaiaproject", samples.doc(samples.GAIA)),
        UNREADABLE_TABLE: Table("puertorico", {"data": {"data": "no packets here"}}),
        SHAPELESS_TABLE: Table("tokaido", shapeless),
    }


@dataclass(frozen=True)
class Sites:
    """ludolog, the stand-in BGA (an accepted origin) and a stranger's site (the same pages, an origin not accepted)."""

    ludolog: LiveServer
    bga: str
    stranger: str


@pytest.fixture(scope="module")
def sites(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sites]:
    """The three sites and a real worker on the app's queue."""
    redis.Redis.from_url(redis_server.url).flushall()
    standin = standin_app(_tables())
    with serve(standin, "localhost") as bga, serve(standin) as stranger:
        config = Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="ui-test-secret", queue_name=QUEUE,
                        bga_origins=(bga,))
        app = create_app(config, Stores(config))
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        log = Path(tmp_path_factory.mktemp("worker")) / "worker.log"
        with log.open("wb") as out:
            worker = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "worker"], cwd=ROOT, start_new_session=True,
                                      env=ludolog_env(redis_server.url, LUDOLOG_QUEUE=QUEUE), stdout=out, stderr=subprocess.STDOUT)
        try:
            yield Sites(LiveServer(f"http://127.0.0.1:{server.server_port}", app, server), bga, stranger)
        finally:
            kill_with_work_horses(worker)
            server.shutdown()
            thread.join(timeout=5)


@dataclass(frozen=True)
class Sent:
    """One request the browser made: how, where, with what body."""

    method: str
    url: str
    body: bytes

    def carries(self, markers: list[str]) -> bool:
        """True if the address or the body holds any of ``markers`` (pieces of a log)."""
        return any(m in self.url or m.encode() in self.body for m in markers)


@dataclass
class Tabs:
    """A browser context (its own cookies) with the BGA tab, watched for page errors, and the tabs it opened;
    every request of every tab is recorded (the context's, so a new tab's very first one is too)."""

    context: Any
    page: Any
    errors: list[str]
    warnings: list[str]
    sent: list[Sent]

    def assert_clean(self) -> None:
        """BGA's page raised nothing."""
        assert not self.errors, self.errors


@pytest.fixture
def tabs(browser: Any) -> Iterator[Tabs]:
    """A fresh context and its first tab; every page of the context is watched for uncaught exceptions."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(BROWSER_WAIT_MS)
    tabs = Tabs(context, None, [], [], [])

    def watch(page: Any) -> None:
        page.on("pageerror", lambda exc: tabs.errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda msg: tabs.warnings.append(msg.text) if msg.type in ("warning", "error") else None)
        page.on("dialog", lambda dialog: (tabs.errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))

    context.on("page", watch)
    context.on("request", lambda req: tabs.sent.append(Sent(req.method, req.url, req.post_data_buffer or b"")))
    tabs.page = context.new_page()
    yield tabs
    context.close()


def bookmark(tabs: Tabs, sites: Sites) -> str:
    """The bookmark's address, as ludolog's page offers it for dragging (read in a tab of its own)."""
    page = tabs.context.new_page()
    page.goto(f"{sites.ludolog.url}/import/bga")
    href = page.get_attribute("#bookmarklet", "href")
    page.close()
    assert href.startswith("javascript:")
    return href


def own_keys(page: Any) -> list[str]:
    """The window's own property names: a script that leaves a global behind adds one."""
    return sorted(page.evaluate("Object.getOwnPropertyNames(window)"))


def assert_no_new_globals(page: Any, before: list[str]) -> None:
    """BGA's page has exactly the global names it had before the bookmarklet ran (naming any added or lost)."""
    after = own_keys(page)
    assert after == before, f"added {sorted(set(after) - set(before))}, lost {sorted(set(before) - set(after))}"


def click_bookmark(tabs: Tabs, href: str) -> None:
    """Click one: the page goes to the bookmark's javascript: address, as the browser does for a bookmark."""
    tabs.page.evaluate("href => { window.location.href = href; }", href)


def notice_text(page: Any) -> str:
    """The bookmarklet's box on BGA's page, once it says something final (not 'reading')."""
    page.wait_for_function("() => { const b = document.querySelector('[data-ludolog-bookmarklet]');"
                           " return b && !b.textContent.includes('reading'); }")
    return page.inner_text("[data-ludolog-bookmarklet]")


def receive(tabs: Tabs, sites: Sites, href: str) -> Any:
    """Click the bookmark on the BGA tab and return ludolog's new tab once it shows what it received."""
    with tabs.context.expect_page() as opened:
        click_bookmark(tabs, href)
    receiver = opened.value
    receiver.wait_for_selector("#receive-preview:not([hidden])")
    assert receiver.url == f"{sites.ludolog.url}/import/bga/receive"
    return receiver


def is_upload(sent: Sent) -> bool:
    """A request to the upload path (``/api/uploads`` and anything below it)."""
    return "/api/uploads" in sent.url


@dataclass(frozen=True)
class Received:
    """The log the receiving tab holds (as it keeps it in its session storage) and pieces of it to look for."""

    log: str
    markers: list[str]

    @classmethod
    def of(cls, receiver: Any) -> Received:
        """The tab's log; its pieces: forty characters from its middle and each player's name the tab shows."""
        log = str(receiver.evaluate("JSON.parse(sessionStorage.getItem('ludolog-bga-log')).log"))
        names = [name for name in receiver.inner_text("#preview-players").split(", ") if len(name) > 3]
        middle = len(log) // 2
        return cls(log, [log[middle : middle + 40], *names])


def has_body(sent: Sent) -> bool:
    """A request that can carry something: any but GET and HEAD."""
    return sent.method not in ("GET", "HEAD")


def assert_nothing_of_the_log_sent(tabs: Tabs, receiver: Any, markers: list[str]) -> None:
    """No request of any tab (the receiving tab's own page and scripts among them) has carried a piece of the log,
    none has gone to the upload path, and none has a body the test cannot read (a file or blob in a form, which
    Playwright does not show): a sign-up form on the way is the only body allowed, and it is read."""
    assert any(s.url == receiver.url for s in tabs.sent), "the receiving tab's requests are recorded, its opening too"
    assert not [s.url for s in tabs.sent if s.carries(markers) or is_upload(s)], "nothing of the log before Import"
    assert not [s.url for s in tabs.sent if has_body(s) and not s.body], "no body unread"


def press_import(tabs: Tabs, receiver: Any, visibility: str = "public") -> tuple[int, Received]:
    """Click two: Import, checking first that nothing of the log has been sent; returns how many requests the
    browser had made before the click, and the log the tab held."""
    received = Received.of(receiver)
    assert_nothing_of_the_log_sent(tabs, receiver, received.markers)
    before = len(tabs.sent)
    receiver.select_option("#receive-visibility", visibility)
    receiver.click("#receive-import")
    return before, received


def assert_sent_once_as_the_upload(tabs: Tabs, before: int, received: Received) -> None:
    """Since the Import click one request has carried the log, or anything: the upload, a POST to /api/uploads
    whose body is the log, exactly."""
    carrying = [s for s in tabs.sent[before:] if s.carries(received.markers) or has_body(s)]
    assert len(carrying) == 1, [s.url for s in carrying]
    upload = carrying[0]
    assert upload.method == "POST" and urlsplit(upload.url).path == "/api/uploads", upload.url
    assert upload.body == received.log.encode(), "the body is the log as the tab received it"


def import_game(tabs: Tabs, receiver: Any, visibility: str = "public") -> str:
    """Click two: Import; returns the game id once the tab has followed the import to the game's page, after
    checking that the log left the browser once, on the click, as the upload."""
    before, received = press_import(tabs, receiver, visibility)
    receiver.wait_for_url("**/games/*/b/**", timeout=IMPORT_WAIT_MS)
    assert_sent_once_as_the_upload(tabs, before, received)
    return str(receiver.url.split("/games/")[1].split("/")[0])


def game_of(receiver: Any, gid: str) -> dict[str, Any]:
    """The game's record as the API answers it to this tab."""
    return dict(receiver.evaluate("gid => fetch(`/api/games/${gid}`).then(r => r.json())", gid))


def test_a_full_rules_game_comes_from_a_replay_page_in_two_clicks(tabs: Tabs, sites: Sites) -> None:
    sign_up(_Watched(tabs.page), sites.ludolog, "replayer")
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/archive/replay/{PR_TABLE}/?table={PR_TABLE}&player=2000001")
    before = own_keys(tabs.page)
    receiver = receive(tabs, sites, href)
    assert "Puerto Rico (full rules" in receiver.inner_text("#preview-game")
    assert receiver.inner_text("#preview-players") == "Anna, Ben, Cleo"
    assert receiver.is_visible("#receive-import") and not receiver.is_visible("#receive-signin")
    assert "the log is in ludolog's new tab" in notice_text(tabs.page)
    gid = import_game(tabs, receiver, "private")
    game = game_of(receiver, gid)
    assert game["game"] == "puerto_rico" and game["owner"] == "replayer" and game["visibility"] == "private"
    receiver.wait_for_selector("#board")
    assert_no_new_globals(tabs.page, before)
    tabs.assert_clean()


def test_a_log_only_game_comes_from_a_replay_page_in_two_clicks_without_signing_in(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/archive/replay/{TOKAIDO_TABLE}/?table={TOKAIDO_TABLE}")
    before = own_keys(tabs.page)
    receiver = receive(tabs, sites, href)
    assert "Tokaido (log only" in receiver.inner_text("#preview-game")
    assert receiver.inner_text("#preview-table") == TOKAIDO_TABLE
    assert "not signed in" in receiver.inner_text("#receive-signin")
    assert receiver.is_disabled("#receive-visibility option[value='private']")
    assert receiver.inner_text("#preview-moves-label") == "Steps"
    steps = int(receiver.inner_text("#preview-moves"))
    assert "BGA moves with a line everyone sees" in receiver.inner_text("#preview-moves-note")
    gid = import_game(tabs, receiver)
    game = game_of(receiver, gid)
    assert game["source"] == "bga-log" and game["owner"] is None
    events = receiver.evaluate("gid => fetch(`/api/games/${gid}/branches/main/events?limit=5000`).then(r => r.json())", gid)
    assert len(events["events"]) - 1 == steps, "the tab's steps are the replay's ('step N of N')"
    assert_no_new_globals(tabs.page, before)
    tabs.assert_clean()


def test_the_review_pages_text_becomes_a_log_only_game(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/gamereview?table={REVIEW_TABLE}")
    before = own_keys(tabs.page)
    receiver = receive(tabs, sites, href)
    moves = int(receiver.inner_text("#preview-moves"))
    assert moves > 50
    gid = import_game(tabs, receiver, "unlisted")
    game = game_of(receiver, gid)
    assert game["source"] == "bga-log" and game["visibility"] == "unlisted"
    lines = receiver.evaluate("gid => fetch(`/api/games/${gid}/log`).then(r => r.json())", gid)
    assert len(lines["moves"]) == moves
    assert_no_new_globals(tabs.page, before)
    tabs.assert_clean()


def test_the_archive_is_asked_with_the_players_own_bga_session(tabs: Tabs, sites: Sites) -> None:
    sign_up(_Watched(tabs.page), sites.ludolog, "archivist")
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/account/login")  # the stand-in's session cookie, on BGA's origin only
    tabs.page.goto(f"{sites.bga}/table?table={GAIA_TABLE}")
    before = own_keys(tabs.page)
    receiver = receive(tabs, sites, href)
    # The archive's answer names no game (BGA's pages do, the endpoint does not): the preview says so.
    assert "(log only" in receiver.inner_text("#preview-game")
    assert receiver.inner_text("#preview-table") == GAIA_TABLE
    assert len(receiver.inner_text("#preview-players").split(", ")) == 2
    gid = import_game(tabs, receiver)
    assert game_of(receiver, gid)["owner"] == "archivist"
    assert_no_new_globals(tabs.page, before)
    tabs.assert_clean()


def test_signed_out_of_bga_the_archive_refuses_and_the_bookmarklet_says_so(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/table?table={GAIA_TABLE}")
    before = own_keys(tabs.page)
    click_bookmark(tabs, href)
    said = notice_text(tabs.page)
    assert "did not give this table's log" in said and SIGNED_OUT["error"] in said and "Sign in to BGA" in said
    deadline = time.monotonic() + 30  # the bookmarklet asks the tab to close for up to 20 s (a busy machine)
    while len(tabs.context.pages) > 1 and time.monotonic() < deadline:
        tabs.page.wait_for_timeout(100)
    assert tabs.context.pages == [tabs.page], f"the ludolog tab opened for it is closed again: {tabs.context.pages}"
    assert_no_new_globals(tabs.page, before)
    tabs.assert_clean()


def test_on_a_page_of_another_kind_it_says_so_and_leaves_the_page_as_it_was(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/welcome")
    before = own_keys(tabs.page)
    body = tabs.page.inner_html("body")
    click_bookmark(tabs, href)
    assert "this page holds no game log" in notice_text(tabs.page)
    assert len(tabs.context.pages) == 1, "no ludolog tab is opened for nothing"
    tabs.page.click("[data-ludolog-bookmarklet] button")
    assert tabs.page.query_selector("[data-ludolog-bookmarklet]") is None
    assert tabs.page.inner_html("body") == body, "the box is gone, the page is as it was"
    assert tabs.page.query_selector("script[src*='bookmarklet']") is None, "the loader removes its script tag"
    assert_no_new_globals(tabs.page, before)
    tabs.assert_clean()


#: Opens ludolog's receiving tab and, once it says it is ready, posts it ``messages`` (the tab's own origin).
OPEN_AND_POST = """([url, messages]) => new Promise(resolve => {
    const win = window.open(url, '_blank');
    window.addEventListener('message', (event) => {
      if (event.source !== win || !event.data || event.data.type !== 'ludolog-bga-ready') return;
      for (const message of messages) win.postMessage(message, new URL(url).origin);
      resolve();
    });
})"""


def test_a_log_posted_from_an_origin_not_accepted_is_ignored(tabs: Tabs, sites: Sites) -> None:
    tabs.page.goto(f"{sites.stranger}/welcome")
    log = {"type": "ludolog-bga-log", "protocol": 1, "kind": "replay", "table": "1",
           "log": json.dumps({"data": {"data": [{"packet_id": 1, "channel": "/table/t1", "time": 1, "move_id": 1,
                                                 "data": [{"type": "x", "log": "Mallory moves", "args": {}}]}]}})}
    with tabs.context.expect_page() as opened:
        tabs.page.evaluate(OPEN_AND_POST, [f"{sites.ludolog.url}/import/bga/receive", [log, {"type": "ludolog-bga-close"}]])
    receiver = opened.value
    receiver.wait_for_selector("body[data-ready='true']")
    # Until the receiver has judged both messages, the log's and the close's (it says so once for each: a log taken
    # would be shown by then). A fixed half second was too little on a loaded machine.
    ignored = f"ignored a message from {sites.stranger}"
    deadline = time.monotonic() + BROWSER_WAIT_MS / 1000
    while sum(ignored in w for w in tabs.warnings) < 2 and time.monotonic() < deadline:
        tabs.page.wait_for_timeout(50)  # (Playwright delivers the console's messages while it waits)
    assert not receiver.is_closed(), "a stranger cannot close the tab either"
    assert receiver.is_hidden("#receive-preview")
    assert "Waiting for the log" in receiver.inner_text("#receive-status")
    assert receiver.evaluate("sessionStorage.length") == 0, "nothing of it is kept"
    assert_nothing_of_the_log_sent(tabs, receiver, ["Mallory"])
    assert sum(ignored in w for w in tabs.warnings) >= 2, tabs.warnings


def test_told_by_its_opener_that_there_is_no_log_the_tab_closes_itself(tabs: Tabs, sites: Sites) -> None:
    # What the bookmarklet does when BGA refuses the log, besides asking the tab to close from its side: a close()
    # asked while the tab is on its way to its first page can be taken for done and leave it open.
    tabs.page.goto(f"{sites.bga}/table?table={GAIA_TABLE}")
    with tabs.context.expect_page() as opened:
        tabs.page.evaluate(OPEN_AND_POST, [f"{sites.ludolog.url}/import/bga/receive", [{"type": "ludolog-bga-close"}]])
    receiver = opened.value
    deadline = time.monotonic() + 30
    while not receiver.is_closed() and time.monotonic() < deadline:
        tabs.page.wait_for_timeout(100)
    assert receiver.is_closed() and tabs.context.pages == [tabs.page]
    tabs.assert_clean()


def test_a_log_the_rules_refuse_gets_the_uploads_usual_report(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/archive/replay/{BROKEN_TABLE}/?table={BROKEN_TABLE}")
    receiver = receive(tabs, sites, href)
    receiver.click("#receive-import")
    receiver.wait_for_selector("#upload-report .error", timeout=IMPORT_WAIT_MS)
    said = receiver.inner_text("#upload-report")
    assert "log and rules disagree at move 8" in said and "Refused lines" in said
    assert "/games/" not in receiver.url
    tabs.assert_clean()


def test_a_log_no_envelope_holds_is_refused_before_import_saying_why(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/archive/replay/{UNREADABLE_TABLE}/?table={UNREADABLE_TABLE}")
    with tabs.context.expect_page() as opened:
        click_bookmark(tabs, href)
    receiver = opened.value
    receiver.wait_for_selector("#receive-status .error")
    said = receiver.inner_text("#receive-status")
    assert said.startswith("This log cannot be imported: unknown log envelope") and "expected a list of packets" in said
    assert receiver.is_hidden("#receive-preview"), "no Import button for a log the upload would refuse"
    assert_nothing_of_the_log_sent(tabs, receiver, ["no packets here"])
    tabs.assert_clean()


def test_a_log_the_uploads_reader_refuses_gets_its_usual_report_after_import_and_nothing_is_stored(
        tabs: Tabs, sites: Sites, redis_server: EmbeddedRedis) -> None:
    store = redis.Redis.from_url(redis_server.url)
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/archive/replay/{SHAPELESS_TABLE}/?table={SHAPELESS_TABLE}")
    receiver = receive(tabs, sites, href)
    assert "Tokaido (log only" in receiver.inner_text("#preview-game"), "in a known envelope: shown, for the import to judge"
    uploads_before = len(store.keys("*upload*"))
    before, received = press_import(tabs, receiver)
    receiver.wait_for_selector("#upload-status .error")
    said = receiver.inner_text("#upload-status")
    assert said.startswith("This log cannot be imported: packet index 5") and "field 'channel'" in said, said
    assert_sent_once_as_the_upload(tabs, before, received)
    assert "/games/" not in receiver.url and receiver.is_enabled("#receive-import")
    assert len(store.keys("*upload*")) == uploads_before, "a refused upload stores nothing"
    tabs.assert_clean()


def test_signing_in_on_the_way_keeps_the_log(tabs: Tabs, sites: Sites) -> None:
    href = bookmark(tabs, sites)
    tabs.page.goto(f"{sites.bga}/archive/replay/{REVIEW_TABLE}/?table={REVIEW_TABLE}")
    receiver = receive(tabs, sites, href)
    receiver.click("#receive-signin a:text('sign up')")
    receiver.fill("#name", "latecomer")
    receiver.fill("#password", "correct horse")
    receiver.fill("#password2", "correct horse")
    receiver.click("button[type=submit]")
    receiver.wait_for_url(f"{sites.ludolog.url}/import/bga/receive")
    receiver.wait_for_selector("#receive-preview:not([hidden])")
    assert "Tokaido" in receiver.inner_text("#preview-game") and receiver.query_selector("#receive-signin") is None
    gid = import_game(tabs, receiver, "private")
    assert game_of(receiver, gid)["owner"] == "latecomer"
    assert receiver.evaluate("sessionStorage.length") == 0, "the log is dropped once imported"
    tabs.assert_clean()


@dataclass
class _Watched:
    """The shape ``sign_up`` takes (a page)."""

    page: Any


@pytest.mark.slow  # an accessibility sweep (axe-core over the import pages at two widths): the slow tier
def test_the_import_pages_have_no_serious_accessibility_violation(tabs: Tabs, sites: Sites, artifacts: Path) -> None:
    found: list[str] = []
    page = tabs.page
    for name, path in (("bga-import", "/import/bga"), ("help-bga-logs", "/help/bga-logs")):
        page.goto(sites.ludolog.url + path)
        _check_both_widths(page, name, artifacts, found)
        assert all(page.evaluate("[...document.images].map(i => i.complete && i.naturalWidth > 0)")), "every screenshot loads"
    href = bookmark(tabs, sites)
    page.goto(f"{sites.bga}/archive/replay/{PR_TABLE}/?table={PR_TABLE}")
    receiver = receive(tabs, sites, href)
    _check_both_widths(receiver, "bga-receive", artifacts, found)
    assert not found, "\n".join(found)
    tabs.assert_clean()


@pytest.mark.parametrize(("origin", "accepted"), [
    ("https://boardgamearena.com", True),
    ("https://en.boardgamearena.com", True),
    ("https://a.b.boardgamearena.com", True),
    ("http://en.boardgamearena.com", False),  # another scheme
    ("https://en.boardgamearena.com:8443", False),  # another port
    ("https://evilboardgamearena.com", False),  # not a subdomain, only a longer name
    ("https://boardgamearena.com.evil.example", False),
    ("null", False),  # a sandboxed frame or a file: page
])
def test_the_default_origins_accept_bga_and_its_subdomains_only(tabs: Tabs, sites: Sites, origin: str, accepted: bool) -> None:
    tabs.page.goto(f"{sites.ludolog.url}/import/bga/receive")
    answer = tabs.page.evaluate("""async ([origin, patterns]) => {
        const { originAllowed } = await import('/static/ui/js/bgaorigins.js');
        return originAllowed(origin, patterns);
    }""", [origin, list(bga_origin_patterns(DEFAULT_BGA_ORIGINS))])
    assert answer is accepted


# ---- the summary read in the browser agrees with the upload's own reader ----------------------------------------
def _envelopes(packets: list[Any], game_name: str) -> dict[str, Any]:
    """The same packets in every envelope the upload accepts (and one naming its game, as the bookmarklet sends)."""
    return {"bare": packets, "gamelogs": {"data": {"data": packets}}, "scraper": {"data": {"data": {"data": packets}}},
            "archive": {"status": 1, "data": {"logs": packets, "players": []}},
            "named gamelogs": {"data": {"data": packets}, "game_name": game_name}}


def _review_text(packets: list[Any]) -> str:
    """The log as the game review shows it, copied: "Move N : time" headers, each move's lines under them."""
    bga = parse_log(json.dumps(packets))
    lines = []
    for packet in bga.public_packets:
        said = [text for text in (render_notification(n) for n in packet.notifications) if text.strip()]
        if said and packet.move_id is not None:
            lines += [f"Move {packet.move_id} :", "12:00:07", *said]
    return "\n".join(lines)


def _logs() -> dict[str, str]:
    """Real logs (the samples, our Puerto Rico export) in each envelope, and as review text: name to log text."""
    gaia = samples.doc(samples.GAIA)
    sources = {"tokaido": list(samples.packets(samples.TOKAIDO_A)), "gaiaproject": gaia["data"]["logs"],
               "puertorico": export_doc(playout(3, 1))["data"]["logs"]}
    logs = {"gaia as BGA's archive answers it": json.dumps(gaia),
            # Our export without its setup note names no game: the role choices' mark tells it.
            "puerto rico named by no one": json.dumps(sources["puertorico"][1:])}
    for name, packets in sources.items():
        logs |= {f"{name} {kind}": json.dumps(doc) for kind, doc in _envelopes(packets, name).items()}
        logs[f"{name} review text"] = _review_text(packets)
    return logs


def _as_the_upload_reads_it(text: str) -> dict[str, Any]:
    """What the upload's reader (engine.bga) finds in the log, in the summary's terms."""
    bga = parse_log(text)
    game = detect_game(bga)
    named = game or bga.game_name
    table = None if is_our_export(bga) or bga.table_id is None else str(bga.table_id)
    moves = {p.move_id for p in bga.packets if p.move_id is not None and not p.is_private}
    steps = [move for move in to_log_only(bga).moves if move.public_lines]  # what a log-only replay steps through
    return {"game": named, "rules": game is not None, "table": table, "players": [p.name for p in bga.players],
            "moves": len(moves), "steps": len(steps)}


def test_the_summary_read_in_the_browser_agrees_with_the_uploads_reader(tabs: Tabs, sites: Sites) -> None:
    page = tabs.page
    page.goto(f"{sites.ludolog.url}/import/bga/receive")
    logs = _logs()
    read = page.evaluate("""async (logs) => {
        const { summarise } = await import('/static/ui/js/bgasummary.js');
        const games = JSON.parse(document.getElementById('bga-receive').dataset.games);
        const out = {};
        for (const [name, text] of Object.entries(logs)) {
          const { game, rules, table, players, moves, steps } = summarise(text, games);
          out[name] = { game, rules, table, players, moves, steps };
        }
        return out;
    }""", logs)
    mismatched = {name: (read[name], expected) for name, text in logs.items()
                  if read[name] != (expected := _as_the_upload_reads_it(text))}
    assert not mismatched, mismatched
    assert read.keys() == logs.keys()
    assert read["puerto rico named by no one"]["rules"] and read["tokaido review text"]["moves"] > 50


@pytest.mark.parametrize(("log", "why"), [
    ("", "the log is empty"),
    ("{broken", "the log is neither JSON nor text"),
    ('{"data": {"data": "no packets here"}}', "unknown log envelope: found a JSON object with keys data"),
    ('"just a string"', "unknown log envelope: found a JSON string"),
    ('{"status": 0, "error": "You must be logged in"}', "BGA answered with an error (status 0): 'You must be logged in'"),
    ('{"data": {"logs": 3}}', "field 'data.logs' should be an array of packets, found a JSON number"),
    ("[]", "the log holds no packets"),
])
def test_a_log_in_no_known_envelope_is_refused_in_the_browser_saying_why(tabs: Tabs, sites: Sites, log: str, why: str) -> None:
    tabs.page.goto(f"{sites.ludolog.url}/import/bga/receive")
    said = tabs.page.evaluate("""async (log) => {
        const { summarise, LogRefused } = await import('/static/ui/js/bgasummary.js');
        try { summarise(log, []); } catch (error) { return error instanceof LogRefused ? error.message : `not refused: ${error}`; }
        return 'accepted';
    }""", log)
    assert said.startswith(why), said
    with pytest.raises(BgaLogError):  # the upload's reader refuses it too
        parse_log(log)
