"""Turn alerts in the page (issue 46 item 3): in real headless Chromium with the notifications permission granted,
the user turns alerts on with the button, and when a move makes it their turn at one of their tables while two
ludolog tabs are open (the home page and the account page), the page code constructs exactly one Notification (an
init script wraps ``window.Notification`` and ``OscillatorNode.start`` to count what the page's own code does) and
plays its WebAudio chime; a move that does not make it their turn tells nothing."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.store.users import UserStore
from tests.ui.conftest import BROWSER_WAIT_MS, LiveServer

pytestmark = pytest.mark.browser
PASSWORD = "a long password"
#: Counts, in each page, the notifications and tones its code makes, then hands both to the real browser.
RECORD = """(() => {
  const Real = window.Notification;
  window.__notes = [];
  window.__tones = 0;
  function Recorded(title, options) {
    window.__notes.push({ title, body: options && options.body, tag: options && options.tag });
    return new Real(title, options);
  }
  Recorded.prototype = Real.prototype;
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recorded;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__tones += 1; return start.apply(this, args); };
})();"""


def _end_turn(client: FlaskClient, token: str, gid: str) -> None:
    """Roll, then hold (unless the roll was a 1, which ended the turn already)."""
    auth = {"Authorization": f"Bearer {token}"}
    for action in ("roll", "hold"):
        seq = client.get(f"/api/games/{gid}/branches/main/state", headers=auth).get_json()["seq"]
        client.post(f"/api/games/{gid}/branches/main/actions", json={"action": action, "expected_seq": seq}, headers=auth)


def _counts(pages: list[Any]) -> tuple[list[dict[str, Any]], int]:
    notes = [note for page in pages for note in page.evaluate("window.__notes")]
    return notes, sum(page.evaluate("window.__tones") for page in pages)


def test_one_notification_and_a_chime_when_it_becomes_your_turn(full_browser: Any, live_server: LiveServer,
                                                                 redis_client: redis.Redis) -> None:
    users = UserStore(redis_client)
    users.create("ann", PASSWORD)
    tokens = {"ann": users.new_token("ann"), "ben": users.add("ben")}
    api = live_server.app.test_client()
    made = api.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 100},
                                        "seats": [{"holder": "me"}, {"holder": "invite"}]},
                    headers={"Authorization": f"Bearer {tokens['ann']}"}).get_json()
    gid = made["id"]
    invite = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert api.post(f"/api/invites/{invite}", headers={"Authorization": f"Bearer {tokens['ben']}"}).status_code == 200

    # The full browser: the headless shell has no notification service (a granted permission reads "denied" there).
    context = full_browser.new_context(viewport={"width": 1366, "height": 768})
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(RECORD)
    errors: list[str] = []
    try:
        home = context.new_page()
        home.set_default_timeout(BROWSER_WAIT_MS)
        home.on("pageerror", lambda exc: errors.append(str(exc)))
        home.goto(f"{live_server.url}/signin")
        home.fill("#name", "ann")
        home.fill("#password", PASSWORD)
        home.click("button[type=submit]")
        home.wait_for_selector("text=Signed in as")
        home.goto(f"{live_server.url}/")
        home.wait_for_selector("body[data-ready='true']")
        home.click("#my-tables [data-turn-alerts]")
        home.wait_for_selector("#my-tables [data-turn-alerts][aria-pressed='true']")
        account = context.new_page()
        account.set_default_timeout(BROWSER_WAIT_MS)
        account.on("pageerror", lambda exc: errors.append(str(exc)))
        account.goto(f"{live_server.url}/account")
        account.wait_for_selector("[data-turn-alerts][aria-pressed='true']")  # on in this tab too: the same browser
        account.wait_for_function("() => document.body.dataset.turnAlertsChecked")
        pages = [home, account]
        _, tones_before = _counts(pages)

        _end_turn(api, tokens["ann"], gid)  # ann's own move: Ben's turn now, nothing to tell her
        home.wait_for_selector(f"#tables-list li[data-game='{gid}']:not(.your-turn)")
        before = account.evaluate("Date.now()")
        _end_turn(api, tokens["ben"], gid)  # Ben's move makes it ann's turn
        home.wait_for_selector(f"#tables-list li.your-turn[data-game='{gid}']")
        for page in pages:  # each tab has taken in the list that says so
            page.wait_for_function("t => Number(document.body.dataset.turnAlertsChecked) > t"
                                   " && document.body.dataset.turnAlertsWaiting === '1'", arg=before)
        notes, tones = _counts(pages)
        assert len(notes) == 1, notes
        assert notes[0]["title"].startswith("Your turn: ") and notes[0]["body"].startswith("Anna is to move")
        assert notes[0]["tag"] == f"ludolog-turn-{gid}/main"
        assert tones - tones_before == 2, "the two notes of the chime"
        account.close()
        home.goto(f"{live_server.url}/games/{gid}/b/main")  # the table's Seats card offers the switch too, on
        home.wait_for_selector("#seats-section [data-turn-alerts][aria-pressed='true']")
        assert errors == []
    finally:
        context.close()
