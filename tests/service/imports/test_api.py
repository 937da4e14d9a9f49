"""POST /api/uploads and GET /api/uploads/<uid>; log-only games through the API; exports."""

from __future__ import annotations

import io
import json
import random

import pytest

from engine import Setup, get_rules, random_playout
from service.api.uploads import UploadCreatedSchema, UploadStatusSchema
from service.store import keys
from service.store.games import GameStore
from service.store.snapshots import SnapshotStore
from tests.engine.bga import samples
from tests.engine.bga.helpers import core, export_bytes, playout
from tests.engine.bga.samples import GAIA, TOKAIDO_A, TOKAIDO_B
from tests.helpers import assert_snapshots_equal_full_folds
from tests.service.api.helpers import assert_error, assert_matches
from tests.service.imports.conftest import MAX_UPLOAD


def stored_keys(redis_client) -> list[bytes]:
    """Every key but users, tokens and uploads: what a game leaves behind."""
    return [k for k in redis_client.keys("*") if not k.startswith((b"ll:user", b"ll:token", b"ll:upload", b"rq:"))]


@pytest.mark.parametrize(("name", "players", "moves", "winner"), [
    (TOKAIDO_A, ["Frank77", "agila13", "annie3", "Bhaichata"], None, "Bhaichata"),
    (TOKAIDO_B, None, None, None),
    (GAIA, None, None, None),
])
def test_samples_import_as_log_only_games(client, users, upload, name, players, moves, winner):
    status = upload(samples.raw(name), query=f"?filename={name}")
    assert_matches(UploadStatusSchema, status)
    assert status["status"] == "done" and status["kind"] == "log-only", status["error"]
    assert status["game_name"] == name.split("_")[0]
    assert {r["status"] for r in status["report"]} <= {"used", "skipped"}
    game = client.get(f"/api/games/{status['game']}").get_json()
    assert game["source"] == "bga-log"
    assert game["extra"]["log_only"] is True and game["extra"]["forkable"] is False
    assert "log-only" in game["extra"]["notice"] and "cannot be forked" in game["extra"]["notice"]
    if players:
        assert game["players"] == players
    log = client.get(f"/api/games/{status['game']}/log").get_json()
    assert len(log["moves"]) == game["extra"]["moves"] == game["branches"][0]["head"] - 1
    assert log["result"] is not None
    if winner:
        assert next(r["name"] for r in log["result"] if r["rank"] == 1) == winner
    events = client.get(f"/api/games/{status['game']}/branches/main/events?limit=5000").get_json()["events"]
    assert [e["meta"]["lines"] for e in events[1:]] == [[li["text"] for li in m["lines"]] for m in log["moves"]]


def test_private_lines_are_kept_but_never_shown_to_others(client, users, upload):
    status = upload(samples.raw(TOKAIDO_A))
    gid = status["game"]
    spectator = client.get(f"/api/games/{gid}/log").get_json()
    assert not any(li["private"] for m in spectator["moves"] for li in m["lines"])
    events = client.get(f"/api/games/{gid}/branches/main/events?limit=5000").get_json()["events"]
    public_text = json.dumps([e["meta"] for e in events])
    seats = [p["seat"] for p in spectator["players"]]
    private_by_seat = {}
    for seat in seats:
        view = client.get(f"/api/games/{gid}/log?view={seat}", headers=users.auth("alice")).get_json()
        private_by_seat[seat] = [li["text"] for m in view["moves"] for li in m["lines"] if li["private"]]
    assert sum(map(len, private_by_seat.values())) == 7  # the sample's 7 private packets, one line each
    for lines in private_by_seat.values():
        for text in lines:
            assert text not in public_text or any(text in li["text"] for m in spectator["moves"] for li in m["lines"])
    assert_error(client.get(f"/api/games/{gid}/log?view=0", headers=users.auth("bob")), 403)


def test_log_only_games_are_browsable_and_annotatable_not_forkable(client, users, upload):
    gid = upload(samples.raw(TOKAIDO_B))["game"]
    response = client.post(f"/api/games/{gid}/annotations", json={"branch": "main", "seq": 5, "text": "nice"},
                           headers=users.auth("bob"))
    assert response.status_code == 201, response.get_json()
    assert_error(client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 3}, headers=users.auth("bob")), 422, "log_only")
    assert_error(client.get(f"/api/games/{gid}/branches/main/export"), 422, "log_only")


def test_same_file_again_gives_the_existing_game(client, users, upload, redis_client):
    first = upload(samples.raw(TOKAIDO_B))
    response = client.post("/api/uploads", data=samples.raw(TOKAIDO_B), headers=users.auth("alice"))
    assert response.status_code == 200, "already here: nothing new accepted"
    body = response.get_json()
    assert_matches(UploadCreatedSchema, body)
    assert body["duplicate"] is True and body["id"] == first["id"] and body["game"] == first["game"]
    assert redis_client.zcard(keys.games_index()) == 1


