"""parse_log on the three real BGA logs, on every envelope variant, and on broken input."""

from __future__ import annotations

import json

import pytest

from engine.bga import (
    EXPECTED_ENVELOPES,
    BgaEnvelopeError,
    BgaLog,
    BgaLogError,
    BgaShapeError,
    BgaStatusError,
    BgaSyntaxError,
    parse_document,
    parse_log,
)
from engine.bga.model import packets_visible_to
from tests.engine.bga import samples
from tests.engine.bga.samples import ALL, GAIA, TOKAIDO_A, TOKAIDO_B


def _log(name: str) -> BgaLog:
    return parse_log(samples.raw(name))


# --- the real samples -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "count", "envelope", "table"),
    [
        (GAIA, 158, "archive", 798145204),
        (TOKAIDO_A, 226, "bare", 100004927),
        (TOKAIDO_B, 127, "bare", 161915629),
    ],
)
def test_samples_parse_with_every_packet(name: str, count: int, envelope: str, table: int) -> None:
    log = _log(name)
    assert len(log.packets) == count == len(samples.packets(name))
    assert log.envelope == envelope
    assert log.table_id == table
    assert log.source == "json"
    assert [p.packet_id for p in log.packets] == list(range(1, count + 1))


def test_gaia_players_from_the_envelope_with_result_scores() -> None:
    log = _log(GAIA)
    assert [(p.id, p.name, p.score, p.rank) for p in log.players] == [
        (89923063, "felipetoito", 166, 2),
        (96457033, "AlabeSons", 175, 1),
    ]
    # The envelope says "#000000" for both; the result has the colors played with.
    assert [p.color for p in log.players] == ["#ffa500", "#ffff00"]


def test_gaia_result() -> None:
    result = _log(GAIA).result
    assert result is not None
    assert [(e.player_id, e.name, e.score, e.rank) for e in result] == [
        (96457033, "AlabeSons", 175, 1),
        (89923063, "felipetoito", 166, 2),
    ]


def test_tokaido_players_in_bga_order_with_names_from_notifications() -> None:
    log = _log(TOKAIDO_A)
    # A bare list has no player list: the order is BGA's own (its state changes list it).
    assert [(p.id, p.name) for p in log.players] == [
        (84795464, "Frank77"),
        (14967922, "agila13"),
        (22586626, "annie3"),
        (86747906, "Bhaichata"),
    ]
    assert [(p.score, p.rank) for p in log.players] == [(76, 4), (79, 3), (92, 2), (94, 1)]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (TOKAIDO_A, [("Bhaichata", 94, 1, 3), ("annie3", 92, 2, 2), ("agila13", 79, 3, 0), ("Frank77", 76, 4, 1)]),
        (TOKAIDO_B, [("marekkral", 83, 1, 2), ("Sirpa Kyrö", 81, 2, 2), ("TamaTama25", 78, 3, 2), ("JaxD", 74, 4, 2)]),
    ],
)
def test_tokaido_results(name: str, expected: list[tuple[str, int, int, int]]) -> None:
    result = _log(name).result
    assert result is not None
    assert [(e.name, e.score, e.rank, e.score_aux) for e in result] == expected


def test_packet_fields_are_typed() -> None:
    first = _log(TOKAIDO_A).packets[0]
    assert first.channel == "/table/t100004927"
    assert (first.packet_id, first.move_id, first.time, first.packet_type) == (1, 1, 1594122784, "resend")
    assert not first.is_private and first.player_id is None
    note = first.notifications[0]
    assert (note.uid, note.type, note.move_id, note.packet_id, note.time) == ("5f046220088e2", "simpleNote", 1, 1, 1594122784)


def test_move_id_may_be_null() -> None:
    # Tokaido 161915629 has four wake-up packets without a move id (packets 49, 50, 52, 103).
    log = _log(TOKAIDO_B)
    assert [p.packet_id for p in log.packets if p.move_id is None] == [49, 50, 52, 103]


def test_list_args_are_kept() -> None:
    note = _log(TOKAIDO_A).packets[0].notifications[3]
    assert note.type == "gameStateMultipleActiveUpdate"
    assert note.args == ["84795464", "14967922", "22586626", "86747906"]
    assert note.named_args == {}


# --- private channels ------------------------------------------------------------------------------


def test_private_packets_are_kept_and_flagged() -> None:
    log = _log(TOKAIDO_A)
    private = log.private_packets
    assert [(p.packet_id, p.move_id, p.player_id) for p in private] == [
        (100, 100, 86747906),
        (103, 102, 86747906),
        (105, 103, 86747906),
        (139, 136, 84795464),
        (182, 178, 22586626),
        (193, 188, 22586626),
        (217, 211, 84795464),
    ]
    assert all(n.private for p in private for n in p.notifications)
    assert private[0].notifications[0].log == "Amulet activated"


