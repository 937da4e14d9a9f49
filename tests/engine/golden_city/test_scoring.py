"""Phase 5 scoring (goods and regions with the majority bonus), the bonus cards and the final ranking."""

from __future__ import annotations

import pytest

from engine.golden_city import RULES
from engine.golden_city.scoring import bonus_letters, round_gains
from engine.golden_city.state import OVER
from tests.engine.golden_city.helpers import game, play, player

RED, BLUE, WHITE, BLACK = range(4)


def scored(players, card):
    """Letters per seat that ``card`` pays with these players."""
    return round_gains(game(players=players), card)


@pytest.mark.parametrize(
    "white,black,expected",
    [(("MT8",), ("ME1",), (0, 0, 2, 2)), (("MT8",), (), (0, 0, 4, 0)), (("MT8", "ME4"), ("ME1",), (0, 0, 4, 2))],
    ids=["both-no-bonus", "only-white", "white-two-to-one"],
)
def test_worked_example_river_scoring(white, black, expected):
    """Digest worked example 4 (the seed's "Példa az Értékelésre"): "Értékelésre kerülnek a kerámiaedények és a hegység
    és a mező közötti folyó. A fehér és a fekete játékos ... ez mellé a folyó mellé építettek. Ezért mind a ketten 2 ...
    kapnak. Abban az esetben, ha csak az egyik játékos épített volna erre a területre, akkor az a játékos megkapná a
    többségi bónusz után járó 2 ... ráadásként. Akkor is, ha a két játékos közül az egyiknek sikerült volna az egy
    üresen maradt harmadik helyre építeni ..." (ceramics and the river between mountains and meadow, R-NE = MT8, ME1,
    ME4: white and black 2 each; alone, white would get 2 more; with the third site too, white gets the bonus.) The
    ceramics part is scored separately: nobody here has ceramics."""
    assert scored({WHITE: player(houses=white), BLACK: player(houses=black)}, "S1") == expected


def test_worked_example_district_scoring():
    """Digest worked example 5: "Értékelésre kerül a bor és a sivatagon fekvő városrész. A kék, a piros és a fekete
    játékosok erre a területre építettek, ezért fejenként 2 ... kapnak. Mivel a piros játékosnak áll a legtöbb (piros 3,
    kék 2, fekete 1), ... ő ráadásként 2 ... kap." (wine and the desert district: red 3 houses, blue 2, black 1; each
    gets 2 and red 2 more: red 4, blue 2, black 2.)"""
    players = {RED: player(houses=("C-DE-I", "C-DE-O1", "C-DE-O2")), BLUE: player(houses=("C-DE-O1", "C-DE-O2")),
               BLACK: player(houses=("C-DE-I",))}
    assert scored(players, "S16") == (4, 2, 0, 2)


def test_goods_scoring_two_for_every_holder_and_two_more_for_a_sole_holder():
    """ "Áru értékelése: Minden olyan játékos, aki előtt a feltüntetett áruból felfordítva fekszik, 2 ... kap." …
    "Abban az esetben, ha egy játékos egyedüli tulajdonosa a feltüntetett áru fajtának, 2 ... ráadásként." … "Az, hogy a
    játékosnak mennyi áru áll rendelkezésére ... nem játszik szerepet." (every holder of the good gets 2, a sole owner
    2 more; how many they hold does not matter.)"""
    # S16: wine. G1, G2, G5, G6 show wine; G3 does not.
    assert scored({RED: player(goods=("G1", "G2", "G5")), BLUE: player(goods=("G3",))}, "S16") == (4, 0, 0, 0)
    assert scored({RED: player(goods=("G1",)), BLUE: player(goods=("G6",))}, "S16") == (2, 2, 0, 0)


def test_a_tie_for_the_most_houses_gives_no_majority_bonus():
    """ "(Egyenlőség esetén nincs többségi bónusz!)" (no majority bonus on a tie)."""
    players = {RED: player(houses=("C-DE-O1", "C-DE-O2")), BLUE: player(houses=("C-DE-O1", "C-DE-I")),
               BLACK: player(houses=("C-DE-I",))}
    assert scored(players, "S16") == (2, 2, 0, 2)


def test_scoring_happens_after_building_and_the_card_goes_to_the_box():
    """ "Miután a kereskedőlevelek kifizetésre kerültek, az értékelési-szakasz véget ér. Az értékelő-kártya visszakerül a
    játék dobozába." (after the letters are paid the card goes back to the box)."""
    state = game(players={WHITE: player(houses=("MT8",)), BLACK: player(houses=("ME1",))})
    state = play(state, "pass", "pass", "pass", "pass")
    assert [p.letters for p in state.players] == [0, 0, 2, 2] and state.last_scoring == (0, 0, 2, 2)
    assert state.scored == ("S1",) and state.scoring_card == ""


