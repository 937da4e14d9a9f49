"""The captain phase: forced loading, ship choice, privilege, harbor, wharf, storage, full ships."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.puerto_rico import RULES
from engine.puerto_rico.state import ROLE, STORE
from tests.engine.puerto_rico.helpers import board, choose, game, good, legal, play

CORN, INDIGO, SUGAR, TOBACCO = good("corn"), good("indigo"), good("sugar"), good("tobacco")


def taking_every_bonus(state):
    """The legal actions less the forms declining bonus VP (those are tested in test_declining.py)."""
    return [text for text in legal(state) if " without " not in text]


def _captain_example():
    boards = {
        0: board(goods={"corn": 2, "sugar": 6}),       # Anna, the captain
        1: board(goods={"sugar": 2, "tobacco": 3}),    # Róbert
        2: board(goods={"corn": 2, "tobacco": 1}),     # Krisztina
        3: board(goods={"corn": 1, "indigo": 5}),      # Dávid
    }
    return choose(game(boards=boards, ship_goods=(-1, CORN, -1), ship_loads=(0, 3, 0)), "captain")


def test_worked_example_anna_robert_krisztina_david():
    """ "Anna a kapitány ... 2 kukoricája és 6 cukra van. Az 5-ös és a 7-es rakterű hajó üres, a 6-os rakterű hajón
    pedig van 3 kukorica. ... a 6 hordó cukrot rárakja a 7-es rakterű hajóra ... 7 győzelmi pontot kap" … Róbert 1 sugar
    on the 7-ship (1), Krisztina 1 tobacco on the 5-ship (1), Dávid "az egy kukoricáját kell a 6-os rakterű hajóra
    raknia" (1), Anna 2 corn (2), Róbert 3 tobacco (3) … "Végül Anna kiüríti a két megtelt hajót: a 6-os és a 7-es
    rakterűt. A 4 dohány az 5-ös rakterű hajón marad." (the 6- and 7-ships are emptied, 4 tobacco stay on the 5-ship)."""
    state = _captain_example()
    # sugar may not go on the 5-ship: the 7-ship takes all 6; the captain may decline his first-load point
    assert legal(state) == ["load corn 6", "load corn 6 without 1 vp", "load sugar 7", "load sugar 7 without 1 vp"]
    state = play(state, "load sugar 7")
    assert legal(state) == ["load sugar 7", "load tobacco 5"]
    state = play(state, "load sugar 7", "load tobacco 5")
    assert legal(state) == ["load corn 6"]  # Dávid: indigo has no ship left
    state = play(state, "load corn 6", "load corn 6", "load tobacco 5")
    assert [p.vp for p in state.players] == [7 + 2, 1 + 3, 1, 1]
    # Krisztina (2 corn) and Dávid (5 indigo) keep one barrel each; Róbert keeps his last sugar.
    assert state.phase == ROLE
    assert [p.goods for p in state.players] == [(0, 0, 0, 0, 0), (0, 0, 1, 0, 0), (1, 0, 0, 0, 0), (0, 1, 0, 0, 0)]
    assert state.ship_goods == (TOBACCO, -1, -1) and state.ship_loads == (4, 0, 0)


def test_loading_is_forced_when_possible():
    """ "Amikor egy játékosra kerül a sor, ha képes, be kell árut hajóznia" (a player who can load must)."""
    state = _captain_example()
    assert "pass" not in legal(state)
    with pytest.raises(IllegalActionError, match=r"seat 0 can load a cargo ship and must \[captain: forced loading\]"):
        RULES.check(state, RULES.parse_action("pass"))


def test_ship_choice_rules_are_explained():
    """ "A játékos nem rakhat árut egy kereskedőhajóra, ha ugyanebből az árufajtából már található a két másik
    kereskedőhajó egyikén." (no kind on two ships) … "azt a hajót kell választania, amelyre a legtöbb ... hordót be
    tudja hajózni" (the empty ship that takes the most)."""
    state = _captain_example()
    with pytest.raises(IllegalActionError, match=r"corn is already on the 6-ship \[captain: one ship per kind\]"):
        RULES.check(state, RULES.parse_action("load corn 5"))
    with pytest.raises(IllegalActionError, match=r"\[captain: ship choice\]"):
        RULES.check(state, RULES.parse_action("load sugar 5"))
    with pytest.raises(IllegalActionError, match=r"the 6-ship carries corn \[captain: one kind per ship\]"):
        RULES.check(state, RULES.parse_action("load sugar 6"))


