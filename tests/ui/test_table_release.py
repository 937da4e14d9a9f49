"""A seated friend's open page hears of the owner's decisions at once (issue 45 item 7): bob sits at alice's table
with its page open (never reloaded); alice takes his seat back, and his banner says so instead of a stale "Anna's
turn" (the page turns to the spectator view the server now gives him); she deletes the branch, and his banner says it
is gone. Real Chromium, the seats stream of the real app."""

from __future__ import annotations

from typing import Any

from service.store.users import UserStore
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import sign_up, wait_board


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _alices_table_with_bob(server: LiveServer, bob: str) -> tuple[str, str, str]:
    """Alice's Puerto Rico game and her fork of it where bob took seat 1 (Ben). (gid, fork, alice's token)"""
    client = server.app.test_client()
    alice = UserStore(server.app.extensions["ludolog"].stores.redis).add("alice")
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"], "seed": "rel"},
                       headers=_auth(alice)).get_json()
    gid = made["id"]
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": made["seq"]},
                       headers=_auth(alice)).get_json()["branch"]
    invite = client.put(f"/api/games/{gid}/branches/{fork}/seats/1", json={"holder": "invite"},
                        headers=_auth(alice)).get_json()["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{invite}", headers=_auth(bob)).status_code == 200
    return gid, fork, alice


def _wait_following(page: Any, view: str) -> None:
    """Until the page is ready and its branch stream is open in ``view``. The owner's decisions below must find the
    page following: a seat taken back before the page's first stream request reached the server gets that request
    refused (403, logged by the browser), an interleaving these tests do not mean to test."""
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector(f"body[data-live-view='{view}']", state="attached")


def _banner(page: Any) -> str:
    return str(page.text_content("#turn-banner") or "")


def test_the_friends_open_page_shows_the_release_then_the_deletion(watched: Watched, live_server: LiveServer) -> None:
    sign_up(watched, live_server, "bob")
    bob = UserStore(live_server.app.extensions["ludolog"].stores.redis).create_token("bob", "table")[1]
    gid, fork, alice = _alices_table_with_bob(live_server, bob)
    page = watched.page
    page.goto(f"{live_server.url}/games/{gid}/b/{fork}")
    _wait_following(page, "1")
    assert _banner(page) == "Anna's turn" and page.input_value("#view-select") == "1"
    assert page.is_visible(".seat[data-seat='1'] .seat-you")
    client = live_server.app.test_client()
    assert client.delete(f"/api/games/{gid}/branches/{fork}/seats/1", headers=_auth(alice)).status_code == 200
    page.wait_for_selector("body[data-seat-released='true']")
    page.wait_for_function("() => document.getElementById('view-select').value === 'spectator'")
    assert _banner(page).startswith("alice took back your seat (Ben): you are watching now")
    assert not page.is_visible(".seat[data-seat='1'] .seat-you")
    assert "alice (the owner)" in str(page.text_content(".seat[data-seat='1'] .seat-holder"))
    watched.assert_clean()
    assert client.delete(f"/api/games/{gid}/branches/{fork}", headers=_auth(alice)).status_code == 204
    page.wait_for_selector("body[data-branch-deleted='true']")
    assert _banner(page) == "This branch was deleted by its owner, alice: there is nothing more to play here"
    assert "turn" not in page.title()
    # a request of the page's that crossed the deletion (before the notice reached it) is answered 404, as a gone
    # branch must be: the browser logs that answer; anything else logged is a fault
    gone = "Failed to load resource: the server responded with a status of 404 (NOT FOUND)"
    assert [e for e in watched.errors if gone not in e] == [] and not watched.dialogs, watched



def test_a_deletion_crossing_the_pages_request_leaves_it_saying_the_branch_is_gone(watched: Watched,
                                                                                  live_server: LiveServer) -> None:
    """The owner takes the seat back; the page, turning to the spectator view, asks for the spectator's states, and
    the owner deletes the branch while that request is on its way (the request is held until the deletion is done:
    the interleaving a fresh clone's CI met by chance). The page is answered 404 and says the branch is gone (then who
    deleted it, from the notice), throwing nothing: before, that 404 escaped as an uncaught page error."""
    sign_up(watched, live_server, "bob")
    bob = UserStore(live_server.app.extensions["ludolog"].stores.redis).create_token("bob", "table")[1]
    gid, fork, alice = _alices_table_with_bob(live_server, bob)
    page = watched.page
    client = live_server.app.test_client()

    def delete_first(route: Any) -> None:
        assert client.delete(f"/api/games/{gid}/branches/{fork}", headers=_auth(alice)).status_code == 204
        route.continue_()

    page.route("**/states.json?*view=spectator*", delete_first, times=1)
    page.goto(f"{live_server.url}/games/{gid}/b/{fork}")
    _wait_following(page, "1")
    assert client.delete(f"/api/games/{gid}/branches/{fork}/seats/1", headers=_auth(alice)).status_code == 200
    page.wait_for_selector("body[data-branch-deleted='true']")
    page.wait_for_function("() => document.getElementById('turn-banner').textContent.startsWith('This branch was deleted')")
    gone = "Failed to load resource: the server responded with a status of 404 (NOT FOUND)"
    assert [e for e in watched.errors if gone not in e] == [] and not watched.dialogs, watched


def test_a_full_view_page_whose_view_is_withdrawn_turns_to_the_one_it_may_have(watched: Watched,
                                                                              live_server: LiveServer) -> None:
    """A stranger watches alice's branch in the full view while she plays it alone (no table: the page follows no
    seats stream). She invites someone to seat 1 and plays on: the branch stream ends saying the full view is
    withdrawn and naming the spectator view as the stranger's; the page turns to it and follows on, never asking again
    for the view it lost (before, the browser reconnected in it and was refused, a 403 in the console)."""
    client = live_server.app.test_client()
    alice = _auth(UserStore(live_server.app.extensions["ludolog"].stores.redis).add("alice"))
    made = client.post("/api/games", json={"game": "puerto_rico", "players": ["Anna", "Ben", "Cleo"]},
                       headers=alice).get_json()
    gid = made["id"]
    page = watched.page
    page.goto(f"{live_server.url}/games/{gid}/b/main?view=full")
    page.wait_for_selector("body[data-ready='true']")
    assert page.input_value("#view-select") == "full"
    assert client.put(f"/api/games/{gid}/branches/main/seats/1", json={"holder": "invite"},
                      headers=alice).status_code == 200
    legal = client.get(f"/api/games/{gid}/branches/main/legal", headers=alice).get_json()
    played = client.post(f"/api/games/{gid}/branches/main/actions", headers=alice,
                         json={"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]})
    assert played.status_code == 201, played.get_json()
    page.wait_for_function("() => document.getElementById('view-select').value === 'spectator'")
    assert page.is_disabled("#view-select option[value='full']")
    wait_board(page, played.get_json()["seq"])  # the move that withdrew the view, shown in the view given
    watched.assert_clean()
