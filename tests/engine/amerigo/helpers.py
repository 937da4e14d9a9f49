"""Concise positions for the Amerigo tests.

``started(n)`` plays the setup's chance events with a fixed layout (tiles I01, I02, ... in reading
order, unturned), the worked example's setup throw and the given order stack, and stops at the
first throw. ``choice(n, field=...)`` builds a state where the first player in order chooses an
action with the given cubes in the action field; ``with_players(state, {seat: {...}})`` changes
player fields (progress tokens by id: ``tokens=["PT15"]``). ``play(state, "notation", ...)``
checks and applies actions the way the service does (chance outcomes against their list).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from engine import CHANCE, Setup
from engine.amerigo import RULES
from engine.amerigo import components as c
from engine.amerigo.board import ANCHOR
from engine.amerigo.sailing import distances
from engine.amerigo.state import CHOOSE, State, order_of
from engine.amerigo.tokens import TOKEN_INDEX
from tests.engine import helpers as shared

NAMES = {2: ("Red", "Blue"), 3: ("Red", "White", "Blue"), 4: ("Red", "White", "Blue", "Yellow")}
RED, WHITE, BLUE, YELLOW = range(4)
#: The rulebook's setup throw: the tower keeps red 2, yellow 2, blue 3, black 3, green 3, brown 4, white 4.
EXAMPLE_STORAGE = {"blue": 4, "black": 4, "red": 5, "brown": 3, "green": 4, "yellow": 5, "white": 3}


#: play(state, "notation", ...), legal(state) and chance(state) for Amerigo (see tests/engine/helpers.py).
play = partial(shared.play, RULES)
legal = partial(shared.legal, RULES)
chance = partial(shared.chance, RULES)


def vector(counts: dict[str, int] | None) -> tuple[int, ...]:
    """A per-colour vector from {"blue": 4, ...}."""
    counts = counts or {}
    return tuple(counts.get(colour, 0) for colour in c.COLOURS)


def layout_events(n: int, rotations: dict[int, int] | None = None) -> list[str]:
    """Tiles I01, I02, ... laid row by row (turned as ``rotations`` says, by grid index)."""
    rows, cols = c.GRID[n]
    rotations = rotations or {}
    return [f"layout {i // cols},{i % cols} I{i + 1:02d} r{rotations.get(i, 0)}" for i in range(rows * cols)]


def started(n: int = 4, *, order: tuple[int, ...] | None = None, storage: dict[str, int] | None = None,
            options: dict[str, Any] | None = None) -> State:
    """The setup played out (fixed layout, pirate 1, tokens PT01-PT08, the first production tokens), at the first throw."""
    state = RULES.initial_state(Setup(NAMES[n], options or {}))
    state = play(state, *layout_events(n), "pirate 1", *(f"progress {s} PT{i + 1:02d}" for i, s in enumerate(c.PROGRESS_SPACES)))
    while RULES.current_actor(state) == CHANCE and state.phase == 3:  # production: the first kind offered
        state = play(state, next(iter(chance(state))))
    order = order if order is not None else tuple(range(n))
    state = play(state, "order " + " ".join(map(str, order)))
    storage = storage if storage is not None else EXAMPLE_STORAGE
    return play(state, *(f"tower {colour} {storage[colour]}" for colour in c.COLOURS))


def with_players(state: State, changes: dict[int, dict[str, Any]]) -> State:
    """Player fields replaced; ``tokens`` and ``used`` by token id."""
    players = list(state.players)
    for seat, fields in changes.items():
        fields = dict(fields)
        for name in ("tokens", "used"):
            if name in fields:
                fields[name] = tuple(TOKEN_INDEX[t] for t in fields[name])
        players[seat] = players[seat].evolve(**fields)
    return state.evolve(players=tuple(players))


def choice(n: int = 4, *, field: dict[str, int] | None = None, players: dict[int, dict[str, Any]] | None = None,
           base: State | None = None, **fields: Any) -> State:
    """A state where the first player in order chooses, with ``field`` in the action field."""
    state = base if base is not None else started(n)
    state = with_players(state, players or {})
    cubes = vector(field or {"blue": 4})
    state = state.evolve(phase=CHOOSE, round=max(state.round, 1), field=cubes, phase_ap=max(cubes), turn=0, thrown=(0,) * 7,
                         throw_colour=7)
    state = state.evolve(turn_order=order_of(state))
    return state.evolve(**fields)


def seat_first(state: State, seat: int) -> State:
    """The same position with ``seat`` to act first in this phase."""
    order = (seat, *(s for s in state.turn_order if s != seat))
    return state.evolve(turn_order=order, turn=0)


def node_name(state: State, node: int) -> str:
    """The notation of a sailing destination."""
    assert state.board is not None
    return state.board.node_name(node)


def anchors_at(state: State, start: int, steps: int) -> list[int]:
    """Anchor spaces exactly ``steps`` steps from ``start``."""
    board = state.board
    assert board is not None
    return sorted(node for node, d in distances(board, start, steps).items()
                  if d == steps and node < board.cells and board.terrain[node] == ANCHOR)


def cell(state: State, row: int, col: int) -> int:
    """The map cell at (row, col)."""
    assert state.board is not None
    return row * state.board.width + col
