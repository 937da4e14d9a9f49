"""Notation, describe, view and snapshots of Puerto Rico."""

from __future__ import annotations

import json

import pytest

from engine import NotationError, Setup, StateFormatError
from engine.puerto_rico import RULES
from engine.puerto_rico.notation import FORMATS, keep_action
from tests.engine.puerto_rico.helpers import NAMES, board, choose, game, play


@pytest.mark.parametrize("text", sorted(FORMATS.values()) + ["keep nothing", "keep 1 corn 4 sugar", "keep 11 indigo"])
def test_every_notation_round_trips(text):
    action = RULES.parse_action(text)
    assert RULES.format_action(action) == text and RULES.parse_action(RULES.format_action(action)) == action


def test_parse_normalises_case_and_spaces():
    assert RULES.parse_action("  Build   Small Indigo Plant ") == RULES.parse_action("build small indigo plant")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("build castle", "build followed by one of: small indigo plant"),
        ("load corn", "load <good> <ship capacity 4-8>"),
        ("fly", "one of: role <role>"),
        ("keep 2 sugar 1 corn", "goods in the order corn, indigo"),
        ("keep corn", "keep <count> <good>"),
    ],
)
def test_parse_errors_say_what_was_expected(text, expected):
    with pytest.raises(NotationError) as err:
        RULES.parse_action(text)
    assert expected in str(err.value) and repr(text) in str(err.value)


def test_describe_speaks_like_a_game_log():
    state = choose(game(boards={0: board(doubloons=9, island={"quarry": 2}, workers={"quarry": 2})}), "builder")
    assert RULES.describe(state, RULES.parse_action("build harbor")) == "Anna builds a harbor for 5 doubloons"
    state = game(role_coins=(2, 0, 0, 0, 0, 0, 0))
    assert RULES.describe(state, RULES.parse_action("role settler")) == "Anna chooses the settler and takes 2 doubloons from it"
    captain = choose(game(boards={0: board(goods={"sugar": 6})}), "captain")
    assert RULES.describe(captain, RULES.parse_action("load sugar 7")) == "Anna ships 6 sugar on the 7-ship for 7 VP"
    drawing = RULES.initial_state(Setup(NAMES[3]))
    assert RULES.describe(drawing, RULES.parse_action("draw coffee")) == "A coffee plantation is turned face up"
    assert RULES.describe(drawing, RULES.parse_action("reshuffle")).startswith("The discarded plantations are shuffled")


def test_view_hides_other_players_chips_and_the_stack_order():
    """ "A játékosok győzelmi pontjaikat - nem úgy, mint pénzüket és áruikat - titokban tartják a többiek elől: a jelzőket
    képpel lefelé tartják" (VP chips are kept face down, unlike money and goods)."""
    state = game(boards={0: board(vp=7, doubloons=2), 1: board(vp=3)})
    mine = RULES.view(state, 0)
    assert [p["vp"] for p in mine["players"]] == [7, None, None, None]
    assert [p["doubloons"] for p in mine["players"]] == [2, 0, 3, 3]
    assert mine["stack"] == sum(state.stack) and isinstance(mine["stack"], int)
    assert [p["vp"] for p in RULES.view(state, None)["players"]] == [None] * 4
    assert mine["players"][1]["name"] == "Róbert"
    json.dumps(mine)


def test_dump_and_load_round_trip_exactly_and_reject_bad_data():
    state = play(choose(game(boards={0: board(goods={"corn": 2, "sugar": 3})}), "captain"), "load corn 5")
    dumped = json.loads(json.dumps(RULES.dump_state(state)))
    assert RULES.load_state(dumped) == state
    for broken in ({}, {**dumped, "phase": 99}, {**dumped, "stack": [1, 2]}, {**dumped, "players": dumped["players"][:2]}, []):
        with pytest.raises(StateFormatError):
            RULES.load_state(broken)
    assert keep_action((1, 0, 0, 0, 0)) is keep_action((1, 0, 0, 0, 0))
