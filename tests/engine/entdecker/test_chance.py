"""Chance points (digest, "Chance points"): the stacks' backs, the tile drawn, the wheel, the chips."""

from __future__ import annotations

from engine.entdecker.state import BACK, PLACE, TILE
from tests.engine.entdecker.helpers import game, play, weights


def test_a_new_top_back_is_weighted_by_the_unseen_tiles_with_that_back():
    """Digest: `back k event`: Ue − Ve; `back k plain`: Up − Vp (U = undrawn tiles with that back, tops included;
    V = other stacks whose top shows it). With four other tops showing plain backs after a plain tile is drawn:
    event 20, plain 62 − 1 − 4."""
    state = play(game(), "start edge 4 0 n", "buy 1", "draw 1", "tile sea")
    assert state.phase == BACK and weights(state) == {"back 1 event": 20, "back 1 plain": 57}


def test_the_tile_drawn_has_the_back_its_stack_showed():
    """ "Ha olyat húz, aminek a hátán kérdőjel van, akkor leolvassa a részleten látható eseményt" (if he draws one
    with a question mark on its back, he reads the event on it): a plain top gives a plain tile, each type weighted
    by its undrawn copies."""
    state = play(game(), "start edge 4 0 n", "buy 1", "draw 2")
    assert state.phase == TILE
    assert weights(state) == {"tile sea": 10, "tile islet": 2, "tile cape": 16, "tile corner": 14, "tile twin": 4,
                              "tile isthmus": 3, "tile strait": 3, "tile bay": 8, "tile fjord": 2}


def test_the_tile_comes_first_then_the_back_of_the_new_top_and_an_empty_stack_has_none():
    """Digest: "Order after a draw: `tile`, then the `back` of the new top" — a stack drawn empty shows nothing."""
    state = game(stacks=(1, 17, 16, 16, 15))
    state = play(state, "start edge 4 0 n", "buy 1", "draw 1", "tile sea")
    assert state.phase == PLACE and state.tops[0] == -1 and state.stacks[0] == 0
    state = play(game(), "start edge 4 0 n", "buy 1", "draw 1", "tile sea", "back 1 event")
    assert state.phase == PLACE and state.tops[0] == 1
