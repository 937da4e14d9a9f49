"""Re-importing our own export keeps the game's title, and the same export uploaded again (in any of the three
formats) answers the game its first upload made instead of making a new one each time (issue 29)."""

from __future__ import annotations

import random

import pytest

from engine import Setup, get_rules, random_playout
from service.store import keys
from service.store.games import MAIN, GameStore

TITLE = "Friday night · Anna's revenge — Stadt #3"


@pytest.fixture
def exported(client, users, redis_client):
    """The three exports (bga, jsonl, text) of a titled Golden City game of alice's."""
    setup = Setup(("Anna", "Ben", "Cleo"))
    events = random_playout(get_rules("golden_city"), setup, random.Random(5)).events
    games = GameStore(redis_client)
    record = games.create_game("golden_city", get_rules("golden_city").version, setup, owner="alice", title=TITLE)
    games.append(record.id, MAIN, events[1:], 1)
    files = {}
    for fmt in ("bga", "jsonl", "text"):
        response = client.get(f"/api/games/{record.id}/branches/main/export?format={fmt}", headers=users.auth("alice"))
        assert response.status_code == 200, response.get_json()
        files[fmt] = response.get_data()
    return record.id, files


@pytest.mark.parametrize("fmt", ["bga", "jsonl", "text"])
def test_a_reimported_export_keeps_its_title(client, users, upload, exported, fmt):
    _, files = exported
    status = upload(files[fmt])
    assert status["status"] == "done", status["error"]
    assert client.get(f"/api/games/{status['game']}", headers=users.auth("alice")).get_json()["title"] == TITLE


def test_the_same_export_again_in_any_format_answers_the_first_game(client, users, upload, exported, redis_client):
    _, files = exported
    first = upload(files["bga"])
    assert first["status"] == "done", first["error"]
    before = redis_client.zcard(keys.games_index())
    for fmt in ("bga", "jsonl", "text"):
        again = upload(files[fmt])
        assert again["game"] == first["game"], (fmt, again)
    assert redis_client.zcard(keys.games_index()) == before  # no new game
    # The export of the re-imported game is the same game once more.
    second_export = client.get(f"/api/games/{first['game']}/branches/main/export?format=jsonl", headers=users.auth("alice"))
    assert upload(second_export.get_data())["game"] == first["game"]
