"""Issue 14, items 2 to 4 and 6 through the API: every export format pastes back, the report's summary,
one public game per BGA table, meaningful titles and the small things a newcomer notices."""

from __future__ import annotations

import io
import json
import random
import tomllib
from pathlib import Path

import pytest

from engine import Setup, get_rules, random_playout
from service.api.uploads import UploadStatusSchema
from service.store import keys
from service.store.users import UserStore
from tests.engine.bga import samples
from tests.engine.bga.helpers import core, export_bytes
from tests.engine.bga.samples import TOKAIDO_A
from tests.helpers import PATIENCE_SECONDS
from tests.service.api.helpers import Users, assert_error, assert_matches

ROOT = Path(__file__).resolve().parents[3]
GAMES = [("puerto_rico", 3), ("amerigo", 2), ("entdecker", 3), ("golden_city", 4)]
NAMES = ("Anna", "Ben", "Cleo", "Dan")


def _events(game: str, players: int, seed: int = 3):
    return random_playout(get_rules(game), Setup(NAMES[:players]), random.Random(seed)).events


def _paste(client, users, redis_client, text: str, *, user: str = "alice", query: str = "") -> dict:
    """The browser's way: the pasted text as a multipart file named pasted.txt; the job run in-process."""
    from service.imports.importer import run_import

    data = {"file": (io.BytesIO(text.encode()), "pasted.txt")}
    response = client.post(f"/api/uploads{query}", data=data, headers=users.auth(user), content_type="multipart/form-data")
    assert response.status_code in (200, 202), response.get_json()  # 200: already here (the same game, another format)
    run_import(redis_client, response.get_json()["id"])
    status = client.get(f"/api/uploads/{response.get_json()['id']}").get_json()
    assert_matches(UploadStatusSchema, status)
    return status


def _all_events(client, gid: str) -> list[dict]:
    return client.get(f"/api/games/{gid}/branches/main/events?limit=5000").get_json()["events"]


def _core(events: list[dict]) -> list[tuple]:
    return [(e["seq"], e["type"], e["actor"], e["action"]) for e in events]


# --- item 2: the paste box takes every export format ------------------------------------------


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_text_and_jsonl_exports_paste_back_to_the_same_events(client, users, upload, redis_client, game, players):
    events = _events(game, players)
    first = upload(export_bytes(events), query="?visibility=unlisted")  # its exports name no game: imported anew
    assert first["status"] == "done", first["error"]
    assert _core(_all_events(client, first["game"])) == core(events)
    for fmt in ("text", "jsonl", "bga"):
        exported = client.get(f"/api/games/{first['game']}/branches/main/export?format={fmt}").get_data(as_text=True)
        again = _paste(client, users, redis_client, exported, user="bob")
        assert again["status"] == "done" and again["kind"] == "rules", (fmt, again["error"])
        assert again["game"] != first["game"]
        assert _core(_all_events(client, again["game"])) == core(events), fmt
        setup = client.get(f"/api/games/{again['game']}").get_json()
        assert setup["players"] == list(NAMES[:players])


def test_text_export_of_a_game_with_options_keeps_them(client, users, upload, redis_client):
    events = random_playout(get_rules("entdecker"), Setup(NAMES[:3], {"income_each_turn": True}), random.Random(5)).events
    first = upload(export_bytes(events))
    text = client.get(f"/api/games/{first['game']}/branches/main/export?format=text").get_data(as_text=True)
    assert '\noptions: {"income_each_turn":true}\n' in text
    again = _paste(client, users, redis_client, text, user="bob")
    assert _core(_all_events(client, again["game"])) == core(events)
    assert _all_events(client, again["game"])[0]["data"]["setup"]["options"] == {"income_each_turn": True}


