"""Notation, describe, view (hidden information), snapshots and refusal messages."""

from __future__ import annotations

import json

import pytest

from engine import IllegalActionError, NotationError, StateFormatError
from engine.golden_city import RULES
from engine.golden_city.state import OVER
from tests.engine.golden_city.helpers import COLOURS, after_setup, cards, game, lay_out, play, player

NOTATIONS = [
    "bid 1", "bid 4", "build HA16 pay CO", "build MT4 pay CO CO MT", "build C-DE-I pay DE DE key",
    "build FO1 pay MT MT DE DE", "pass", "draw card", "decline card", "bonus B-CITY", "decline bonus", "goods G5",
    "goods pile", "box G3", "discard CO DE DE", "deal MT", "reshuffle", "reveal goods G5", "reveal scoring S16",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_every_notation_round_trips(text):
    """Brief: ``format_action(parse_action(t)) == t``."""
    action = RULES.parse_action(text)
    assert RULES.format_action(action) == text and RULES.parse_action(RULES.format_action(action)) == action


def test_parse_refuses_what_is_not_text():
    with pytest.raises(NotationError, match="expected a string"):
        RULES.parse_action(["bid", 1])  # type: ignore[arg-type]


def test_parse_normalises_spaces_case_of_verbs_and_card_order():
    assert RULES.parse_action("  Build MT4  pay mt co CO ") == RULES.parse_action("build MT4 pay CO CO MT")
    assert RULES.parse_action("DECLINE  Card") == ("decline", "card")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("bid", "bid <pair number from 1>"),
        ("bid zero", "bid <pair number from 1>"),
        ("build MT4", "build <site> pay <cards> [key]"),
        ("build MT4 pay XX", "terrain codes CO, MT, ME, FO, DE, got 'XX'"),
        ("deal gold", "deal <terrain>"),
        ("reveal card S1", "reveal goods <card id> or reveal scoring <card id>"),
        ("draw two", "draw card, decline card or decline bonus"),
        ("fly", "one of: bid <pair>"),
        ("", "one of: bid <pair>"),
        ("box pile", "box <card id>"),
    ],
)
def test_parse_errors_say_what_was_expected(text, expected):
    with pytest.raises(NotationError) as err:
        RULES.parse_action(text)
    assert expected in str(err.value) and repr(text) in str(err.value)


def test_describe_speaks_like_a_game_log():
    """Brief: "describe(state, action) gives a sentence a person would write in a game log"; secrets stay secret."""
    state = lay_out(after_setup(COLOURS), "S1", "CO FO CO MT DE FO CO ME")
    assert RULES.describe(state, RULES.parse_action("bid 1")) == "Red puts the bidding hand on pair 1 (coast + desert)"
    state = play(state, "bid 1")
    assert RULES.describe(state, RULES.parse_action("bid 1")) == "Blue displaces Red from pair 1 (coast + desert), paying 1 coin"
    build = game(players={0: player(hand="MT CO CO", houses=("HA02",))})
    assert RULES.describe(build, RULES.parse_action("build MT1 pay CO CO MT")) == (
        "Anna builds a house on the mountains suburb MT1, paying 2 coast cards as a joker and a mountains card")
    inner = game(players={0: player(hand="DE DE", keys=1, houses=("HA16", "DE7", "C-DE-O2"))})
    assert RULES.describe(inner, RULES.parse_action("build C-DE-I pay DE DE key")) == (
        "Anna builds a house on the inner desert city part C-DE-I, paying 2 desert cards and a key card")
    assert RULES.describe(build, RULES.parse_action("pass")) == "Anna passes without building"
    assert RULES.describe(build, RULES.parse_action("bonus B-CITY")) == "Anna looks through the bonus cards and keeps one face down"
    assert RULES.describe(build, RULES.parse_action("goods G5")) == "Anna takes goods card G5 (wine and cloth) from the display"
    assert RULES.describe(build, RULES.parse_action("discard CO DE DE")) == (
        "Anna keeps 5 landscape cards and discards a coast card and 2 desert cards")
    scoring = after_setup(COLOURS)
    assert RULES.describe(scoring, RULES.parse_action("reveal scoring S1")) == "Round 1 scores ceramics and the river R-NE (card S1)"
    layout = play(scoring, "reveal scoring S1")
    assert RULES.describe(layout, RULES.parse_action("deal FO")) == "A forest card starts pair 1"
    assert RULES.describe(build, RULES.parse_action("reshuffle")).startswith("The draw pile is empty")


