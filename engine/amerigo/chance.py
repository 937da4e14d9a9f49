"""Chance in Amerigo: what each chance step may bring, with its weight, and what it does.

The chance steps are setup's (the island layout, the pirate markers, the progress and production tokens,
the order stack, the first filling of the tower) and every phase's throw of cubes through the tower
(:mod:`engine.amerigo.tower` is its probability model), with the stray cubes an imported log may record.
Applying an outcome hands the state on to the phase it leads to (:mod:`engine.amerigo.flow`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.amerigo import components as c
from engine.amerigo.board import board_for
from engine.amerigo.flow import begin_phase, end_phase
from engine.amerigo.gold import gain_gold
from engine.amerigo.notation import (
    PRODUCTION_ACTIONS,
    PROGRESS_ACTIONS,
    STRAY_ACTIONS,
    TOWER_ACTIONS,
    Action,
    all_orders,
)
from engine.amerigo.state import (
    CHOOSE,
    EMPTY,
    LAYOUT,
    ORDER,
    PIRATE,
    PRODUCTION,
    PROGRESS,
    TOWER,
    ZERO7,
    State,
    order_of,
    with_player,
)
from engine.amerigo.tower import SCALE, STRAY_WEIGHT, next_colour, setup_weights, throw_weights
from engine.core.records import add_at, set_at

# --- chance outcomes ----------------------------------------------------------------------------------------


def outcomes(state: State) -> Sequence[tuple[Action, int]]:
    """Every outcome of the chance step the state waits for, with its integer weight."""
    return _OUTCOMES[state.phase](state)


def _layout_outcomes(state: State) -> list[tuple[Action, int]]:
    """Uniform over the tiles not yet placed and the four rotations, cell by cell (row by row)."""
    rows, cols = c.GRID[state.n]
    row, col = divmod(len(state.layout), cols)
    used = {tile for tile, _ in state.layout}
    return [(("layout", row, col, name, r), 1) for t, (name, _) in enumerate(state.components.island_tiles) if t not in used
            for r in range(4)]


def _pirate_outcomes(state: State) -> list[tuple[Action, int]]:
    """Uniform over the markers not yet turned up (the box marker is never turned up)."""
    pool = state.pirate_pool
    return [(("pirate", value), pool.count(value) * SCALE) for value in sorted(set(pool))] + list(_strays(state))


def _strays(state: State) -> tuple[tuple[Action, int], ...]:
    """Between rounds, cubes may fall out of the tower at the wrong time (imported logs only: weight 1)."""
    if state.round == 0:
        return ()
    return stray_outcomes(state.tower)


def stray_outcomes(inside: tuple[int, ...]) -> tuple[tuple[Action, int], ...]:
    """A stray fall of 1..inside[colour] cubes of each colour, weight 1 each. Remembered per tower contents: every
    chance step of a round's preparation and every throw's start lists them."""
    outcomes = _strays_by_inside.get(inside)
    if outcomes is None:
        if len(_strays_by_inside) > 4096:
            _strays_by_inside.clear()
        outcomes = _strays_by_inside[inside] = tuple([(STRAY_ACTIONS[colour][v], STRAY_WEIGHT) for colour in range(7)
                                                      for v in range(1, inside[colour] + 1)])
    return outcomes


_strays_by_inside: Final[dict[tuple[int, ...], tuple[tuple[Action, int], ...]]] = {}


def progress_target(state: State) -> int:
    """The next progress space to fill: at setup all eight, later L1-L4; -1 when done."""
    if not state.progress_pool:
        return -1
    spaces = state.progress_spaces
    last = len(spaces) if state.round == 0 else len(spaces) // 2
    for i in range(last):
        if spaces[i] == EMPTY:
            return i
    return -1


def _progress_outcomes(state: State) -> list[tuple[Action, int]]:
    actions = PROGRESS_ACTIONS[progress_target(state)]
    return [(actions[token], SCALE) for token in state.progress_pool] + list(_strays(state))


def production_target(state: State) -> int:
    """The next production space to fill; -1 when all are full (or the pool is empty)."""
    if not any(state.production_pool):
        return -1
    for i, kind in enumerate(state.production_spaces):
        if kind == EMPTY:
            return i
    return -1


def _production_outcomes(state: State) -> list[tuple[Action, int]]:
    actions = PRODUCTION_ACTIONS[production_target(state)]
    pool = state.production_pool
    return [(actions[kind], pool[kind] * SCALE) for kind in range(len(pool)) if pool[kind]] + list(_strays(state))


def _order_outcomes(state: State) -> list[tuple[Action, int]]:
    return [(order, 1) for order in all_orders(state.n)]


def _tower_outcomes(state: State) -> list[tuple[Action, int]]:
    colour = state.throw_colour
    tower, thrown = state.tower, state.thrown
    if state.round == 0:
        weights = setup_weights(tower[colour])
        return [(TOWER_ACTIONS[colour][k], w) for k, w in enumerate(weights)]
    outcomes = list(throw_outcomes(colour, thrown[colour], tower[colour] - thrown[colour], sum(thrown)))
    if throw_started(state):
        outcomes += stray_outcomes(tuple([tower[s] - thrown[s] for s in range(7)]))
    return outcomes


def throw_outcomes(colour: int, thrown: int, inside: int, n: int) -> tuple[tuple[Action, int], ...]:
    """The outcomes of ``colour``'s event in a throw of ``n`` cubes (:func:`throw_weights`). Remembered: a game
    lists the same few again and again (the key is small: at most 7 cubes of a colour, 49 in all)."""
    key = ((colour * 64 + thrown) * 64 + inside) * 64 + n
    outcomes = _throws.get(key)
    if outcomes is None:
        weights = throw_weights(thrown, inside, n)
        actions = TOWER_ACTIONS[colour]
        outcomes = _throws[key] = tuple([(actions[k], weights[k]) for k in range(len(weights))])
    return outcomes


_throws: Final[dict[int, tuple[tuple[Action, int], ...]]] = {}


def throw_started(state: State) -> bool:
    """A phase's throw before any colour's outcome: the moment a stray fall can be recorded."""
    return state.round > 0 and state.field == ZERO7 and state.throw_colour == next_colour(state.tower, 0)


_OUTCOMES: Final = {LAYOUT: _layout_outcomes, PIRATE: _pirate_outcomes, PROGRESS: _progress_outcomes,
             PRODUCTION: _production_outcomes, ORDER: _order_outcomes, TOWER: _tower_outcomes}


# --- applying chance ----------------------------------------------------------------------------------------


def apply(state: State, action: Action) -> State:
    """The state after a chance outcome (assumed possible)."""
    return _APPLY[action[0]](state, action)


def _apply_layout(state: State, action: Action) -> State:
    tile = state.components.tile_index(action[3])
    layout = (*state.layout, (tile, action[4]))
    rows, cols = c.GRID[state.n]
    state = state.evolve(layout=layout)
    if len(layout) < rows * cols:
        return state
    board = board_for(state.components, layout, state.n)
    return state.evolve(
        board=board, cover=(0,) * board.cells, island_empty=tuple(len(i.cells) for i in board.islands),
        discovered=(False,) * len(board.islands), chests=board.initial_chests, phase=PIRATE,
    )


def _apply_pirate(state: State, action: Action) -> State:
    pool = list(state.pirate_pool)
    pool.remove(action[1])
    state = state.evolve(pirates=(*state.pirates, action[1]), pirate_pool=tuple(pool))
    if state.round > 0:  # preparation, step 2: the right tokens to the box, the left ones slide right
        spaces = state.progress_spaces
        half = len(spaces) // 2
        state = state.evolve(progress_spaces=(EMPTY,) * half + spaces[:half])
    return _to_progress(state)


def _to_progress(state: State) -> State:
    if progress_target(state) >= 0:
        return state.evolve(phase=PROGRESS)
    if state.round > 0:  # preparation, step 3: the production tokens on the board go to the box
        state = state.evolve(production_spaces=(EMPTY,) * len(state.production_spaces))
    return _to_production(state)


def _apply_progress(state: State, action: Action) -> State:
    pool = tuple(t for t in state.progress_pool if t != action[2])
    state = state.evolve(progress_spaces=set_at(state.progress_spaces, action[1], action[2]), progress_pool=pool)
    return _to_progress(state)


def _to_production(state: State) -> State:
    if production_target(state) >= 0:
        return state.evolve(phase=PRODUCTION)
    if state.round == 0:
        return state.evolve(phase=ORDER)
    return begin_phase(state, 0)  # preparation, step 4: the top time marker goes (round already counts on)


def _apply_production(state: State, action: Action) -> State:
    values = len(c.PRODUCTION_VALUES)
    kind = action[2] * values + c.PRODUCTION_VALUES.index(action[3])
    state = state.evolve(production_spaces=set_at(state.production_spaces, action[1], kind),
                         production_pool=add_at(state.production_pool, kind, -1))
    return _to_production(state)


def _apply_order(state: State, action: Action) -> State:
    stack = action[1]
    n = state.n
    for depth, seat in enumerate(stack):
        player = state.players[seat].evolve(order_stamp=n - depth)
        state = with_player(state, seat, gain_gold(player, depth))
    full = (c.CUBES_PER_COLOUR,) * 7
    return state.evolve(stamps=n, tower=full, thrown=full, throw_colour=0, phase=TOWER)


def _apply_tower(state: State, action: Action) -> State:
    colour, k = action[1], action[2]
    tower = add_at(state.tower, colour, -k)
    new = state.copy()
    new.tower = tower
    if state.round == 0:
        new.storage = add_at(state.storage, colour, k)
    else:
        new.field = add_at(state.field, colour, k)
    following = next_colour(tower, colour + 1)
    if following < 7:
        new.throw_colour = following
        return new
    new.throw_colour = 7
    new.thrown = ZERO7
    if state.round == 0:
        new.round = 1
        return begin_phase(new, 0)
    field = new.field
    if field == ZERO7:
        return end_phase(new)  # nothing came out: the phase is skipped
    new.phase = CHOOSE
    new.phase_ap = max(field)
    new.turn_order = order_of(new)
    new.turn = 0
    return new


def _apply_stray(state: State, action: Action) -> State:
    """At a throw's start the fallen cubes join the throw; between rounds they wait in the tray."""
    if state.phase == TOWER:
        return state.evolve(thrown=add_at(state.thrown, action[1], action[2]))
    return state.evolve(tower=add_at(state.tower, action[1], -action[2]), stray=add_at(state.stray, action[1], action[2]))


_APPLY: Final = {"layout": _apply_layout, "pirate": _apply_pirate, "progress": _apply_progress,
          "production": _apply_production, "order": _apply_order, "tower": _apply_tower, "stray": _apply_stray}
