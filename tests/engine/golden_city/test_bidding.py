"""Phase 3, bidding: free pairs, displacement with a rising cost, skipping placed hands, the end."""

from __future__ import annotations

import pytest

from engine import IllegalActionError
from engine.golden_city import RULES
from engine.golden_city.state import BID, BUILD
from tests.engine.golden_city.helpers import COLOURS, after_setup, cards, lay_out, legal, play

RED, BLUE, WHITE, BLACK = range(4)
# Pairs P1 coast/desert, P2 forest/forest, P3 coast/coast, P4 mountains/meadow: cards 1..4 start them, 5..8 complete them.
EXAMPLE_LAYOUT = "CO FO CO MT DE FO CO ME"


def example_bidding():
    return lay_out(after_setup(COLOURS), "S1", EXAMPLE_LAYOUT)


def test_worked_example_bidding_four_players():
    """Digest worked example 1, literally (the seed's "Példa egy licitfázis lejátszására"): "A piros játékos a
    kikötő / sivatag terepkártyákból álló párra teszi licitkezét. A kék játékos az erdő/erdő párra ... A fehér játékos
    ... 1 értmet fizet ... A kék játékosnak vissza kell vennie licitkezét. A fekete játékos elűzi a kikötő / sivatag
    ... párról a piros játékost, amiért 2 értmet fizet ... a piros játékos ... a kikötő / kikötő terepkártya páron. A kék
    játékos ezután elűzi a fehér játékost, amiért 3 értmet fizet ... A fehér játékosnak egy elűzés túl drága lenne. Már
    4 értmet kéne fizetnie ... arra a terepkártya párra teszi, amelyik szabadon maradt, ez a hegység / mező."
    (Red takes coast/desert, blue forest/forest; white displaces blue for 1; black displaces red for 2; red takes
    coast/coast; blue displaces white for 3; white cannot pay 4 and takes the free mountains/meadow.)"""
    state = example_bidding()
    assert state.phase == BID and state.turn == RED
    assert legal(state) == ["bid 1", "bid 2", "bid 3", "bid 4"]  # no pass: "a pass offered only where the rules allow one"
    supply = state.coin_supply
    state = play(state, "bid 1", "bid 2")
    state = play(state, "bid 2")
    assert [p.coins for p in state.players] == [3, 3, 2, 3]
    state = play(state, "bid 1")
    assert [p.coins for p in state.players] == [3, 3, 2, 1]
    assert state.turn == RED
    state = play(state, "bid 3")
    assert state.turn == BLUE
    state = play(state, "bid 2")
    assert state.turn == WHITE and state.players[WHITE].coins == 2
    assert legal(state) == ["bid 4"]
    with pytest.raises(IllegalActionError, match=r"seat 2 has 2 coins, displacing Red from pair 3 costs 4"):
        RULES.check(state, RULES.parse_action("bid 3"))
    before = [p.hand for p in state.players]
    state = play(state, "bid 4")
    assert state.phase == BUILD and state.turn == RED
    gained = [tuple(a - b for a, b in zip(p.hand, h, strict=True)) for p, h in zip(state.players, before, strict=True)]
    assert gained == [cards("CO CO"), cards("FO FO"), cards("MT ME"), cards("CO DE")]
    assert [p.coins for p in state.players] == [3, 0, 2, 1]
    assert state.coin_supply == supply + 6


def test_a_free_pair_costs_nothing_and_placed_hands_are_skipped():
    """ "Egy játékos költségmentesen helyezhet licitkezét olyan párra, amelyik még nem foglalt." (a player may put
    their hand on a pair not yet taken at no cost) … "A játékosok ebben a játékszakszban átugorják a játékost, akinek a
    licitkeze már egy kártya páron van." (players whose hand lies on a pair are skipped)."""
    state = play(example_bidding(), "bid 1", "bid 2", "bid 3")
    assert state.turn == BLACK and [p.coins for p in state.players] == [3, 3, 3, 3]
    state = play(state, "bid 1")  # black displaces red (1 coin); blue and white are skipped
    assert state.turn == RED


def test_the_displacement_cost_restarts_at_one_next_round():
    """ "Megjegyzés: A következő körben egy licitkéz elűzése ismét 1 érme költséggel indul." (next round a
    displacement starts again at 1 coin)."""
    state = play(example_bidding(), "bid 1", "bid 2", "bid 2", "bid 1")
    assert state.displacements == 2
    state = play(state, "bid 3", "bid 4")
    state = play(state, *["pass"] * 4)
    while state.phase != BID:
        state = RULES.apply(state, RULES.chance_outcomes(state)[0][0])
    assert state.displacements == 0 and state.turn == BLUE  # the start key passed clockwise
    assert ("bid", 0) in RULES.legal_actions(state)
    coins = state.players[WHITE].coins
    state = play(state, "bid 1", "bid 1")
    assert state.players[WHITE].coins == coins - 1


def test_a_displaced_player_may_retake_the_pair_they_lost():
    """ "Akár arra a terepkártya párra is, amelyikről előbb vissza kellett vennie a licitkezét." (even on the pair
    they just had to leave), paying the current price."""
    state = play(example_bidding(), "bid 1", "bid 1")  # blue displaces red for 1
    state = play(state, "bid 2", "bid 3")  # white, black place freely
    assert state.turn == RED and "bid 1" in legal(state)
    state = play(state, "bid 1")
    assert state.players[RED].coins == 1 and state.turn == BLUE


def test_the_phase_ends_when_every_pair_carries_a_hand_and_no_limit_is_checked():
    """ "Amikor végül minden kártya páron egy-egy licitkéz fekszik, véget ér a licitszakasz." (the phase ends when
    each pair carries a hand). Digest: "The hand limit is not checked here." """
    state = play(example_bidding(), "bid 1", "bid 2", "bid 3", "bid 4")
    assert state.phase == BUILD and state.layout == () and [sum(p.hand) for p in state.players] == [4, 4, 4, 4]
