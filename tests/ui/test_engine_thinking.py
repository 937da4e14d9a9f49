"""The engine at the table (issue 46 item 4), in two real browsers with a real ``ludolog worker``: while an engine
seat's job searches its move, the page of the other player (and the owner's) says "the engine is thinking", and the
line goes when the move lands; the next time it says about how long its level takes here. A worker SIGKILLed with its
work horse while the engine thinks: the pages do not say "thinking" for ever, they say the move stopped and is tried
again, and the move lands once another worker runs. A move that fails reading its game (a real fault in the store) is
said failed without the seat it could not read, and lands once the store is mended. The seats card explains each
level with its measured strength."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.store import keys
from service.store.notifications import NotificationStore
from service.store.users import UserStore
from tests.helpers import kill_with_work_horses, started_workers, wait_until
from tests.ui.conftest import BROWSER_WAIT_MS, LiveServer, Watched
from tests.ui.helpers import open_game, sign_up

pytestmark = pytest.mark.browser

THINKING = "The engine is thinking for Cleo"


@pytest.fixture
def bob(browser: Any) -> Iterator[Watched]:
    """The second browser (cookies of its own): bob, who holds seat 1."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.set_default_timeout(BROWSER_WAIT_MS)
    page = context.new_page()
    watched = Watched(page)
    page.on("pageerror", lambda exc: watched.errors.append(f"page error: {exc}"))
    yield watched
    context.close()


@pytest.fixture
def workers(live_server: LiveServer, redis_server: Any) -> Iterator[Any]:
    """Start real workers on the app's queues (``start(**env)``); every one still running is killed afterwards."""
    queue = live_server.app.extensions["ludolog"].stores.config.queue_name
    with started_workers(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=queue) as start:
        yield start


class Table:
    """alice's Puerto Rico table: seat 0 hers, seat 1 bob's (by invite), seat 2 the engine at ``level``."""

    def __init__(self, server: LiveServer, level: str) -> None:
        users = UserStore(server.app.extensions["ludolog"].stores.redis)
        if not users.exists("bob"):  # bob plays through the API only (no browser of his in this test)
            users.create("bob", "correct horse")
        self.auth = {seat: {"Authorization": f"Bearer {users.create_token(name, 't')[1]}"}
                     for seat, name in ((0, "alice"), (1, "bob"))}
        self.client: FlaskClient = server.app.test_client()
        seats = [{"holder": "me"}, {"holder": "invite"}, {"holder": "engine", "level": level}]
        made = self.client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"],
                                                    "seats": seats}, headers=self.auth[0]).get_json()
        self.gid, self.bid = made["id"], made["branch"]
        invite = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
        assert self.client.post(f"/api/invites/{invite}", headers=self.auth[1]).status_code == 200
        self.stores = server.app.extensions["ludolog"].stores

    def to_move(self) -> Any:
        position = self.stores.reader.position(self.gid, self.bid)
        return position.rules.current_actor(position.state)

    def head(self) -> int:
        return self.stores.games.head(self.gid, self.bid)

    def play_people_until_the_engine_moves(self) -> int:
        """alice and bob play their first legal move (through the API, each with their own token) until the engine's
        seat is to move; the head there."""
        api = f"/api/games/{self.gid}/branches/{self.bid}"
        while (actor := self.to_move()) != 2:
            assert actor in (0, 1), actor
            legal = self.client.get(f"{api}/legal", headers=self.auth[actor]).get_json()
            answer = self.client.post(f"{api}/actions", json={"action": legal["actions"][0]["action"],
                                                               "expected_seq": legal["seq"]}, headers=self.auth[actor])
            assert answer.status_code in (200, 201), answer.get_json()
        return self.head()


#: Records every text the engine's line shows (a quick move may show it for less than a frame of a polling wait).
WATCH = """() => { window.engineSaid = []; const box = document.getElementById('engine-status');
  new MutationObserver(() => { if (box.textContent) window.engineSaid.push(box.textContent); })
    .observe(box, { childList: true, characterData: true, subtree: true }); }"""


def _watch(page: Any) -> Any:
    page.evaluate(WATCH)
    return page


def _said_so_far(page: Any) -> int:
    return int(page.evaluate("window.engineSaid.length"))


def _thinking_shown(page: Any, after: int = 0) -> str:
    """The first "thinking" line the page showed after its ``after``-th text."""
    found = page.wait_for_function("([prefix, after]) => window.engineSaid.slice(after).find(t => t.startsWith(prefix))",
                                   arg=[THINKING, after])
    return str(found.json_value())


def _thinking_in_store(table: Table) -> None:
    wait_until(lambda: (table.stores.engine_status.status(table.gid, table.bid) or {}).get("state") == "thinking",
               "the engine's search started")


