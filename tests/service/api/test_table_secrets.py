"""A table's secrets stay secret from its owner too (issue 45 item 10).

Once a person other than the owner has held a seat, the owner sees the table only as the owner's own seats until the
game is over, whatever they do with the seats: taking every seat back re-opens neither the full view, nor another
seat's, nor its analysis or a fork. A table with people at it is dealt from a seed the server draws: its SHA-256 is
shown from the start (seats API and page), the seed when the game is over, and it hashes to the commitment and
reproduces every draw. A seed the owner named, or a fork keeping its parent line's draws, seats the engine only.
"""

from __future__ import annotations

import hashlib
from typing import Any

from flask.testing import FlaskClient

from engine import CHANCE, draw_chance
from service.games.play import chance_uniform
from service.store.games import MAIN
from tests.service.api.helpers import Users, assert_error, branch_url
from tests.service.api.tables import BOBS_HIDDEN_MOVE, golden_table

GID = "secret-golden-city"
SEATS = 4


def _state(client: FlaskClient, users: Users, who: str, **query: str) -> Any:
    return client.get(branch_url(GID, what="state"), query_string=query, headers=users.auth(who))


def test_taking_every_seat_back_gives_the_owner_only_her_own_seats_view(app, client, users):
    golden_table(app, client, users, GID, BOBS_HIDDEN_MOVE)
    for seat in range(1, SEATS):
        taken = client.delete(branch_url(GID, what=f"seats/{seat}"), headers=users.auth("alice"))
        assert taken.status_code == 200 and taken.get_json()["holder"] == "owner"
    assert client.get(branch_url(GID, what="seats")).get_json()["live"] is True
    for view in ("full", "1", "2", "3"):
        assert_error(_state(client, users, "alice", view=view), 403, "hidden_while_played")
    mine = _state(client, users, "alice").get_json()["state"]
    assert mine["players"][0]["hand"] is not None and all(p["hand"] is None for p in mine["players"][1:])
    assert_error(_state(client, users, "carol", view="0"), 403, "hidden_while_played")
    assert_error(client.post(f"/api/games/{GID}/branches", json={"from": MAIN, "at": 20}, headers=users.auth("alice")),
                 409)
    assert_error(client.get(branch_url(GID, what="analysis")), 403, "analysis_refused_while_played")
    again = client.put(branch_url(GID, what="seats/2"), json={"holder": "engine", "level": "easy"},
                       headers=users.auth("alice"))
    assert again.status_code == 200
    assert client.delete(branch_url(GID, what="seats/2"), headers=users.auth("alice")).status_code == 200
    assert_error(_state(client, users, "alice", view="2"), 403, "hidden_while_played")
    _an_invite_never_taken_keeps_nothing(client, users)


def _an_invite_never_taken_keeps_nothing(client: FlaskClient, users: Users) -> None:
    """The rule starts when a person sits: a table whose invite nobody took is the owner's again once taken back."""
    gid = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"]},
                      headers=users.auth("alice")).get_json()["id"]
    assert client.put(branch_url(gid, what="seats/1"), json={"holder": "invite"},
                      headers=users.auth("alice")).status_code == 200
    assert client.delete(branch_url(gid, what="seats/1"), headers=users.auth("alice")).status_code == 200
    assert client.get(branch_url(gid, what="state"), query_string={"view": "full"},
                      headers=users.auth("alice")).status_code == 200, "nobody else ever sat: nothing to keep"


def test_a_named_seed_or_kept_draws_seat_the_engine_only(client, users, new_game):
    named = new_game()["id"]  # the fixture names the seed
    error = assert_error(client.put(branch_url(named, what="seats/1"), json={"holder": "invite"},
                                    headers=users.auth("alice")), 422, "draws_foreseeable")
    assert "seed was named" in error["message"]
    assert client.put(branch_url(named, what="seats/1"), json={"holder": "engine", "level": "easy"},
                      headers=users.auth("alice")).status_code == 200
    drawn = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"]},
                        headers=users.auth("alice")).get_json()
    for fork, reason in (({"chance": "keep"}, "chance: keep"), ({"seed": "mine"}, "seed was named")):
        bid = client.post(f"/api/games/{drawn['id']}/branches", json={"from": MAIN, "at": drawn["seq"]} | fork,
                          headers=users.auth("alice")).get_json()["branch"]
        error = assert_error(client.put(branch_url(drawn["id"], bid, "seats/1"), json={"holder": "invite"},
                                        headers=users.auth("alice")), 422, "draws_foreseeable")
        assert reason in error["message"]
    redraw = client.post(f"/api/games/{drawn['id']}/branches", json={"from": MAIN, "at": drawn["seq"]},
                         headers=users.auth("alice")).get_json()["branch"]
    assert client.put(branch_url(drawn["id"], redraw, "seats/1"), json={"holder": "invite"},
                      headers=users.auth("alice")).status_code == 200


def _play_the_table_to_its_end(client: FlaskClient, users: Users, gid: str) -> None:
    """Anna (alice) and Ben (bob) each play their own seat, holding whenever they may, until the game is over."""
    for _ in range(500):
        state = client.get(branch_url(gid, what="state")).get_json()
        if state["actor"] is None:
            return
        who = users.auth("alice" if state["actor"] == 0 else "bob")
        actions = [a["action"] for a in client.get(branch_url(gid, what="legal"), headers=who).get_json()["actions"]]
        played = client.post(branch_url(gid, what="actions"), headers=who,
                             json={"action": "hold" if "hold" in actions else "roll", "expected_seq": state["seq"]})
        assert played.status_code == 201, played.get_json()
    raise AssertionError("the game did not end")


def test_the_deal_seed_is_committed_at_the_start_and_revealed_at_the_end(app, client, users):
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 12}},
                       headers=users.auth("alice")).get_json()
    gid = made["id"]
    invite = client.put(branch_url(gid, what="seats/1"), json={"holder": "invite"}, headers=users.auth("alice")).get_json()
    assert client.post(f"/api/invites/{invite['invite_url'].rsplit('/', 1)[1]}", headers=users.auth("bob")).status_code == 200
    start = client.get(branch_url(gid, what="seats")).get_json()
    commitment = start["seed_sha256"]
    assert len(commitment) == 64 and "seed" not in start and start["seed_chosen"] is False
    page = client.get(f"/games/{gid}/b/main", headers=users.auth("bob")).get_data(as_text=True)
    assert commitment in page and "revealed when the game is over" in page
    _play_the_table_to_its_end(client, users, gid)
    end = client.get(branch_url(gid, what="seats")).get_json()
    assert end["seed_sha256"] == commitment
    seed = end["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment, "the seed revealed is the one committed to"
    assert seed in client.get(f"/games/{gid}/b/main").get_data(as_text=True)
    _assert_the_seed_reproduces_every_draw(app, gid, seed)


def _assert_the_seed_reproduces_every_draw(app: Any, gid: str, seed: str) -> None:
    stores = app.extensions["ludolog"].stores
    events = stores.games.events(gid, MAIN)
    position = stores.reader.position(gid, MAIN, 1)
    rules, state = position.rules, position.state
    draws = 0
    for event in events[1:]:
        if event.actor == CHANCE:
            drawn = draw_chance(rules.chance_outcomes(state), chance_uniform(seed, event.seq))
            assert rules.format_action(drawn) == event.action, event
            draws += 1
        state = rules.apply(state, rules.parse_action(event.action))
    assert draws > 3, "the game had draws to check"
