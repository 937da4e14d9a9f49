"""Determinisation for the search player: re-deal what one seat cannot see (see :mod:`engine.players.dealing`).

Hidden from a seat until the game is over (:func:`engine.golden_city.serialize.view`): the other
players' landscape hands and bonus cards, the landscape draw pile's make-up, the order of the goods
pile and of the scoring cards of one back, and the bonus pile (except to the player choosing from
it). The re-deal pools the landscape cards of the others' hands and the draw pile and deals them
back by the visible sizes; likewise the others' bonus cards with the bonus pile when that is hidden;
the goods and scoring piles are put in a fixed order (their draws are uniform, so only the set
matters). Letters are kept: the rulebook keeps their total secret ("A játékosok titokban tartják
egymás előtt, azt, hogy mennyi kereskedőlevelük van"), but every letter is gained in a public reward
or scoring, so a seat that followed the game knows them; the search plays that attentive player.
"""

from __future__ import annotations

import random

from engine.golden_city.state import BONUS_CHOICE, OVER, State
from engine.players.dealing import deal_counts, deal_items, pool_of

TERRAIN_KINDS = 5


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from ``state``, with everything hidden from it re-dealt from the unseen pool."""
    if state.phase == OVER:
        return state
    others = [i for i in range(state.n) if i != seat]
    hands = [state.players[i].hand for i in others]
    dealt = deal_counts(pool_of([*hands, state.pile]), [sum(h) for h in hands] + [sum(state.pile)], TERRAIN_KINDS, rng)
    players = list(state.players)
    for i, hand in zip(others, dealt, strict=False):
        players[i] = players[i].evolve(hand=hand)
    bonus_pile = state.bonus_pile
    pile_seen = state.phase == BONUS_CHOICE and seat == state.turn
    bonus_hidden = [state.players[i].bonus for i in others] + ([] if pile_seen else [state.bonus_pile])
    bonus_dealt = deal_items([card for cards in bonus_hidden for card in cards], [len(b) for b in bonus_hidden], rng)
    for i, cards in zip(others, bonus_dealt, strict=False):
        players[i] = players[i].evolve(bonus=cards)
    if not pile_seen:
        bonus_pile = bonus_dealt[-1]
    back = state.components.scoring_back
    return state.evolve(
        players=tuple(players), pile=dealt[-1], bonus_pile=bonus_pile, goods_pile=tuple(sorted(state.goods_pile)),
        scoring_pile=tuple(sorted(state.scoring_pile, key=lambda card: (back[card], card))),
    )
