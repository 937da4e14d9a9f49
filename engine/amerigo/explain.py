"""Why an action is illegal: a precise lower-case reason and the name of the rule it breaks.

Only called once an action is known not to be among the legal ones, so speed does not matter;
each function re-derives the first rule the action breaks.
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.board import LAND
from engine.amerigo.building import frontier, placement_of
from engine.amerigo.choose import available, space_colour
from engine.amerigo.notation import BUILD_AT_CORNER, Action, format_action
from engine.amerigo.sailing import distances, node_of, occupied
from engine.amerigo.state import (
    ADVANCE,
    BUILD,
    BUY,
    CANNONS,
    CHANCE_PHASES,
    CHOOSE,
    FOUND,
    MOVE_ORDER,
    OVER,
    PHASE_NAMES,
    PLACE_SHIPS,
    PLAN,
    SAIL,
    TAKE_TOKEN,
    State,
    order_of,
)
from engine.amerigo.tokens import PT14, TOKEN_INDEX, owns, unused

CHANCE_VERBS = {"layout", "pirate", "progress", "production", "order", "tower", "stray"}
#: The steps at which each verb can be legal.
STEPS_OF = {
    "choose": {CHOOSE}, "special": {CHOOSE}, "gold": {CHOOSE}, "ships": {PLACE_SHIPS}, "sail": {SAIL}, "back": {SAIL},
    "found": {FOUND}, "decline": {FOUND}, "cannons": {CANNONS}, "advance": {ADVANCE}, "take": {TAKE_TOKEN},
    "move": {MOVE_ORDER}, "plan": {PLAN}, "build": {BUILD}, BUILD_AT_CORNER: {BUILD}, "buy": {BUY}, "end": {SAIL, PLAN, BUILD, BUY},
    "spend": {SAIL, CANNONS, ADVANCE, MOVE_ORDER, PLAN, BUILD, BUY},
}
USE_STEPS = {"PT10": {SAIL}, "PT16": {MOVE_ORDER}, "PT21": {CHOOSE}}


def explain(state: State, action: Action) -> tuple[str, str]:
    """(reason, rule) for an action of this game's shape that is not legal in ``state`` (PhasedRules.check
    answers for any other shape)."""
    op = action[0]
    step = state.phase
    if step == OVER:
        return "the game is over", "end of the game"
    if op in CHANCE_VERBS:
        if step in CHANCE_PHASES:
            return f"not a possible outcome of the {PHASE_NAMES[step]} now", "chance"
        return "only chance decides that", "chance"
    if step in CHANCE_PHASES:
        return f"the game waits for chance ({PHASE_NAMES[step]}), not for a player", "turn order"
    if op == "cash":
        return _why_no_cash(state, action), "gold: cashing"
    steps = USE_STEPS.get(action[1], set()) if op == "use" else STEPS_OF.get(op, set())
    if step not in steps:
        return f"the game is waiting for {PHASE_NAMES[step]}, not for '{format_action(action)}'", "turn: step"
    why = _EXPLAINERS.get(op)
    return why(state, action) if why else ("not possible now", op)


def _why_no_cash(state: State, action: Action) -> str:
    player = state.me
    if action[1] == "chest":
        return "the player has no treasure chest"
    token = TOKEN_INDEX[action[1]]
    return f"the player does not own {action[1]}" if not owns(player, token) else f"{action[1]} is already used"


def _choose(state: State, action: Action) -> tuple[str, str]:
    colour = c.COLOURS[action[1]]
    if not available(state, action[1]):
        return f"no {colour} cube is in the action field", "available actions"
    return "not possible now", "available actions"


def _special(state: State, action: Action) -> tuple[str, str]:
    rule = "white: special action"
    if not state.field[c.WHITE]:
        return "no white cube is in the action field", rule
    position = state.me.order_pos
    if position == 0:
        return "the order disc stands on the white start space: no special action yet", rule
    own = space_colour(state, position)
    if own != action[1] and position < state.components.order_last:
        return f"the order disc stands on a {c.COLOURS[own]} space, not a {c.COLOURS[action[1]]} one", rule
    if action[1] == c.WHITE:
        return "the special action performs one of the six other colours", rule
    return f"a {c.COLOURS[action[1]]} cube is in the action field: choose {c.COLOURS[action[1]]} itself", rule


def _use(state: State, action: Action) -> tuple[str, str]:
    token = TOKEN_INDEX[action[1]]
    player = state.me
    if not owns(player, token):
        return f"the player does not own {action[1]}", "progress tokens"
    if not unused(player, token):
        return f"{action[1]} is already used (turned face down)", "progress tokens"
    if action[1] == "PT16" and order_of(state)[0] == state.seat:
        return "the player's disc is already first", "PT16"
    return "not possible now", "progress tokens"


def _spend(state: State, action: Action) -> tuple[str, str]:
    if not state.me.gold:
        return "the player has no gold", "gold: spending"
    return "more AP would change nothing in this action", "gold: spending"


def _ships(state: State, action: Action) -> tuple[str, str]:
    assert state.board is not None
    return f"this map has frame spaces F1-F{len(state.board.frames)}", "blue: ship placement"


def _sail(state: State, action: Action) -> tuple[str, str]:
    board = state.board
    assert board is not None
    rule = "blue: sailing"
    i = action[1] - 1
    if state.ships_moved[i]:
        return f"ship {action[1]} has already moved this action", rule
    if action[2] >= board.height or action[3] >= (len(board.frames) if action[2] < 0 else board.width):
        return "that space is not on the map", rule
    node = node_of(board, action[2], action[3])
    if node < board.cells and board.terrain[node] >= LAND:
        return "a ship sails on water only", rule
    start = state.me.ships[i]
    if node not in distances(board, start, state.ap):
        return f"the ship cannot get there with {state.ap} AP", rule
    if node in occupied(state, (state.seat, i)):
        return "another ship is on that island water space", rule
    return "not possible now", rule


def _sail_back(state: State, action: Action) -> tuple[str, str]:
    rule = "blue: sailing"
    if state.ships_moved[action[1] - 1]:
        return f"ship {action[1]} has already moved this action", rule
    if state.ap < 2:
        return f"out and back takes at least 2 AP, the ship has {state.ap}", rule
    return "the ship is not on an anchor where a trading post can be founded (out and back would change nothing)", rule


def _track(state: State, action: Action, rule: str, position: int, last: int, unit: str) -> tuple[str, str]:
    k = action[1]
    if k > state.ap:
        return f"{k} spaces need {k} AP, the player has {state.ap}", rule
    return f"the {unit} track ends at {last}; the disc is at {position}", rule


def _cannons(state: State, action: Action) -> tuple[str, str]:
    return _track(state, action, "black: cannons", state.me.cannons, c.CANNON_MAX, "cannon")


def _advance(state: State, action: Action) -> tuple[str, str]:
    return _track(state, action, "brown: progress", state.me.progress, state.components.progress_last, "progress")


def _move(state: State, action: Action) -> tuple[str, str]:
    return _track(state, action, "white: order move", state.me.order_pos, state.components.order_last, "special-action")


def _take(state: State, action: Action) -> tuple[str, str]:
    return f"PT{action[1] + 1:02d} is not on a progress space", "brown: progress tokens"


def _plan(state: State, action: Action) -> tuple[str, str]:
    rule = "red: planning"
    components = state.components
    k = components.kind_index(action[1])
    if k < 0:
        return f"there is no tile kind {action[1]!r}", rule
    kind = components.kinds[k]
    if kind.group == "village":
        if not state.me.villages[k - len(components.neutral_kinds)]:
            return f"no {action[1]} tile is left in the player's supply", rule
        return f"a village tile costs 1 AP, the player has {state.ap}", rule
    if not state.neutral[k]:
        return f"no {action[1]} tile is left in the supply", rule
    if state.neutral_taken >= (2 if owns(state.me, PT14) else 1):
        return "only one neutral tile per phase (two with PT14)", rule
    return f"a {action[1]} tile costs {kind.take_cost} AP, the player has {state.ap}", rule


def _build(state: State, action: Action) -> tuple[str, str]:
    rule = "green: building"
    board = state.board
    assert board is not None
    components = state.components
    k = components.kind_index(action[1])
    if k < 0 or not state.me.stock[k]:
        return f"no {action[1]} tile in the player's stock", rule
    kind = components.kinds[k]
    if kind.build_cost > state.ap:
        return f"building a {action[1]} tile costs {kind.build_cost} AP, the player has {state.ap}", rule
    shapes = dict(kind.orientations)
    if action[0] == BUILD_AT_CORNER and action[2] not in shapes:
        return f"rotation r{action[2]} of {kind.shape} repeats another: use r{', r'.join(str(r) for r in shapes)}", rule
    _, rotation, top, left = placement_of(components, action)
    cells = [(top + r, left + col) for r, col in shapes[rotation]]
    if any(y < 0 or x < 0 or y >= board.height or x >= board.width for y, x in cells):
        return "the tile would stick out of the map", rule
    flat = [y * board.width + x for y, x in cells]
    if any(board.terrain[cell] < LAND for cell in flat):
        return "a tile may cover land only, never water", rule
    if any(state.cover[cell] for cell in flat):
        return "a space under the tile is already covered by a tile or a trading post", rule
    if not set(flat) & set(frontier(state, state.seat)):
        return "the tile must touch the player's trading post, or a chain of his village and neutral tiles joined to it", rule
    return "not possible now", rule


def _buy(state: State, action: Action) -> tuple[str, str]:
    rule = "yellow: production tokens"
    if action[2] > state.ap:
        return f"a token of value {action[2]} costs {action[2]} AP, the player has {state.ap}", rule
    return f"no {c.GOODS[action[1]]} {action[2]} token is on the storage board", rule


_EXPLAINERS = {
    "choose": _choose, "special": _special, "use": _use, "spend": _spend, "ships": _ships, "sail": _sail, "back": _sail_back,
    "cannons": _cannons, "advance": _advance, "move": _move, "take": _take, "plan": _plan, "build": _build,
    BUILD_AT_CORNER: _build, "buy": _buy,
}