def test_with_no_ship_taking_all_the_largest_empty_ship_is_used():
    """ "a legtöbb (ha lehetséges, az összes) hordót" (the most barrels, all if possible): 9 sugar → the 7-ship only."""
    state = choose(game(boards={0: board(goods={"sugar": 9})}), "captain")
    assert taking_every_bonus(state) == ["load sugar 7"]
    state = play(state, "load sugar 7")
    assert state.players[0].vp == 8 and state.players[0].goods[SUGAR] == 1


def test_harbor_and_wharf_worked_example():
    """ "5 dohányából 3-at tud rárakni a "dohányhajóra" ... 3+1 győzelmi pontot kap. ... mindkét cukrát rárakja a
    "cukorhajóra"; ... 2+1 ... felhasználja a rakpartját, és maradék két dohányát a készletbe teszi; ... 2+1 győzelmi
    pontot kap. ... összeségében 3 pluszpontot szerzett a kikötő ... használatával." (harbor + wharf: 3+1, 2+1, 2+1)."""
    owner = board(goods={"tobacco": 5, "sugar": 2}, city={"harbor": 1, "wharf": 1})
    state = game(boards={1: owner}, ship_goods=(TOBACCO, SUGAR, -1), ship_loads=(2, 1, 0))
    state = choose(state, "captain")  # seat 0 captains with no goods
    assert state.turn == 1
    state = play(state, "load tobacco 5")
    assert state.players[1].vp == 4
    assert taking_every_bonus(state) == ["load sugar 6", "wharf sugar", "wharf tobacco"]
    state = play(state, "load sugar 6")
    assert state.players[1].vp == 4 + 3
    assert taking_every_bonus(state) == ["wharf tobacco", "pass"]  # the wharf is optional
    state = play(state, "wharf tobacco")
    assert state.players[1].vp == 4 + 3 + 3 and state.players[1].goods == (0,) * 5
    assert state.goods_supply[TOBACCO] == 9 + 2 + 5  # the wharf barrels, then the full 5-ship emptied


def test_the_wharf_works_once_per_phase_for_any_kind():
    """ "A játékos egy kapitány-fázis során csak egyszer használhatja a rakpartját" (once per captain phase) …
    "Bármelyik árufajta lehet ... akár az is, amelyből már van valamelyik kereskedőhajón" (any kind, even one on a
    ship)."""
    owner = board(goods={"corn": 2, "indigo": 2}, city={"wharf": 1})
    state = game(boards={0: owner}, ship_goods=(CORN, INDIGO, SUGAR), ship_loads=(5, 6, 7))
    state = choose(state, "captain")
    assert legal(state) == ["wharf corn", "wharf corn without 1 vp", "wharf indigo", "wharf indigo without 1 vp", "pass"]
    state = play(state, "wharf corn")
    assert state.phase == ROLE and state.players[0].vp == 3  # 2 + the captain's point; indigo kept on the windrose


def test_the_captain_scores_his_privilege_on_the_first_loading_only():
    """ "A kapitány, amikor első árufajtáját behajózza, privilégiumaként plusz egy győzelmi pontot kap. De csak az első
    árufajta behajózásakor" (+1 VP on the first loading only)."""
    state = choose(game(boards={0: board(goods={"corn": 1, "indigo": 1})}), "captain")
    state = play(state, "load corn 5", "load indigo 6")
    assert state.players[0].vp == 2 + 1


