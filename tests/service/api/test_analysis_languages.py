"""The analysis's sentences in the reader's language (issue 47): a verdict stores each judged move's message (template
id and arguments), and the analysis route renders it when it is read, in the language of whoever reads it; a verdict
stored before that (an English text, no message) reads as it was stored."""

from __future__ import annotations

import pytest

from engine import apply_event, get_rules, start
from service.games.analysis import analyse_position, decisions, stored_results
from service.games.demo import demo_playout, demo_setup
from service.i18n.games import move_text
from service.store.analysis_results import holder_of
from service.store.games import MAIN, GameStore
from tests.service.api.test_analysis_api import URL, _run_jobs

PR = "puerto_rico"
#: The first events of Puerto Rico's first demo game: the plantation draws, then two decisions and the one at the head.
EVENTS = 9


def _game(redis_client) -> str:
    playout = demo_playout(PR, 1)
    games = GameStore(redis_client)
    record = games.create_game(PR, get_rules(PR).version, demo_setup(PR, 1), owner="alice")
    games.append(record.id, MAIN, playout.events[1:EVENTS], 1)
    return record.id


def _states(redis_client, gid: str) -> dict[int, object]:
    """The state after each seq of the game's main line."""
    events = GameStore(redis_client).events(gid, MAIN)
    rules, state = start(events[0])
    states = {1: state}
    for event in events[1:]:
        state = apply_event(rules, state, event, check=False)
        states[event.seq] = state
    return states


@pytest.fixture
def analysed(client, users, redis_client, redis_server) -> str:
    """A short Puerto Rico game, analysed at 8 rollouts by a real worker."""
    gid = _game(redis_client)
    assert client.post(URL.format(gid=gid, bid=MAIN), json={"rollouts": 8}, headers=users.auth("alice")).status_code == 202
    _run_jobs(redis_server)
    return gid


@pytest.mark.parametrize("language", ["hu", "zh-Hant"])
def test_the_judged_moves_read_in_the_reader_s_language(client, redis_client, analysed, language):
    rules = get_rules(PR)
    states = _states(redis_client, analysed)
    url = URL.format(gid=analysed, bid=MAIN) + "?rollouts=8"
    english = client.get(url).get_json()
    translated = client.get(url, headers={"Accept-Language": language}).get_json()
    assert translated["status"] == "done" and translated["positions"], translated
    for said, position in zip(english["positions"], translated["positions"], strict=True):
        state = states[position["seq"]]
        for move in position["options"] + position["best"] + ([position["played"]] if position["played"] else []):
            action = rules.parse_action(move["action"])
            assert move["text"] == move_text(rules, state, action, language) != rules.describe(state, action)
        assert [m["text"] for m in said["options"]] == [rules.describe(state, rules.parse_action(m["action"]))
                                                       for m in said["options"]]


def test_a_verdict_stored_as_english_text_reads_as_it_was_stored_beside_one_stored_as_messages(client, redis_client):
    gid = _game(redis_client)
    games = GameStore(redis_client)
    rules, positions = decisions(games, gid, MAIN)
    old, new = positions[0], positions[1]
    before = {"actor": old.actor, "win": [0.5, 0.25, 0.25], "win_ci": [[0.4, 0.6], [0.2, 0.3], [0.2, 0.3]],
              "moves": [{"action": old.played, "text": "Anna chose the trader as it was written once", "win": 0.5,
                         "ci": [0.4, 0.6], "n": 20, "loss": 0.0, "loss_ci": [0.0, 0.0]}],
              "played": old.played}
    state = _states(redis_client, gid)[new.seq]
    results = stored_results(redis_client, games.game(gid), 9, "full")
    branches = games.branches(gid)
    assert results.put(holder_of(branches, MAIN, old.seq), old, before)
    assert results.put(holder_of(branches, MAIN, new.seq), new, analyse_position(rules, state, new.seq, 9, "full", new.played))
    answer = client.get(URL.format(gid=gid, bid=MAIN) + "?rollouts=9", headers={"Accept-Language": "hu"}).get_json()
    entries = {entry["seq"]: entry for entry in answer["positions"]}
    assert entries[old.seq]["best"][0]["text"] == entries[old.seq]["played"]["text"] == before["moves"][0]["text"]
    played = rules.parse_action(new.played or "")
    assert entries[new.seq]["played"]["text"] == move_text(rules, state, played, "hu") != rules.describe(state, played)
