"""Declining a privilege or a building's bonus: the mayor's and hospice's and university's colonists, the captain's
and the harbor's VP.

The general rule: "A játékosnak, amikor rákerül a sor, mindig választania kell egy szerepet, azonban sem az ahhoz
tartozó privilégiummal nem kötelező élnie, sem az ahhoz tartozó cselekedetet nem kötelező végrehajtania." (A player
must choose a role on their turn, but is obliged neither to use its privilege nor to carry out its action.) And for
the violet buildings: "A játékosoknak nem kötelező használni működő lila épületeiket" (players are not obliged to
use their working violet buildings).

Declining a doubloon (trader, builder, prospector, markets, factory) never helps, so it is never offered; declining
a VP chip or a colonist can decide whether the chips or the colonists run out, so it is offered until an end
trigger has fired (after that the game ends with the round whatever the counts).
"""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.puerto_rico import RULES
from engine.puerto_rico.components import BUILDING_INDEX
from engine.puerto_rico.mayor import refill_ship
from engine.puerto_rico.state import ROLE, colonists_of
from tests.engine.puerto_rico.helpers import board, choose, game, legal, play

SUGAR_MILL = BUILDING_INDEX["sugar mill"]


def refill_ends_the_game(state):
    """Whether a mayor's ship refill (4 players, no empty building circle: 4 colonists) would trigger the end now."""
    return refill_ship(state).end_triggered


# --- the mayor's privilege colonist -------------------------------------------------------------------------------


def test_the_mayor_may_decline_his_privilege_colonist_and_so_keep_the_supply_from_running_short():
    """ "Ha a szerepet választó játékos él a privilégiumával, akkor elvesz egy telepest a telepesek kupacából (és nem
    a telepeshajóról)." (If the player who chose the role uses his privilege, he takes a colonist from the supply, not
    from the ship.) With the general rule, he may also not use it; the choice is made with the pick, as nothing
    happens in between. Here the supply holds exactly the 4 colonists the ship needs: the privilege colonist leaves it
    one short, and the game ends after the round ("a polgármester-fázis végén már nincs elég telepes a telepeshajó
    feltöltésére": not enough colonists to refill the ship at the end of the mayor phase)."""
    start = game(colonist_ship=4, colonist_supply=4)
    options = legal(start)
    assert options[options.index("role mayor") + 1] == "role mayor without colonist"

    taken = choose(start, "mayor")
    assert [colonists_of(p) for p in taken.players] == [2, 1, 1, 1]
    assert taken.colonist_supply == 0 and taken.colonist_ship == 3 and taken.end_triggered

    declined = choose(start, "mayor without colonist")
    assert [colonists_of(p) for p in declined.players] == [1, 1, 1, 1]
    assert declined.colonist_supply == 0 and declined.colonist_ship == 4 and not declined.end_triggered


def test_no_privilege_colonist_to_decline_from_an_empty_supply_or_once_the_end_is_triggered():
    """ "Ha a telepesek kupaca elfogy, a polgármester már nem élhet privilégiumával" (an empty supply: no privilege,
    so nothing to decline); once a trigger has fired the supply's count no longer matters and the colonist is taken."""
    empty = game(colonist_supply=0)
    assert "role mayor without colonist" not in legal(empty)
    with pytest.raises(IllegalActionError, match=r"supply is empty: the mayor has no privilege colonist to decline \[mayor: privilege\]"):
        RULES.check(empty, RULES.parse_action("role mayor without colonist"))
    ending = game(end_triggered=True)
    assert "role mayor" in legal(ending) and "role mayor without colonist" not in legal(ending)
    with pytest.raises(IllegalActionError, match=r"end has been triggered.* \[privilege: declining\]"):
        RULES.check(ending, RULES.parse_action("role mayor without colonist"))
    taken = choose(game(), "mayor")
    with pytest.raises(IllegalActionError, match=r"the mayor has already been chosen this round \[roles: one each\]"):
        RULES.check(taken.evolve(phase=ROLE, turn=1), RULES.parse_action("role mayor without colonist"))


# --- the hospice colonist -------------------------------------------------------------------------------------------


