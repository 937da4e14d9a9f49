"""The six events of the '?' tiles, resolved after placing ("Ez a részlet lepakolása után hajtódik végre")."""

from __future__ import annotations

from engine.entdecker.state import EXPLORE, NATIVES, NATIVES_CHIP, START
from tests.engine.entdecker.helpers import game, legal, play, tile_at, weights


def placed(event, *, gold=4, bought=2, **fields):
    """Seat 0 buys ``bought`` tiles, draws a '?' headland with ``event`` and lays it at (4, 0), land south."""
    state = game(round=1, gold=(gold + bought, 4, 4, 4), tops=(1, 0, 0, 0, 0), **fields)
    return play(state, "start edge 4 0 n", f"buy {bought}", "draw 1", f"tile cape?{event}", "back 1 plain", "place 4 0 2")


def test_storm_ends_the_turn_at_once_without_a_build():
    """ "Vihar: A kör azonnal véget ér. A játékos nem tehet le egységet és nem forgathat fel további részleteket."
    (storm: the turn ends at once; the player may not build nor turn over more tiles.)"""
    state = placed("storm", gold=9, bought=3)
    assert tile_at(state, 4, 0) == "cape?storm 2"
    assert state.turn == 1 and state.phase == START and state.gold[0] == 9


def test_hostile_natives_double_the_cost_of_a_unit_built_there():
    """ "Barátságatlan őslakók: Ha a játékos erre a részletre szeretne egységet letenni, az kétszer annyiba fog
    kerülni, mint normál esetben (tehát a felderítő 2, az erőd 6 a telep pedig 12 aranyba fog kerülni)." (hostile
    natives: a unit built on this tile costs double: scout 2, fort 6, settlement 12.)"""
    state = placed("hostile", gold=11, bought=1)
    assert [a for a in legal(state) if a.startswith("build")] == ["build scout 0", "build fort 0"]  # 11 gold: no 12
    assert play(state, "build fort 0").gold[0] == 11 - 6
    rich = state.evolve(gold=(12, 4, 4, 4))
    assert play(rich, "build settlement 0").gold[0] == 0


def test_friendly_natives_offer_a_chip_that_scores_nothing_itself():
    """ "Barátságos őslakók: A játékos húzhat egy felfedezés korongot, melyet képpel felfelé maga elé tesz. Ennek a
    korongnak az értékét nem kapja meg." (friendly natives: the player *may* draw a discovery chip and puts it face up
    before him; he does not get its value.) The seed's "húzhat" (may draw) makes the chip a choice, where the
    digest draws it automatically."""
    state = placed("friendly")
    assert state.phase == NATIVES and legal(state) == ["take chip", "decline chip"]
    taken = play(state, "take chip")
    assert taken.phase == NATIVES_CHIP and weights(taken) == {"chip 1": 5, "chip 2": 7, "chip 3": 6, "chip 4": 2}
    taken = play(taken, "chip 4")
    assert taken.chips[0] == (4,) and taken.score[0] == 0 and sum(taken.pool) == 19 and taken.phase == EXPLORE
    declined = play(state, "decline chip")
    assert declined.chips[0] == () and sum(declined.pool) == 20 and declined.phase == EXPLORE


def test_friendly_natives_with_an_empty_pool_give_nothing():
    """Digest: "draw a chip face up (none if the pool is empty)"."""
    state = placed("friendly", pool=(0, 0, 0, 0))
    assert state.phase == EXPLORE and state.chips[0] == ()


def test_pirates_take_half_of_the_gold_left_rounded_up():
    """ "Kalózok: A játékos elveszti maradék aranya felét, felfelé kerekítve." (pirates: the player loses half of his
    remaining gold, rounded up.)"""
    assert [placed("pirates", gold=g).gold[0] for g in (7, 6, 1, 0)] == [3, 3, 0, 0]


def test_ruins_give_three_points_at_once():
    """ "Romok: A játékos kap három győzelempontot. Sikerjelzőjét azonnal előréb kell tolni a pontozósávon." (ruins:
    the player gains three victory points, at once.)"""
    assert placed("ruins").score == (3, 0, 0, 0)


def test_treasure_gives_three_gold_never_above_twelve():
    """ "Kincs: A játékos kap három aranyat. Ezzel együtt sem lehet több aranya tizenkettőnél." (treasure: the player
    gains three gold, never more than twelve.)"""
    assert placed("treasure", gold=5).gold[0] == 8
    assert placed("treasure", gold=10).gold[0] == 12
