"""Setup for 3 and 4 players, the chance points of setup and of a round, the landscape pairs."""

from __future__ import annotations

import pytest

from engine import CHANCE, Setup, SetupError
from engine.golden_city import RULES
from engine.golden_city.state import BID, LAYOUT, REVEAL, SETUP_DEAL, SETUP_GOODS
from tests.engine.golden_city.helpers import NAMES, after_setup, cards, chance, lay_out, play

#: players: houses each, pairs per round (cards laid out), coins each, coins left in the supply
SETUP_TABLE = {3: (18, 3, 3, 26), 4: (16, 4, 3, 23)}


@pytest.mark.parametrize("n", [3, 4])
def test_setup_follows_the_rulebook(n):
    """ "kereskedőházakat (három játékos esetén 18 darabot, négy játékos esetén 16 darabot) ... Ezeket kívül minden
    játékos kap 3 darab érmét ... A maradék érmékből ... közös készletet alkotnak. A terepkártyákból minden játékos 1
    darab „kikötő” terepkártyát kap. A maradék terepkártyákat ... összekeverik ... Ebből a lefordított pakliból minden
    játékos még további egy-egy terepkártyát húz." (18 houses for 3 players, 16 for 4; 3 coins each, the rest a supply;
    each player 1 coast card, the rest shuffled into the draw pile, then each draws one more.)"""
    houses, pairs, coins, supply = SETUP_TABLE[n]
    state = RULES.initial_state(Setup(NAMES[n]))
    assert [p.houses_left for p in state.players] == [houses] * n
    assert [p.coins for p in state.players] == [coins] * n and state.coin_supply == supply
    assert [p.hand for p in state.players] == [cards("CO")] * n
    assert sum(state.pile) == 50 - n and state.pile == (10 - n, 10, 10, 10, 10)
    assert state.key_supply == 6 and len(state.bonus_pile) == 8 and len(state.goods_pile) == 8
    assert state.phase == SETUP_DEAL and RULES.current_actor(state) == CHANCE
    assert chance(state) == {"deal CO": 10 - n, "deal MT": 10, "deal ME": 10, "deal FO": 10, "deal DE": 10}
    state = play(state, *["deal FO"] * n)
    assert [p.hand for p in state.players] == [cards("CO FO")] * n
    assert state.phase == SETUP_GOODS and len(chance(state)) == 8
    state = play(state, "reveal goods G8", "reveal goods G2", "reveal goods G5")
    assert state.goods_display == ("G8", "G2", "G5") and len(state.goods_pile) == 5
    assert state.phase == REVEAL and state.round == 1
    lay = lay_out(state, "S2", " ".join(["MT"] * (2 * n)))
    assert lay.phase == BID and len(lay.layout) == 2 * pairs


def test_the_goods_display_shows_the_top_three_goods_cards():
    """ "A 8 árukártyát a játékosok összekeverik, majd ... Ennek a lefordított paklinak a felső 3 lapját a játékosok
    felfordítva az asztalra teszik." (shuffle the 8 goods cards, turn the top 3 face up.)"""
    state = play(RULES.initial_state(Setup(NAMES[3])), "deal CO", "deal MT", "deal ME")
    assert set(chance(state)) == {f"reveal goods G{i}" for i in range(1, 9)}
    state = play(state, "reveal goods G1", "reveal goods G3")
    assert "reveal goods G1" not in chance(state) and state.phase == SETUP_GOODS


def test_scoring_cards_come_back_1_then_2_then_3():
    """ "A 16 értékelő-kártyát hátlapszámolásuk szerint (1, 2 és 3) szét kell válogatni, majd ... külön-külön meg kell
    keverni ... alulra kerüljenek a 3-as, arra a 2-es és legfelülre pedig az 1-es számosságú lapok." (sorted by back and
    shuffled separately: back 3 at the bottom, 2 on them, 1 on top.)"""
    state = after_setup()
    assert set(chance(state)) == {"reveal scoring S1", "reveal scoring S2", "reveal scoring S3", "reveal scoring S4"}
    state = state.evolve(scoring_pile=state.scoring_pile[4:])
    assert len(chance(state)) == 8 and "reveal scoring S9" in chance(state) and "reveal scoring S13" not in chance(state)
    assert RULES.view(state, None)["next_scoring_back"] == 2


def test_pairs_are_laid_out_first_column_then_second():
    """ "Tipp: ... először az első oszlopba tegyük le a lapokat (játékosok számától függően 3, vagy 4 lap), majd a második
    oszlop lapjait fordítsuk mellé." (first the first column of 3 or 4 cards, then the second beside them): pair k
    holds cards k and n + k."""
    state = lay_out(after_setup(NAMES[3]), "S3", "CO MT ME")
    assert state.phase == LAYOUT
    state = play(state, "deal FO", "deal DE", "deal DE")
    from engine.golden_city.flow import pair_of
    assert [pair_of(state, k) for k in range(3)] == [(0, 3), (1, 4), (2, 4)]


def test_an_empty_draw_pile_is_reshuffled_during_the_layout():
    """ "Akkor, amikor a játék folyamán később elfognak a húzó-pakli lapjai, a játékosok keverjék meg a lerakó-pakli
    lapjait" (when the draw pile runs out, the discards are shuffled into a new one), when a card must be drawn."""
    state = after_setup(NAMES[3])
    state = state.evolve(pile=cards("MT"), discard=cards("DE DE DE DE DE DE"))
    state = play(state, "reveal scoring S1", "deal MT")
    assert chance(state) == {"reshuffle": 1}
    state = play(state, "reshuffle", "deal DE")
    assert state.pile == cards("DE DE DE DE DE") and state.layout == (1, 4)


@pytest.mark.parametrize(
    "options,message",
    [
        ({"start_seat": 4}, "start_seat must be a seat from 0 to 3"),
        ({"start_seat": "1"}, "start_seat must be a seat"),
        ({"colour": "red"}, "unknown golden city options ['colour']"),
    ],
)
def test_setup_options_are_checked(options, message):
    """Digest: "The youngest player takes the start key. In the engine this is the parameter start_seat, default 0." """
    with pytest.raises(SetupError, match=message.replace("[", r"\[").replace("]", r"\]")):
        RULES.initial_state(Setup(NAMES[4], options))


def test_the_youngest_player_starts():
    """ "A legfiatalabb játékos megkapja a kulcsot, ami a kezdőjátékos jelölésére szolgál" (the youngest player takes
    the key that marks the start player)."""
    state = lay_out(after_setup(NAMES[4], start_seat=2), "S1", "CO CO CO CO MT MT MT MT")
    assert state.phase == BID and state.turn == 2


@pytest.mark.parametrize("names", [("A", "B"), ("A", "B", "C", "D", "E"), ("A", "A", "B")])
def test_three_or_four_distinct_players(names):
    """ "3-4 játékos részére" (for 3 to 4 players)."""
    with pytest.raises(SetupError):
        RULES.initial_state(Setup(names))
