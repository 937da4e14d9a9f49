"""Concise positions for the Puerto Rico tests.

``board(...)`` builds one player's board from names (``goods={"corn": 2}``,
``island={"quarry": 3}``, ``workers={"quarry": 3}``, ``city={"harbor": 1}`` where the number is
the colonists on the building, 0 for an unoccupied one). ``game(...)`` builds a state waiting
for a role pick, with any state field overridden. ``play(state, "notation", ...)`` checks and
applies actions the way the service does.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from engine import Setup
from engine.puerto_rico import RULES
from engine.puerto_rico.components import BUILDING_INDEX, GOOD_NAMES, N_BUILDINGS, TILE_NAMES
from engine.puerto_rico.state import NOT_OWNED, ROLE, Player, State
from tests.engine import helpers as shared

NAMES = {3: ("Anna", "Róbert", "Krisztina"), 4: ("Anna", "Róbert", "Krisztina", "Dávid"),
         5: ("Anna", "Róbert", "Krisztina", "Dávid", "Eszter")}


#: play(state, "notation", ...) and legal(state) for Puerto Rico (see tests/engine/helpers.py).
play = partial(shared.play, RULES)
legal = partial(shared.legal, RULES)


def _counts(names: tuple[str, ...], values: dict[str, int] | None) -> tuple[int, ...]:
    counts = [0] * len(names)
    for name, count in (values or {}).items():
        counts[names.index(name)] = count
    return tuple(counts)


def board(*, doubloons: int = 0, vp: int = 0, goods: dict[str, int] | None = None, island: dict[str, int] | None = None,
          workers: dict[str, int] | None = None, city: dict[str, int] | None = None, san_juan: int = 0) -> Player:
    """One player's board; ``workers`` defaults to no occupied island tile."""
    buildings = [NOT_OWNED] * N_BUILDINGS
    for name, colonists in (city or {}).items():
        buildings[BUILDING_INDEX[name]] = colonists
    return Player(doubloons, vp, _counts(GOOD_NAMES, goods), _counts(TILE_NAMES, island), _counts(TILE_NAMES, workers),
                  tuple(buildings), san_juan)


def game(n: int = 4, *, boards: dict[int, Player] | None = None, **fields: Any) -> State:
    """A state at a role pick (governor seat 0) with a face-up row of one plantation per kind."""
    state = RULES.initial_state(Setup(NAMES[n]))
    stack = tuple(s - 1 for s in state.stack)
    state = state.evolve(phase=ROLE, turn=0, to_draw=0, face_up=(1, 1, 1, 1, 1), stack=stack)
    players = list(state.players)
    for seat, player in (boards or {}).items():
        players[seat] = player
    return state.evolve(players=tuple(players), **fields)


def choose(state: State, role: str, seat: int = 0) -> State:
    """``seat`` (made the picker) chooses ``role``."""
    return play(state.evolve(turn=seat, governor=seat), f"role {role}")


def good(name: str) -> int:
    """The index of a good."""
    return GOOD_NAMES.index(name)


def play_on(state: State, stop: Any = None) -> State:
    """Play on (pass where allowed, else the first legal action; chance: the first outcome) until ``stop(state)``
    or the end of the game."""
    while RULES.current_actor(state) is not None and not (stop and stop(state)):
        actions = RULES.legal_actions(state) or [RULES.chance_outcomes(state)[0][0]]
        state = RULES.apply(state, ("pass",) if ("pass",) in actions else actions[0])
    return state
