"""Claims (issue 49, "your mistakes"): a user says which player of a game was them; confirmed at once in their own
game or by their own BGA import of the same name, else by the game's uploader; every refusal a clear 4xx naming why."""

from __future__ import annotations

import threading

from engine import Setup
from service.api.claims import ClaimSchema, ClaimsSchema
from service.games.claims import make_claim
from service.store.claims import ClaimStore
from service.store.errors import ConflictError
from service.store.games import GameStore
from service.store.users import UserStore
from tests.service.api.helpers import assert_error, assert_matches
from tests.service.api.test_notifications import _csrf, _signed_in

CLAIMS = "/api/me/claims"


def _game(redis_client, owner: str | None = "alice", visibility: str = "public", source: str = "live",
          players: tuple[str, ...] = ("Anna", "Ben")) -> str:
    return GameStore(redis_client).create_game("pig", "1", Setup(players, {"target": 50}), owner=owner,
                                               visibility=visibility, source=source).id


def _claim(client, users, who: str, gid: str, player: str):
    return client.post(CLAIMS, json={"game": gid, "player": player}, headers=users.auth(who))


def test_a_claim_in_your_own_game_is_confirmed_at_once(client, users, redis_client):
    gid = _game(redis_client)
    made = _claim(client, users, "alice", gid, "Anna")
    assert made.status_code == 201, made.get_json()
    claim = made.get_json()
    assert_matches(ClaimSchema, claim)
    assert (claim["status"], claim["by"], claim["seat"], claim["user"]) == ("confirmed", "owner", 0, "alice")
    listed = client.get(CLAIMS, headers=users.auth("alice")).get_json()
    assert_matches(ClaimsSchema, listed)
    assert [c["id"] for c in listed["claims"]] == [claim["id"]] and listed["to_confirm"] == []


def test_a_claim_in_someone_elses_public_game_waits_for_its_uploader(client, users, redis_client):
    gid = _game(redis_client)
    made = _claim(client, users, "bob", gid, "Ben")
    assert made.status_code == 202, made.get_json()
    cid = made.get_json()["id"]
    assert made.get_json()["status"] == "pending"
    assert [c["id"] for c in client.get(CLAIMS, headers=users.auth("alice")).get_json()["to_confirm"]] == [cid]
    # Only the uploader answers it: the claimant and a stranger are refused.
    for who in ("bob", "carol"):
        assert "only its uploader" in assert_error(client.post(f"/api/claims/{cid}/confirm", headers=users.auth(who)),
                                                   403, "forbidden")["message"]
    confirmed = client.post(f"/api/claims/{cid}/confirm", headers=users.auth("alice"))
    assert confirmed.status_code == 200 and confirmed.get_json()["status"] == "confirmed"
    assert confirmed.get_json()["by"] == "uploader"
    assert client.get(CLAIMS, headers=users.auth("alice")).get_json()["to_confirm"] == []
    assert client.get(CLAIMS, headers=users.auth("bob")).get_json()["claims"][0]["status"] == "confirmed"
    assert_error(client.post(f"/api/claims/{cid}/confirm", headers=users.auth("alice")), 409, "conflict")
    # The uploader may still decline a claim confirmed before; the claimant then sees it declined.
    declined = client.post(f"/api/claims/{cid}/decline", headers=users.auth("alice"))
    assert declined.status_code == 200 and declined.get_json()["status"] == "declined"


def test_every_refusal_says_why(client, users, redis_client):
    public, private, unlisted = _game(redis_client), _game(redis_client, visibility="private"), \
        _game(redis_client, visibility="unlisted")
    error = assert_error(_claim(client, users, "bob", public, "Zed"), 400, "bad_request")
    assert "no player 'Zed'" in error["message"] and error["details"]["players"] == ["Anna", "Ben"]
    assert_error(_claim(client, users, "bob", private, "Ben"), 404, "not_found")  # as the game routes: no such game
    assert_error(_claim(client, users, "bob", "nosuchgame", "Ben"), 404, "not_found")
    assert "unlisted" in assert_error(_claim(client, users, "bob", unlisted, "Ben"), 403, "forbidden")["message"]
    assert _claim(client, users, "alice", private, "Anna").status_code == 201  # the owner claims in any of theirs
    assert _claim(client, users, "alice", public, "Anna").status_code == 201
    taken = assert_error(_claim(client, users, "bob", public, "Anna"), 409, "conflict")
    assert "claimed by alice" in taken["message"] and taken["details"]["claimed_by"] == "alice"
    assert _claim(client, users, "bob", public, "Ben").status_code == 202
    twice = assert_error(_claim(client, users, "bob", public, "Ben"), 409, "conflict")
    assert "already" in twice["message"]
    assert_error(client.post(CLAIMS, json={"game": public, "player": "Ben"}), 401, "unauthorized")
    assert_error(client.post(CLAIMS, json={"game": public}, headers=users.auth("bob")), 400)
    ownerless = _game(redis_client, owner=None)
    assert "no uploader" in assert_error(_claim(client, users, "bob", ownerless, "Ben"), 403)["message"]