def test_another_user_uploading_the_same_file_gets_a_game_of_their_own(client, users, upload, redis_client):
    """The first upload may be private to its uploader: another user's upload is their own game."""
    first = upload(samples.raw(TOKAIDO_B), query="?visibility=private")
    second = upload(samples.raw(TOKAIDO_B), user="bob")
    assert second["id"] != first["id"] and second["game"] != first["game"]
    assert second["owner"] == "bob" and second["status"] == "done"
    assert client.get(f"/api/games/{second['game']}", headers=users.auth("bob")).status_code == 200
    assert redis_client.zcard(keys.games_index()) == 2


def test_multipart_upload(client, users, redis_client):
    from service.imports.importer import run_import

    data = {"file": (io.BytesIO(samples.raw(TOKAIDO_B)), "tokaido_161915629.json"), "partial": "false"}
    response = client.post("/api/uploads", data=data, headers=users.auth("alice"), content_type="multipart/form-data")
    assert response.status_code == 202, response.get_json()
    status = run_import(redis_client, response.get_json()["id"])
    assert status["status"] == "done" and status["filename"] == "tokaido_161915629.json"


def test_too_large_is_413(client, users, redis_client):
    response = client.post("/api/uploads", data=b"[" + b" " * MAX_UPLOAD + b"]", headers=users.auth("alice"))
    error = assert_error(response, 413, "too_large")
    assert error["details"]["limit"] == MAX_UPLOAD
    assert stored_keys(redis_client) == [] and not redis_client.keys("ll:upload*")


def test_broken_json_is_400_naming_line_and_column(client, users, redis_client):
    raw = samples.raw(TOKAIDO_B).decode()
    at = raw.index('",', 5000) + 2  # just after a comma between two members: a "}" there is a syntax error
    broken = raw[:at] + "}" + raw[at:]
    error = assert_error(client.post("/api/uploads", data=broken, headers=users.auth("alice")), 400, "bad_json")
    assert error["details"]["line"] >= 1 and error["details"]["column"] >= 1
    assert f"line {error['details']['line']} column {error['details']['column']}" in error["message"]
    assert not redis_client.keys("ll:upload*")


def test_unknown_envelope_is_422_saying_what_was_expected(client, users):
    error = assert_error(client.post("/api/uploads", data=json.dumps({"game": {"moves": []}}), headers=users.auth("alice")),
                         422, "unknown_envelope")
    assert error["details"]["expected"] and "expected" in error["message"]


def test_puerto_rico_upload_replays_with_full_rules_and_exports_back(client, users, upload, redis_client):
    events = playout(4, 2)
    status = upload(export_bytes(events), query="?visibility=unlisted")  # its export names no game: imported anew
    assert status["status"] == "done" and status["kind"] == "rules", status["error"]
    assert status["progress"]["done"] == status["progress"]["total"] > 0
    gid = status["game"]
    game = client.get(f"/api/games/{gid}").get_json()
    assert game["source"] == "bga" and game["game"] == "puerto_rico"
    stored = client.get(f"/api/games/{gid}/branches/main/events?limit=5000").get_json()["events"]
    assert [(e["seq"], e["type"], e["actor"], e["action"]) for e in stored] == core(events)
    assert client.get(f"/api/games/{gid}/branches/main/state").get_json()["outcome"] is not None
    assert redis_client.zcard(keys.snapshot_seqs_for(gid, "main")) == len(events) // 50 + 1
    assert assert_snapshots_equal_full_folds(GameStore(redis_client), SnapshotStore(redis_client), gid) == len(events) // 50 + 1
    fork = client.post(f"/api/games/{gid}/branches", json={"from": "main", "at": 100}, headers=users.auth("bob"))
    assert fork.status_code == 201

    exported = client.get(f"/api/games/{gid}/branches/main/export?format=bga")
    assert exported.status_code == 200 and exported.mimetype == "application/json"
    again = upload(exported.data, user="bob")
    assert again["status"] == "done" and again["game"] != gid
    stored_again = client.get(f"/api/games/{again['game']}/branches/main/events?limit=5000").get_json()["events"]
    assert [(e["seq"], e["actor"], e["action"]) for e in stored_again] == [(e["seq"], e["actor"], e["action"]) for e in stored]

    jsonl = client.get(f"/api/games/{gid}/branches/main/export?format=jsonl")
    assert [json.loads(line)["action"] for line in jsonl.get_data(as_text=True).splitlines()] == [e["action"] for e in stored]
    text = client.get(f"/api/games/{gid}/branches/main/export?format=text").get_data(as_text=True)
    assert "Anna" in text and "result:" in text
    assert_error(client.get(f"/api/games/{gid}/branches/main/export?format=pdf"), 400)