@pytest.mark.parametrize(
    "card,holder,expected",
    [
        ("B-GOODS", player(goods=("G1", "G2", "G3")), 9),
        ("B-COINS", player(coins=7), 14),
        ("B-CITY", player(houses=("HA16", "DE7", "C-DE-O2", "C-DE-I")), 2),
        ("B-RIVER", player(houses=("HA16", "DE7", "MT4", "MT5")), 4),
        ("B-DE", player(houses=("HA16", "DE7", "C-DE-O2", "MT4")), 2),
        ("B-MT", player(houses=("HA16", "DE7", "C-DE-O2", "MT4", "C-MT-O1")), 2),
    ],
)
def test_bonus_cards(card, holder, expected):
    """ "A játékos minden árukártyájáért 3 kereskedőlevelet kap. A játékos minden érméért 2 ... minden Aranyvárosban álló
    kereskedőháza után 1 ... minden folyó mellett álló kereskedőháza után 2 ... minden meghatározott területen fekvő
    elővárosban, vagy városrészben álló Kereskedőháza után 1" (3 per goods card, 2 per coin, 1 per house in the Golden
    City, 2 per house on a river, 1 per house in a suburb or city part of the card's terrain; harbours never count)."""
    assert bonus_letters(game().components, holder, card) == expected


def finished(players):
    return game(players=players).evolve(phase=OVER, turn=-1)


def test_worked_example_ties_city_houses_then_coins_then_shared():
    """Digest worked example 9 (ranking): "A játékot az a játékos nyeri, aki a legtöbb értékű kereskedőlevelet
    gyűjtötte. Egyezőség esetén az a játékos nyer, aki a legtöbb kereskedőházat építette az Aranyvárosban. Ha még mindig
    egyezőség mutatkozik, akkor az a játékos nyer, akinek több érméje van. Amennyiben még ezek után is egyezőség van,
    akkor a játéknak több nyertese van." Two players tied at 40 letters: 3 city houses beat 2; if the city houses tie
    too, more coins wins; if still tied, both win."""
    three = ("C-DE-O1", "C-DE-O2", "C-DE-I")
    city = finished({0: player(letters=40, houses=three), 1: player(letters=40, houses=three[:2]), 2: player(letters=12)})
    assert RULES.outcome(city).winners == (0,)
    coins = finished({0: player(letters=40, houses=three, coins=1), 1: player(letters=40, houses=three, coins=2)})
    assert RULES.outcome(coins).winners == (1,)
    shared = finished({0: player(letters=40, houses=three), 1: player(letters=40, houses=three)})
    assert RULES.outcome(shared).winners == (0, 1)


def test_final_scores_add_the_bonus_cards():
    """ "A játékosok felfordítják bonusz-kártyáikat és átveszik az azok után kapható kereskedőleveleket, ezeket hozzáadják
    az addig megszerzett kereskedőleveleikhez." (bonus cards are revealed and their letters added.)"""
    outcome = RULES.outcome(finished({0: player(letters=20, coins=5, bonus=("B-COINS",)), 1: player(letters=25)}))
    assert outcome.scores[:2] == (30, 25) and outcome.winners == (0,)
    assert outcome.details[0] == {"letters": 20, "bonus": 10, "city_houses": 0, "coins": 5, "blocked": 0}


def test_a_blocked_player_loses_and_blocked_players_rank_among_themselves():
    """ "Ez a játékos lesz a játék vesztese." (the blocked player loses). Digest ruling: several blocked players rank
    among themselves the same way; if every player is blocked, all are ranked normally."""
    outcome = RULES.outcome(finished({0: player(letters=90, blocked=True), 1: player(letters=10)}))
    assert outcome.winners != (0,) and 0 not in outcome.winners
    everyone = finished({s: player(letters=10 * s, blocked=True) for s in range(4)})
    assert RULES.outcome(everyone).winners == (3,)


def test_the_blocked_player_takes_the_last_place_whatever_their_letters():
    """Issue 16. "Ebben az esetben a játéknak idő előtti vége van. Ez a játékos lesz a játék vesztese." (In this case the
    game ends early. This player is the loser.) The final places say so, not only the winners: the blocked player has the
    most letters and still comes last, and everyone reading the places (result table, BGA export) sees it."""
    outcome = RULES.outcome(finished({0: player(letters=90, blocked=True), 1: player(letters=10), 2: player(letters=30),
                                      3: player(letters=10)}))
    assert outcome.scores == (90, 10, 30, 10)
    assert outcome.ranks == (4, 2, 1, 2)
    assert outcome.winners == (2,)
    assert outcome.to_json()["ranks"] == [4, 2, 1, 2]