def test_every_page_at_the_table_says_the_engine_thinks_until_its_move_lands(
        live_server: LiveServer, watched: Watched, bob: Watched, workers: Any) -> None:
    sign_up(watched, live_server, "alice")
    sign_up(bob, live_server, "bob")
    table = Table(live_server, "normal")
    alices = _watch(open_game(watched, live_server, gid=table.gid, bid=table.bid))
    engine_at = table.play_people_until_the_engine_moves()
    bobs = _watch(open_game(bob, live_server, gid=table.gid, bid=table.bid))
    assert bobs.is_hidden("#engine-status"), "queued, not thinking yet: no worker runs"

    workers()
    said = _thinking_shown(bobs)
    assert said.endswith(" s so far)") and "(normal)" in said and "about" not in said, said  # no move timed yet
    _thinking_shown(alices)
    bobs.wait_for_function("head => Number(document.body.dataset.liveHead || 0) > head", arg=engine_at)
    bobs.wait_for_selector("#engine-status", state="hidden")
    assert table.head() > engine_at

    # The engine's next move: its level has a measured think time now.
    if table.to_move() == 2:  # the engine may move twice in a row; wait for the people's turn first
        wait_until(lambda: table.to_move() != 2, "the engine's moves in a row done", seconds=300)
    seen = _said_so_far(bobs)
    table.play_people_until_the_engine_moves()
    said = _thinking_shown(bobs, after=seen)
    assert "(about " in said and " s; " in said, said
    assert not bob.errors, bob.errors


def test_a_worker_killed_while_the_engine_thinks_is_said_and_the_move_still_lands(
        live_server: LiveServer, watched: Watched, workers: Any) -> None:
    sign_up(watched, live_server, "alice")
    table = Table(live_server, "strong")
    engine_at = table.play_people_until_the_engine_moves()
    page = _watch(open_game(watched, live_server, gid=table.gid, bid=table.bid))
    first = workers()
    _thinking_in_store(table)
    kill_with_work_horses(first)
    assert table.head() == engine_at, "killed before the engine could move (else this test tests nothing)"
    _thinking_shown(page)

    # No worker runs: once the search's lease lapses, the page's seats stream says it stopped.
    page.wait_for_selector("body[data-engine='failed']", timeout=90_000)
    said = page.inner_text("#engine-status")
    assert said.startswith("The engine's move for Cleo stopped: the worker running it stopped"), said
    assert said.endswith("it is tried again."), said

    seen = _said_so_far(page)
    workers(LUDOLOG_HEAL_EVERY="1")  # its upkeep queues the stopped move again at once
    _thinking_shown(page, after=seen)
    page.wait_for_function("head => Number(document.body.dataset.liveHead || 0) > head", arg=engine_at)
    page.wait_for_selector("#engine-status", state="hidden")
    events = table.stores.games.events(table.gid, table.bid, after=engine_at)
    assert events[0].actor == 2 and events[0].seq == engine_at + 1


def test_a_move_that_failed_reading_its_game_is_said_without_the_seat_it_could_not_read(
        live_server: LiveServer, watched: Watched, workers: Any) -> None:
    """A real fault before the search: the branch's record in the store made unreadable once the page is open. The
    job and its failure callback cannot read which seat moves; the page says the move failed (naming nobody, rather than
    "undefined") and is tried again; mended, RQ's retry plays it and the line goes."""
    sign_up(watched, live_server, "alice")
    table = Table(live_server, "easy")
    engine_at = table.play_people_until_the_engine_moves()
    page = _watch(open_game(watched, live_server, gid=table.gid, bid=table.bid))
    # the fault breaks every reader of the branch, the page's own streams too: it comes once they follow the table
    page.wait_for_selector("body[data-seats-followed='true']", state="attached")
    notifications = NotificationStore(table.stores.redis)
    wait_until(lambda: notifications.has_page_open(table.gid, table.bid, "alice"), "the page's live stream open")
    store, where = table.stores.redis, keys.branches_for(table.gid)
    kept = store.hget(where, table.bid)
    store.hset(where, table.bid, "unreadable")
    workers()
    page.wait_for_selector("body[data-engine='failed']")
    assert page.inner_text("#engine-status") == "The engine's move failed; it is tried again."
    assert table.head() == engine_at
    store.hset(where, table.bid, kept)  # mended: RQ's next try plays the move
    page.wait_for_function("head => Number(document.body.dataset.liveHead || 0) > head", arg=engine_at)
    page.wait_for_selector("#engine-status", state="hidden")


def test_the_seats_card_explains_each_level_with_its_measured_strength(live_server: LiveServer,
                                                                     watched: Watched) -> None:
    sign_up(watched, live_server, "alice")
    table = Table(live_server, "easy")
    page = open_game(watched, live_server, gid=table.gid, bid=table.bid)
    page.click("#engine-levels summary")
    strong = " ".join(page.inner_text("#engine-levels dd[data-level='strong']").split())
    assert strong.startswith("The search player that writes the analysis, at 200 rollouts a move."), strong
    assert "against 2 copies of the shipping bot, it won" in strong and "an equal player wins 33 %" in strong, strong
    assert "A move here: not timed yet." in strong, strong
    easy = " ".join(page.inner_text("#engine-levels dd[data-level='easy']").split())
    assert easy.startswith("The tree search's most visited move after 16 rollouts."), easy
    watched.assert_clean()

