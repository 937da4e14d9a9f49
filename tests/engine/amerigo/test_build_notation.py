"""The build notation names a square the tile covers, takes every rotation, and still reads the old form (issue 16).

"A lapkát csak szárazföldre lehet építeni – vízre sosem" (a tile may be built on land only, never on water): a
person placing a tile points at a square it will cover. ``build <kind> r<k> at <row>,<col>`` names the anchor cell
(the first square of the unturned shape: top row, leftmost) turned ``k`` quarter turns clockwise; the old form
``build <kind> r<k> <row>,<col>`` named the turned shape's bounding-box corner, which an L turned three times does
not cover, and refused rotations equal to an earlier one. Stored events never change: the old form is still read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Event, IllegalActionError, Setup
from engine.amerigo import RULES
from engine.amerigo.building import BUILD_AT_CORNER
from tests.engine.amerigo.helpers import cell, legal, play
from tests.engine.amerigo.test_building import _green

FIXTURE = Path(__file__).parent.parent / "fixtures" / "amerigo_v1.jsonl"


def _greens():
    return play(_green(ap=6, stock=("village L3", "village D2", "village O4", "neutral S4")), "choose green")


def test_every_listed_build_names_a_square_the_tile_covers():
    state = _greens()
    builds = [text for text in legal(state) if text.startswith("build")]
    assert builds and all(" at " in text for text in builds)
    for text in builds:
        row, col = map(int, text.split()[-1].split(","))
        after = play(state, text)
        assert after.cover[cell(after, row, col)] == len(after.placements), text  # the new tile covers it


def test_an_l_turned_three_times_is_named_by_a_covered_square_not_its_empty_corner():
    """L3 turned three times: its bounding-box corner is the one empty square of the 2x2 box."""
    state = _greens()
    old = play(state, "build village L3 r3 0,2")
    assert old.cover[cell(old, 0, 2)] == 0  # the old form named a square the tile does not cover
    new = play(state, "build village L3 r3 at 1,2")
    assert new == old and new.cover[cell(new, 1, 2)] > 0
    assert RULES.describe(state, RULES.parse_action("build village L3 r3 0,2")).startswith(
        "Red builds a village L3 tile at 1,2 for 1 AP")


@pytest.mark.parametrize("texts", [
    ("build village O4 r0 at 1,2", "build village O4 r1 at 1,3", "build village O4 r2 at 2,3", "build village O4 r3 at 2,2"),
    ("build village D2 r0 at 1,2", "build village D2 r2 at 1,3"),
    ("build village D2 r1 at 1,2", "build village D2 r3 at 2,2"),
])
def test_every_rotation_is_accepted_and_equivalent_ones_are_the_same_placement(texts):
    """A square turned a quarter is the same square; the legal actions list the first of equivalent rotations."""
    state = _greens()
    results = [play(state, text) for text in texts]
    assert all(result == results[0] for result in results)
    assert texts[0] in legal(state) and not any(text in legal(state) for text in texts[1:])


def test_the_old_form_is_still_refused_for_a_repeated_rotation_and_a_bad_one_says_why():
    state = _greens()
    with pytest.raises(IllegalActionError, match="repeats another"):
        play(state, "build village O4 r1 1,2")
    with pytest.raises(IllegalActionError, match="water"):
        play(state, "build village D2 r0 at 0,0")


def test_the_old_form_of_the_demo_games_stored_events_still_parses_and_names_the_same_placement():
    """Every build of a demo game stored by rules version 1 reads as the old form, writes back as it was, and applies
    like today's notation of the same placement."""
    events = [Event.from_json(json.loads(line)) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    state = RULES.initial_state(Setup.from_json(events[0].data["setup"]))
    builds = 0
    for event in events[1:]:
        action = RULES.parse_action(event.action)
        if event.action.startswith("build"):
            assert action[0] == BUILD_AT_CORNER and RULES.format_action(action) == event.action
            listed = [a for a in RULES.legal_actions(state) if a[0] == "build"]
            RULES.check(state, action)
            today = next(a for a in listed if RULES.apply(state, a) == RULES.apply(state, action))
            assert " at " in RULES.format_action(today)
            builds += 1
        state = RULES.apply(state, action)
    assert builds >= 10


def test_frame_spaces_say_which_side_of_the_map_they_lie_on():
    """Frame spaces F1-F16 are named in the notation; the sentences (and the board) say where each lies."""
    state = play(_green(), "choose green")  # any state with the 4-player map laid out
    board = state.board
    from engine.amerigo.board import frame_name

    assert [frame_name(board, f) for f in range(3)] == ["F1 (top-left corner)", "F2 (top side)", "F3 (left side)"]
    assert frame_name(board, 12) == "F13 (top side)"


def test_a_build_reads_by_name_and_stays_equal_to_its_stored_tuple():
    """A build's five parts have names (issue 18 § 6); the record equals and hashes as the tuple events store."""
    from engine.amerigo.notation import BuildMove

    stored = ("build", "village L3", 3, 4, 5)
    build = BuildMove.read(stored)
    assert build is not None and (build.kind, build.rotation, build.row, build.col) == ("village L3", 3, 4, 5)
    assert build == stored and hash(build) == hash(stored) and {stored: 1}[build] == 1
    assert BuildMove.read(("build", "village L3", 3, 4)) is None  # a malformed build is left for the rules to refuse
    assert BuildMove.read(("take", "village L3")) is None
