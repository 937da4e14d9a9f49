"""Notation round trips, game-log sentences, snapshots and what each seat may see."""

from __future__ import annotations

import json

import pytest

from engine import NotationError, StateFormatError
from engine.entdecker import RULES
from tests.engine.entdecker.helpers import game, play

EXAMPLES = [
    "spin 4", "back 2 event", "back 5 plain", "tile cape?storm", "tile sea", "chip 3", "start edge 4 0 n",
    "start edge 0 6 w", "start tile 3 2 1", "pass", "buy 3", "draw 2", "place 4 1 3", "build fort 0",
    "build settlement 1", "takeback 3 2", "end", "take chip", "decline chip",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trips(text):
    action = RULES.parse_action(text)
    assert RULES.format_action(action) == text and RULES.parse_action(RULES.format_action(action)) == action


def test_notation_is_forgiving_about_case_and_spaces():
    assert RULES.parse_action("  Start  EDGE 4 0 N ") == RULES.parse_action("start edge 4 0 n")
    assert RULES.parse_action("TILE CAPE?storm") == ("tile", "cape?storm")


@pytest.mark.parametrize("text,expected", [
    ("start edge 1 2 x", "start edge <x> <y> <n|e|s|w>"),
    ("place 1 2 4", "place <x> <y> <rotation 0-3>"),
    ("draw 0", "draw <stack number from 1>"),
    ("buy -1", "buy <number of tiles>"),
    ("build castle 0", "build scout|fort|settlement <land part>"),
    ("tile cape?flood", "tile <type>"),
    ("place 01 2 3", "place <x> <y>"),
    ("jump", "one of: spin <v>"),
])
def test_bad_notation_says_what_was_expected(text, expected):
    with pytest.raises(NotationError) as err:
        RULES.parse_action(text)
    assert expected in str(err.value)


def test_describe_speaks_like_a_game_log():
    state = game(tiles={(4, 2): "cape 0"}, units={(4, 2): ("Benny", "fort", 0)}, gold=(9, 4, 4, 4), tops=(0, 1, 0, 0, 0))
    say = lambda s, text: RULES.describe(s, RULES.parse_action(text))  # noqa: E731
    assert say(state, "start tile 4 2 0") == (
        "Anna starts the ship from the tile at (4, 2), paying 3 gold to the bank for Benny's fort there")
    assert say(state, "start edge 4 0 n") == "Anna sets sail from the north edge into (4, 0)"
    state = play(state, "start edge 4 0 n")
    assert say(state, "buy 3") == "Anna buys 3 tiles for 3 gold"
    state = play(state, "buy 3")
    assert say(state, "draw 2") == "Anna draws from stack 2 (a '?' tile)"
    state = play(state, "draw 2")
    assert say(state, "tile cape?hostile") == "Anna turns over a headland with hostile natives"
    state = play(state, "tile cape?hostile")
    assert say(state, "back 2 event") == "Stack 2 now shows a '?' back on top"
    state = play(state, "back 2 event")
    assert say(state, "place 4 0 2") == (
        "Anna places a headland with hostile natives at (4, 0), land to the south; a unit built here costs double")
    state = play(state, "place 4 0 2")
    assert say(state, "build fort 0") == "Anna builds a fort on (4, 0) for 6 gold (double: hostile natives)"
    assert say(state, "end") == "Anna ends the expedition, leaving 2 paid draws unused"


def test_describe_tells_what_the_end_of_the_turn_brought():
    tiles = {(4, 2): "cape 2", (4, 4): "cape 0", (3, 3): "sea 0", (6, 3): "sea 0"}
    state = game(tiles=tiles, units={(4, 2): ("Benny", "scout", 0)}, gold=(9, 4, 4, 4))
    state = play(state, "start tile 6 3 0", "buy 1", "draw 1", "tile sea", "back 1 plain")
    sentence = RULES.describe(state, RULES.parse_action("place 5 3 0"))
    assert sentence == "Anna places open sea at (5, 3), all sea; 1 reserve tile fills the enclosed holes; points: Benny +3"


def test_the_state_round_trips_through_json():
    state = play(game(), "start edge 4 0 n", "buy 2", "draw 1", "tile cape", "back 1 plain")
    dumped = json.loads(json.dumps(RULES.dump_state(state)))
    assert RULES.load_state(dumped) == state


@pytest.mark.parametrize("change,message", [
    ({"gold": [4, 4]}, r"gold: expected a list of 4 ints, got \[4, 4\]"),
    ({"board": [5000] * 70}, r"board\[0\]: expected an int in -1\.\.\d+, got 5000"),
    ({"units": [[7, 0, 0]] + [None] * 69}, r"units\[0\]\[0\]: expected an int in 0\.\.3, got 7"),
    ({"phase": 99}, r"phase: expected an int in 0\.\.\d+, got 99"),
    ({"components": {"board": 1}}, "its component set is not acceptable"),
])
def test_a_malformed_snapshot_is_refused(change, message):
    data = RULES.dump_state(game())
    data.update(change)
    with pytest.raises(StateFormatError, match=message):
        RULES.load_state(data)
    with pytest.raises(StateFormatError, match="missing"):
        RULES.load_state({"names": []})


def test_views_hide_the_stacks_contents_and_the_chip_pool():
    """Issue: the stacks' contents are hidden (only the back of each stack's top tile is seen); chips not yet drawn
    are hidden. Chips held are face up ("képpel felfelé maga elé helyezi") and stay visible."""
    state = game(chips=((2,), (), (), ()), pool=(5, 6, 6, 2))
    for seat in (None, 0, 1):
        view = RULES.view(state, seat)
        assert "undrawn" not in view and view["pool"] == 19
        assert view["stacks"] == [17, 17, 16, 16, 16] and view["tops"] == [0, 0, 0, 0, 0]
        assert view["chips"][0] == [2]
    assert RULES.dump_state(state)["undrawn"] == list(state.undrawn)
