"""Why an action is illegal: a precise lower-case reason and the name of the rule it breaks.

Only called once an action is known not to be among the legal ones, so speed does not matter here.
"""

from __future__ import annotations

from engine.entdecker import flow, geometry
from engine.entdecker.components import SIDE_NAMES, UNIT_NAMES
from engine.entdecker.notation import Action, format_action
from engine.entdecker.state import (
    BUY,
    CHANCE_PHASES,
    EMPTY,
    EXPLORE,
    NATIVES,
    NO_UNIT,
    OVER,
    PHASE_NAMES,
    PLACE,
    SCOUT,
    START,
    State,
    unit_kind,
    unit_seat,
)
from engine.entdecker.turn import start_fee

PHASE_OF = {
    "start_edge": START, "start_tile": START, "pass": START, "buy": BUY, "draw": EXPLORE, "build": EXPLORE,
    "end": EXPLORE, "place": PLACE, "take_chip": NATIVES, "decline_chip": NATIVES,
}
WAITING_FOR = {
    START: "a start for the ship", BUY: "tiles to be bought", EXPLORE: "a draw, a build or the end of the expedition",
    PLACE: "the drawn tile to be placed", NATIVES: "the friendly natives' chip to be taken or declined",
    OVER: "nothing: the game is over",
}


def explain(state: State, action: Action) -> tuple[str, str]:
    """(reason, rule) for an action of this game's shape that is not legal in ``state`` (PhasedRules.check
    answers for any other shape)."""
    op = action[0]
    phase = state.phase
    if phase in CHANCE_PHASES or op in ("spin", "back", "tile", "chip"):
        return "only chance turns over tiles, spins the wheel and draws chips", "chance"
    if op == "takeback":
        return _why_no_takeback(state, action)
    if PHASE_OF[op] != phase:
        waiting = WAITING_FOR.get(phase, PHASE_NAMES[phase])
        return f"the game is waiting for {waiting} ({PHASE_NAMES[phase]}), not for {format_action(action)!r}", "turn: phase"
    return EXPLAINERS[op](state, action)


def _where(state: State, x: int, y: int) -> int:
    return state.components.cell(x, y)


def _why_no_start_edge(state: State, action: Action) -> tuple[str, str]:
    cell = _where(state, action[1], action[2])
    if cell < 0 or (cell, action[3]) not in state.components.circles:
        return f"there is no start circle at the {SIDE_NAMES[action[3]]} side of ({action[1]}, {action[2]})", "start: circles"
    if state.board[cell] != EMPTY:
        return f"({action[1]}, {action[2]}) is already explored: the circle leads nowhere new", "start: open passage"
    return "a start needs at least 1 gold for the tile to buy", "start: gold"


def _why_no_start_tile(state: State, action: Action) -> tuple[str, str]:
    x, y, g = action[1], action[2], action[3]
    cell = _where(state, x, y)
    if state.round < 2:
        return "in the first round the ship may only start from a circle at the board's edge", "start: first round"
    if cell < 0 or state.board[cell] == EMPTY:
        return f"there is no tile at ({x}, {y})", "start: explored area"
    regions = state.components.faces[state.board[cell]].regions
    if g >= len(regions):
        return f"the tile at ({x}, {y}) has {len(regions)} water region(s), numbered from 0", "start: explored area"
    if not geometry.region_is_open(state.components, state.board, cell, g):
        return f"water region {g} of ({x}, {y}) has no passage into unexplored sea", "start: open passage"
    fee = start_fee(state, cell)
    return (f"starting there costs {fee} gold for the unit on it plus 1 for a tile, and {state.names[state.turn]} has "
            f"{state.gold[state.turn]}", "start: fee")


def _why_no_pass(state: State, action: Action) -> tuple[str, str]:
    return "a start is possible, so the player may not pass", "start: pass"


