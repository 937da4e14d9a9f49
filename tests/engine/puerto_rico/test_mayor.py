"""The mayor phase: privilege, round-robin hand-out, placement with the San Juan rule, the ship refill."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.puerto_rico import RULES
from engine.puerto_rico.state import PLACE, colonists_of
from tests.engine.puerto_rico.helpers import board, choose, game, legal, play


def test_worked_example_six_colonists_for_four_players():
    """ "4 játékos esetén: az első telepest a polgármester, a másodikat a 2. játékos, a harmadikat a 3. játékos, a
    negyediket a 4. játékos, az ötödiket a polgármester és a hatodikat az 1. [sic: 2.] játékos kapja meg. A polgármester
    3, a 2. játékos 2, a 3. és 4. játékos pedig 1-1 telepest kap." (the mayor gets 3 with the privilege, the next
    player 2, the others 1 each). The mayor here is seat 1."""
    state = game(colonist_ship=6)
    before = [colonists_of(p) for p in state.players]
    state = choose(state, "mayor", seat=1)
    gained = [colonists_of(p) - b for p, b in zip(state.players, before, strict=True)]
    assert gained == [1, 3, 2, 1]
    assert state.colonist_supply == 75 - 1 - state.colonist_ship


def test_no_privilege_colonist_from_an_empty_supply():
    """ "Ha a telepesek kupaca elfogy, a polgármester már nem élhet privilégiumával" (an empty supply: no privilege)."""
    state = choose(game(colonist_supply=0, colonist_ship=4), "mayor")
    assert [colonists_of(p) for p in state.players] == [1, 1, 1, 1]
    assert state.end_triggered


def test_colonists_must_fill_empty_circles_before_san_juan():
    """ "Egy játékos csak akkor teheti egy vagy több telepesét San Juanba, ha játéktábláján, a játéklapkákon nincsen
    egyetlen üresen maradt karika sem. Az üres karikákat a lehetőségek határáig fel kell tölteni." (colonists go to San
    Juan only when no empty circle is left; empty circles must be filled as far as possible). So no pass is offered."""
    anna = board(island={"corn": 2, "quarry": 1}, city={"small market": 0, "indigo plant": 0})
    state = choose(game(boards={0: anna}, colonist_ship=4, colonist_supply=10), "mayor")
    assert state.phase == PLACE and state.turn == 0 and state.players[0].san_juan == 2
    assert "pass" not in legal(state)
    with pytest.raises(IllegalActionError, match=r"must place every colonist .* \[mayor: san juan\]"):
        RULES.check(state, RULES.parse_action("pass"))
    state = play(state, "place corn", "place indigo plant")
    assert state.players[0].island_workers[0] == 1 and state.players[0].city[6] == 1
    assert state.players[0].san_juan == 0 and state.turn != 0


def test_placements_go_in_slot_order_so_each_arrangement_has_one_sequence():
    """Digest: each player places their colonists one at a time; in this engine placements follow the board order
    (plantations, quarry, buildings), and a slot is offered only if the rest can still be placed after it."""
    anna = board(island={"corn": 1, "indigo": 1, "quarry": 1}, city={"small market": 0})
    state = choose(game(boards={0: anna}, colonist_ship=4, colonist_supply=10), "mayor")  # 2 colonists, 4 circles
    assert legal(state) == ["place corn", "place indigo", "place quarry"]
    state = play(state, "place indigo")
    assert legal(state) == ["place quarry", "place small market"]
    with pytest.raises(IllegalActionError, match=r"\[mayor: placement order\]"):
        RULES.check(state, RULES.parse_action("place corn"))


def test_rearranging_lifts_every_colonist_and_extra_ones_stay_in_san_juan():
    """ "Ilyenformán a játékosok áthelyezhetik a korábban már valamely karikára lerakott, vagy San Juanba félrerakott
    telepeseiket is." (colonists already placed or in San Juan may be moved) … "Ha egy játékos nem tudja összes
    telepesét lerakni, a megmaradtakat ... San Juan városába gyűjtheti." (the ones that do not fit go to San Juan)."""
    anna = board(island={"corn": 1}, workers={"corn": 1}, city={"small market": 0}, san_juan=2)
    state = choose(game(boards={0: anna}, colonist_ship=4), "mayor")
    player = state.players[0]
    assert player.island_workers[0] == 1 and player.city[2] == 1 and player.san_juan == 3  # 1 + 2 + privilege + 1 = 5 for 2 circles


def test_the_ship_is_refilled_with_the_empty_building_circles_at_least_the_players():
    """ "az összes játékos játéktábláján található épületeken hány üres karika látható (az ültetvények és kőbányák üres
    karikái nem számítanak!) ... de a telepeshajóra rakott telepesek száma semmiképpen sem lehet kevesebb, mint amennyi a
    játékosok száma" (one per empty building circle, not plantations; never fewer than the players)."""
    boards = {1: board(city={"indigo plant": 0, "sugar mill": 0, "coffee roaster": 0}, island={"corn": 5})}
    state = choose(game(boards=boards, colonist_ship=4, colonist_supply=40), "mayor")
    state = play(state, "place corn")
    assert state.colonist_ship == 8  # 3 + 3 + 2 building circles, the corn plantations do not count
    small = choose(game(colonist_ship=4, colonist_supply=40), "mayor")
    assert small.colonist_ship == 4


def test_a_supply_that_cannot_fill_the_ship_ends_the_game_after_the_round():
    """ "a polgármester-fázis végén már nincs elég telepes a telepeshajó feltöltésére" (not enough colonists to
    refill the ship: the game ends at the end of the round)."""
    state = choose(game(colonist_ship=4, colonist_supply=3), "mayor")
    assert state.end_triggered and state.colonist_ship == 2 and state.colonist_supply == 0
    exactly = choose(game(colonist_ship=4, colonist_supply=5), "mayor")
    assert not exactly.end_triggered and exactly.colonist_ship == 4
