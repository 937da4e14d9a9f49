"""The analysis answer keeps a seat's secrets (issue 30 item 5), walked like test_hidden_information does the others.

A whole Die goldene Stadt demo game is stored and analysed, by real RQ workers, in the full view and in every
seat's view. In a seat's view every field of every position (played, best, options, win, marks, texts) must
show nothing the events route hides from that seat: a move another seat made in secret (a card drawn face
down, a bonus card kept) has no notation anywhere in its position, shows its public sentence and ``hidden``,
exactly as the events route shows it; another seat's decisions are not judged (no best moves, no options, no
win or mark of the played move). The full view shows the same secrets, so the walk would catch a leak.
"""

from __future__ import annotations

import json

import pytest

from engine import get_rules
from service.games.demo import demo_playout, demo_setup
from service.store.games import MAIN, GameStore
from tests.service.api.test_analysis_api import _run_jobs
from tests.service.api.test_hidden_information import hidden_events

GAME = "golden_city"
GID = "leak-analysis"
URL = f"/api/games/{GID}/branches/{MAIN}/analysis"
ROLLOUTS = 4


@pytest.fixture
def analysed(app, client, users, redis_server):
    """The demo game stored and analysed in every view; its events and the analysis answer by view."""
    games: GameStore = app.extensions["ludolog"].games
    rules = get_rules(GAME)
    playout = demo_playout(GAME, 1)
    setup = demo_setup(GAME, 1)
    games.create_game(GAME, rules.version, setup, owner="alice", gid=GID, source="live", seed="1")
    games.append(GID, MAIN, playout.events[1:], 1)
    views = ["full", *(str(seat) for seat in range(len(setup.players)))]
    for view in views:
        answer = client.post(URL, json={"rollouts": ROLLOUTS, "view": view}, headers=users.auth("alice"))
        assert answer.status_code == 202, answer.get_json()
    _run_jobs(redis_server)
    answers = {view: client.get(URL, query_string={"rollouts": ROLLOUTS, "view": view}).get_json() for view in views}
    assert all(answer["status"] == "done" for answer in answers.values())
    return playout.events, answers


def _events_route(client, view: str) -> dict[int, dict]:
    body = client.get(f"/api/games/{GID}/branches/{MAIN}/events", query_string={"view": view}).get_json()
    return {event["seq"]: event for event in body["events"]}


def test_every_field_of_the_analysis_goes_through_the_viewer_rule(client, analysed):
    """One walk (the analysis of a whole game in five views is the slow part): secrets kept, own decisions
    judged, and the full view showing what the seat views hide."""
    events, answers = analysed
    _seat_views_keep_the_secrets(client, events, answers)
    _seats_are_judged_at_their_own_decisions_only(answers)
    _the_full_view_shows_the_secrets(events, answers)


def _seat_views_keep_the_secrets(client, events, answers) -> None:
    checked_hidden = checked_shown = 0
    for view, answer in answers.items():
        if view == "full":
            continue
        seat = int(view)
        secrets = hidden_events(GAME, events, seat)
        as_events = _events_route(client, view)
        for entry in answer["positions"]:
            played, move_seq = entry["played"], entry["seq"] + 1
            if entry["actor"] != seat:
                assert entry["best"] == [] and entry["options"] == [], (view, entry)
                if played is not None:
                    assert played["win"] is None and played["loss"] is None and played["mark"] is None, (view, entry)
            if played is None:
                continue
            if move_seq in secrets:
                assert secrets[move_seq] not in json.dumps(entry), (view, entry)
                event = as_events[move_seq]
                assert event.get("hidden") and event["action"] is None
                assert (played["action"], played["hidden"], played["text"]) == (None, True, event["text"]), (view, entry)
                checked_hidden += 1
            else:
                assert played["action"] == as_events[move_seq]["action"] and "hidden" not in played, (view, entry)
                checked_shown += 1
    assert checked_hidden >= 12 and checked_shown >= 100, (checked_hidden, checked_shown)


def _seats_are_judged_at_their_own_decisions_only(answers) -> None:
    for view, answer in answers.items():
        if view == "full":
            continue
        own = [entry for entry in answer["positions"] if entry["actor"] == int(view)]
        assert own and all(entry["best"] and entry["options"] for entry in own), view
        assert all(entry["played"] is None or entry["played"]["win"] is not None for entry in own), view


def _the_full_view_shows_the_secrets(events, answers) -> None:
    """The walk would catch a leak: the full view names the moves the seat views hide."""
    secrets = hidden_events(GAME, events, None)
    shown = {entry["seq"] + 1: entry["played"]["action"] for entry in answers["full"]["positions"] if entry["played"]}
    secret_decisions = {seq: notation for seq, notation in secrets.items() if seq in shown}
    assert secret_decisions, "the demo game has secret decisions (bonus cards kept face down)"
    assert all(shown[seq] == notation for seq, notation in secret_decisions.items())