def test_each_player_sees_public_packets_and_only_their_own_private_ones() -> None:
    log = _log(TOKAIDO_A)
    public = len(log.public_packets)
    assert public == 219
    assert len(packets_visible_to(log, None)) == public
    for player in log.players:
        seen = packets_visible_to(log, player.id)
        assert {p.player_id for p in seen if p.is_private} <= {player.id}
        assert len(seen) == public + sum(1 for p in log.private_packets if p.player_id == player.id)
    assert len(packets_visible_to(log, 14967922)) == public  # agila13 got no private packet


# --- envelope variants -------------------------------------------------------------------------------


def _variants(packets: list[object]) -> dict[str, object]:
    return {
        "archive": {"status": 1, "data": {"logs": packets, "players": []}},
        "archive without status": {"data": {"logs": packets}},
        "scraper": {"data": {"data": {"data": packets}}},
        "gamelogs": {"data": {"data": packets}},
        "bare": packets,
        "status as string": {"status": "1", "data": {"data": packets}},
    }


@pytest.mark.parametrize("name", ALL)
def test_every_envelope_gives_the_same_packets(name: str) -> None:
    reference = _log(name)
    for label, wrapped in _variants(list(samples.packets(name))).items():
        log = parse_log(json.dumps(wrapped))
        assert log.packets == reference.packets, label
        assert log.result == reference.result, label
        assert log.table_id == reference.table_id, label


def test_bytes_str_and_bom_all_read() -> None:
    text = samples.raw(TOKAIDO_B).decode()
    assert parse_log(text).packets == parse_log(b"\xef\xbb\xbf" + text.encode()).packets == _log(TOKAIDO_B).packets


def test_envelope_players_are_used_whatever_the_envelope() -> None:
    packets = list(samples.packets(GAIA))
    players = [{"id": 96457033, "name": "AlabeSons"}, {"id": "89923063", "name": "felipetoito"}]
    log = parse_document({"data": {"data": packets, "players": players}})
    assert [p.name for p in log.players] == ["AlabeSons", "felipetoito"]


def test_game_name_stated_in_the_envelope() -> None:
    log = parse_document({"game_name": "tokaido", "data": {"data": list(samples.packets(TOKAIDO_B))}})
    assert log.game_name == "tokaido"
    assert _log(TOKAIDO_B).game_name is None


# --- errors ----------------------------------------------------------------------------------------------


def test_errors_are_value_errors_with_details_and_no_http_status() -> None:
    """What went wrong is the error's class, message and details; the API's error table picks the status."""
    assert issubclass(BgaLogError, ValueError)
    for cls in (BgaSyntaxError, BgaEnvelopeError, BgaStatusError, BgaShapeError):
        assert issubclass(cls, BgaLogError)
        error = cls("x", details={"field": "logs"})
        assert error.details == {"field": "logs"} and not hasattr(error, "status")


def test_broken_json_names_line_and_column() -> None:
    text = json.dumps(list(samples.packets(TOKAIDO_B))[:3], indent=1)
    lines = text.splitlines()
    lines[9] = "  oops" + lines[9]
    with pytest.raises(BgaSyntaxError) as caught:
        parse_log("\n".join(lines))
    err = caught.value
    assert (err.details["line"], err.details["column"]) == (10, 3)
    assert "line 10 column 3" in str(err)
    assert "oops" in err.details["excerpt"]


