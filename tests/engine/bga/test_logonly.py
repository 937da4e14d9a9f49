"""Log-only records: players, moves, lines, result, private lines, JSON round trip."""

from __future__ import annotations

import json

import pytest

from engine.bga import (
    RECORD_FORMAT,
    UNKNOWN_GAME,
    LogOnlyRecord,
    guess_game_name,
    import_report,
    lines_visible_to,
    parse_document,
    parse_log,
    to_log_only,
)
from tests.engine.bga import samples
from tests.engine.bga.samples import ALL, GAIA, TOKAIDO_A, TOKAIDO_B


def _record(name: str) -> LogOnlyRecord:
    return to_log_only(parse_log(samples.raw(name)))


def test_players_in_seat_order() -> None:
    record = _record(TOKAIDO_A)
    assert [(p.seat, p.player_id, p.name, p.score, p.rank) for p in record.players] == [
        (0, 84795464, "Frank77", 76, 4),
        (1, 14967922, "agila13", 79, 3),
        (2, 22586626, "annie3", 92, 2),
        (3, 86747906, "Bhaichata", 94, 1),
    ]


def test_result_with_seats() -> None:
    record = _record(GAIA)
    assert record.result is not None
    assert [(r.seat, r.name, r.score, r.rank) for r in record.result] == [(1, "AlabeSons", 175, 1), (0, "felipetoito", 166, 2)]


def test_no_result_when_the_game_did_not_end() -> None:
    record = to_log_only(parse_document(list(samples.packets(TOKAIDO_B))[:60]))
    assert record.result is None
    assert record.to_json()["result"] is None


def test_moves_hold_the_lines_a_person_saw() -> None:
    record = _record(TOKAIDO_A)
    by_id = {m.move_id: m for m in record.moves}
    assert by_id[6].public_lines == ("annie3 travels and gets to a new stop (Encounter)",)
    assert by_id[6].time == 1594141812
    assert "Frank77 travels as Chuubei the messenger" in by_id[5].public_lines
    assert record.moves[-1].public_lines[-1] == "End of game : Bhaichata wins!"
    # Moves whose notifications are all silent (state changes) have no entry.
    assert all(m.lines for m in record.moves)
    assert [m.index for m in record.moves] == list(range(len(record.moves)))


def test_stats_count_what_was_read() -> None:
    stats = _record(TOKAIDO_A).stats
    assert stats["packets"] == 226 and stats["private_packets"] == 7
    assert stats["notifications"] == 754
    assert stats["lines"] + stats["private_lines"] + stats["silent"] == 754
    assert stats["private_lines"] == 7


def test_private_lines_are_tagged_with_their_seat() -> None:
    record = _record(TOKAIDO_A)
    move = next(m for m in record.moves if m.move_id == 100)
    (line,) = move.private_lines
    assert (line.text, line.seat, line.player_id, line.private) == ("Amulet activated", 3, 86747906, True)
    assert "Amulet activated" not in move.public_lines


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_no_viewer_sees_another_players_private_lines(seat: int | None) -> None:
    record = _record(TOKAIDO_A)
    visible = lines_visible_to(record, seat)
    for move in visible:
        assert move.lines
        for line in move.lines:
            assert not line.private or line.seat == seat
    own = sum(1 for m in record.moves for li in m.private_lines if li.seat == seat)
    public = sum(len(m.public_lines) for m in record.moves)
    assert sum(len(m.lines) for m in visible) == public + own
    assert own == {None: 0, 0: 2, 1: 0, 2: 2, 3: 3}[seat]


def test_a_move_with_only_someone_elses_private_lines_disappears() -> None:
    doc = [
        {
            "channel": "/table/t1",
            "table_id": 1,
            "packet_id": 1,
            "packet_type": "resend",
            "move_id": 1,
            "time": 10,
            "data": [{"uid": "a", "type": "x", "log": "public", "args": {}}],
        },
        {
            "channel": "/player/p7",
            "table_id": 1,
            "packet_id": 2,
            "packet_type": "resend",
            "move_id": 2,
            "time": 11,
            "data": [{"uid": "b", "type": "x", "log": "secret of ${player_name}", "args": {"player_name": "Seven", "player_id": 7}}],
        },
    ]
    record = to_log_only(parse_document(doc))
    assert [m.move_id for m in lines_visible_to(record, None)] == [1]
    assert [m.move_id for m in lines_visible_to(record, 0)] == [1, 2]  # player 7 is seat 0