def test_the_hospice_colonist_may_be_declined_on_a_plantation_or_a_quarry():
    """ "A működő menhellyel rendelkező játékos az ültetvényes-fázis során lerakott ültetvényre vagy kőbányára azonnal
    rakhat egy telepest a telepesek kupacából." (A player with a working hospice *may* put a colonist from the supply at
    once on the plantation or quarry placed in the settler phase.) Taking it here leaves the supply one short of the
    next ship refill; declining keeps it full."""
    start = choose(game(boards={0: board(city={"hospice": 1})}, colonist_supply=5), "settler")
    assert legal(start)[:4] == ["plant corn", "plant corn without colonist", "plant indigo", "plant indigo without colonist"]
    assert legal(start)[-3:] == ["quarry", "quarry without colonist", "pass"]

    taken = play(start, "plant corn")
    assert taken.players[0].island_workers[0] == 1 and taken.colonist_supply == 4
    declined = play(start, "plant corn without colonist")
    assert declined.players[0].island == taken.players[0].island
    assert declined.players[0].island_workers[0] == 0 and declined.colonist_supply == 5

    quarry = play(start, "quarry")
    assert quarry.players[0].island_workers[5] == 1 and quarry.colonist_supply == 4
    bare_quarry = play(start, "quarry without colonist")
    assert bare_quarry.players[0].island[5] == 1 and bare_quarry.players[0].island_workers[5] == 0
    assert bare_quarry.colonist_supply == 5

    short = play(start.evolve(colonist_supply=4), "plant corn")
    assert refill_ends_the_game(short)
    assert not refill_ends_the_game(play(start.evolve(colonist_supply=4), "plant corn without colonist"))


def test_the_hospice_colonist_from_the_ship_may_be_declined_too():
    """ "Ha a telepesek kupacában már nincsen egyetlen telepes sem, a játékos elvehet egyet a telepeshajóról. Ha már
    ott sincsenek, nem kapja meg a plusz telepest." (With the supply empty he may take one from the ship; if none is
    there either, he gets none: then there is nothing to decline.)"""
    start = choose(game(boards={0: board(city={"hospice": 1})}, colonist_supply=0, colonist_ship=4), "settler")
    assert play(start, "plant sugar").colonist_ship == 3
    assert play(start, "plant sugar without colonist").colonist_ship == 4
    none_left = choose(game(boards={0: board(city={"hospice": 1})}, colonist_supply=0, colonist_ship=0), "settler")
    assert "plant sugar without colonist" not in legal(none_left)
    with pytest.raises(IllegalActionError, match=r"no colonist is left .* \[colonists: supply\]"):
        RULES.check(none_left, RULES.parse_action("plant sugar without colonist"))


def test_no_hospice_colonist_to_decline_without_a_working_hospice():
    idle = choose(game(boards={0: board(city={"hospice": 0})}), "settler")
    assert not [a for a in legal(idle) if "without" in a]
    with pytest.raises(IllegalActionError, match=r"seat 0 has no working hospice.* \[settler: hospice\]"):
        RULES.check(idle, RULES.parse_action("quarry without colonist"))
    with pytest.raises(IllegalActionError, match=r"no coffee plantation is face up \[settler: face-up row\]"):
        RULES.check(idle.evolve(face_up=(1, 1, 1, 1, 0)), RULES.parse_action("plant coffee without colonist"))


# --- the university colonist ----------------------------------------------------------------------------------------


def test_the_university_colonist_may_be_declined():
    """ "Ha a működő egyetemmel rendelkező játékos az építész-fázis során felépít egy épületet, elvehet egy telepest a
    telepesek kupacából; ezt a telepest erre az új épületre kell leraknia." (A player with a working university who
    builds *may* take a colonist from the supply; it must go on the new building.) Taking it here leaves the supply one
    short of the next ship refill."""
    start = choose(game(boards={0: board(doubloons=4, city={"university": 1})}, colonist_supply=4), "builder")
    options = legal(start)
    assert options[options.index("build sugar mill") + 1] == "build sugar mill without colonist"
    assert options[-1] == "pass"

    taken = play(start, "build sugar mill")
    assert taken.players[0].city[SUGAR_MILL] == 1 and taken.colonist_supply == 3 and taken.players[0].doubloons == 1
    assert refill_ends_the_game(taken)
    declined = play(start, "build sugar mill without colonist")
    assert declined.players[0].city[SUGAR_MILL] == 0 and declined.colonist_supply == 4 and declined.players[0].doubloons == 1
    assert not refill_ends_the_game(declined)