def test_truncated_json_is_400() -> None:
    raw = samples.raw(TOKAIDO_A)
    with pytest.raises(BgaSyntaxError) as caught:
        parse_log(raw[: len(raw) // 2])
    assert caught.value.details["line"] >= 1 and caught.value.details["column"] >= 1


@pytest.mark.parametrize("raw", [b"", b"   \n", b"\xff\xfe\x00garbage", "NaN", "[1, Infinity]", "hello, this is not a log"])
def test_unreadable_uploads_are_syntax_errors(raw: bytes | str) -> None:
    with pytest.raises(BgaSyntaxError):
        parse_log(raw)


@pytest.mark.parametrize(
    ("doc", "found_type", "keys"),
    [
        ({"foo": 1}, "object", ["foo"]),
        ({"data": {"rows": []}}, "object", ["data"]),
        ({"data": [1, 2]}, "object", ["data"]),
        ("a string", "string", None),
        (42, "number", None),
        (None, "null", None),
    ],
)
def test_unknown_envelope_is_422_saying_what_was_expected(doc: object, found_type: str, keys: list[str] | None) -> None:
    with pytest.raises(BgaEnvelopeError) as caught:
        parse_log(json.dumps(doc))
    err = caught.value
    assert err.details["expected"] == list(EXPECTED_ENVELOPES)
    assert err.details["found"]["type"] == found_type
    assert err.details["found"].get("keys") == keys
    assert "expected" in str(err) and "unknown log envelope" in str(err)


def test_unknown_envelope_describes_the_inner_data() -> None:
    with pytest.raises(BgaEnvelopeError) as caught:
        parse_log('{"data": {"rows": []}}')
    assert caught.value.details["found"]["data"] == {"type": "object", "keys": ["rows"]}


@pytest.mark.parametrize(
    "doc",
    [
        {"status": 0, "error": "You must be logged in to see this page", "code": 100},
        {"status": "0", "error": "Table not found"},
        {"status": False},
    ],
)
def test_bga_error_answers_are_refused_clearly(doc: dict[str, object]) -> None:
    with pytest.raises(BgaStatusError) as caught:
        parse_log(json.dumps(doc))
    err = caught.value
    assert "BGA answered with an error" in str(err)
    if "error" in doc:
        assert err.details["bga_error"] == doc["error"]
        assert str(doc["error"]) in str(err)


def test_empty_packet_list_is_422() -> None:
    with pytest.raises(BgaShapeError):
        parse_log("[]")


def _broken(field: str, value: object, index: int = 5, note: int | None = None) -> list[object]:
    packets = json.loads(json.dumps(samples.packets(TOKAIDO_B)[:10]))
    target = packets[index] if note is None else packets[index]["data"][note]
    if value is ...:
        del target[field]
    else:
        target[field] = value
    return packets


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time", "yesterday"),
        ("time", ...),
        ("packet_id", None),
        ("move_id", [1]),
        ("channel", 7),
        ("channel", "/somewhere/else"),
        ("data", {"not": "a list"}),
        ("packet_type", 3),
        ("table_id", "t1"),
    ],
)
def test_packet_of_the_wrong_shape_is_422_naming_index_and_field(field: str, value: object) -> None:
    with pytest.raises(BgaShapeError) as caught:
        parse_document(_broken(field, value))
    err = caught.value
    assert err.details["packet_index"] == 5
    assert err.details["field"] == field
    assert "packet index 5" in str(err) and repr(field) in str(err)
    if field != "packet_id":
        assert err.details["packet_id"] == "'6'"


@pytest.mark.parametrize(("field", "value"), [("type", None), ("type", ...), ("log", 12), ("args", "text"), ("uid", [])])
def test_notification_of_the_wrong_shape_is_422_naming_its_place(field: str, value: object) -> None:
    with pytest.raises(BgaShapeError) as caught:
        parse_document(_broken(field, value, index=4, note=1))
    err = caught.value
    assert (err.details["packet_index"], err.details["notification_index"], err.details["field"]) == (4, 1, field)


def test_packet_that_is_not_an_object() -> None:
    packets = [*samples.packets(TOKAIDO_B)[:3], "oops"]
    with pytest.raises(BgaShapeError) as caught:
        parse_document(packets)
    assert caught.value.details["packet_index"] == 3


def test_null_log_and_args_are_read_as_empty() -> None:
    log = parse_document(_broken("log", None, index=1, note=0))
    assert log.packets[1].notifications[0].log == ""
    log = parse_document(_broken("args", None, index=1, note=0))
    assert log.packets[1].notifications[0].args == {}


def test_packets_of_two_tables_are_refused() -> None:
    mixed = [*samples.packets(TOKAIDO_A)[:3], *samples.packets(TOKAIDO_B)[:3]]
    with pytest.raises(BgaShapeError) as caught:
        parse_document(mixed)
    assert "two tables" in str(caught.value)
    assert caught.value.details["packet_index"] == 3


def test_result_of_the_wrong_shape() -> None:
    doc = samples.doc(TOKAIDO_B)
    final = doc[-1]["data"][12]
    assert final["type"] == "gameStateChange" and final["args"]["id"] == 99
    final["args"]["args"]["result"] = "nobody"
    with pytest.raises(BgaShapeError) as caught:
        parse_document(doc)
    assert caught.value.details["field"] == "args.args.result"
    assert (caught.value.details["packet_index"], caught.value.details["notification_index"]) == (126, 12)


def test_unfinished_game_has_no_result() -> None:
    log = parse_document(list(samples.packets(TOKAIDO_B))[:-1])
    assert log.result is None
    assert all(p.score is None for p in log.players)


def test_huge_numbers_are_refused_not_crashed_on() -> None:
    with pytest.raises(BgaSyntaxError):
        parse_log("[" + "9" * 5000 + "]")
    with pytest.raises(BgaShapeError):
        parse_document(_broken("time", "9" * 5000))


def test_deep_nesting_is_refused() -> None:
    with pytest.raises(BgaLogError):
        parse_log("[" * 100_000 + "]" * 100_000)


def test_wrong_argument_type_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        parse_log(12)  # type: ignore[arg-type]