def test_private_lines_of_an_unseated_player_are_shown_to_nobody() -> None:
    doc = [
        {"channel": "/player/p9", "packet_id": 1, "move_id": 1, "time": 1, "data": [{"uid": "u", "type": "x", "log": "hidden", "args": []}]}
    ]
    record = to_log_only(parse_document(doc))
    assert record.moves[0].lines[0].seat is None
    assert all(lines_visible_to(record, s) == () for s in (None, 0, 1))


def test_shuffled_packets_give_the_same_moves() -> None:
    import random

    packets = list(samples.packets(TOKAIDO_A))
    random.Random(4).shuffle(packets)
    assert to_log_only(parse_document(packets)).moves == _record(TOKAIDO_A).moves


def test_packets_without_move_id_join_the_move_in_progress() -> None:
    record = _record(TOKAIDO_B)
    assert None not in {m.move_id for m in record.moves}


@pytest.mark.parametrize("name", ALL)
def test_json_round_trip(name: str) -> None:
    record = _record(name)
    data = record.to_json()
    assert data["format"] == RECORD_FORMAT
    text = json.dumps(data, allow_nan=False)
    assert LogOnlyRecord.from_json(text) == record
    assert LogOnlyRecord.from_json(json.loads(text)) == record


@pytest.mark.parametrize("bad", [{}, {"format": "other"}, [], {"format": RECORD_FORMAT}, {"format": RECORD_FORMAT, "source": "json"}])
def test_from_json_refuses_what_is_not_a_record(bad: object) -> None:
    with pytest.raises(ValueError):
        LogOnlyRecord.from_json(json.dumps(bad))


@pytest.mark.parametrize(("name", "game"), [(GAIA, "gaiaproject"), (TOKAIDO_A, "tokaido"), (TOKAIDO_B, "tokaido")])
def test_game_name_recognised_from_notifications(name: str, game: str) -> None:
    record = _record(name)
    assert (record.game_name, record.game_name_from) == (game, "notifications")


def test_game_name_from_the_log_wins() -> None:
    log = parse_document({"game_name": "Tokaido", "data": {"data": list(samples.packets(TOKAIDO_B))}})
    assert guess_game_name(log, "something_1.json") == ("Tokaido", "log")


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("carcassonne_123456.json", ("carcassonne", "filename")),
        ("C:\\Users\\me\\Downloads\\azul-777.json", ("azul", "filename")),
        ("log_123.json", (UNKNOWN_GAME, "none")),
        ("12345.json", (UNKNOWN_GAME, "none")),
        (None, (UNKNOWN_GAME, "none")),
    ],
)
def test_game_name_from_the_file_name_or_unknown(filename: str | None, expected: tuple[str, str]) -> None:
    doc = [
        {"channel": "/table/t1", "packet_id": 1, "move_id": 1, "time": 1, "data": [{"uid": "u", "type": "note", "log": "hi", "args": {}}]}
    ]
    assert guess_game_name(parse_document(doc), filename) == expected


def test_puerto_rico_is_recognised_by_its_role_arguments() -> None:
    note = {
        "uid": "u",
        "type": "roleChosen",
        "log": "${player_name} selected the ${rol_type_tr}",
        "args": {"i18n": ["rol_type_tr"], "player_name": "Ann", "player_id": 5, "rol_id": 2, "rol_type": "mayor", "rol_type_tr": "Mayor"},
    }
    log = parse_document([{"channel": "/table/t3", "packet_id": 1, "move_id": 1, "time": 1, "data": [note]}])
    record = to_log_only(log)
    assert record.game_name == "puertorico"
    assert record.moves[0].public_lines == ("Ann selected the Mayor",)
    assert [(p.player_id, p.name) for p in record.players] == [(5, "Ann")]


def test_import_report_covers_every_notification() -> None:
    log = parse_log(samples.raw(TOKAIDO_A))
    report = import_report(log)
    assert len(report) == 754
    assert {r["status"] for r in report} == {"used", "skipped"}
    assert sum(r["status"] == "used" for r in report) == 239 + 7
    private = [r for r in report if r["reason"].startswith("private")]
    assert private[0] == {
        "move_id": 100,
        "packet_id": 100,
        "uid": "5f0eb53c22535",
        "type": "message",
        "status": "used",
        "reason": "private line for player 86747906",
    }
    json.dumps(report)
