"""Issue 46's "done when": a table people come back to, from its first click to its last move, in two real browsers
with an engine seat and a real mail server.

alice starts a Puerto Rico table from the home page's New table form (seat 0 hers, seat 1 an invite, seat 2 the engine
at easy, played by a real ``ludolog worker``); bob opens the invite link in his own browser and takes the seat. At the
table they chat; alice asks to take back her move and bob grants it on his page, and the table plays on at the new
line. The game then goes on: the people's moves through the API with their own tokens and a seeded picker (a whole game
is a few hundred decisions; the pages are what is tested, so the pages are open at the moments that need them), the
engine's from the worker. When a mayor's turn with a choice comes to alice, she places every colonist with the one form
on her page. bob turns on turn e-mails on his account page and leaves the table; when it becomes his turn he receives
exactly one e-mail on the loopback SMTP server (aiosmtpd), follows its link back to the table, which says it is his
turn, and keeps it open to the end, so no second mail comes. Both see the game end: bob's table page and alice's home
page, which lists the table under the finished ones.
"""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from ludolog.app import create_app
from service.runtime.config import Config
from service.runtime.redis_server import EmbeddedRedis, free_port
from service.store.context import Stores
from service.store.notifications import NotificationStore
from service.store.users import UserStore
from tests.helpers import ROOT, kill_with_work_horses, ludolog_env, wait_until
from tests.smtp import Inbox, SmtpServer, finished_checks
from tests.ui.conftest import LiveServer, StoredKey, Watched, restore
from tests.ui.helpers import open_home
from tests.ui.test_new_table import _second_user

#: The slow tier: a whole Puerto Rico game with two browsers, an engine and a mail server.
pytestmark = [pytest.mark.slow, pytest.mark.browser]

QUEUE = "ludolog-first-table"
SITE = "http://ludolog.test"
#: The longest a person's page or the engine may take for one step: a wait ends as soon as the page gets there.
WAIT_MS = 300_000
MAX_DECISIONS = 3000
ALICE, BOB, ENGINE = 0, 1, 2
#: The deal the table is dealt (see ``fixed_deals``): one in which alice has a mayor's choice before the game ends.
DEAL = 1


@pytest.fixture
def smtp_port() -> int:
    """The loopback mail server's port."""
    return free_port()


@pytest.fixture
def app(redis_server: EmbeddedRedis, redis_client: redis.Redis, demo_keys: list[StoredKey], smtp_port: int) -> Flask:
    """The UI app of the other browser tests, with turn e-mails through the loopback server two seconds after a turn."""
    config = Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="ui-test-secret", queue_name=QUEUE,
                    smtp_url=f"smtp://127.0.0.1:{smtp_port}", public_url=SITE, turn_mail_delay=2)
    app = create_app(config, Stores(config))
    if "replay_ui" not in app.blueprints:
        from replay_ui import blueprint

        app.register_blueprint(blueprint)
    app.testing = True
    restore(redis_client, demo_keys)
    return app


@pytest.fixture
def worker(live_server: LiveServer, redis_server: EmbeddedRedis, smtp_port: int,
           tmp_path: Path) -> Iterator[subprocess.Popen]:
    """A real ``ludolog worker``: the engine seat's moves and the turn e-mails' checks."""
    env = ludolog_env(redis_server.url, LUDOLOG_QUEUE=QUEUE, LUDOLOG_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}",
                      LUDOLOG_PUBLIC_URL=SITE, LUDOLOG_TURN_MAIL_DELAY="2")
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "worker", "--no-reconcile"], cwd=ROOT, env=env,
                                   start_new_session=True, stdout=out, stderr=subprocess.STDOUT)
    yield process
    kill_with_work_horses(process)
    print(log.read_text(errors="replace")[-3000:])  # what the worker said: shown when the test fails


