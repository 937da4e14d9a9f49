"""Concise positions for the Die goldene Stadt tests.

``cards("DE DE CO")`` is a hand as counts per terrain; ``player(...)`` one player with houses on
named sites; ``game(...)`` a 4-player (or 3-player) state at a building turn of round 1 with any
player or state field overridden; ``play(state, "notation", ...)`` checks (turn order, chance
outcomes, the rules) and applies actions the way the service does.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from engine import Setup
from engine.golden_city import RULES
from engine.golden_city.component_set import DEFAULT_SET
from engine.golden_city.components import TERRAINS
from engine.golden_city.state import BUILD, Player, State
from tests.engine import helpers as shared

NAMES = {3: ("Anna", "Béla", "Csilla"), 4: ("Anna", "Béla", "Csilla", "Dávid")}
#: The seed's colours for its worked examples, as seat names (red starts).
COLOURS = ("Red", "Blue", "White", "Black")


#: play(state, "notation", ...), legal(state) and chance(state) for Die goldene Stadt (see tests/engine/helpers.py).
play = partial(shared.play, RULES)
legal = partial(shared.legal, RULES)
chance = partial(shared.chance, RULES)


def cards(text: str = "") -> tuple[int, ...]:
    """A hand or payment as counts per terrain: ``cards("DE DE CO")``."""
    counts = [0] * len(TERRAINS)
    for code in text.split():
        counts[TERRAINS.index(code)] += 1
    return tuple(counts)


def mask(*sites: str) -> int:
    """The bitmask of the named sites."""
    return sum(1 << DEFAULT_SET.site_index[s] for s in sites)


def player(*, hand: str = "", coins: int = 3, letters: int = 0, keys: int = 0, goods: tuple[str, ...] = (),
           bonus: tuple[str, ...] = (), houses: tuple[str, ...] = (), houses_left: int | None = None,
           total: int = 16, blocked: bool = False) -> Player:
    """One player with houses on ``houses`` (reach computed)."""
    built = mask(*houses)
    reach = 0
    for site in DEFAULT_SET.site_bits(built):
        reach |= DEFAULT_SET.neighbours[site]
    left = total - len(houses) if houses_left is None else houses_left
    return Player(cards(hand), coins, letters, keys, tuple(goods), tuple(bonus), left, built, reach, blocked)


def game(n: int = 4, *, players: dict[int, Player] | None = None, names: tuple[str, ...] | None = None,
         **fields: Any) -> State:
    """A state at seat 0's building turn in round 1 (card S1 face up), everything else as after setup."""
    state = RULES.initial_state(Setup(names or NAMES[n]))
    total = 16 if n == 4 else 18
    seats = list(state.players)
    for seat in range(n):
        seats[seat] = (players or {}).get(seat, player(total=total))
    taken = 0
    for p in seats:
        taken |= p.houses & DEFAULT_SET.singles
    state = state.evolve(
        players=tuple(seats), phase=BUILD, turn=0, round=1, taken=taken, goods_pile=("G4", "G5", "G6", "G7", "G8"),
        goods_display=("G1", "G2", "G3"), scoring_card="S1", scoring_pile=DEFAULT_SET.scoring_ids[1:],
    )
    return state.evolve(**fields)


def build_sites(state: State) -> set[str]:
    """The sites some legal build action names."""
    return {a[1] for a in RULES.legal_actions(state) if a[0] == "build"}


def has(state: State, seat: int, site: str) -> bool:
    """Whether ``seat`` has a house on ``site``."""
    return bool(state.players[seat].houses & mask(site))


def after_setup(names: tuple[str, ...] = COLOURS, *, deals: str | None = None, **options: Any) -> State:
    """A new game through its setup chance: each seat dealt a card (``deals``, default all
    mountains), goods G1 G2 G3 face up; the state waits for round 1's scoring card."""
    state = RULES.initial_state(Setup(names, options))
    dealt = (deals or " ".join(["MT"] * len(names))).split()
    state = play(state, *(f"deal {t}" for t in dealt))
    return play(state, "reveal goods G1", "reveal goods G2", "reveal goods G3")


def lay_out(state: State, scoring: str, layout: str) -> State:
    """Turn up ``scoring`` and lay out the landscape cards ``layout`` (pair k = cards k and n + k)."""
    return play(state, f"reveal scoring {scoring}", *(f"deal {t}" for t in layout.split()))