def test_a_claim_is_taken_back_by_its_claimant_only(client, users, redis_client):
    gid = _game(redis_client)
    cid = _claim(client, users, "bob", gid, "Ben").get_json()["id"]
    assert_error(client.delete(f"{CLAIMS}/{cid}", headers=users.auth("carol")), 404, "not_found")
    assert_error(client.delete(f"{CLAIMS}/{cid}", headers=users.auth("alice")), 404, "not_found")
    assert client.delete(f"{CLAIMS}/{cid}", headers=users.auth("bob")).status_code == 200
    assert client.get(CLAIMS, headers=users.auth("bob")).get_json()["claims"] == []
    assert client.get(CLAIMS, headers=users.auth("alice")).get_json()["to_confirm"] == []
    assert_error(client.post(f"/api/claims/{cid}/confirm", headers=users.auth("alice")), 404, "not_found")
    assert_error(client.delete(f"{CLAIMS}/{cid}", headers=users.auth("bob")), 404, "not_found")


def test_confirming_one_claim_on_a_seat_declines_the_others(client, users, redis_client):
    gid = _game(redis_client)
    first = _claim(client, users, "bob", gid, "Ben").get_json()["id"]
    second = _claim(client, users, "carol", gid, "Ben").get_json()["id"]
    assert client.post(f"/api/claims/{second}/confirm", headers=users.auth("alice")).status_code == 200
    mine = client.get(CLAIMS, headers=users.auth("bob")).get_json()["claims"]
    assert [(c["id"], c["status"], c["by"]) for c in mine] == [(first, "declined", "taken")]
    assert_error(client.post(f"/api/claims/{first}/confirm", headers=users.auth("alice")), 409, "conflict")


def test_your_own_bga_import_confirms_the_same_bga_player_elsewhere(client, users, redis_client):
    own = _game(redis_client, owner="bob", source="bga", players=("Bobby", "Rex"))
    assert _claim(client, users, "bob", own, "Bobby").status_code == 201
    elsewhere = _game(redis_client, owner="alice", source="bga", players=("Queen", "Bobby"))
    made = _claim(client, users, "bob", elsewhere, "Bobby")
    assert made.status_code == 201 and made.get_json()["by"] == "bga" and made.get_json()["seat"] == 1
    # A name proved in a BGA import confirms nothing but that name, and only in a BGA game.
    assert _claim(client, users, "bob", _game(redis_client, source="bga", players=("Rex", "Bob")), "Bob").status_code == 202
    assert _claim(client, users, "bob", _game(redis_client, players=("Bobby", "Ann")), "Bobby").status_code == 202
    # A claim of the name in someone else's game (not an import of bob's own) proves nothing.
    assert _claim(client, users, "carol", _game(redis_client, players=("Cara", "X")), "Cara").status_code == 202
    assert _claim(client, users, "carol", _game(redis_client, source="bga", players=("Cara", "Y")),
                  "Cara").status_code == 202


