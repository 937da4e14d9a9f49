"""Games: create, list with visibility and filters, show with the branch tree."""

from __future__ import annotations

import pytest

from service.api.schemas import GameCreatedSchema, GameDetailSchema, GameListSchema
from tests.service.api.helpers import assert_error, assert_matches


def test_create_game_answers_id_main_and_head(client, users):
    response = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "seed": "x"}, headers=users.auth("alice"))
    assert response.status_code == 201
    body = response.get_json()
    assert_matches(GameCreatedSchema, body)
    assert body["branch"] == "main"
    assert body["seq"] == 3  # game_created + two bluff draws, drawn by the server at creation
    assert response.headers["Location"] == f"/api/games/{body['id']}"


def test_same_seed_gives_same_opening_draws(client, users, new_game):
    first, second = new_game(seed="same"), new_game(seed="same")
    events = [client.get(f"/api/games/{g['id']}/branches/main/events").get_json()["events"] for g in (first, second)]
    assert [e["action"] for e in events[0]] == [e["action"] for e in events[1]]


def test_create_needs_a_token(client, users):
    body = {"game": "pig", "players": ["Anna", "Ben"]}
    error = assert_error(client.post("/api/games", json=body), 401, "unauthorized")
    assert "Bearer" in error["message"]
    assert_error(client.post("/api/games", json=body, headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    assert_error(client.post("/api/games", json=body, headers={"Authorization": "Basic abc"}), 401, "unauthorized")
    assert client.get("/api/games").get_json()["games"] == []


def test_create_refuses_unknown_game_and_bad_setup(client, users):
    headers = users.auth("alice")
    # issue 46: a new game's body is checked by its schema, which names the field (the game, the player count)
    error = assert_error(client.post("/api/games", json={"game": "chess", "players": ["A", "B"]}, headers=headers), 400, "invalid")
    assert "pig" in error["details"]["fields"]["game"][0]
    error = assert_error(client.post("/api/games", json={"game": "pig", "players": ["Solo"]}, headers=headers), 400, "invalid")
    assert "2 to 4" in error["details"]["fields"]["players"][0]
    # An option the rules do not validate themselves still is the request's fault.
    assert_error(client.post("/api/games", json={"game": "pig", "players": ["A", "B"], "options": {"target": "lots"}}, headers=headers),
                 422, "bad_setup")
    assert client.get("/api/games", headers=headers).get_json()["games"] == []


@pytest.mark.parametrize(("game", "named"), [("amerigo", "bogus"), ("entdecker", "board"), ("golden_city", "bogus")])
def test_a_bad_custom_component_set_is_refused_naming_the_field_and_nothing_is_stored(client, users, game, named):
    """Owners of a game with reconstructed components may enter theirs; a wrong one says where and why."""
    headers = users.auth("alice")
    body = {"game": game, "players": ["A", "B", "C"], "options": {"components": {"bogus": 1}}}
    error = assert_error(client.post("/api/games", json=body, headers=headers), 422, "bad_setup")
    assert named in error["message"]
    assert client.get("/api/games", headers=headers).get_json()["games"] == []


@pytest.mark.parametrize("game", ["amerigo", "golden_city"])
def test_a_partial_custom_component_set_keeps_the_defaults_for_the_rest(client, users, game):
    headers = users.auth("alice")
    body = {"game": game, "players": ["A", "B", "C"], "options": {"components": {}}}
    response = client.post("/api/games", json=body, headers=headers)
    assert response.status_code == 201, response.get_json()


def test_create_validates_fields(client, users):
    headers = users.auth("alice")
    error = assert_error(client.post("/api/games", json={"players": ["A", "B"]}, headers=headers), 400, "invalid")
    assert "game" in error["details"]["fields"]
    error = assert_error(client.post("/api/games", json={"game": "pig", "players": ["A", "B"], "colour": "red"}, headers=headers), 400)
    assert "colour" in error["message"]
    secret = {"game": "pig", "players": ["A", "B"], "visibility": "secret"}
    error = assert_error(client.post("/api/games", json=secret, headers=headers), 400)
    assert "visibility" in error["details"]["fields"]
    assert_error(client.post("/api/games", json={"game": "pig", "players": "AB"}, headers=headers), 400)
    assert_error(client.post("/api/games", json=["pig"], headers=headers), 400, "invalid")


def test_listing_shows_public_games_and_the_callers_own(client, users, new_game):
    public = new_game("alice")["id"]
    unlisted = new_game("alice", visibility="unlisted")["id"]
    private = new_game("alice", visibility="private")["id"]
    bobs = new_game("bob", visibility="private")["id"]

    def listed(headers=None):
        body = client.get("/api/games", headers=headers or {}).get_json()
        assert_matches(GameListSchema, body)
        return {g["id"] for g in body["games"]}

    assert listed() == {public}
    assert listed(users.auth("carol")) == {public}
    assert listed(users.auth("alice")) == {public, unlisted, private}
    assert listed(users.auth("bob")) == {public, bobs}


def test_listing_filters_and_pages(client, users, new_game):
    ids = [new_game(players=["Anna", "Ben"])["id"] for _ in range(3)]
    other = new_game(players=["Cleo", "Dan", "Eve"])["id"]
    newest_first = [other, *reversed(ids)]
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == newest_first
    assert [g["id"] for g in client.get("/api/games?player=cleo").get_json()["games"]] == [other]
    assert [g["id"] for g in client.get("/api/games?limit=2&offset=1").get_json()["games"]] == newest_first[1:3]
    assert client.get("/api/games?game=puerto_rico").get_json()["games"] == []
    assert len(client.get("/api/games?game=pig&source=live").get_json()["games"]) == 4
    for bad in ("limit=0", "limit=201", "limit=x", "offset=-1", "sort=new", "limit=1&limit=2"):
        assert_error(client.get(f"/api/games?{bad}"), 400, "invalid")


def test_show_game_has_metadata_players_and_branch_tree(client, users, new_game):
    gid = new_game(players=["Anna", "Ben", "Cleo"], options={"target": 30}, title="Friday")["id"]
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 2, "name": "what if"}, headers=users.auth("bob"))
    assert fork.status_code == 201
    body = client.get(f"/api/games/{gid}").get_json()
    assert_matches(GameDetailSchema, body)
    assert body["players"] == ["Anna", "Ben", "Cleo"]
    assert body["options"] == {"target": 30}
    assert (body["game"], body["owner"], body["title"], body["visibility"]) == ("pig", "alice", "Friday", "public")
    main, forked = body["branches"]
    assert main == main | {"id": "main", "parent": None, "fork_seq": 0, "owner": "alice", "head": 4}
    assert forked == forked | {"id": fork.get_json()["branch"], "parent": "main", "fork_seq": 2, "owner": "bob", "name": "what if"}
    assert all("seed" not in b for b in body["branches"])  # the seed decides future draws: secret


def test_unknown_game_is_404(client):
    error = assert_error(client.get("/api/games/nope"), 404, "not_found")
    assert "nope" in error["message"]
