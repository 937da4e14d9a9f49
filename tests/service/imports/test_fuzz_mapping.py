"""The Puerto Rico mapping on hostile lines: any line, any arguments, anywhere in a real-looking log gives
either a consistent history or a LogMismatchError naming the move — never another exception."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bga import parse_document
from service.imports.importer import prepare
from tests.engine.bga.helpers import export_doc, playout

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.NonInteractiveExampleWarning")

PHRASES = [
    "${player_name} selected the ${rol_type_tr}", "${player_name} got a new plantation (${plantation_name})",
    "${player_name} got a new quarry", "${player_name} got a new plantation from the deck", "${player_name} passes",
    "${player_name} placed a colonist on his ${slot_name}", "${player_name} bought a new building for 3 doubloons: ${building_name}",
    "${player_name} got an extra ${good_name} barrel as his privilege",
    "${player_name} sold a ${good_name} barrel and got 9 doubloons from the sale",
    "${player_name} shipped 3 ${good_name} on the ${capacity}-barrel ship and got 3 victory points for shipping",
    "${player_name} keeps 99 corn, 1 coffee; the other barrels go back to the supply", "${player_name} declined 7 bonus victory points",
    "${player_name} got 1 colonist on it from his hospice", "A ${plantation_name} plantation is turned face up",
    "The discarded plantations are shuffled into a new stack", "${player_name} got 1 victory point from his harbor",
]
VALUES = st.one_of(st.sampled_from(["corn", "coffee", "quarry", "harbor", "city hall", "prospector", "settler", "9", "", "prospector2"]),
                   st.integers(-3, 12), st.none(), st.booleans())
ARGS = ["rol_type", "rol_id", "plantation_type", "plantation_name", "slot_type", "slot_name", "building_type", "building_name",
        "good_type", "good_name", "capacity", "player_id", "player_name", "kept", "nbr"]
BASE = {}


def base(players):
    if players not in BASE:
        BASE[players] = export_doc(playout(players, 11))
    return BASE[players]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 5]), data=st.data())
def test_hostile_lines_give_a_history_or_a_mismatch(players, data):
    doc = copy.deepcopy(base(players))
    packets = [p for p in doc["data"]["logs"] if p["channel"].startswith("/table/") and p["data"]]
    for _ in range(data.draw(st.integers(1, 3))):
        packet = packets[data.draw(st.integers(0, len(packets) - 1))]
        note = packet["data"][data.draw(st.integers(0, len(packet["data"]) - 1))]
        note["log"] = data.draw(st.sampled_from(PHRASES))
        for name in data.draw(st.lists(st.sampled_from(ARGS), max_size=4)):
            note["args"][name] = data.draw(VALUES)
    prepared, report, error = prepare(parse_document(doc), partial=True, every=50)
    if prepared is None:  # a player list the rules refuse (a line named a new player)
        assert error["code"] == "bad_setup"
        return
    assert error is None or (error["code"] == "rules_disagree" and error["line"] is not None and error["rule"])
    assert [e.seq for e in prepared.events] == list(range(1, len(prepared.events) + 1))
    assert {r["status"] for r in report} <= {"used", "inferred", "skipped", "refused"}