def test_an_illegal_line_in_a_pasted_text_export_is_422_naming_the_line(client, users, upload, redis_client):
    first = upload(export_bytes(_events("puerto_rico", 3)))
    text = client.get(f"/api/games/{first['game']}/branches/main/export?format=text").get_data(as_text=True)
    lines = text.splitlines()
    lines[5] = lines[5].split("] ")[0] + "] build fortress"
    before = sorted(redis_client.keys("*"))
    response = client.post("/api/uploads", data="\n".join(lines), headers=users.auth("bob"))
    error = assert_error(response, 422)
    assert error["details"]["line"] == 6 and "text line 6" in error["message"] and "'build fortress'" in error["message"]
    assert sorted(redis_client.keys("*")) == before  # nothing stored


def test_bga_review_page_text_pastes_as_a_log_only_game_with_players_and_table(client, users, redis_client):
    text = ("https://boardgamearena.com/gamereview?table=100004927\nMove 1 : 7/7/2020, 1:53:04 PM\n"
            "Colors of agila13, annie3, Bhaichata have been chosen according to their preferences.\n"
            "Move 2 : 1:53:30 PM\nagila13 chooses a traveler\nMove 3 : 1:54:02 PM\nannie3 chooses a traveler\n")
    status = _paste(client, users, redis_client, text)
    assert status["status"] == "done" and status["kind"] == "log-only"
    game = client.get(f"/api/games/{status['game']}").get_json()
    assert game["players"] == ["agila13", "annie3", "Bhaichata"]
    assert "movetext" not in game["title"] and "pasted" not in game["title"]
    assert game["title"].startswith("BGA log · agila13, annie3, Bhaichata · ") and game["title"].endswith("BGA table 100004927")


def test_words_that_are_no_log_are_400_listing_the_formats(client, users):
    error = assert_error(client.post("/api/uploads", data="hello, this is not a log", headers=users.auth("alice")), 400)
    assert "jsonl" in error["message"] and "Move N" in error["message"] and "broken JSON" not in error["message"]


# --- item 3: the report -----------------------------------------------------------------------


def test_the_report_summary_counts_what_the_rows_say(upload):
    status = upload(samples.raw(TOKAIDO_A), query=f"?filename={TOKAIDO_A}")
    summary = status["summary"]
    rows = status["report"]
    assert summary == {"moves": status["events"] - 1, "draws": 0, "entries": len(rows),
                       "used": sum(r["status"] == "used" for r in rows), "inferred": 0, "refused": 0,
                       "skipped": sum(r["status"] == "skipped" for r in rows)}
    assert summary["skipped"] > 100 and summary["moves"] > 0


def test_the_summary_counts_inferred_lines(upload):
    from tests.engine.bga.test_roundtrip import _unstated

    doc = _unstated(_events("puerto_rico", 3))
    status = upload(json.dumps(doc).encode())
    assert status["status"] == "done", status["error"]
    assert status["summary"]["inferred"] == sum(r["status"] == "inferred" for r in status["report"]) > 0


# --- item 4: one public game per BGA table ------------------------------------------------------


def test_one_public_game_per_bga_table_and_private_uploads_stay_apart(client, users, upload, redis_client):
    store = UserStore(redis_client)
    more = Users({**users.tokens, "carol": store.add("carol"), "dave": store.add("dave")})
    raw = samples.raw(TOKAIDO_A)
    first = upload(raw, user="alice")
    second = upload(raw, user="bob")
    reformatted = upload(json.dumps(json.loads(raw), indent=1).encode(), user="bob")  # other bytes, the same table
    assert second["game"] == reformatted["game"] == first["game"] and second["linked"] and not first["linked"]
    assert second["summary"]["moves"] == first["summary"]["moves"]
    from service.imports.importer import run_import

    response = client.post("/api/uploads?visibility=private", data=raw, headers=more.auth("carol"))
    private = run_import(redis_client, response.get_json()["id"])
    assert private["status"] == "done" and private["game"] != first["game"] and not private["linked"]
    listed = client.get("/api/games?source=bga-log").get_json()["games"]
    assert [g["id"] for g in listed] == [first["game"]]


# --- item 6: titles and the small things ---------------------------------------------------------