class Table:
    """The table as the test drives it through the API: its game, the branch it plays on, the people's tokens."""

    def __init__(self, server: LiveServer, gid: str, tokens: dict[int, str]) -> None:
        self.client = server.app.test_client()
        self.gid, self.branch, self.tokens = gid, "main", tokens
        self.rng = random.Random(46)
        self.decisions = 0

    def url(self, what: str) -> str:
        """An API address of the branch the table plays on."""
        return f"/api/games/{self.gid}/branches/{self.branch}/{what}"

    def legal(self) -> dict[str, Any]:
        """The head, who acts there and what they may do, as alice's token reads it (the engine's seat acts by
        itself: this waits until a person or nobody is to act)."""
        return wait_until(lambda: (found := self.peek()) and found.get("actor") != ENGINE and found,
                          f"the engine's move at table {self.gid}/{self.branch}")

    def peek(self) -> dict[str, Any]:
        """The head and who acts there, at once; the actions as the person to act reads them (the route shows a
        seat's actions to that seat only)."""
        found = self._legal_as(ALICE)
        return self._legal_as(BOB) if found["actor"] == BOB else found

    def _legal_as(self, seat: int) -> dict[str, Any]:
        answer = self.client.get(self.url("legal"), headers=self.auth(seat))
        assert answer.status_code == 200, answer.get_json()
        return dict(answer.get_json())

    def auth(self, seat: int) -> dict[str, str]:
        """The Authorization header of the person at ``seat``."""
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def play_one(self, legal: dict[str, Any], prefer: str | None = None) -> None:
        """The person to move plays a seeded pick among their legal actions (``prefer``'s action when offered)."""
        actions = [a["action"] for a in legal["actions"]]
        action = prefer if prefer in actions else actions[self.rng.randrange(len(actions))]
        played = self.client.post(self.url("actions"), json={"action": action, "expected_seq": legal["seq"]},
                                  headers=self.auth(legal["actor"]))
        assert played.status_code == 201, played.get_json()
        self.decisions += 1
        assert self.decisions < MAX_DECISIONS, "the game did not end"

    def play_until(self, stop: Any, prefer: str | None = None) -> dict[str, Any]:
        """Play on until ``stop(legal)`` holds (or the game is over); the legal answer there."""
        while True:
            legal = self.legal()
            if legal["actor"] is None or stop(legal):
                return legal
            self.play_one(legal, prefer)


def _is_mayors_choice(legal: dict[str, Any]) -> bool:
    actions = [a["action"] for a in legal["actions"]]
    return len(actions) > 1 and all(a.startswith("place ") for a in actions)


def _table_from_the_home_page(alice: Any) -> tuple[str, str]:
    """alice's New table form: Puerto Rico, seat 1 an invite, seat 2 the engine at easy. (game id, invite link)"""
    alice.select_option("#new-game", "puerto_rico")
    alice.select_option("#new-holder-1", "invite")
    alice.select_option("#new-holder-2", "engine:easy")
    alice.click("#new-game-form button[type=submit]")
    link = alice.wait_for_selector(".invite-links .invite-url").get_attribute("value")
    assert link and "/invite/" in link
    return str(alice.get_attribute("#new-table-link", "href")).split("/")[2], link


def _open(page: Any, server: LiveServer, table: Table) -> None:
    page.goto(f"{server.url}/games/{table.gid}/b/{table.branch}")
    page.wait_for_selector("body[data-ready='true']")


def _chat(alice: Any, bob: Any) -> None:
    alice.fill("#chat-text", "Good evening, Ben! Shall we?")
    alice.press("#chat-text", "Enter")
    bob.wait_for_selector("#chat-messages .chat-message[data-author='alice']")
    bob.fill("#chat-text", "Gladly. Cleo is the engine, be careful.")
    bob.click("#chat-send")
    alice.wait_for_function("() => document.querySelectorAll('#chat-messages .chat-message').length === 2")


def _take_back_granted(alice: Any, bob: Any, table: Table) -> None:
    """alice asks to take back the move she just made (bob is to move), bob approves on his page, and both pages go
    to the line the table plays on at now."""
    alice.click("#takeback-ask")
    bob.wait_for_selector("#takeback-answers:not([hidden])")
    assert "alice asks to take back their last move" in str(bob.text_content("#takeback-text"))
    bob.click("#takeback-approve")
    for page in (alice, bob):
        page.wait_for_url(lambda url: f"/b/{table.branch}" not in url)
        page.wait_for_selector("body[data-ready='true']")
    table.branch = alice.url.rsplit("/b/", 1)[1].split("/")[0].split("?")[0]
    assert f"/b/{table.branch}" in bob.url
    alice.wait_for_selector("#turn-banner:has-text('Your turn')")


def _mayor_with_one_form(alice: Any, server: LiveServer, table: Table, legal: dict[str, Any]) -> None:
    """alice places every colonist with the mayor's form (each slot filled as far as the form allows, in order)."""
    _open(alice, server, table)
    alice.wait_for_selector(".turn-form[data-form='mayor'] .turn-form-confirm")
    more = alice.locator(".turn-form-slot .turn-form-more:not([disabled])")
    while not alice.is_enabled(".turn-form-confirm"):
        assert more.count(), "the form offers no more circles, and Confirm stays disabled"
        more.first.click()
    alice.click(".turn-form-confirm")
    steps = alice.wait_for_selector("body[data-steps-sent]", state="attached").get_attribute("data-steps-sent")
    done, total = str(steps).split("/")
    alice.wait_for_selector(f"body[data-steps-sent='{total}/{total}']", state="attached")
    assert int(total) >= 1 and table.legal()["seq"] > legal["seq"]
    alice.goto(server.url + "/")


def _a_new_turn_of_bob(table: Table) -> dict[str, Any]:
    """Play on to a turn of bob's that begins now. A turn that began before he asked for mail is never mailed (it was
    checked when it began): when the mayor's form hands the turn straight to bob, he plays it first."""
    table.play_until(lambda found: found["actor"] != BOB)
    legal = table.play_until(lambda found: found["actor"] == BOB)
    assert legal["actor"] == BOB, "the game ended before bob's turn came"
    return legal


