"""Small hand-written Puerto Rico logs in BGA's 2016 phrase style: the importer reads text, not type names.

Round 1 of a 3-player game (Anna governor, then Ben, then Cleo; 2 doubloons each, Anna and Ben
start with indigo, Cleo with corn). The face-up row is never stated, passes are not logged,
and the notification types are made up: everything must come from rol_type and the English lines.
"""

from __future__ import annotations

import json

from engine import get_rules
from engine.core.errors import LogMismatchError
from tests.engine.bga.helpers import read_back

IDS = {"Anna": 84001, "Ben": 84002, "Cleo": 84003}


def packet(packet_id, move_id, *notes, private_to=None):
    channel = f"/player/p{IDS[private_to]}" if private_to else "/table/t777"
    return {"channel": channel, "table_id": "777", "packet_id": str(packet_id), "packet_type": "history",
            "move_id": str(move_id), "time": str(1460000000 + packet_id * 7),
            "data": [{"uid": f"u{packet_id}-{i}", **n} for i, n in enumerate(notes)]}


def line(kind, log, who=None, **args):
    if who:
        args = {"player_name": who, "player_id": IDS[who], **args}
    return {"type": kind, "log": log, "args": args}


def role(who, rol):
    return line("whatever_" + rol, "${player_name} selected the ${rol_type_tr}", who, i18n=["rol_type_tr"],
                rol_id=2, rol_type=rol, rol_type_tr=rol.capitalize())


def round_one(build_line=None):
    build_line = build_line or line("mystery", "${player_name} bought a new building for 0 doubloons: small market", "Ben")
    return [
        packet(1, 1, role("Anna", "settler")),
        packet(2, 2, line("t1", "${player_name} got a new quarry", "Anna")),
        packet(3, 3, line("t2", "${player_name} got a new plantation ${plantation}", "Ben",
                          plantation='<div class="plantation plantation_corn">corn</div>')),
        packet(4, 4, line("t3", "Cleo got a new plantation: indigo")),
        packet(5, 5, role("Ben", "builder")),
        packet(6, 5, line("t4", "Your building is ready", "Ben"), private_to="Ben"),
        packet(7, 6, build_line),
        packet(8, 7, role("Cleo", "mayor")),
        packet(9, 8, line("t5", "${player_name} placed a colonist on her quarry", "Anna")),
        packet(10, 9, line("t6", "${player_name} placed a colonist on his small market", "Ben")),
    ]


def document(packets, order=("Anna", "Ben", "Cleo")):
    players = [{"id": str(IDS[n]), "name": n} for n in order]
    return json.loads(json.dumps({"status": 1, "data": {"logs": packets, "players": players}}))


def test_a_2016_style_round_is_read_from_its_text_with_draws_and_passes_inferred():
    result = read_back(document(round_one()))
    assert result.error is None, result.error
    actions = [(e.actor, e.action) for e in result.events[1:] if e.actor != "chance"]
    assert actions == [
        (0, "role settler"), (0, "quarry"), (1, "plant corn"), (2, "plant indigo"),
        (1, "role builder"), (1, "build small market"), (2, "pass"), (0, "pass"),
        (2, "role mayor"), (0, "place quarry"), (1, "place small market"),
    ]
    draws = [e for e in result.events if e.actor == "chance"]
    assert len(draws) == 8 and all(e.meta["inferred"] for e in draws)  # the opening row and its refill, 4 each
    assert {"draw corn", "draw indigo"} <= {e.action for e in draws[:4]}  # the row held what was taken from it
    passes = [e for e in result.events if e.action == "pass"]
    assert all("passed" in e.meta["inferred"] for e in passes)
    state = result.state
    assert state.players[0].island_workers[5] == 1 and state.players[1].city[2] == 1
    statuses = {r.uid: r.status for r in result.report if r.uid}
    assert statuses["u6-0"] == "skipped"  # private line: kept for Ben, no rules effect
    assert statuses["u4-0"] == "used" and statuses["u7-0"] == "used"


def test_a_rules_disagreement_names_the_move_the_line_and_the_rule():
    too_dear = line("mystery", "${player_name} bought a new building for 8 doubloons: harbor", "Ben")
    result = read_back(document(round_one(too_dear)))
    error = result.error
    assert isinstance(error, LogMismatchError)
    assert error.move_id == 6 and error.line == "Ben bought a new building for 8 doubloons: harbor"
    assert error.rule and "builder" in error.rule
    assert "move 6" in str(error) and "harbor" in str(error)
    refused = [r for r in result.report if r.status == "refused"]
    assert refused and refused[0].uid == "u7-0"
    assert all(e.meta.get("move_id") != 6 for e in result.consistent_prefix())


def test_lines_of_another_player_out_of_turn_are_refused_by_turn_order():
    packets = round_one()
    packets[1] = packet(2, 2, line("t1", "${player_name} got a new quarry", "Cleo"))
    result = read_back(document(packets))
    assert result.error is not None
    assert result.error.move_id == 2 and result.error.rule in ("turn order", "settler: quarry")


def test_the_final_result_is_checked_against_the_rules_scoring():
    from tests.engine.bga.helpers import export_doc, playout

    doc = export_doc(playout(3, 1))
    end = doc["data"]["logs"][-1]["data"][0]
    assert end["args"]["id"] == 99
    end["args"]["args"]["result"][0]["score"] = "999"
    result = read_back(doc)
    assert result.error is not None and result.error.rule == "final scoring"
    assert get_rules("puerto_rico").outcome(result.state) is not None


def test_seats_start_from_the_first_governor_whatever_order_the_envelope_lists_players_in():
    result = read_back(document(round_one(), order=("Ben", "Cleo", "Anna")))
    assert result.error is None, result.error
    assert list(result.setup.players) == ["Anna", "Ben", "Cleo"]
    assert result.events[0].data["setup"]["players"] == ["Anna", "Ben", "Cleo"]
