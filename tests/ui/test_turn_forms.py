"""A turn of many steps in one form (issue 46 item 5), in headless Chromium: at a live Puerto Rico table (a fork of the
demo game at a mayor phase, another seat given to the engine), the mayor places all of a player's colonists with one
form: the board shows the arrangement as it is built, Confirm sends it as the engine's own steps, and the events
stored are those of placing the colonists one by one. A step refused midway (a real racing move, sent while the
form's second step is held back) is said on the page, with what was played before it, and the page shows the game
as it stands."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import get_rules
from engine.puerto_rico.mayor import free_at
from engine.puerto_rico.state import PLACE
from service.games.play import PlayService
from service.store.users import UserStore
from tests.ui.conftest import DEMO_PR, LiveServer, Watched
from tests.ui.helpers import demo_states, open_game, sign_up, wait_board

pytestmark = pytest.mark.browser


def _mayor_turn() -> tuple[int, Any]:
    """The first position of the Puerto Rico demo where a player places at least three colonists on at least three
    places (a choice the engine asks about): its seq and state."""
    for seq, state in enumerate(demo_states("puerto_rico"), start=1):
        if state.phase != PLACE or state.last_slot:
            continue
        player = state.players[state.turn]
        places = [slot for slot in range(29) if free_at(player, slot)]
        if player.san_juan >= 3 and len(places) >= 3:
            return seq, state
    raise AssertionError("the demo game has no mayor turn with a choice")


def _table_at_mayor(server: LiveServer) -> tuple[str, int, Any]:
    """alice's fork of the demo at a mayor turn, made a table (another seat is the engine's; no worker runs, so it
    never moves here): the fork, its head and the state there."""
    seq, state = _mayor_turn()
    users = UserStore(server.app.extensions["ludolog"].stores.redis)
    auth = {"Authorization": f"Bearer {users.create_token('alice', 't')[1]}"}
    client = server.app.test_client()
    fork = client.post(f"/api/games/{DEMO_PR}/branches", json={"from": "main", "at": seq}, headers=auth)
    assert fork.status_code == 201, fork.get_json()
    bid = fork.get_json()["branch"]
    engine_seat = (state.turn + 1) % len(state.players)
    assigned = client.put(f"/api/games/{DEMO_PR}/branches/{bid}/seats/{engine_seat}",
                          json={"holder": "engine", "level": "easy"}, headers=auth)
    assert assigned.status_code == 200, assigned.get_json()
    return bid, seq, state


def _arrangement(state: Any) -> list[int]:
    """The colonists' places to choose: as late in board order as they fit (not the form's first offer), one slot
    per colonist, in slot order."""
    player = state.players[state.turn]
    left, slots = player.san_juan, []
    for slot in reversed(range(29)):
        take = min(left, free_at(player, slot))
        slots[:0] = [slot] * take
        left -= take
    assert not left
    return slots


def _one_by_one(state: Any, slots: list[int]) -> list[str]:
    """The colonists placed one at a time through the engine's legal actions: each step must be on offer."""
    rules = get_rules("puerto_rico")
    notations = []
    for slot in slots:
        action = ("place", slot)
        assert action in rules.legal_actions(state), f"place {slot} not offered"
        notations.append(rules.format_action(action))
        state = rules.apply(state, action)
    return notations


def _place_with_form(page: Any, slots: list[int]) -> None:
    for slot in slots:
        page.click(f".turn-form-slot[data-slot='{slot}'] .turn-form-more")


def _events_after(server: LiveServer, bid: str, seq: int) -> list[dict[str, Any]]:
    games = server.app.extensions["ludolog"].stores.games
    return [{"actor": e.actor, "action": e.action} for e in games.events(DEMO_PR, bid, after=seq)]


def test_the_mayor_places_every_colonist_with_one_form(live_server: LiveServer, watched: Watched) -> None:
    sign_up(watched, live_server, "alice")
    bid, seq, state = _table_at_mayor(live_server)
    page = open_game(watched, live_server, gid=DEMO_PR, bid=bid)
    page.wait_for_selector(".turn-form[data-form='mayor'] .turn-form-confirm")
    slots = _arrangement(state)
    assert page.is_disabled(".turn-form-confirm"), "not every colonist has a circle yet"
    sanjuan = f".pr-player:nth-child({state.turn + 1}) .sanjuan strong"
    before = int(page.inner_text(sanjuan))
    _place_with_form(page, slots[:1])
    page.wait_for_selector("#board[data-preview='true']", state="attached")
    assert int(page.inner_text(sanjuan)) == before - 1, "the board shows the colonist placed"
    assert _events_after(live_server, bid, seq) == [], "nothing is sent before Confirm"
    _place_with_form(page, slots[1:])
    page.click(".turn-form-confirm")
    page.wait_for_selector(f"body[data-steps-sent='{len(slots)}/{len(slots)}']", state="attached")
    page.wait_for_function("head => window.ludolog.head >= head && window.ludolog.seq === window.ludolog.head",
                           arg=seq + len(slots))

    expected = [{"actor": state.turn, "action": notation} for notation in _one_by_one(state, slots)]
    assert _events_after(live_server, bid, seq)[:len(slots)] == expected
    assert page.is_hidden("#play-notice")
    watched.assert_clean()


def test_a_step_refused_midway_is_said_and_the_page_shows_the_game_as_it_stands(live_server: LiveServer,
                                                                               watched: Watched) -> None:
    sign_up(watched, live_server, "alice")
    bid, seq, state = _table_at_mayor(live_server)
    page = open_game(watched, live_server, gid=DEMO_PR, bid=bid)
    page.wait_for_selector(".turn-form[data-form='mayor'] .turn-form-confirm")
    slots = _arrangement(state)
    _place_with_form(page, slots)
    stores = live_server.app.extensions["ludolog"].stores
    rival = _one_by_one(state, slots)[:2]
    posts: list[int] = []

    def race(route: Any) -> None:
        """Hold the form's second step until another move (the same seat's, from elsewhere) took its seq."""
        posts.append(json.loads(route.request.post_data)["expected_seq"])
        if len(posts) == 2:
            PlayService(stores.games, stores.reader).play(DEMO_PR, bid, rival[1], seq + 1, author="alice")
        route.continue_()

    page.route(f"**/api/games/{DEMO_PR}/branches/{bid}/actions", race)
    page.click(".turn-form-confirm")
    page.wait_for_selector("#play-notice:not([hidden])")
    notice = page.inner_text("#play-notice")
    assert notice.startswith(f"Step 2 of {len(slots)} ({rival[1]}) was refused: "), notice
    assert "The step before it was played" in notice, notice
    assert posts == [seq, seq + 1], "no step after the refused one was sent"
    wait_board(page, seq + 2)  # the true head: the form's first step and the racing move
    assert [e["action"] for e in _events_after(live_server, bid, seq)] == rival
    assert page.get_attribute("#board", "data-preview") is None