def test_no_university_colonist_to_decline_without_a_university_or_after_the_end_is_triggered():
    plain = choose(game(boards={0: board(doubloons=4)}), "builder")
    assert not [a for a in legal(plain) if "without" in a]
    with pytest.raises(IllegalActionError, match=r"seat 0 has no working university.* \[builder: university\]"):
        RULES.check(plain, RULES.parse_action("build sugar mill without colonist"))
    ending = choose(game(boards={0: board(doubloons=4, city={"university": 1})}, end_triggered=True), "builder")
    assert "build sugar mill" in legal(ending) and not [a for a in legal(ending) if "without" in a]
    assert play(ending, "build sugar mill").players[0].city[SUGAR_MILL] == 1  # taken, as it can no longer matter
    with pytest.raises(IllegalActionError, match=r"\[privilege: declining\]"):
        RULES.check(ending, RULES.parse_action("build sugar mill without colonist"))


# --- the captain's and the harbor's VP ------------------------------------------------------------------------------


def test_the_captain_may_decline_his_first_load_point_and_so_keep_the_chips_from_running_out():
    """ "A kapitány, amikor első árufajtáját behajózza, privilégiumaként plusz egy győzelmi pontot kap." (The captain
    gets one more VP as his privilege when he ships his first kind.) With the general rule he may decline it. With 4
    chips left and 3 corn, taking it empties the bank and ends the game after the round ("a kapitány-fázis során
    elfogynak a győzelmi pont-jelzők"); declining leaves one chip."""
    start = choose(game(boards={0: board(goods={"corn": 3})}, vp_bank=4), "captain")
    assert legal(start)[:2] == ["load corn 5", "load corn 5 without 1 vp"]

    taken = play(start, "load corn 5")
    assert taken.players[0].vp == 4 and taken.vp_bank == 0 and taken.end_triggered
    declined = play(start, "load corn 5 without 1 vp")
    assert declined.players[0].vp == 3 and declined.vp_bank == 1 and not declined.end_triggered


def test_a_declined_captain_point_is_gone_for_the_phase():
    """ "De csak az első árufajta behajózásakor kap plusz győzelmi pontot, a többinél már nem." (Only on the first kind
    shipped, not on the others): declined there, it is not owed on the next loading."""
    start = choose(game(boards={0: board(goods={"corn": 1, "indigo": 1})}), "captain")
    state = play(start, "load corn 5 without 1 vp")
    assert legal(state) == ["load indigo 6", "load indigo 7"]
    state = play(state, "load indigo 6")
    assert state.players[0].vp == 2
    with pytest.raises(IllegalActionError, match=r"earns no bonus VP on this loading .* \[captain: bonus VP\]"):
        RULES.check(play(start, "load corn 5 without 1 vp"), RULES.parse_action("load indigo 6 without 1 vp"))


def test_the_harbor_point_may_be_declined_and_with_the_captains_one_or_both():
    """ "A működő kikötővel rendelkező játékos a kapitány-fázis során mindannyiszor, amikor behajóz egy árufajtát, kap
    plusz egy győzelmi pontot." (A player with a working harbor gets one more VP each time he ships a kind.) "A
    játékosoknak nem kötelező használni működő lila épületeiket" (using a working violet building is not obligatory).
    A captain with a harbor may decline one or both bonus points on his first loading: with 5 chips and 3 corn,
    taking both empties the bank, declining one leaves 1 chip and declining both 2."""
    start = choose(game(boards={0: board(goods={"corn": 3, "indigo": 1}, city={"harbor": 1})}, vp_bank=5), "captain")
    assert legal(start)[:3] == ["load corn 5", "load corn 5 without 1 vp", "load corn 5 without 2 vp"]
    both = play(start, "load corn 5")
    one = play(start, "load corn 5 without 1 vp")
    none = play(start, "load corn 5 without 2 vp")
    assert [(s.players[0].vp, s.vp_bank, s.end_triggered) for s in (both, one, none)] == [(5, 0, True), (4, 1, False), (3, 2, False)]
    # the next loading only has the harbor's point to decline
    assert legal(one) == ["load indigo 6", "load indigo 6 without 1 vp", "load indigo 7", "load indigo 7 without 1 vp"]
    assert play(one, "load indigo 6 without 1 vp").players[0].vp == 4 + 1
    with pytest.raises(IllegalActionError, match=r"only 1 bonus VP is due on this loading \[captain: bonus VP\]"):
        RULES.check(one, RULES.parse_action("load indigo 6 without 2 vp"))


