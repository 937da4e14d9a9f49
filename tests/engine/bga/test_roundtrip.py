"""Export → import gives back the same events and the same state at every seq (our export is
the primary test vector, since no real Puerto Rico log from BGA is public)."""

from __future__ import annotations

import random

import pytest

from engine import Setup, get_rules, random_playout, registered_games
from engine.bga import parse_document
from tests.engine.bga.helpers import NAMES, core, dumps_at_every_seq, export_doc, playout, read_back


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(4))
def test_puerto_rico_round_trip_gives_the_same_events_and_states(players, seed):
    events = playout(players, seed)
    result = read_back(export_doc(events))
    assert result.error is None, result.error
    assert core(result.events) == core(events)
    assert result.events[0].data["setup"] == events[0].data["setup"]
    assert dumps_at_every_seq(result.events) == dumps_at_every_seq(events)
    assert not [r for r in result.report if r.status in ("inferred", "refused")]


def test_round_trip_of_a_game_without_a_mapping_uses_our_notation_notes():
    events = playout(2, 7, game="pig")
    result = read_back(export_doc(events))
    assert result.error is None
    assert core(result.events) == core(events)
    assert result.events[0].data["setup"]["options"] == {"target": 30}


def test_export_is_a_bga_archive_document_with_channels_ids_times_and_result():
    events = playout(4, 1)
    doc = export_doc(events)
    assert doc["status"] == 1 and doc["data"]["game_name"] == "puertorico"
    packets = doc["data"]["logs"]
    assert [int(p["packet_id"]) for p in packets] == list(range(1, len(packets) + 1))
    assert sorted({p["channel"] for p in packets if p["channel"].startswith("/player/")}) == sorted(
        f"/player/p{p['id']}" for p in doc["data"]["players"])
    moves = [int(p["move_id"]) for p in packets]
    assert moves == sorted(moves)
    log = parse_document(doc)
    assert [p.name for p in log.players] == ["Anna", "Ben", "Cleo", "Dan"]
    outcome = get_rules("puerto_rico").outcome(read_back(doc).state)
    assert [e.score for e in log.result] == list(outcome.scores)
    role = next(n for p in packets for n in p["data"] if n["type"] == "roleSelected")
    assert role["log"] == "${player_name} selected the ${rol_type_tr}"
    assert set(role["args"]) >= {"i18n", "player_name", "rol_id", "rol_type", "rol_type_tr"}


def _unstated(events, *, hacienda_kinds: bool = True):
    """Our export without the lines that state draws and passes (and, optionally, hacienda draws' kinds)."""
    doc = export_doc(events)
    for packet in doc["data"]["logs"]:
        packet["data"] = [n for n in packet["data"] if n["type"] not in ("plantationTurnedUp", "playerPassed", "plantationsReshuffled")]
        for note in packet["data"]:
            if note["type"] == "haciendaPlantation" and not hacienda_kinds:
                note["log"] = "${player_name} got a new plantation from the deck"
                del note["args"]["plantation_type"], note["args"]["plantation_name"]
    return doc


def _same_decisions(result, events):
    rules = get_rules("puerto_rico")
    assert result.error is None, result.error
    decisions = [e for e in core(events) if e[2] != "chance" and e[3] != "pass"]
    assert [e for e in core(result.events) if e[2] != "chance" and e[3] != "pass"] == decisions
    inferred = [e for e in result.events if "inferred" in e.meta]
    assert inferred and all(e.actor == "chance" or e.action == "pass" for e in inferred)
    assert rules.outcome(result.state).scores == rules.outcome(read_back(export_doc(events)).state).scores


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(4))
def test_unstated_draws_and_passes_are_inferred_consistently_with_the_rest_of_the_log(players, seed):
    events = playout(players, seed)
    result = read_back(_unstated(events))
    _same_decisions(result, events)
    planned = [e for e in result.events if "planned" in str(e.meta.get("inferred", ""))]
    assert planned  # the row draws were planned ahead over every settler phase of the log


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 2), (4, 2), (4, 4), (5, 0), (5, 5)])
def test_unstated_hacienda_draws_are_read_from_later_placements(players, seed):
    events = playout(players, seed)
    assert any(e.action == "hacienda" for e in events)
    result = read_back(_unstated(events, hacienda_kinds=False))
    _same_decisions(result, events)


@pytest.mark.parametrize("game", registered_games())
def test_every_registered_game_round_trips_through_our_bga_export(game):
    rules = get_rules(game)
    for players in range(rules.min_players, min(rules.max_players, 5) + 1):
        events = random_playout(rules, Setup(NAMES[:players]), random.Random(players)).events
        result = read_back(export_doc(events))
        assert result.error is None, (game, players, result.error)
        assert core(result.events) == core(events)
        assert dumps_at_every_seq(result.events) == dumps_at_every_seq(events)
