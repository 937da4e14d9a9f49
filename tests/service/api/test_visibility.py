"""Who may see what: a private game answers 404 to everyone but its owner, on every route."""

from __future__ import annotations

import pytest

from tests.service.api.helpers import assert_error, branch_url


def _routes(gid: str, aid: str) -> list[tuple[str, str, dict | None]]:
    """Every route under a game, with a body good enough to get past validation."""
    return [
        ("GET", f"/api/games/{gid}", None),
        ("GET", branch_url(gid, what="events"), None),
        ("GET", branch_url(gid, what="state"), None),
        ("GET", branch_url(gid, what="legal"), None),
        ("POST", branch_url(gid, what="actions"), {"action": "roll", "expected_seq": 3}),
        ("POST", f"/api/games/{gid}/branches", {"from": "main", "at": 2}),
        ("GET", f"/api/games/{gid}/annotations", None),
        ("POST", f"/api/games/{gid}/annotations", {"branch": "main", "seq": 2, "text": "hm"}),
        ("GET", f"/api/games/{gid}/annotations/{aid}", None),
        ("PATCH", f"/api/games/{gid}/annotations/{aid}", {"text": "edited"}),
        ("DELETE", f"/api/games/{gid}/annotations/{aid}", None),
        ("POST", f"/api/games/{gid}/annotations/{aid}/undo", None),
    ]


@pytest.mark.parametrize("caller", ["bob", None])
def test_private_game_is_404_on_every_route_for_others(client, users, new_game, caller):
    gid = new_game(visibility="private")["id"]
    aid = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 2, "text": "mine"},
                      headers=users.auth("alice")).get_json()["id"]
    headers = users.auth(caller) if caller else {}
    for method, url, body in _routes(gid, aid):
        response = client.open(url, method=method, json=body, headers=headers)
        if caller is None and method != "GET":
            assert_error(response, 401)  # writes need a token before anything else is looked at
        else:
            error = assert_error(response, 404, "not_found")
            assert error["message"] == f"no game {gid!r}", (method, url)  # the same words as for a game that does not exist
    owner_view = client.get(f"/api/games/{gid}", headers=users.auth("alice"))
    assert owner_view.status_code == 200
    assert [b["head"] for b in owner_view.get_json()["branches"]] == [3]


def test_private_game_works_for_its_owner(client, users, new_game):
    gid = new_game(visibility="private")["id"]
    headers = users.auth("alice")
    aid = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 2, "text": "mine"}, headers=headers).get_json()["id"]
    for method, url, body in _routes(gid, aid):
        response = client.open(url, method=method, json=body, headers=headers)
        assert response.status_code in (200, 201), (method, url, response.get_json())


def test_unlisted_game_is_readable_and_forkable_by_id(client, users, new_game):
    gid = new_game(visibility="unlisted")["id"]
    assert gid not in {g["id"] for g in client.get("/api/games", headers=users.auth("bob")).get_json()["games"]}
    assert client.get(f"/api/games/{gid}").status_code == 200
    assert client.get(branch_url(gid, what="events")).status_code == 200
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 3}, headers=users.auth("bob"))
    assert fork.status_code == 201


def test_a_bad_token_is_401_even_where_none_is_needed(client, new_game):
    gid = new_game()["id"]
    assert client.get(f"/api/games/{gid}").status_code == 200
    assert_error(client.get(f"/api/games/{gid}", headers={"Authorization": "Bearer stale"}), 401, "unauthorized")
