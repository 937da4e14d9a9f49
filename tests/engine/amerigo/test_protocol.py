"""Notation round trips, game-log sentences, refusals that name the rule, snapshots and views."""

from __future__ import annotations

import json
import random

import pytest

from engine import CHANCE, IllegalActionError, NotationError, Setup, StateFormatError, random_playout
from engine.amerigo import RULES
from tests.engine.amerigo.helpers import BLUE, RED, choice, play, seat_first, started

EVERY_FORM = [
    "layout 0,1 I07 r2", "pirate 3", "progress L2 PT05", "production 4 cotton 3", "order 2 0 3 1", "tower blue 4",
    "stray red 1", "choose red", "special red", "gold", "use PT21", "use PT10", "use PT16", "cash chest", "cash PT17",
    "cash PT18", "spend gold", "ships F1 F5", "sail 1 12,5", "sail 2 F3", "found", "decline", "cannons 4", "advance 3",
    "take PT05", "move 4", "plan village L3", "plan neutral D2", "build neutral D2 r1 12,5", "buy cotton 3", "end",
]


@pytest.mark.parametrize("text", EVERY_FORM)
def test_every_notation_form_round_trips(text):
    """Brief: format_action(parse_action(t)) == t, with the grammar in notation.py's docstring."""
    assert RULES.format_action(RULES.parse_action(text)) == text


@pytest.mark.parametrize("text,expected", [
    ("fly away", "expected one of"), ("choose purple", "a colour"), ("sail 3 1,1", "ship 1 or 2"),
    ("ships F5 F1", "a ≤ b"), ("take PT25", "PT01-PT24"), ("buy cotton 5", "production value"),
    ("cannons 04", "a whole number"), ("order 0 0", "every seat number once"),
    ("build village L3 r4 1,1", "r<0-3>"), ("progress X1 PT01", "progress space"),
])
def test_bad_notation_says_what_was_expected(text, expected):
    """Conventions: errors quote the input and say what was expected."""
    with pytest.raises(NotationError, match=expected):
        RULES.parse_action(text)


def test_describe_speaks_like_a_game_log():
    """Brief: describe(state, action) gives a sentence a person would write, with the players' names."""
    state = choice(4, field={"blue": 4, "red": 2, "green": 3, "black": 1}, players={RED: {"gold": 3}})
    assert RULES.describe(state, RULES.parse_action("choose red")) == "Red chooses red (planning) with 4 AP"
    assert RULES.describe(state, RULES.parse_action("gold")) == "Red takes 4 gold instead of an action"
    planning = play(state, "choose red")
    assert RULES.describe(planning, RULES.parse_action("plan neutral D2")) == "Red plans a neutral D2 tile for 2 AP"
    assert RULES.describe(planning, RULES.parse_action("spend gold")) == "Red spends 1 gold for 1 more AP (now 5)"
    sailing = play(seat_first(state, BLUE), "choose blue", "ships F1 F3")
    assert RULES.describe(sailing, RULES.parse_action("sail 1 1,0")) == "Blue sails ship 1 2 spaces to the anchor at 1,0"
    founding = play(sailing, "sail 1 1,0")
    assert RULES.describe(founding, RULES.parse_action("found")) == (
        "Blue founds a trading post at 1,1 and discovers the island (3 VP)")
    throw = started(4)
    assert RULES.describe(throw, RULES.parse_action("tower blue 4")) == "4 blue cubes come out of the tower into the action field"
    assert RULES.describe(throw, RULES.parse_action("stray red 1")) == "1 red cube falls out of the tower at the wrong time"


def test_refusals_name_the_rule_and_the_turn():
    """Conventions: an illegal action is refused with a precise reason."""
    state = choice(4, field={"blue": 4})
    with pytest.raises(IllegalActionError, match=r"waiting for action choice, not for 'cannons 3' \[turn: step\]"):
        RULES.check(state, RULES.parse_action("cannons 3"))
    with pytest.raises(IllegalActionError, match="only chance decides that"):
        RULES.check(state, RULES.parse_action("tower blue 1"))
    with pytest.raises(IllegalActionError, match="no treasure chest"):
        RULES.check(state, RULES.parse_action("cash chest"))
    with pytest.raises(IllegalActionError, match="waits for chance"):
        RULES.check(started(4), RULES.parse_action("gold"))
    with pytest.raises(IllegalActionError, match="does not own PT21"):
        RULES.check(state, RULES.parse_action("use PT21"))


def test_view_hides_the_cubes_inside_the_tower_only():
    """Issue: nothing is secret except what chance has not yet decided: view hides the cubes inside the tower."""
    state = started(4)
    full = RULES.dump_state(state)
    for seat in (None, 0, 3):
        seen = RULES.view(state, seat)
        assert seen["tower"] is None and seen["tower_cubes"] == sum(state.tower)
        assert seen["storage"] == full["storage"] and seen["players"][1]["gold"] == full["players"][1]["gold"]
        json.dumps(seen)


def test_dump_and_load_round_trip_with_a_custom_component_set():
    """Snapshots: dump_state / load_state round-trip, the component set included."""
    custom = {"village_tiles": [["M1", 2, 5, 9]]}
    playout = random_playout(RULES, Setup(("A", "B"), {"components": custom}), random.Random(3))
    data = json.loads(json.dumps(RULES.dump_state(playout.state)))
    assert data["components"] == custom
    assert RULES.load_state(data) == playout.state
    with pytest.raises(StateFormatError):
        RULES.load_state({**data, "players": []})
    with pytest.raises(StateFormatError):
        RULES.load_state({**data, "components": {"nonsense": 1}})
    with pytest.raises(StateFormatError):
        RULES.load_state({"names": ["A"]})


def test_current_actor_is_chance_at_chance_steps_and_none_at_the_end():
    """Protocol: a seat, CHANCE, or None when the game is over."""
    assert RULES.current_actor(started(4)) == CHANCE
    assert RULES.current_actor(choice(4)) == RED
    final = random_playout(RULES, Setup(("A", "B")), random.Random(1)).state
    assert RULES.current_actor(final) is None and RULES.legal_actions(final) == ()