def test_the_harbor_point_may_be_declined_on_a_wharf_shipment():
    """Rakpart: "ugyanolyan módon jár neki a győzelmi pont, mint az áruk valamelyik kereskedőhajóra kerültek volna"
    (the wharf scores as if shipped on a cargo ship), so the harbor's point comes with it, and may be declined."""
    owner = board(goods={"coffee": 2}, city={"harbor": 1, "wharf": 1})
    state = choose(game(boards={1: owner}, ship_goods=(-1, -1, 2), ship_loads=(0, 0, 7), vp_bank=3), "captain")
    assert state.turn == 1
    assert legal(state) == ["load coffee 5", "load coffee 5 without 1 vp", "load coffee 6", "load coffee 6 without 1 vp",
                            "wharf coffee", "wharf coffee without 1 vp"]
    assert play(state, "wharf coffee").players[1].vp == 3
    declined = play(state, "wharf coffee without 1 vp")
    assert declined.players[1].vp == 2 and declined.vp_bank == 1 and not declined.end_triggered


def test_no_vp_to_decline_once_the_end_is_triggered():
    """Once a trigger has fired the game ends with the round whatever the bank holds: the points are always taken."""
    start = choose(game(boards={0: board(goods={"corn": 3}, city={"harbor": 1})}, end_triggered=True), "captain")
    assert legal(start) == ["load corn 5", "load corn 6", "load corn 7"]
    assert play(start, "load corn 5").players[0].vp == 5
    with pytest.raises(IllegalActionError, match=r"end has been triggered.* \[privilege: declining\]"):
        RULES.check(start, RULES.parse_action("load corn 5 without 1 vp"))


# --- never offered: doubloons -----------------------------------------------------------------------------------------


def test_doubloon_privileges_are_never_declined():
    """The trader's doubloon ("kap még egy dublont, ha él privilégiumával"), the builder's discount ("ha él
    privilégiumával, az amúgy szükségesnél eggyel kevesebbet kell fizetnie"), the prospector's doubloon and the
    markets' doubloons could be declined, but a doubloon is never worth less than none: no such forms exist."""
    trader = choose(game(boards={0: board(goods={"sugar": 1}, city={"small market": 1, "large market": 1})}), "trader")
    assert legal(trader) == ["sell sugar", "pass"]
    assert play(trader, "sell sugar").players[0].doubloons == 2 + 1 + 1 + 2
    builder = choose(game(boards={0: board(doubloons=1)}), "builder")
    assert not [a for a in legal(builder) if "without" in a]


# --- game-log sentences -----------------------------------------------------------------------------------------------


def test_describe_names_what_was_declined():
    say = RULES.describe
    assert say(game(), RULES.parse_action("role mayor without colonist")) == "Anna chooses the mayor, declining the privilege colonist"
    coins = game(role_coins=(0, 1, 0, 0, 0, 0, 0))
    assert say(coins, RULES.parse_action("role mayor without colonist")) == (
        "Anna chooses the mayor and takes 1 doubloon from it, declining the privilege colonist")
    settler = choose(game(boards={0: board(city={"hospice": 1})}), "settler")
    assert say(settler, RULES.parse_action("plant corn without colonist")) == "Anna takes a corn plantation, declining the hospice colonist"
    assert say(settler, RULES.parse_action("quarry without colonist")) == "Anna takes a quarry, declining the hospice colonist"
    builder = choose(game(boards={0: board(doubloons=4, city={"university": 1})}), "builder")
    assert say(builder, RULES.parse_action("build sugar mill without colonist")) == (
        "Anna builds a sugar mill for 3 doubloons, declining the university colonist")
    captain = choose(game(boards={0: board(goods={"corn": 3})}), "captain")
    assert say(captain, RULES.parse_action("load corn 5 without 1 vp")) == (
        "Anna ships 3 corn on the 5-ship for 3 VP, declining the captain's bonus VP")
    harbor = choose(game(boards={0: board(goods={"corn": 3}, city={"harbor": 1, "wharf": 1})}), "captain")
    assert say(harbor, RULES.parse_action("load corn 5")) == "Anna ships 3 corn on the 5-ship for 5 VP"
    assert say(harbor, RULES.parse_action("load corn 5 without 1 vp")) == (
        "Anna ships 3 corn on the 5-ship for 4 VP, declining one of its two bonus VP")
    assert say(harbor, RULES.parse_action("wharf corn without 2 vp")) == (
        "Anna ships 3 corn from the wharf for 3 VP, declining the captain's and the harbor's bonus VP")
    other = choose(game(boards={1: board(goods={"indigo": 2}, city={"harbor": 1})}), "captain")
    assert say(other, RULES.parse_action("load indigo 5 without 1 vp")) == (
        "Róbert ships 2 indigo on the 5-ship for 2 VP, declining the harbor's bonus VP")