def test_view_hides_hands_bonus_cards_letters_and_pile_contents():
    """Issue: "hands of landscape cards, bonus cards and trade letters are secret: view(state, seat) shows another player
    only the number of cards and nothing of their bonus cards or letters". "A játékosok titokban tartják egymás előtt,
    azt, hogy mennyi kereskedőlevelük van a birtokukban." (players keep their letters secret from each other.)"""
    state = game(players={0: player(hand="CO MT MT", letters=12, bonus=("B-CITY",), keys=1, goods=("G4",), coins=5)})
    mine, theirs, spectator = RULES.view(state, 0), RULES.view(state, 1), RULES.view(state, None)
    assert mine["players"][0]["hand"] == {"CO": 1, "MT": 2, "ME": 0, "FO": 0, "DE": 0}
    assert mine["players"][0]["letters"] == 12 and mine["players"][0]["bonus"] == ["B-CITY"]
    for view in (theirs, spectator):
        other = view["players"][0]
        assert other["hand"] is None and other["bonus"] is None and other["letters"] is None
        assert other["hand_size"] == 3 and other["bonus_count"] == 1
        assert other["keys"] == 1 and other["goods"] == ["G4"] and other["coins"] == 5
        assert view["pile"] == sum(state.pile) and view["goods_pile"] == 5 and view["scoring_pile"] == 15
        assert view["bonus_pile"] == 8
    json.dumps(mine), json.dumps(theirs), json.dumps(spectator)
    over = RULES.view(state.evolve(phase=OVER, turn=-1), None)
    assert over["players"][0]["letters"] == 12 and over["players"][0]["bonus"] == ["B-CITY"]


def test_dump_and_load_round_trip_and_malformed_snapshots_are_refused():
    state = play(game(players={0: player(hand="MT MT", houses=("HA03",))}), "build MT3 pay MT MT")
    dumped = json.loads(json.dumps(RULES.dump_state(state)))
    assert RULES.load_state(dumped) == state
    assert dumped["players"][0]["houses"] == ["HA03", "MT3"] and dumped["phase"] == "bonus reward" and dumped["site"] == "MT3"
    for broken, message in [
        ({**dumped, "phase": "lunch"}, 'phase: expected one of setup deal, setup goods'),
        ({k: v for k, v in dumped.items() if k != "bids"}, "missing bids"),
        ({**dumped, "pile": [1, 2]}, "pile: expected an object, got [1, 2]"),
        ({**dumped, "players": [{**dumped["players"][0], "houses": ["XX"]}] + dumped["players"][1:]},
         'players[0].houses[0]: expected one of '),
        ({**dumped, "goods_display": ["G1", "G1"]}, 'goods_display: lists "G1" twice'),
        ({**dumped, "components": {"coins": -1}}, "coins: expected an int of at least 0, got -1"),
    ]:
        with pytest.raises(StateFormatError, match=message.replace("[", r"\[").replace("]", r"\]")):
            RULES.load_state(broken)


@pytest.mark.parametrize(
    "state,text,message",
    [
        (game(), "bid 1", "the game is waiting for a house to be built (or a pass) (building), not for bid [turn: phase]"),
        (game(), "draw card", "not for draw [turn: phase]"),
        (game(players={0: player(hand="CO")}), "build XX1 pay CO", "there is no site 'XX1' on this board [building: sites]"),
        (game(players={0: player(hand="CO", houses_left=0)}), "build HA01 pay CO", "seat 0 has no house left [building: houses]"),
        (game(players={0: player(hand="CO")}), "build HA01 pay MT", "HA01 costs 1 coast card"),
        (game(players={0: player(hand="CO")}), "build HA01 pay DE DE", "seat 0 holds CO, not DE DE [building: cards in hand]"),
        (game(players={0: player(hand="CO", keys=1)}), "build HA01 pay CO key", "HA01 is a harbour: only inner city parts take a key"),
        (game(), "reveal goods G4", "only chance draws from a face-down pile, and only what it holds [chance]"),
    ],
)
def test_refusals_name_the_rule(state, text, message):
    """Brief: "explain.py (precise refusal reasons)"; engine messages quote the input and say what was expected."""
    with pytest.raises(IllegalActionError) as err:
        RULES.check(state, RULES.parse_action(text))
    assert message in str(err.value) and repr(text) in str(err.value)


def test_goods_and_bonus_refusals():
    state = play(game(players={0: player(hand="MT MT MT MT", houses=("HA02",))}), "build MT2 pay MT MT")
    with pytest.raises(IllegalActionError, match=r"G7 is not on the goods display \(it shows G1, G2, G3\)"):
        RULES.check(state, RULES.parse_action("goods G7"))
    state = play(state, "goods G1", "reveal goods G4", "build MT3 pay MT MT", "bonus B-CITY")
    assert state.players[0].hand == cards("")