def test_storage_one_barrel_on_the_windrose_and_whole_kinds_in_warehouses():
    """ "Minden játékos csak egy árut (egy hordót) tarthat a szélrózsáján." (one barrel on the windrose) … kis raktár
    "egy általa választott árufajtából az összes áruját" (a small warehouse keeps all of one kind), nagy raktár "két
    ... árufajtából" (a large one two kinds)."""
    goods = {"corn": 3, "indigo": 2, "coffee": 4}
    full_ships = {"ship_goods": (SUGAR, TOBACCO, good("coffee")), "ship_loads": (5, 6, 7)}
    small = choose(game(boards={0: board(goods=goods, city={"small warehouse": 1})}, **full_ships), "prospector")
    small = play(small.evolve(turn=1, governor=1), "role captain")
    assert small.phase == STORE and small.turn == 0
    assert legal(small) == ["keep 3 corn 1 indigo", "keep 3 corn 1 coffee", "keep 1 corn 2 indigo", "keep 2 indigo 1 coffee",
                            "keep 1 corn 4 coffee", "keep 1 indigo 4 coffee"]
    kept = play(small, "keep 1 indigo 4 coffee")
    assert kept.players[0].goods == (0, 1, 0, 0, 4) and kept.goods_supply[0] == 10 + 3
    with pytest.raises(IllegalActionError, match=r"possible: keep 3 corn 1 indigo; .* \[captain: storage\]"):
        RULES.check(small, RULES.parse_action("keep 3 corn 2 indigo"))
    both = game(boards={0: board(goods=goods, city={"small warehouse": 1, "large warehouse": 1})}, **full_ships)
    both = play(choose(both, "prospector").evolve(turn=1, governor=1), "role captain")
    assert both.players[0].goods == (3, 2, 0, 0, 4)  # three kinds kept, nothing to decide


def test_full_ships_are_emptied_partial_ones_keep_their_cargo():
    """ "a kapitány kötelessége, hogy a megtelt hajókról az árukat visszarakja a készletbe. A részben vagy teljesen
    üres hajókhoz nem nyúlhat" (full ships are emptied into the supply; the others stay)."""
    state = choose(game(boards={0: board(goods={"corn": 5, "sugar": 2})}), "captain")
    state = play(state, "load corn 5", "load sugar 6")
    assert state.ship_goods == (-1, SUGAR, -1) and state.ship_loads == (0, 2, 0)
    assert state.goods_supply[0] == 10 + 5


def test_running_out_of_vp_chips_still_counts_the_points_and_ends_the_game():
    """ "Ha a győzelmi pont-jelzők elfogynak, a játékosoknak papír és írószerszám segítségével kell számontartaniuk a
    még megszerzett győzelmi pontjaikat." (after the chips run out, points are still counted)."""
    state = play(choose(game(boards={0: board(goods={"corn": 5})}, vp_bank=3), "captain"), "load corn 5")
    assert state.players[0].vp == 6 and state.vp_bank == 0 and state.end_triggered


def test_a_full_ship_takes_nothing_and_its_kind_cannot_go_elsewhere():
    """ "Megtelt hajóra már nem lehet árut rakni." (a full ship takes nothing) … "csak olyant, amilyenből még nincsen
    egy másik hajón" (only a kind not on another ship): corn on a full 5-ship cannot be loaded at all."""
    state = game(boards={0: board(goods={"corn": 2, "sugar": 1})}, ship_goods=(CORN, -1, -1), ship_loads=(5, 0, 0))
    state = choose(state, "captain")
    assert taking_every_bonus(state) == ["load sugar 6", "load sugar 7"]
    with pytest.raises(IllegalActionError, match=r"the 5-ship is full \[captain: full ship\]"):
        RULES.check(state, RULES.parse_action("load corn 5"))


def test_a_player_who_passes_on_the_wharf_is_asked_again_while_others_load():
    """ "A kapitány-fázis addig folytatódik, ... amíg van olyan játékos, aki képes árut behajózni" (the phase goes on
    while someone can load); the wharf may be used at any of the player's turns ("hogy mikor, azt szabadon eldöntheti")."""
    boards = {0: board(goods={"corn": 2, "coffee": 1}), 1: board(goods={"indigo": 2}, city={"wharf": 1})}
    state = game(boards=boards, ship_goods=(INDIGO, -1, -1), ship_loads=(5, 0, 0))
    state = play(choose(state, "captain"), "load corn 7")
    assert state.turn == 1 and legal(state) == ["wharf indigo", "pass"]
    state = play(state, "pass", "load coffee 6")
    assert state.turn == 1 and legal(state) == ["wharf indigo", "pass"]
    state = play(state, "pass")
    assert state.phase == ROLE and state.players[1].goods[INDIGO] == 1  # passed twice, keeps one on the windrose


def test_actions_of_another_phase_are_refused_with_the_phase_named():
    state = choose(game(), "settler")
    with pytest.raises(IllegalActionError, match=r"waiting for a plantation to be taken \(settler\), not for a build action"):
        RULES.check(state, RULES.parse_action("build harbor"))