def test_a_reimported_export_is_titled_by_game_players_and_date(upload, client):
    status = upload(export_bytes(_events("puerto_rico", 3)))
    title = client.get(f"/api/games/{status['game']}").get_json()["title"]
    assert title.startswith("Puerto Rico · Anna, Ben, Cleo · 20") and "table 1" not in title


def test_a_bga_log_is_titled_with_its_table(upload, client):
    status = upload(samples.raw(TOKAIDO_A), query=f"?filename={TOKAIDO_A}")
    title = client.get(f"/api/games/{status['game']}").get_json()["title"]
    assert title == "Tokaido · Frank77, agila13, annie3, Bhaichata · 2020-07-07 · BGA table 100004927"


def test_a_live_game_from_the_api_gets_a_title(client, users):
    response = client.post("/api/games", json={"game": "amerigo", "players": ["Anna", "Ben"]}, headers=users.auth("alice"))
    assert response.status_code == 201, response.get_json()
    title = client.get(f"/api/games/{response.get_json()['id']}").get_json()["title"]
    assert title.startswith("Amerigo · Anna, Ben · 20")


def test_text_export_says_its_charset_once(client, upload):
    status = upload(export_bytes(_events("puerto_rico", 3)))
    response = client.get(f"/api/games/{status['game']}/branches/main/export?format=text")
    assert response.headers["Content-Type"] == "text/plain; charset=utf-8"


def test_position_zero_is_the_first_position(client, upload):
    status = upload(export_bytes(_events("puerto_rico", 3)))
    response = client.get(f"/games/{status['game']}/b/main/0")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/games/{status['game']}/b/main/1")
    past = client.get(f"/games/{status['game']}/b/main/99999")
    assert past.headers["Location"].endswith(f"/b/main/{status['events']}")


def test_the_home_filter_lists_log_only_games_that_exist(client, upload):
    assert "tokaido" not in client.get("/").get_data(as_text=True)
    upload(samples.raw(TOKAIDO_A), query=f"?filename={TOKAIDO_A}")
    page = client.get("/").get_data(as_text=True)
    assert '<option value="tokaido" >Tokaido</option>' in page


def test_openapi_does_not_mention_the_test_only_game(client):
    text = client.get("/api/openapi.json").get_data(as_text=True)
    assert "pig" not in text.lower()


def test_pyproject_declares_click_and_no_comment_hides_in_a_requirement():
    text = (ROOT / "pyproject.toml").read_text()
    project = tomllib.loads(text)["project"]
    requirements = project["dependencies"] + [r for group in project["optional-dependencies"].values() for r in group]
    for requirement in requirements:  # one requirement per line, with at most its own comment
        line = next(li for li in text.splitlines() if f'"{requirement}"' in li)
        assert line.count("#") <= 1 and line.count('",') == 1, line
    assert "pyyaml" in next(li for li in text.splitlines() if "docker-compose" in li)
    assert any(r.startswith("click") for r in project["dependencies"])
    assert any(r.startswith("pyyaml") for r in project["optional-dependencies"]["dev"])


