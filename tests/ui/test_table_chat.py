"""A table's chat and its take-back requests in real browsers (issue 46 item 6): alice and bob, each in their own
browser context, sit at alice's Puerto Rico table (seat 2 the engine's; no worker runs, so it never moves here).

* Chat: alice writes with the keyboard only (Enter sends) and bob's open page shows it at once; bob sends markup (an
  ``<img onerror>`` and a ``<script>``) and both pages show it as text, running nothing; alice, the owner, deletes his
  message and it goes from his page too.
* Take-back: alice asks to take back her last move; bob's page shows the request with Approve and Decline; he
  declines, and alice's page says so; she asks again, he approves, and both pages go to the new line the table plays
  on at, where it is alice's move again.
"""

from __future__ import annotations

from typing import Any

from service.store.users import UserStore
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import sign_up
from tests.ui.test_new_table import _second_user

MARKUP = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def table_with_bob(server: LiveServer, alice: str, bob: str) -> str:
    """Alice's new Puerto Rico table: seat 0 hers, seat 1 bob's (he took the invite), seat 2 the engine's. Its id."""
    client = server.app.test_client()
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"],
                                           "seats": [{"holder": "me"}, {"holder": "invite"},
                                                     {"holder": "engine", "level": "easy"}]},
                       headers=_auth(alice)).get_json()
    token = made["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=_auth(bob)).status_code == 200
    return str(made["id"])


def alice_and_bob(watched: Watched, browser: Any, server: LiveServer) -> tuple[Watched, Watched, str, str]:
    """alice signed in on ``watched``, bob in a context of his own; their API tokens."""
    sign_up(watched, server, "alice")
    bob = _second_user(browser, server, "bob")
    users = UserStore(server.app.extensions["ludolog"].stores.redis)
    return watched, bob, users.create_token("alice", "test")[1], users.create_token("bob", "test")[1]


def open_table(page: Any, server: LiveServer, gid: str, bid: str = "main") -> None:
    page.goto(f"{server.url}/games/{gid}/b/{bid}")
    page.wait_for_selector("body[data-ready='true']")


def _message_texts(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#chat-messages .chat-text").all_text_contents()]


def test_two_players_chat_live_and_what_they_type_stays_text(watched: Watched, browser: Any,
                                                             live_server: LiveServer) -> None:
    alice, bob, alice_token, bob_token = alice_and_bob(watched, browser, live_server)
    gid = table_with_bob(live_server, alice_token, bob_token)
    for person in (alice, bob):
        open_table(person.page, live_server, gid)
        assert person.page.is_visible("#chat-section") and person.page.is_visible("#chat-empty")
    alice.page.focus("#chat-text")
    alice.page.keyboard.type("Good evening, Ben!")
    alice.page.keyboard.press("Enter")
    bob.page.wait_for_selector("#chat-messages .chat-message[data-author='alice']")
    assert _message_texts(bob.page) == ["Good evening, Ben!"]
    # bob's stream may bring the message before alice's own post has answered: wait for her page, not his
    alice.page.wait_for_function("() => document.getElementById('chat-text').value === ''")
    assert _message_texts(alice.page) == ["Good evening, Ben!"]
    bob.page.fill("#chat-text", MARKUP)
    bob.page.click("#chat-send")
    for person in (alice, bob):
        person.page.wait_for_function("() => document.querySelectorAll('#chat-messages .chat-message').length === 2")
        assert _message_texts(person.page)[-1] == MARKUP
        assert person.page.locator("#chat-messages img, #chat-messages script").count() == 0
        assert person.page.evaluate("window.pwned") is None, "the message ran as markup"
    # bob may delete his own message only; alice, the owner, any
    assert bob.page.locator(".chat-message[data-author='alice'] .chat-delete").count() == 0
    alice.page.focus(".chat-message[data-author='bob'] .chat-delete")
    alice.page.keyboard.press("Enter")
    bob.page.wait_for_function("() => document.querySelectorAll('#chat-messages .chat-message').length === 1")
    assert _message_texts(bob.page) == ["Good evening, Ben!"] and _message_texts(alice.page) == ["Good evening, Ben!"]
    alice.assert_clean()
    assert not bob.errors


def _alices_turn_played(server: LiveServer, gid: str, alice: str) -> None:
    """Alice plays her decisions through the API until the table waits for bob."""
    client = server.app.test_client()
    for _ in range(20):
        state = client.get(f"/api/games/{gid}/branches/main/legal", headers=_auth(alice)).get_json()
        if state.get("actor") != 0:
            return
        action = state["actions"][0]["action"]
        answer = client.post(f"/api/games/{gid}/branches/main/actions", json={"action": action,
                                                                              "expected_seq": state["seq"]},
                             headers=_auth(alice))
        assert answer.status_code == 201, answer.get_json()
    raise AssertionError("alice's turn never passed")


def test_a_take_back_request_is_declined_then_granted_on_both_pages(watched: Watched, browser: Any,
                                                                    live_server: LiveServer) -> None:
    alice, bob, alice_token, bob_token = alice_and_bob(watched, browser, live_server)
    gid = table_with_bob(live_server, alice_token, bob_token)
    _alices_turn_played(live_server, gid, alice_token)
    for person in (alice, bob):
        open_table(person.page, live_server, gid)
    assert bob.page.is_hidden("#takeback-answers")
    alice.page.click("#takeback-ask")
    alice.page.wait_for_selector("#takeback-text:has-text('waiting for bob')")
    bob.page.wait_for_selector("#takeback-answers:not([hidden])")
    assert "alice asks to take back their last move" in str(bob.page.text_content("#takeback-text"))
    bob.page.click("#takeback-decline")
    alice.page.wait_for_selector("#takeback-text:has-text('bob declined your take-back')")
    assert bob.page.is_hidden("#takeback-answers")

    alice.page.click("#takeback-ask")
    bob.page.wait_for_selector("#takeback-answers:not([hidden])")
    bob.page.click("#takeback-approve")
    for person in (alice, bob):
        person.page.wait_for_url(lambda url: "/b/main" not in url)
        person.page.wait_for_selector("body[data-ready='true']")
    new = alice.page.url.rsplit("/b/", 1)[1].split("/")[0].split("?")[0]
    assert bob.page.url.rsplit("/b/", 1)[1].startswith(new)
    assert "the table plays on here" in str(alice.page.text_content("#takeback-text"))
    alice.page.wait_for_selector("#turn-banner:has-text('Your turn')")
    assert "Anna's turn" in str(bob.page.text_content("#turn-banner"))
    alice.assert_clean()
    assert not bob.errors


def bobs_busy_table(watched: Watched, server: LiveServer) -> str:
    """bob signed in on ``watched``, at alice's table where both have talked (a long word among it) and alice has asked
    to take back her last move: his page shows every part of the chat and the request. The table's id."""
    sign_up(watched, server, "bob")
    users = UserStore(server.app.extensions["ludolog"].stores.redis)
    alice, bob = users.add("alice"), users.create_token("bob", "test")[1]
    gid = table_with_bob(server, alice, bob)
    client = server.app.test_client()
    for token, text in ((alice, "Shall we?"), (bob, "Sure! " + "a" * 80), (alice, "Oops\nwrong role")):
        assert client.post(f"/api/games/{gid}/branches/main/chat", json={"text": text}, headers=_auth(token)).status_code == 201
    _alices_turn_played(server, gid, alice)
    assert client.post(f"/api/games/{gid}/branches/main/takeback-request", json={}, headers=_auth(alice)).status_code == 201
    return gid
