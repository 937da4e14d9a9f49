"""The builder phase: cost with quarries and the privilege, one per player, duplicates, spaces, university."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.puerto_rico import RULES
from engine.puerto_rico.builder import price
from engine.puerto_rico.components import BUILDING_INDEX
from tests.engine.puerto_rico.helpers import board, choose, game, legal, play

THREE_QUARRIES = board(island={"quarry": 3}, workers={"quarry": 3}, doubloons=20)


@pytest.mark.parametrize(
    "building,pays,pays_as_builder",
    [("construction hut", 1, 0), ("office", 3, 2), ("harbor", 5, 4), ("city hall", 7, 6)],
)
def test_worked_example_three_quarries(building, pays, pays_as_builder):
    """ "A játékos, akinek 3 működő kőbányája van, az alábbi összegeket fizeti építkezéskor: építőműhelynél 1,
    hivatalnál 3, kikötőnél 5, városházánál pedig 7 dublont. (Ugyanő, ha egyben építész is, kevesebbet fizet: 0, 2, 4,
    illetve 6 dublont.)" (with 3 working quarries: construction hut 1, office 3, harbor 5, city hall 7; as builder 0,
    2, 4, 6)."""
    b = BUILDING_INDEX[building]
    assert price(THREE_QUARRIES, b, False) == pays
    assert price(THREE_QUARRIES, b, True) == pays_as_builder
    state = play(choose(game(boards={0: THREE_QUARRIES}), "builder"), f"build {building}")
    assert state.players[0].doubloons == 20 - pays_as_builder


def test_unoccupied_quarries_give_no_discount_and_the_price_never_goes_below_zero():
    """ "A játékosok minden egyes működő kőbányájukért 1 dublonnal csökkenthetik az építési költséget" (each working
    quarry takes a doubloon off) … "az építési költség azonban sosem csökkenhet 0 dublon alá" (never below 0)."""
    idle = board(island={"quarry": 3})
    assert price(idle, BUILDING_INDEX["harbor"], False) == 8
    assert price(THREE_QUARRIES, BUILDING_INDEX["small market"], True) == 0


def test_cost_error_names_the_money_and_the_rule():
    """Digest: "Each player in order may build one building: pay its cost"."""
    state = choose(game(boards={1: board(doubloons=4)}), "builder")
    state = play(state, "pass")
    with pytest.raises(IllegalActionError) as err:
        RULES.check(state, RULES.parse_action("build harbor"))
    assert str(err.value) == "illegal action 'build harbor': seat 1 has 4 doubloons, needs 8 [builder: cost]"


def test_no_duplicates_sold_out_and_the_builder_gets_nothing_for_passing():
    """ "Egy játékos egy bizonyos fajtájú épületből csak egyet építhet fel." (one of each kind per player) …
    "Ha az építész úgy dönt, hogy nem építkezik, nem kap 1 dublont!" (the builder gets no doubloon for not building)."""
    supply = tuple(0 if i == BUILDING_INDEX["office"] else 1 for i in range(23))
    state = choose(game(boards={0: board(doubloons=9, city={"harbor": 0})}, building_supply=supply), "builder")
    assert "build harbor" not in legal(state) and "build office" not in legal(state)
    with pytest.raises(IllegalActionError, match=r"already has a harbor \[builder: no duplicates\]"):
        RULES.check(state, RULES.parse_action("build harbor"))
    with pytest.raises(IllegalActionError, match=r"office is sold out \[builder: sold out\]"):
        RULES.check(state, RULES.parse_action("build office"))
    state = play(state, "pass")
    assert state.players[0].doubloons == 9 and state.turn == 1


def test_one_building_per_player_per_phase():
    """ "egy játékos sem építhet egynél több épületet egyazon körben" (no one builds more than one building a round)."""
    state = play(choose(game(boards={0: board(doubloons=30)}), "builder"), "build small market")
    assert state.turn == 1


def test_a_large_building_needs_two_free_city_spaces():
    """ "Nagy épület lerakásához két üres, egymás alatti építési telek szükséges." (a large building needs two spaces)."""
    eleven = {name: 0 for name in ("small market", "hacienda", "construction hut", "small warehouse", "hospice", "office",
                                    "large market", "large warehouse", "factory", "harbor", "wharf")}
    state = choose(game(boards={0: board(doubloons=30, city=eleven)}), "builder")
    assert "build guild hall" not in legal(state) and "build small indigo plant" in legal(state)
    with pytest.raises(IllegalActionError, match=r"1 free city spaces, needs 2 \[builder: city spaces\]"):
        RULES.check(state, RULES.parse_action("build guild hall"))


def test_university_puts_one_colonist_on_the_new_building_from_the_supply_then_the_ship():
    """ "Ha a működő egyetemmel rendelkező játékos az építész-fázis során felépít egy épületet, elvehet egy telepest a
    telepesek kupacából; ezt a telepest erre az új épületre kell leraknia. ... akkor is csak egy telepest kap ... Ha a
    telepesek kupacában már nincsen telepes, a játékos a telepesét a telepeshajóról veheti el." (one colonist on the new
    building, one only; from the ship when the supply is empty)."""
    uni = board(doubloons=10, city={"university": 1})
    state = play(choose(game(boards={0: uni}, colonist_supply=0, colonist_ship=2), "builder"), "build sugar mill")
    assert state.players[0].city[BUILDING_INDEX["sugar mill"]] == 1 and state.colonist_ship == 1


def test_filling_the_twelfth_city_space_triggers_the_end():
    """ "az építész-fázis során legalább egy játékos beépíti mind a 12 építési telkét" (someone fills 12 city spaces)."""
    ten = {name: 0 for name in ("small market", "hacienda", "construction hut", "small warehouse", "hospice", "office",
                                 "large market", "large warehouse", "factory", "harbor")}
    state = play(choose(game(boards={0: board(doubloons=30, city=ten)}), "builder"), "build fortress")
    assert state.end_triggered