def test_two_public_imports_of_one_table_at_once_store_one_game(redis_server, redis_client):
    """Two imports racing on one table (real threads, each with its own connection): one stores, the other links."""
    import threading

    import redis

    from service.imports.importer import import_bytes

    raw = samples.raw(TOKAIDO_A)
    outcomes = {}
    barrier = threading.Barrier(2)

    def run(gid: str, owner: str) -> None:
        client = redis.Redis.from_url(redis_server.url)
        barrier.wait()
        outcomes[gid] = import_bytes(client, raw, gid=gid, owner=owner)
        client.close()

    threads = [threading.Thread(target=run, args=(f"race-{n}", owner)) for n, owner in enumerate(("alice", "bob"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=PATIENCE_SECONDS)
    games = {o.game for o in outcomes.values()}
    assert len(games) == 1 and all(o.status == "done" for o in outcomes.values())
    assert sorted(o.duplicate for o in outcomes.values()) == [False, True]
    stored = [gid for gid in ("race-0", "race-1") if redis_client.exists(keys.game_meta_for(gid))]
    assert stored == list(games)


def test_a_broken_line_in_a_jsonl_export_is_400_naming_it(client, users, redis_client):
    from service.imports.importer import export_jsonl

    lines = export_jsonl(_events("amerigo", 2)).splitlines()
    lines[3] = lines[3][:-5]
    error = assert_error(client.post("/api/uploads", data="\n".join(lines), headers=users.auth("alice")), 400, "bad_json")
    assert error["details"]["line"] == 4 and error["message"].startswith("jsonl line 4: not an event")
    assert not redis_client.keys("ll:upload*")


def test_a_jsonl_event_out_of_turn_is_422_naming_the_rule(client, users):
    from service.imports.importer import export_jsonl

    events = [json.loads(line) for line in export_jsonl(_events("puerto_rico", 3)).splitlines()]
    first_choice = next(i for i, e in enumerate(events) if e["actor"] not in (None, "chance"))
    events[first_choice]["actor"] = (events[first_choice]["actor"] + 1) % 3
    raw = "".join(json.dumps(e) + "\n" for e in events)
    error = assert_error(client.post("/api/uploads", data=raw, headers=users.auth("alice")), 422, "bad_log")
    assert error["details"]["line"] == first_choice + 1 and "turn order" in error["message"]


def test_log_json_gives_moves_with_numbers_times_and_readable_tokens(client, upload):
    from tests.engine.bga.samples import GAIA

    status = upload(samples.raw(GAIA), query=f"?filename={GAIA}")
    body = client.get(f"/games/{status['game']}/b/main/log.json").get_json()
    assert body["game"] == "gaiaproject" and body["head"] == status["events"]
    move = next(m for m in body["moves"] if m["move_id"] == 47)
    assert move["time"] == 1769727527 and move["lines"][1] == {
        "text": "felipetoito spends 3 power, 1 QIC, 1 ore, 2 credits to build a mine",
        "raw": "felipetoito spends [POWER3][QIC1][ORE1][GOLD2] to build a [BUILDING4]"}
    rules_game = upload(export_bytes(_events("puerto_rico", 3)))["game"]
    assert client.get(f"/games/{rules_game}/b/main/log.json").status_code == 404


def test_a_table_whose_public_game_was_made_private_is_free_again(client, users, upload, redis_client):
    from service.store.games import GameStore

    raw = samples.raw(TOKAIDO_A)
    first = upload(raw, user="alice")
    GameStore(redis_client).set_game_fields(first["game"], visibility="private")
    second = upload(raw, user="bob")
    assert second["status"] == "done" and not second["linked"] and second["game"] != first["game"]
    assert [g["id"] for g in client.get("/api/games?source=bga-log").get_json()["games"]] == [second["game"]]


def test_a_table_claimed_by_an_import_still_storing_is_linked_to_not_freed(redis_client):
    """The race above made deterministic: between an import's claim of a table and its game being stored, a
    second public upload of the table links to the claimed game instead of freeing the table (which let two
    imports each store a game); once stored, the claim is kept for good, and a claim whose import died expires."""
    from service.store.uploads import TABLE_CLAIM_SECONDS, UploadStore

    uploads = UploadStore(redis_client)
    assert uploads.claim_table(4242, "first") is None
    assert uploads.public_game_of_table(4242) == "first"  # no meta yet: being stored, so still the table's game
    assert 0 < redis_client.ttl(keys.public_table_for(4242)) <= TABLE_CLAIM_SECONDS
    assert uploads.claim_table(4242, "second") == "first"
    redis_client.hset(keys.game_meta_for("first"), "visibility", "public")
    uploads.settle_table(4242, "first")
    assert redis_client.ttl(keys.public_table_for(4242)) == -1  # stored: the claim no longer expires
    assert uploads.public_game_of_table(4242) == "first"
    redis_client.hset(keys.game_meta_for("first"), "visibility", "private")
    assert uploads.public_game_of_table(4242) is None  # made private since: the table is free again
