"""A new game with seats (issue 46 item 1): ``POST /api/games`` seats every player in the same request, so that the
game is a table from its first moment; a table with an invited person is dealt from a secret seed the server draws;
every bad input is a 400 naming its field. Real Redis, the real play service."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine import get_rules
from service.api.schemas import GameCreatedSchema
from service.store.games import MAIN
from tests.service.api.helpers import Users, assert_error, assert_matches, branch_url

GAMES_AND_COUNTS = [(game, count) for game in ("puerto_rico", "entdecker", "amerigo", "golden_city")
                    for count in range(get_rules(game).min_players, get_rules(game).max_players + 1)]


def _create(client: FlaskClient, users: Users, body: dict[str, Any], who: str = "alice") -> Any:
    return client.post("/api/games", json=body, headers=users.auth(who))


def _table(game: str, count: int) -> dict[str, Any]:
    """Seat 0 the caller's, seat 1 an invite, the rest the engine's."""
    seats = [{"holder": "me"}, {"holder": "invite"}] + [{"holder": "engine", "level": "easy"}] * (count - 2)
    return {"game": game, "players": [f"P{n}" for n in range(count)], "seats": seats}


@pytest.mark.parametrize(("game", "count"), GAMES_AND_COUNTS)
def test_every_game_at_every_count_its_rules_allow_starts_seated(client: FlaskClient, users: Users, game: str,
                                                                  count: int) -> None:
    response = _create(client, users, _table(game, count))
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert_matches(GameCreatedSchema, body)
    assert body["branch"] == MAIN and body["url"] == f"/games/{body['id']}/b/main"
    assert [s["holder"] for s in body["seats"]] == ["owner", "invited"] + ["engine"] * (count - 2)
    assert body["seats"][1]["invite_url"].startswith("http://localhost/invite/")
    seats = client.get(branch_url(body["id"], what="seats")).get_json()
    assert [s["holder"] for s in seats["seats"]] == ["owner", "invited"] + ["engine"] * (count - 2)
    assert seats["live"] is True and seats["seed_chosen"] is False and "seed" not in seats


def test_the_invite_seats_the_friend_and_the_table_plays_as_a_forks_does(client: FlaskClient, users: Users) -> None:
    body = _create(client, users, {"game": "pig", "players": ["Anna", "Ben"],
                                   "seats": [{"holder": "me"}, {"holder": "invite"}]}).get_json()
    token = body["seats"][1]["invite_url"].rsplit("/", 1)[1]
    assert client.post(f"/api/invites/{token}", headers=users.auth("bob")).status_code == 200
    seats = client.get(branch_url(body["id"], what="seats")).get_json()["seats"]
    assert [s["holder"] for s in seats] == ["owner", "bob"]
    # bob may not move for alice's seat, and alice may not read the full view of a live table
    move = client.post(branch_url(body["id"], what="actions"), json={"action": "roll", "expected_seq": body["seq"]},
                       headers=users.auth("bob"))
    assert_error(move, 403)
    assert_error(client.get(branch_url(body["id"], what="state") + "?view=full", headers=users.auth("alice")), 403)
    assert client.post(branch_url(body["id"], what="actions"), json={"action": "roll", "expected_seq": body["seq"]},
                       headers=users.auth("alice")).status_code == 201


def test_a_table_with_a_person_gets_a_secret_seed_committed_by_its_hash(client: FlaskClient, users: Users, app) -> None:
    body = _create(client, users, _table("golden_city", 3)).get_json()
    seats = client.get(branch_url(body["id"], what="seats")).get_json()
    seed = app.extensions["ludolog"].games.branch(body["id"], MAIN).seed
    assert len(seed) >= 22 and seats["seed_sha256"] == hashlib.sha256(seed.encode()).hexdigest()
    other = _create(client, users, _table("golden_city", 3)).get_json()
    assert app.extensions["ludolog"].games.branch(other["id"], MAIN).seed != seed, "a fresh deal per table"


def test_a_named_seed_is_for_a_table_of_the_engine_only(client: FlaskClient, users: Users) -> None:
    engine_only = {"game": "pig", "players": ["Anna", "Ben"], "seed": "lesson",
                   "seats": [{"holder": "me"}, {"holder": "engine", "level": "normal"}]}
    response = _create(client, users, engine_only)
    assert response.status_code == 201, response.get_json()
    seats = client.get(branch_url(response.get_json()["id"], what="seats")).get_json()
    assert seats["seed_chosen"] is True and seats["seed_sha256"] == hashlib.sha256(b"lesson").hexdigest()
    error = assert_error(_create(client, users, engine_only | {"seats": [{"holder": "me"}, {"holder": "invite"}]}), 400)
    assert "seed" in error["details"]["fields"], error


@pytest.mark.parametrize(("change", "field", "says"), [
    ({"game": "chess"}, "game", "unknown game 'chess'"),
    ({"players": ["A", "B"], "seats": [{"holder": "me"}, {"holder": "invite"}]}, "players", "3 to 5 players, got 2"),
    ({"players": ["A", "B", "C", "D", "E", "F"], "seats": [{"holder": "me"}] * 6}, "players", "3 to 5 players, got 6"),
    ({"seats": [{"holder": "me"}, {"holder": "invite"}]}, "seats", "3 players, 2 seats"),
    ({"seats": [{"holder": "me"}, {"holder": "engine", "level": "godlike"}, {"holder": "me"}]}, "seats", "easy"),
    ({"seats": [{"holder": "me"}, {"holder": "engine"}, {"holder": "me"}]}, "seats", "needs a level"),
    ({"seats": [{"holder": "me"}, {"holder": "friend"}, {"holder": "me"}]}, "seats", "invite"),
    ({"seed": "mine"}, "seed", "secret"),
    ({"visibility": "private"}, "visibility", "private"),
])
def test_every_bad_input_is_a_400_naming_its_field(client: FlaskClient, users: Users, change: dict[str, Any],
                                                   field: str, says: str) -> None:
    body = _table("puerto_rico", 3) | change
    error = assert_error(_create(client, users, body), 400)
    assert says in str(error["details"]["fields"][field]), error
    assert client.get("/api/games").get_json()["games"] == [], "nothing stored"


def test_nobody_ever_reads_the_game_with_every_seat_the_owners(client: FlaskClient, users: Users, app) -> None:
    """A reader racing the creation sees no game (404) or the table seated, never a game whose seats are all alice's."""
    seen: list[list[str]] = []
    stop = threading.Event()
    reader = app.test_client()

    def watch() -> None:
        while not stop.is_set():
            listed = reader.get("/api/games").get_json()["games"]
            for game in listed:
                seats = reader.get(branch_url(game["id"], what="seats")).get_json()
                seen.append([s["holder"] for s in seats["seats"]])

    thread = threading.Thread(target=watch)
    thread.start()
    try:
        for _ in range(10):
            assert _create(client, users, {"game": "pig", "players": ["A", "B"],
                                           "seats": [{"holder": "me"}, {"holder": "invite"}]}).status_code == 201
    finally:
        stop.set()
        thread.join()
    assert seen and all(holders == ["owner", "invited"] for holders in seen), seen
