"""An upload of a game that is here already (issue 46): the same file again from the same uploader answers 200 with
the first upload and its game, however many copies race; a public game's export uploaded again unchanged (a demo
game's, say) is linked to that game rather than stored a second time; nothing of another user's private upload is
revealed (the same bytes from someone else are an upload of their own) and a private game's export names no game."""

from __future__ import annotations

import json
import random
import threading

import pytest

from engine import Setup, get_rules, random_playout
from engine.bga import export_log
from service.games.demo import load_demo
from service.imports.importer import run_import
from service.store import keys
from service.store.games import GameStore
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import Users

DEMO = "demo-golden-city-1"
COPIES = 6


def _export(client, gid: str, fmt: str, user: str | None = None, users: Users | None = None) -> bytes:
    headers = users.auth(user) if users is not None and user is not None else {}
    response = client.get(f"/api/games/{gid}/branches/main/export?format={fmt}", headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    return bytes(response.get_data())


def _post(client, users: Users, raw: bytes, user: str = "alice"):
    return client.post("/api/uploads", data=raw, headers={**users.auth(user), "Content-Type": "application/json"})


def test_the_same_file_again_is_200_with_the_first_upload_and_its_game(client, users, upload, redis_client):
    events = random_playout(get_rules("golden_city"), Setup(("Anna", "Ben", "Cleo")), random.Random(5)).events
    raw = json.dumps(export_log(events)).encode()
    first = upload(raw)
    again = _post(client, users, raw)
    assert again.status_code == 200, again.get_json()
    body = again.get_json()
    assert body["duplicate"] is True and body["id"] == first["id"] and body["game"] == first["game"]
    assert redis_client.zcard(keys.games_index()) == 1
    bobs = _post(client, users, raw, user="bob")
    assert bobs.status_code == 202 and bobs.get_json()["duplicate"] is False, "bob's upload is his own"
    assert bobs.get_json()["game"] is None and bobs.get_json()["id"] != first["id"], "nothing of alice's is told"


def _send_at_once(app, users: Users, raw: bytes) -> list[tuple[int, dict]]:
    """COPIES uploads of ``raw`` by alice released together by a barrier: (status, body) of each."""
    barrier = threading.Barrier(COPIES)
    answers: list[tuple[int, dict]] = []

    def send() -> None:
        own = app.test_client()
        barrier.wait(timeout=PATIENCE_SECONDS)
        response = _post(own, users, raw)
        answers.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=send) for _ in range(COPIES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    return answers


def test_copies_of_one_file_sent_at_once_make_one_upload_and_one_game(app, users, redis_client):
    """Several rounds of COPIES identical uploads released together: one upload id each round, one import, one game."""
    for round_no in range(4):
        events = random_playout(get_rules("golden_city"), Setup(("Anna", "Ben", "Cleo")), random.Random(100 + round_no)).events
        answers = _send_at_once(app, users, json.dumps(export_log(events)).encode())
        ids = {body["id"] for _, body in answers}
        assert len(answers) == COPIES and len(ids) == 1, answers
        assert sorted(status for status, _ in answers) == [200] * (COPIES - 1) + [202], answers
        assert sum(1 for _, body in answers if not body["duplicate"]) == 1
        run_import(redis_client, ids.pop())
    assert redis_client.zcard(keys.games_index()) == 4


@pytest.mark.parametrize("fmt", ["bga", "jsonl", "text"])
def test_a_demo_games_export_uploaded_is_linked_to_the_demo_game(client, users, upload, redis_client, fmt):
    load_demo(GameStore(redis_client), per_game=1)
    games = redis_client.zcard(keys.games_index())
    status = upload(_export(client, DEMO, fmt), user="bob")
    assert status["status"] == "done" and status["game"] == DEMO and status["linked"] is True, status
    assert status["title"] == "Demo Golden City #1"
    assert "here already" in status["report"][0]["reason"]
    assert redis_client.zcard(keys.games_index()) == games, "no second Demo Golden City #1"


def test_an_export_of_a_game_that_moved_on_or_is_private_is_imported_anew(client, users, upload, redis_client):
    made = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "options": {"target": 100}},
                       headers=users.auth("alice")).get_json()
    gid = made["id"]
    export = _export(client, gid, "jsonl")
    assert b'"from"' in export, "a public game's export says where it came from"
    head = made["seq"]
    played = client.post(f"/api/games/{gid}/branches/main/actions", json={"action": "roll", "expected_seq": head},
                         headers=users.auth("alice"))
    assert played.status_code == 201, played.get_json()
    moved_on = upload(export, user="bob")
    assert moved_on["status"] == "done" and moved_on["game"] != gid and not moved_on["linked"], moved_on
    secret = client.post("/api/games", json={"game": "pig", "players": ["Anna", "Ben"], "visibility": "private"},
                         headers=users.auth("alice")).get_json()["id"]
    private_export = _export(client, secret, "jsonl", "alice", users)
    assert secret.encode() not in private_export, "a private game's export does not name it"
    assert upload(private_export)["game"] not in (secret, None)
