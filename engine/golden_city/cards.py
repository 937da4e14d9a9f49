"""Landscape cards: paying for a house (with the joker rule), the hand limit, and drawing.

Hands and payments are card counts per terrain in the order ``CO MT ME FO DE``. The option lists
depend only on the hand (and the terrain and number of cards needed), so they are cached: a random
game asks for the same few hands again and again.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from typing import Final

from engine.core.records import add_at
from engine.golden_city.state import State, plus

N_TERRAINS: Final = 5


@cache
def payments(hand: tuple[int, ...], terrain: int, need: int) -> tuple[tuple[int, ...], ...]:
    """Every way ``hand`` pays ``need`` cards of ``terrain``, own cards first.

    "Jokerszabály: 2 ugyanolyan típusú területkártya felhasználható, mint 1 tetszés szerinti
    területkártya" (joker rule: 2 cards of one type may be used as 1 card of any type), "többször is"
    (several times in one turn). A payment is ``a`` cards of the terrain plus ``need - a`` pairs,
    each of one other terrain (two pairs may share it). Ruling: a pair never stands in for its own
    terrain, which would only waste cards.
    """
    choices = []
    others = [t for t in range(N_TERRAINS) if t != terrain]
    for own in range(min(need, hand[terrain]), -1, -1):
        for combo in combinations_with_replacement(others, need - own):
            pay = [0] * N_TERRAINS
            pay[terrain] = own
            for t in combo:
                pay[t] += 2
            if covered(pay, hand):
                choices.append(tuple(pay))
    return tuple(choices)


def covered(pay: list[int], hand: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds every card of ``pay`` (a loop over the terrains: plain C when compiled)."""
    for t in range(N_TERRAINS):
        if pay[t] > hand[t]:
            return False
    return True


def is_payment(pay: tuple[int, ...], terrain: int, need: int) -> bool:
    """Whether ``pay`` is a well-formed payment of ``need`` cards of ``terrain`` (whatever the hand)."""
    own = pay[terrain]
    if own > need or any(pay[t] % 2 for t in range(N_TERRAINS) if t != terrain):
        return False
    return own + sum(pay[t] // 2 for t in range(N_TERRAINS) if t != terrain) == need


@cache
def discards(hand: tuple[int, ...], count: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct multiset of ``count`` cards of ``hand`` (hand limit), in terrain order."""
    if count == 0:
        return ((0,) * len(hand),)
    if not hand:
        return ()
    first, rest = hand[0], hand[1:]
    choices = []
    for take in range(min(first, count), -1, -1):
        for tail in discards(rest, count - take):
            choices.append((take, *tail))
    return tuple(choices)


def can_draw_landscape(state: State) -> bool:
    """A landscape card can be had: from the draw pile, or from the discards once reshuffled."""
    return any(state.pile) or any(state.discard)


def reshuffle(state: State) -> State:
    """The face-up discards become the new face-down draw pile.

    "Akkor, amikor ... elfognak a húzó-pakli lapjai, a játékosok keverjék meg a lerakó-pakli lapjait"
    (when the draw pile runs out, shuffle the discard pile into a new draw pile): chance does it
    when the pile runs out (see :mod:`engine.golden_city.chance`). The order is chance's, decided by
    each later draw.
    """
    new = state.copy()
    new.pile = plus(state.pile, state.discard)
    new.discard = (0,) * N_TERRAINS
    return new


def take_from_pile(state: State, terrain: int) -> State:
    """``state`` with one card of ``terrain`` gone from the draw pile."""
    new = state.copy()
    new.pile = add_at(state.pile, terrain, -1)
    return new


def hand_size(hand: tuple[int, ...]) -> int:
    """The number of landscape cards in a hand."""
    return sum(hand)