def _checks_of(server: LiveServer, gid: str) -> list[str]:
    """The finished turn-mail checks of table ``gid``: what each answered (``sent``, ``page open`` …)."""
    jobs = finished_checks(server.app.extensions["ludolog"].stores.redis, QUEUE)
    return [f"{job.args[2]}: {job.return_value()}" for job in jobs if job.args[0] == gid]


def _the_one_mail(inbox: Inbox, table: Table, server: LiveServer) -> EmailMessage:
    try:
        wait_until(lambda: inbox.count() >= 1, "bob's turn e-mail")
    except AssertionError as missing:
        raise AssertionError(f"{missing}; the table's turn-mail checks said {_checks_of(server, table.gid)}") from None
    assert inbox.count() == 1
    message = inbox.messages[0]
    assert message["To"] == "bob@example.org"
    assert message["List-Unsubscribe"], "a one-click unsubscribe"
    assert f"{SITE}/games/{table.gid}/b/{table.branch}" in message.get_content()
    return message


@pytest.fixture
def fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's seeds for new lines, drawn from a fixed sequence instead of the system's randomness, so that the
    table deals the same game on every run (the people's picks are seeded too). A random deal made the test depend on
    luck: in some deals alice never had a mayor's choice before the game ended."""
    seeds = (f"first-table-{DEAL}-{n}" for n in itertools.count())
    monkeypatch.setattr("service.store.games.new_seed", lambda: next(seeds))


def test_a_new_table_played_to_its_end_with_chat_take_back_the_mayors_form_and_one_turn_mail(
        watched: Watched, browser: Any, live_server: LiveServer, worker: subprocess.Popen, smtp_port: int,
        artifacts: Path, fixed_deals: None) -> None:
    alice = open_home(watched, live_server, "alice")
    alice.set_default_timeout(WAIT_MS)
    gid, invite = _table_from_the_home_page(alice)
    bob_watched = _second_user(browser, live_server, "bob")
    bob = bob_watched.page
    bob.set_default_timeout(WAIT_MS)
    bob.goto(invite)
    bob.click("#take-seat")
    bob.wait_for_selector("body[data-ready='true']")
    users = UserStore(live_server.app.extensions["ludolog"].stores.redis)
    table = Table(live_server, gid, {ALICE: users.create_token("alice", "t")[1], BOB: users.create_token("bob", "t")[1]})

    _open(alice, live_server, table)
    _chat(alice, bob)
    # the take-back: alice moves (through the API: her page follows) until her move hands the turn to bob
    while True:
        legal = table.legal()
        assert legal["actor"] is not None, "the game ended before a take-back could be asked"
        table.play_one(legal)
        if legal["actor"] == ALICE and table.peek()["actor"] == BOB:
            break
    _take_back_granted(alice, bob, table)

    # the game goes on with the pages at home; the people choose the mayor whenever offered, until alice's form
    alice.goto(live_server.url + "/")
    bob.goto(live_server.url + "/")
    legal = table.play_until(lambda found: found["actor"] == ALICE and _is_mayors_choice(found), prefer="role mayor")
    assert legal["actor"] is not None, "the game ended before alice had a mayor's choice"
    _mayor_with_one_form(alice, live_server, table, legal)

    with SmtpServer(smtp_port) as inbox:
        bob.goto(live_server.url + "/account")
        bob.fill("#email", "bob@example.org")
        bob.check("#turn-mail")
        bob.click("#save-notifications")
        bob.wait_for_selector("#account-saved")
        # bob's table page is closed; the server counts it open until its stream's end is noticed or its lease runs
        # out (no mail while the page is open): the turn that is mailed comes after that
        notifications = NotificationStore(live_server.app.extensions["ludolog"].stores.redis)
        wait_until(lambda: not notifications.has_page_open(table.gid, table.branch, "bob"), "bob's table page closed")
        _a_new_turn_of_bob(table)
        message = _the_one_mail(inbox, table, live_server)
        link = re.search(rf"{re.escape(SITE)}(/games/\S+)", message.get_content())
        assert link
        bob.goto(live_server.url + link.group(1))
        bob.wait_for_selector("body[data-ready='true']")
        bob.wait_for_selector("#turn-banner:has-text('Your turn')")

        over = table.play_until(lambda found: False)
        assert over["actor"] is None
        bob.wait_for_selector("#turn-banner:has-text('Game over')")
        bob.screenshot(path=str(artifacts / "first-table-over.png"))
        alice.reload()
        alice.wait_for_selector(f"#finished-list .table-row[data-game='{gid}']")
        assert inbox.count() == 1, [m["Subject"] for m in inbox.messages]
    watched.assert_clean()
    assert not bob_watched.errors, bob_watched.errors
    bob.context.close()