def _disagreeing_export() -> bytes:
    """Our export of a 3-player game where, after move 60, a player picks the role picked just before (taken)."""
    doc = json.loads(export_bytes(playout(3, 3)))
    picks = [(packet, note) for packet in doc["data"]["logs"] for note in packet["data"] if note["type"] == "roleSelected"]
    for i, (packet, note) in enumerate(picks):
        if i % 3 and int(packet["move_id"]) > 60:  # not a round's first pick: the previous pick is of this round
            previous = picks[i - 1][1]["args"]
            note["args"].update(rol_type=previous["rol_type"], rol_type_tr=previous["rol_type_tr"], rol_id=previous["rol_id"])
            return json.dumps(doc).encode()
    raise AssertionError("no pick to change")


def test_a_rules_disagreement_fails_the_upload_and_stores_nothing(upload, redis_client):
    status = upload(_disagreeing_export())
    assert status["status"] == "failed" and status["game"] is None
    error = status["error"]
    assert error["code"] == "rules_disagree" and error["move_id"] > 60 and "selected the" in error["line"] and error["rule"]
    refused = [r for r in status["report"] if r["status"] == "refused"]
    assert len(refused) == 1 and refused[0]["move_id"] == error["move_id"]
    assert stored_keys(redis_client) == []


def test_partial_stores_up_to_the_last_consistent_move_on_an_incomplete_branch(client, upload, redis_client):
    status = upload(_disagreeing_export(), query="?partial=true")
    assert status["status"] == "done" and status["incomplete"] is True
    assert status["error"]["code"] == "rules_disagree"
    game = client.get(f"/api/games/{status['game']}").get_json()
    main = game["branches"][0]
    assert main["incomplete"] is True
    events = client.get(f"/api/games/{status['game']}/branches/main/events?limit=5000").get_json()["events"]
    assert all(e["meta"].get("move_id") != status["error"]["move_id"] for e in events)
    assert main["head"] == len(events)
    assert assert_snapshots_equal_full_folds(GameStore(redis_client), SnapshotStore(redis_client), status["game"]) >= 1


def test_the_import_job_is_idempotent_even_after_dying_between_store_and_status(upload, redis_client):
    from service.imports.importer import run_import

    status = upload(export_bytes(playout(3, 0)))
    assert run_import(redis_client, status["id"])["game"] == status["game"]  # a re-delivered job changes nothing
    redis_client.hset(keys.upload_for(status["id"]), mapping={"status": "running", "game": ""})  # died after storing
    again = run_import(redis_client, status["id"])
    assert again["status"] == "done" and again["game"] == status["game"]
    assert redis_client.zcard(keys.games_index()) == 1


def test_the_report_is_in_log_order_with_inferred_events_in_place(upload):
    doc = json.loads(export_bytes(playout(3, 2)))
    for packet in doc["data"]["logs"]:
        packet["data"] = [n for n in packet["data"] if n["type"] != "plantationTurnedUp"]
    report = upload(json.dumps(doc).encode())["report"]
    positions = [r["index"] for r in report if "index" in r]
    assert positions == sorted(positions)
    first_inferred = next(i for i, r in enumerate(report) if r["status"] == "inferred")
    assert first_inferred < len(report) // 2 and report[first_inferred]["action"].startswith("draw ")


def test_bad_options_are_400(client, users):
    assert_error(client.post("/api/uploads?partial=maybe", data=b"[]", headers=users.auth("alice")), 400, "invalid")
    assert_error(client.post("/api/uploads?colour=red", data=b"[]", headers=users.auth("alice")), 400, "invalid")


@pytest.mark.parametrize("game", ["amerigo", "entdecker", "golden_city"])
def test_each_game_with_reconstructed_components_uploads_replays_and_exports_back(client, users, upload, redis_client, game):
    """Issues 6–8: our BGA export of a whole game goes through the upload, the import job and the store
    unchanged (same events, snapshots equal to full folds), and the API's export of it imports again."""
    rules = get_rules(game)
    events = random_playout(rules, Setup(("Anna", "Róbert", "Krisztina")), random.Random(game)).events
    status = upload(export_bytes(events), query="?visibility=unlisted")  # its export names no game: imported anew
    assert status["status"] == "done" and status["kind"] == "rules", status["error"]
    gid = status["game"]
    assert client.get(f"/api/games/{gid}").get_json()["game"] == game
    stored = client.get(f"/api/games/{gid}/branches/main/events?limit=5000").get_json()["events"]
    assert [(e["seq"], e["type"], e["actor"], e["action"]) for e in stored] == core(events)
    assert assert_snapshots_equal_full_folds(GameStore(redis_client), SnapshotStore(redis_client), gid) >= 2
    exported = client.get(f"/api/games/{gid}/branches/main/export?format=bga")
    again = upload(exported.data, user="bob")
    assert again["status"] == "done" and again["game"] != gid
    stored_again = client.get(f"/api/games/{again['game']}/branches/main/events?limit=5000").get_json()["events"]
    assert [(e["seq"], e["actor"], e["action"]) for e in stored_again] == [(e["seq"], e["actor"], e["action"]) for e in stored]
