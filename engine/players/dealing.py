"""Determinisation: re-dealing what one seat cannot see, the pieces a game's determiniser is made of.

A game whose ``view`` hides something that is not fixed by what the view shows declares a determiniser
(``Declaration.determinize``, :mod:`engine.core.declaration`): ``determinize(state, seat, rng) -> state`` re-deals
everything ``seat`` cannot see from the pool of unseen pieces, keeping every visible count, and must depend only on
``view(state, seat)`` (and the rng), so two states the seat cannot tell apart give the same samples. The search
plays on such samples (:mod:`engine.analysis.search`); it reads the determiniser with
:func:`engine.players.offered.determinizer_for`.

Games without one need none, because what their views hide is fixed by what they show:

* Puerto Rico: the plantation stack holds counts, not an order, and every plantation outside it
  is visible, so its make-up is the box's minus the visible ones; other players' victory-point
  chips lie face down but each is handed out in a public action, so a seat that followed the game
  knows them (a player with a perfect memory does);
* Amerigo: the tower's contents are the cubes not visible anywhere else;
* Entdecker: the undrawn tiles' and chip pool's make-ups are the box's minus what is on the table.

In those games the state itself is the only one consistent with the view, and the search uses it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def pool_of(counts_per_place: Sequence[Sequence[int]]) -> list[int]:
    """The pieces of several places given as counts per kind, pooled as a sorted list of kinds.

    Sorted, so the pool (and any shuffle of it with the same rng) does not depend on which hidden
    place held which piece.
    """
    pool: list[int] = []
    for counts in counts_per_place:
        for kind, count in enumerate(counts):
            pool.extend([kind] * count)
    return sorted(pool)


def deal_counts(pool: list[int], sizes: Sequence[int], kinds: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Shuffle ``pool`` (kinds) and deal it into places of the given ``sizes``, as counts per kind."""
    pool = list(pool)
    rng.shuffle(pool)
    dealt, start = [], 0
    for size in sizes:
        counts = [0] * kinds
        for kind in pool[start:start + size]:
            counts[kind] += 1
        dealt.append(tuple(counts))
        start += size
    return dealt


def deal_items(items: Sequence[str], sizes: Sequence[int], rng: random.Random) -> list[tuple[str, ...]]:
    """Shuffle distinct pieces (sorted first, so their former places do not matter) and deal them by ``sizes``."""
    pool = sorted(items)
    rng.shuffle(pool)
    dealt, start = [], 0
    for size in sizes:
        dealt.append(tuple(pool[start:start + size]))
        start += size
    return dealt