def _why_no_takeback(state: State, action: Action) -> tuple[str, str]:
    if state.phase not in (START, EXPLORE):
        return "a scout may be taken back only at its owner's start or explore decisions", "scouts: take back"
    cell = _where(state, action[1], action[2])
    code = state.units[cell] if cell >= 0 else NO_UNIT
    if code == NO_UNIT or unit_seat(code) != state.turn:
        return f"{state.names[state.turn]} has no unit at ({action[1]}, {action[2]})", "scouts: take back"
    return f"only scouts come back at will; a {UNIT_NAMES[unit_kind(code)]} returns only when its island is scored", "scouts: take back"


def _why_no_buy(state: State, action: Action) -> tuple[str, str]:
    most = min(state.gold[state.turn], sum(state.stacks))
    return f"buy between 1 and {most} tiles (one gold each, no more than the stacks hold)", "buy"


def _why_no_draw(state: State, action: Action) -> tuple[str, str]:
    k = action[1]
    if state.draws_left <= 0:
        return "every tile bought this turn has been drawn", "explore: draws"
    if not geometry.passages(state.components, state.board, state.ship):
        return "the ship is at a dead end: no passage leads into unexplored sea", "explore: dead end"
    if k >= len(state.stacks) or not state.stacks[k]:
        return f"there is no stack {k + 1} with tiles left", "explore: stacks"
    return "no draw is possible now", "explore: draws"


def _why_no_place(state: State, action: Action) -> tuple[str, str]:
    components = state.components
    x, y, r = action[1], action[2], action[3]
    cell = _where(state, x, y)
    cells = [c for c, _ in geometry.passages(components, state.board, state.ship)]
    if cell not in cells:
        where = ", ".join(f"({c % components.width}, {c // components.width})" for c in cells)
        return f"({x}, {y}) is not behind one of the ship's passages; the tile may go to {where}", "place: next to the ship"
    mask, land = geometry.constraint(components, state.board, cell)
    tile_land = components.faces[state.tile * 4 + r].land
    for d in range(4):
        if mask >> d & 1 and (tile_land ^ land) >> d & 1:
            needs = "land" if land >> d & 1 else "water"
            return (f"turned {r}, the tile's {SIDE_NAMES[d]} side does not match: it needs {needs} there",
                    "place: land to land, water to water")
    good = geometry.fitting_rotations(components, state.board, state.tile, cell)
    return f"rotation {r} gives the same face as rotation {min(good)}; that placement is written with {min(good)}", "place: rotation"


def _why_no_build(state: State, action: Action) -> tuple[str, str]:
    unit, part = action[1], action[2]
    name = UNIT_NAMES[unit]
    if not flow.ship_on_new_land(state):
        return "a unit may be built only on a tile with land that the ship reached this turn", "build: new land"
    parts = len(state.components.faces[state.board[state.ship[1]]].parts)
    if part >= parts:
        return f"the ship's tile has {parts} land part(s), numbered from 0", "build: land part"
    if not state.supply[state.turn][unit]:
        hint = " (take one back first)" if unit == SCOUT and flow.own_scouts(state) else ""
        return f"{state.names[state.turn]} has no {name} left in the supply{hint}", "build: supply"
    cost = flow.unit_cost(state, unit)
    return f"a {name} costs {cost} gold here and {state.names[state.turn]} has {state.gold[state.turn]}", "build: cost"


def _why_no_end(state: State, action: Action) -> tuple[str, str]:
    return "at least one tile must be turned over every turn before the expedition may end", "explore: at least one tile"


def _why_no_chip_choice(state: State, action: Action) -> tuple[str, str]:
    return "the friendly natives have no chip to offer", "events: friendly natives"


EXPLAINERS = {
    "start_edge": _why_no_start_edge, "start_tile": _why_no_start_tile, "pass": _why_no_pass, "buy": _why_no_buy,
    "draw": _why_no_draw, "place": _why_no_place, "build": _why_no_build, "end": _why_no_end,
    "take_chip": _why_no_chip_choice, "decline_chip": _why_no_chip_choice,
}
