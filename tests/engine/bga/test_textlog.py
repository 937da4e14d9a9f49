"""Pasted log-panel / review-page text read as a best-effort log-only game."""

from __future__ import annotations

import pytest

from engine.bga import BgaSyntaxError, lines_visible_to, looks_like_text_log, parse_log, to_log_only
from tests.engine.bga import samples
from tests.engine.bga.samples import TOKAIDO_A

PASTED = """Tokaido review
Move 1 : 7/7/2020, 1:53:04 PM
Colors of agila13, annie3, Bhaichata have been chosen according to their preferences.
Move 2 :
agila13 chooses a traveler

Move 5 : 13:54:25
Frank77 travels as Chuubei the messenger
agila13 travels   as Kinko the ronin
a < b & c stays as typed
"""


def test_text_is_grouped_by_move() -> None:
    log = parse_log(PASTED)
    assert log.source == "text" and log.envelope == "text"
    assert [p.name for p in log.players] == ["agila13", "annie3", "Bhaichata"]  # BGA's colour line names them
    assert log.result is None and log.table_id is None
    record = to_log_only(log)
    assert record.source == "text"
    assert [(m.move_id, m.time, m.time_text) for m in record.moves] == [
        (None, None, None),
        (1, None, "7/7/2020, 1:53:04 PM"),
        (2, None, None),
        (5, None, "13:54:25"),
    ]
    assert record.moves[0].public_lines == ("Tokaido review",)  # the preamble is kept, not dropped
    assert record.moves[3].public_lines == (
        "Frank77 travels as Chuubei the messenger",
        "agila13 travels as Kinko the ronin",
        "a < b & c stays as typed",
    )
    assert lines_visible_to(record, None) == record.moves


def test_text_rendered_from_a_real_log_reads_back_the_same_lines() -> None:
    record = to_log_only(parse_log(samples.raw(TOKAIDO_A)))
    text = "\n".join(f"Move {m.move_id} :\n" + "\n".join(m.public_lines) for m in record.moves if m.public_lines)
    again = to_log_only(parse_log(text.encode()))
    assert [m.public_lines for m in again.moves] == [m.public_lines for m in record.moves if m.public_lines]


def test_looks_like_text_log() -> None:
    assert looks_like_text_log("x\n  Move 12 : 10:00\n")
    assert not looks_like_text_log("Remove 12 : no\nmove on")


@pytest.mark.parametrize("text", ["just some words", "{broken", "[1, 2", '"Move 1 :'])
def test_other_text_is_a_syntax_error(text: str) -> None:
    with pytest.raises(BgaSyntaxError) as caught:
        parse_log(text)
    assert caught.value.message


def test_text_starting_with_a_bracket_is_still_text() -> None:
    log = parse_log("[12:01:07] table opened\nMove 1 : 12:01:09\nAnn chooses a traveler\n")
    assert log.source == "text"
    assert [n.log for p in log.packets for n in p.notifications] == ["[12:01:07] table opened", "Ann chooses a traveler"]


def test_players_are_guessed_from_line_starts_without_a_colour_line() -> None:
    text = "Move 1 :\n" + "\n".join(["Ann takes a coin", "Bo takes a card", "The round ends"] * 4) + "\nMove 2 :\nAnn wins\n"
    log = parse_log(text)
    assert [p.name for p in log.players] == ["Ann", "Bo"]


def test_the_table_id_is_read_from_a_review_page_address() -> None:
    log = parse_log("https://boardgamearena.com/gamereview?table=161915629\nMove 1 : 10:00\nAnn travels\n")
    assert log.table_id == 161915629


def test_a_time_on_the_line_below_a_header_is_the_moves_time() -> None:
    record = to_log_only(parse_log("Move 1 :\n7/7/2020, 1:53:04 PM\nAnn chooses a traveler\nMove 2 :\n13:54:25\nBo travels\n"))
    assert [(m.move_id, m.time_text, m.public_lines) for m in record.moves] == [
        (1, "7/7/2020, 1:53:04 PM", ("Ann chooses a traveler",)), (2, "13:54:25", ("Bo travels",))]