def test_the_account_page_claims_lists_and_answers_claims(app, client, users, redis_client):
    _signed_in(client, redis_client, "dora")
    mine = _game(redis_client, owner="dora", players=("Dora", "Ed"))
    theirs = _game(redis_client, owner="alice")
    game_page = client.get(f"/games/{theirs}/b/main").get_data(as_text=True)  # a claim form on the game page too
    assert 'id="claim-form"' in game_page and f'name="game" value="{theirs}"' in game_page
    unlisted = _game(redis_client, owner="alice", visibility="unlisted")
    assert 'id="claim-form"' not in client.get(f"/games/{unlisted}/b/main").get_data(as_text=True)
    html = client.get("/account").get_data(as_text=True)
    assert 'id="claims-h"' in html and "/users/dora/insights" in html
    csrf = _csrf(html)
    done = client.post("/account/claims", data={"csrf_token": csrf, "game": f"http://x/games/{mine}/b/main/3",
                                                "player": "Dora"})
    assert done.status_code == 200 and 'id="claim-done"' in done.get_data(as_text=True)
    refused = client.post("/account/claims", data={"csrf_token": csrf, "game": theirs, "player": "Zed"})
    assert refused.status_code == 400 and 'id="claim-error"' in refused.get_data(as_text=True)
    assert "Anna, Ben" in refused.get_data(as_text=True) and f'value="{theirs}"' in refused.get_data(as_text=True)
    assert client.post("/account/claims", data={"csrf_token": csrf, "game": "nosuch", "player": "X"}).status_code == 404
    asked = client.post("/account/claims", data={"csrf_token": csrf, "game": theirs, "player": "Ben"})
    assert asked.status_code == 200 and "uploader will confirm" in asked.get_data(as_text=True)
    # bob claims Ed in dora's game: dora confirms it on her page.
    cid = _claim(client, users, "bob", mine, "Ed").get_json()["id"]
    page = client.get("/account").get_data(as_text=True)
    assert f"/account/claims/{cid}/confirm" in page
    assert client.post(f"/account/claims/{cid}/confirm", data={"csrf_token": csrf}).status_code == 200
    assert client.get(CLAIMS, headers=users.auth("bob")).get_json()["claims"][0]["status"] == "confirmed"
    assert client.post(f"/account/claims/{cid}/confirm", data={"csrf_token": csrf}).status_code == 409
    claims = app.extensions["ludolog"].stores.claims
    for own in claims.of_user("dora"):
        assert f"/account/claims/{own.id}/delete" in page
        assert client.post(f"/account/claims/{own.id}/delete", data={"csrf_token": csrf}).status_code == 200
    assert claims.of_user("dora") == []
    assert client.post(f"/account/claims/{cid}/delete", data={"csrf_token": csrf}).status_code == 404, "bob's"
    assert client.post("/account/claims/nosuch/confirm", data={"csrf_token": csrf}).status_code == 404
    assert client.post("/account/claims", data={"game": theirs, "player": "Ben"}).status_code == 403, "CSRF"


def test_your_bga_import_made_later_confirms_your_claim_waiting_on_the_same_player(client, users, redis_client):
    elsewhere = _game(redis_client, owner="alice", source="bga", players=("Queen", "Bobby"))
    waiting = _claim(client, users, "bob", elsewhere, "Bobby")
    assert waiting.status_code == 202
    other = _game(redis_client, owner="alice", players=("Bobby", "Ann"))  # not a BGA game: BGA's names prove nothing
    assert _claim(client, users, "bob", other, "Bobby").status_code == 202
    own = _game(redis_client, owner="bob", source="bga", players=("Bobby", "Rex"))
    assert _claim(client, users, "bob", own, "Bobby").status_code == 201
    mine = {c["gid"]: (c["status"], c["by"]) for c in client.get(CLAIMS, headers=users.auth("bob")).get_json()["claims"]}
    assert mine == {elsewhere: ("confirmed", "bga"), other: ("pending", None), own: ("confirmed", "owner")}
    assert [c["gid"] for c in client.get(CLAIMS, headers=users.auth("alice")).get_json()["to_confirm"]] == [other]


def test_racing_claims_on_one_seat_confirm_one_claimant_only(client, users, redis_client):
    racers = [f"racer{i}" for i in range(8)]
    for name in racers:  # each proves the BGA name "Star" in a BGA game of their own
        UserStore(redis_client).add(name)
        own = _game(redis_client, owner=name, source="bga", players=("Star", "Other"))
        make_claim(GameStore(redis_client), ClaimStore(redis_client), name, own, "Star")
    contested = _game(redis_client, owner="alice", source="bga", players=("Star", "Bea"))
    start, outcomes = threading.Barrier(len(racers)), []

    def race(name: str) -> None:
        start.wait()
        try:
            outcomes.append(make_claim(GameStore(redis_client), ClaimStore(redis_client), name, contested, "Star").status)
        except ConflictError as exc:
            outcomes.append(f"refused: {exc.details.get('claimed_by')}")

    threads = [threading.Thread(target=race, args=(name,)) for name in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count("confirmed") == 1 and len(outcomes) == len(racers)
    winner = next(c.user for c in ClaimStore(redis_client).on_game(contested) if c.status == "confirmed")
    assert sorted(outcomes) == ["confirmed"] + [f"refused: {winner}"] * (len(racers) - 1)
