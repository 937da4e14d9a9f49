"""Concise positions for the Entdecker tests.

``game(n, tiles={(x, y): "cape 1"}, units={(x, y): ("Anna", "scout", 0)}, ...)`` builds a state
waiting at a start (round 2, seat 0 by default) with every stack showing a plain back and the
given tiles and units on the map (tile keys as in the notation, a reserve face as ``reserve 6``);
any state field may be overridden. ``play(state, "notation", ...)`` checks and applies actions the
way the service does, chance included.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from engine import Setup
from engine.entdecker import RULES
from engine.entdecker.components import UNIT_NAMES
from engine.entdecker.state import EMPTY, NO_UNIT, START, State, unit_code
from tests.engine import helpers as shared

NAMES = {2: ("Anna", "Benny"), 3: ("Anna", "Benny", "Claudia"), 4: ("Anna", "Benny", "Claudia", "Dani")}


#: play(state, "notation", ...), legal(state) and weights(state) (the chance outcomes) for Entdecker
#: (see tests/engine/helpers.py).
play = partial(shared.play, RULES)
legal = partial(shared.legal, RULES)
weights = partial(shared.chance, RULES)


def code(state: State, text: str) -> int:
    """The placed-tile code for ``"cape 1"`` (draw type and rotation) or ``"reserve 6 0"`` (back number)."""
    words = text.split()
    components = state.components
    if words[0] == "reserve":
        return components.reserve_kind[int(words[1]) - 1] * 4 + int(words[2])
    return components.key_index[words[0]] * 4 + int(words[1])


def cell(state: State, x: int, y: int) -> int:
    """The cell index of (x, y)."""
    return state.components.cell(x, y)


def game(n: int = 4, *, tiles: dict[tuple[int, int], str] | None = None,
         units: dict[tuple[int, int], tuple[str, str, int]] | None = None, options: dict[str, Any] | None = None,
         **fields: Any) -> State:
    """A state at seat 0's start in round 2 (override with fields), stacks showing plain backs."""
    state = RULES.initial_state(Setup(NAMES[n], options or {}))
    board = list(state.board)
    for (x, y), text in (tiles or {}).items():
        board[cell(state, x, y)] = code(state, text)
    placed_units = list(state.units)
    supply = [list(s) for s in state.supply]
    for (x, y), (name, unit, part) in (units or {}).items():
        seat, kind = NAMES[n].index(name), UNIT_NAMES.index(unit)
        placed_units[cell(state, x, y)] = unit_code(seat, kind, part)
        supply[seat][kind] -= 1
    state = state.evolve(phase=START, round=2, turn=0, tops=(0,) * len(state.stacks), board=tuple(board),
                         units=tuple(placed_units), supply=tuple(tuple(s) for s in supply))
    return state.evolve(**fields)


def tile_at(state: State, x: int, y: int) -> str | None:
    """``"cape 1"`` for the tile at (x, y) (``"reserve 2 0"`` for a reserve tile), None when unexplored."""
    value = state.board[cell(state, x, y)]
    if value == EMPTY:
        return None
    kind = state.components.kinds[value >> 2]
    return f"reserve {kind.reserve} {value & 3}" if kind.reserve else f"{kind.key} {value & 3}"


def unit_at(state: State, x: int, y: int) -> tuple[str, str, int] | None:
    """(owner, unit, part) at (x, y), or None."""
    value = state.units[cell(state, x, y)]
    if value == NO_UNIT:
        return None
    return state.names[value >> 6], UNIT_NAMES[value >> 4 & 3], value & 15
