"""Input hygiene (issue 13, item 10): unknown setup options are refused by every game; names, titles,
branch names and annotations refuse control characters and bidirectional overrides. Nothing is stored."""

from __future__ import annotations

import pytest

from service.store import keys
from tests.service.api.helpers import assert_error

GAMES = {"puerto_rico": 3, "amerigo": 2, "entdecker": 2, "golden_city": 3}
HOSTILE = {
    "a bell": "Ann\x07",
    "a newline": "Ann\nBen",
    "an escape": "\x1b[31mred",
    "a C1 control": "Ann\x85",
    "a right-to-left override": "Ann\u202egnp.exe",
    "a left-to-right isolate": "\u2066Ann",
}


def _games_stored(redis_client) -> int:
    return int(redis_client.zcard(keys.games_index()))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_refuses_an_unknown_setup_option(client, users, redis_client, game):
    players = [f"P{i}" for i in range(GAMES[game])]
    response = client.post("/api/games", json={"game": game, "players": players, "options": {"nosuch": 1}},
                           headers=users.auth("alice"))
    error = assert_error(response, 422)
    assert "nosuch" in error["message"], error
    assert _games_stored(redis_client) == 0


@pytest.mark.parametrize("what", sorted(HOSTILE))
def test_player_names_and_titles_refuse_controls_and_bidi_overrides(client, users, redis_client, what):
    hostile = HOSTILE[what]
    for body in ({"game": "puerto_rico", "players": [hostile, "B", "C"]},
                 {"game": "puerto_rico", "players": ["A", "B", "C"], "title": hostile}):
        error = assert_error(client.post("/api/games", json=body, headers=users.auth("alice")), 400, "invalid")
        assert "U+" in error["message"] and "position" in error["message"], error
    assert _games_stored(redis_client) == 0


def test_branch_names_and_annotations_refuse_them_too_but_a_note_may_have_lines(client, users, new_game):
    gid = new_game()["id"]
    headers = users.auth("alice")
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 2, "name": "line\u202e1"}, headers=headers)
    assert "U+202E" in assert_error(fork, 400, "invalid")["message"]
    note = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 2, "text": "bad\x00"}, headers=headers)
    assert "U+0000" in assert_error(note, 400, "invalid")["message"]
    assert client.get(f"/api/games/{gid}/annotations").get_json()["annotations"] == []
    good = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 2, "text": "two\nlines\ttabbed"},
                       headers=headers)
    assert good.status_code == 201, good.get_json()
    aid = good.get_json()["id"]
    patch = client.patch(f"/api/games/{gid}/annotations/{aid}", json={"text": "x\u2067y"}, headers=headers)
    assert_error(patch, 400, "invalid")
    assert [b["id"] for b in client.get(f"/api/games/{gid}").get_json()["branches"]] == ["main"]  # no fork stored
