"""Final scoring: chips, building VP, large-building bonuses (occupied only), tie-breaks, shared wins."""

from __future__ import annotations

from engine.puerto_rico import RULES
from engine.puerto_rico.scoring import bonus_vp, building_vp
from engine.puerto_rico.state import OVER
from tests.engine.puerto_rico.helpers import board, game


def test_worked_example_guild_hall_plus_six():
    """ "A működő céhház tulajdonosának van még egy kis és egy nagy cukormalma, egy kis indigófeldolgozója és egy
    kávépörkölője is városában; a játék végén pluszban kap még 6 győzelmi pontot." (small and large sugar mill, small
    indigo plant, coffee roaster: +6)."""
    player = board(city={"guild hall": 1, "small sugar mill": 0, "sugar mill": 0, "small indigo plant": 1, "coffee roaster": 0})
    assert bonus_vp(player) == 6


def test_worked_example_residence_plus_five_for_ten_island_spaces():
    """ "A működő udvarház tulajdonosának a 12-ből 10 ültetvény-helyén vannak ültetvényei, illetve kőbányái a játék
    végén, ezért 5 plusz győzelmi pont jár neki." (10 filled island spaces: +5; ≤9 → 4, 11 → 6, 12 → 7)."""
    assert bonus_vp(board(city={"residence": 1}, island={"corn": 7, "quarry": 3})) == 5
    assert [bonus_vp(board(city={"residence": 1}, island={"corn": k})) for k in (0, 9, 11, 12)] == [4, 4, 6, 7]


def test_worked_example_fortress_plus_six_for_twenty_colonists():
    """ "A működő erőd tulajdonosának a játék végén ültetvényein, kőbányáin, épületein és San Juanban összesen 20
    telepese van, ezért 6 plusz győzelmi pont jár neki." (20 colonists anywhere: +6)."""
    player = board(city={"fortress": 1, "sugar mill": 3}, island={"corn": 6}, workers={"corn": 6}, san_juan=10)
    assert bonus_vp(player) == 6


def test_worked_example_customs_house_plus_five_for_twenty_three_chips():
    """ "A működő vámház tulajdonosának a jelzőkben összesen 23 győzelmi pontja van, ezért 5 plusz győzelmi pont jár
    neki." (23 VP of chips: +5; building VP do not count)."""
    assert bonus_vp(board(city={"customs house": 1}, vp=23)) == 5


def test_worked_example_city_hall_plus_seven():
    """ "A működő városháza tulajdonosának a játék végén a következő lila épületei vannak még: hacienda, kikötő,
    hivatal, építőműhely, nagy raktár, udvarház. A játékosnak ezért 7 plusz győzelmi pont jár." (+7, itself included)."""
    city = {"city hall": 1, "hacienda": 0, "harbor": 0, "office": 0, "construction hut": 0, "large warehouse": 0,
            "residence": 0, "sugar mill": 1}
    assert bonus_vp(board(city=city)) == 7


def test_an_unoccupied_large_building_scores_four_without_bonus():
    """ "egy nagy, de nem működő lila épület 4 győzelmi pontot ér. Az öt nagy épület plusz győzelmi pont-értéke csak
    akkor számít, ha az adott épület működik!" (an unoccupied large building scores 4, no bonus)."""
    player = board(city={"fortress": 0}, san_juan=30)
    assert building_vp(player) == 4 and bonus_vp(player) == 0


def test_outcome_adds_chips_buildings_and_bonuses_and_breaks_ties_by_doubloons_plus_barrels():
    """ "Ha a győzelmi pontok tekintetében egyenlőség alakulna ki, az lesz közülük a győztes, akinek összesítve a
    legtöbb pénze és áruja van (1 hordót 1 dublonnal számolva)." (a tie goes to doubloons plus barrels)."""
    boards = {
        0: board(vp=10, city={"harbor": 0}, doubloons=2, goods={"corn": 1}),  # 13, tie-break 3
        1: board(vp=13, doubloons=1, goods={"sugar": 2}),                       # 13, tie-break 3
        2: board(vp=12, doubloons=5),                                           # 12
        3: board(vp=5, city={"customs house": 1}),                              # 5 + 4 + 1 = 10
    }
    state = game(boards=boards, phase=OVER)
    outcome = RULES.outcome(state)
    assert outcome.scores == (13, 13, 12, 10)
    assert outcome.tiebreaks == (3, 3, 5, 0)
    assert outcome.winners == (0, 1)  # still tied: a shared win
    assert outcome.details[3] == {"chips": 5, "buildings": 4, "bonus": 1}
    richer = game(boards={**boards, 1: boards[1].evolve(doubloons=2)}, phase=OVER)
    assert RULES.outcome(richer).winners == (1,)
    assert RULES.current_actor(state) is None and RULES.legal_actions(state) == ()
