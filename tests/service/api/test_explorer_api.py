"""The explorer's routes (issue 49): the API and the pages answer from the counters, and a private or unlisted game
never counts and never shows, whoever asks (its owner included)."""

from __future__ import annotations

import pytest

from engine import get_rules
from service.games.demo import demo_playout, demo_setup, load_demo
from service.games.explorer import rebuild
from service.store.explorer import ExplorerStore
from service.store.games import MAIN, GameStore
from service.store.results import result_of

PR = "puerto_rico"
HIDDEN = ("secretgame", "hushedgame")


@pytest.fixture
def counted(redis_client, users):
    games = GameStore(redis_client)
    load_demo(games, 2)
    rules = get_rules(PR)
    for gid, visibility in zip(HIDDEN, ("private", "unlisted"), strict=True):
        playout = demo_playout(PR, 1)
        games.create_game(PR, rules.version, demo_setup(PR, 1), owner="alice", gid=gid, seed="1",
                          visibility=visibility, title=f"title of {gid}")
        games.append(gid, MAIN, playout.events[1:], 1, ends=result_of(rules, playout.state, demo_setup(PR, 1).players))
    rebuild(games, ExplorerStore(redis_client))
    return games


def every_route(client, users, who):
    """Every explorer answer for the first stage's first choice, as ``who`` (None: signed out) sees it."""
    headers = users.auth(who) if who else {}
    first = client.get(f"/api/explorer/{PR}", headers=headers).get_json()
    stage, choice = first["stage"], first["rows"][0]["choice"]
    query = {"stage": stage, "choice": choice}
    answers = [client.get(f"/api/explorer/{PR}", headers=headers),
               client.get(f"/api/explorer/{PR}/games", query_string=query, headers=headers),
               client.get(f"/explore/{PR}", headers=headers),
               client.get(f"/explore/{PR}/games", query_string=query, headers=headers)]
    for stage in first["stages"]:
        answers.append(client.get(f"/api/explorer/{PR}", query_string={"stage": stage}, headers=headers))
    return answers


def test_the_table_counts_public_finished_games_with_wilson_intervals(client, counted):
    answer = client.get(f"/api/explorer/{PR}", query_string={"stage": "round 1 · place 1"})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["games"] == 2 and body["stage"] == "round 1 · place 1"
    assert "building 1" in body["stages"] and body["stages"].index("round 2 · place 1") < body["stages"].index(
        "round 10 · place 1")
    assert sum(row["count"] for row in body["rows"]) == 2
    for row in body["rows"]:
        assert 0 <= row["low"] <= row["rate"] <= row["high"] <= 1


def test_the_player_count_filters(client, counted):
    five = client.get(f"/api/explorer/{PR}", query_string={"players": "5", "stage": "round 1 · place 1"}).get_json()
    assert sum(row["count"] for row in five["rows"]) == 1  # demo 1 alone has five players
    assert client.get(f"/api/explorer/{PR}", query_string={"players": "9"}).status_code == 400
    assert client.get(f"/api/explorer/{PR}", query_string={"players": "x"}).status_code == 400
    assert client.get(f"/explore/{PR}", query_string={"players": "9"}).status_code == 400


def test_an_unknown_game_is_a_404(client, counted):
    assert client.get("/api/explorer/chess").status_code == 404
    assert client.get("/explore/chess").status_code == 404
    assert client.get("/api/explorer/chess/games", query_string={"stage": "a", "choice": "b"}).status_code == 404


def test_a_row_leads_to_the_public_games_at_the_move(client, counted):
    body = client.get(f"/api/explorer/{PR}", query_string={"stage": "round 1 · place 1"}).get_json()
    choice = body["rows"][0]["choice"]
    found = client.get(f"/api/explorer/{PR}/games", query_string={"stage": "round 1 · place 1", "choice": choice})
    rows = found.get_json()["games"]
    assert rows and all(row["gid"].startswith("demo-puerto-rico-") for row in rows)
    page = client.get(f"/explore/{PR}/games", query_string={"stage": "round 1 · place 1", "choice": choice}).text
    assert f"/games/{rows[0]['gid']}/b/main/{rows[0]['seq']}" in page
    table = client.get(f"/explore/{PR}", query_string={"stage": "round 1 · place 1"}).text
    assert "/explore/puerto_rico/games?" in table and choice in table


@pytest.mark.parametrize("who", [None, "alice", "bob"])
def test_private_and_unlisted_games_never_count_nor_show_through_any_route(client, users, counted, who):
    for answer in every_route(client, users, who):
        assert answer.status_code == 200, answer.request.path
        for gid in HIDDEN:
            assert gid not in answer.text, (answer.request.path, who)
            assert f"title of {gid}" not in answer.text
    assert client.get(f"/api/explorer/{PR}").get_json()["games"] == 2


def test_the_routes_are_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert "/api/explorer/{game}" in paths and "/api/explorer/{game}/games" in paths


def test_the_page_speaks_the_reader_s_language(client, counted):
    from service.i18n.games.glossary import term_word

    rows = client.get(f"/api/explorer/{PR}", query_string={"stage": "round 1 · place 1"}).get_json()["rows"]
    page = client.get(f"/explore/{PR}", query_string={"stage": "round 1 · place 1"},
                      headers={"Accept-Language": "de"}).text
    assert "Runde 1 · Platz 1" in page
    for row in rows:
        german = term_word(PR, "role", row["choice"], "de")
        assert german != row["choice"] and f">{german}</a>" in page


@pytest.mark.parametrize("game", ["amerigo", "entdecker", "golden_city"])
def test_every_game_s_choices_are_in_the_reader_s_language(client, counted, game):
    """Amerigo's actions, Entdecker's purchases and pieces, Die goldene Stadt's sites and bonus cards: each choice's
    link says a word of the game's Hungarian glossary, and none is left as the English key the counters use."""
    import re

    from service.i18n.games.glossary import glossaries

    words = {entries["hu"].word for terms in glossaries()[game].terms.values() for entries in terms.values() if "hu" in entries}
    stages = client.get(f"/api/explorer/{game}").get_json()["stages"]
    assert stages
    for stage in stages:
        rows = client.get(f"/api/explorer/{game}", query_string={"stage": stage}).get_json()["rows"]
        page = client.get(f"/explore/{game}", query_string={"stage": stage, "lang": "hu"}).text
        links = re.findall(r'<th scope="row"><a href="[^"]*">([^<]*)</a></th>', page)
        assert rows and len(links) == len(rows)
        english = [row["choice"] for row in rows if row["choice"] in links]
        assert english == [], f"{game} {stage}: choices left in English: {english}"
        wordless = [link for link in links if not any(word in link for word in words)]
        assert wordless == [], f"{game} {stage}: no glossary word in {wordless}"
