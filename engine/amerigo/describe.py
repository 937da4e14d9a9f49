"""Game-log sentences: what a person would write about each action.

``describe(state, action, after)`` speaks of the state *before* the action, so it can say what the
action costs or scores ("Anna builds a neutral D2 tile at 12,5 for 2 AP, scoring 3 VP"); ``after``, the
state the event leads to, lets it add what followed by itself (see :mod:`engine.amerigo.changes`).
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.board import frame_name
from engine.amerigo.building import build_action, placement_of, shape_cells
from engine.amerigo.changes import changes_clause
from engine.amerigo.choose import gold_income
from engine.amerigo.notation import BUILD_AT_CORNER, Action, node_text
from engine.amerigo.sailing import distances, node_of
from engine.amerigo.state import EMPTY, State, order_of
from engine.amerigo.tokens import PT19, TOKEN_EFFECTS, ap_bonus, owns

ACTION_NAMES = ("sailing", "cannons", "planning", "progress", "building", "production tokens", "special action")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _colour_action(colour: int) -> str:
    return f"{c.COLOURS[colour]} ({ACTION_NAMES[colour]})"


def describe(state: State, action: Action, after: State) -> str:
    """One sentence about ``action`` taken in ``state`` (leading to ``after``), every change of VP, gold,
    chests and cannons included."""
    op = action[0]
    chance = _CHANCE.get(op)
    if chance is not None:
        return chance(state, action) + changes_clause(state, after, {})
    text = _PLAYER[op](state, action, state.names[state.seat])
    return text + changes_clause(state, after, {state.seat: claims(state, action)})


def claims(state: State, action: Action) -> dict[str, int]:
    """What the player's own sentence says the action gives or costs them (VP, gold, chests, cannons)."""
    op = action[0]
    me = state.me
    if op == "gold":
        return {"gold": gold_income(state)}
    if op == "use" and action[1] == "PT21":
        return {"vp": sum(state.field)}
    if op == "cash":
        return {"gold": 3, "chests": -1} if action[1] == "chest" else {"gold": 3 if action[1] == "PT17" else 5}
    if op == "spend":
        return {"gold": -1}
    if op == "found":
        island = _found_island(state)
        return {"vp": 0 if state.discovered[island] else c.DISCOVERY_VP, "gold": 1 if owns(me, PT19) else 0}
    if op == "cannons":
        return {"cannons": action[1], "gold": c.END_OF_TRACK_GOLD if _cannon_gold(state, action) else 0}
    if op == "move":
        return {"gold": c.END_OF_TRACK_GOLD if _order_gold(state, action) else 0}
    if op == "advance":
        return {"gold": c.END_OF_TRACK_GOLD if _advance_gold(state, action) == "now" else 0}
    if op == "take":
        return {"gold": c.END_OF_TRACK_GOLD if _take_ends_with_gold(state) else 0}
    if op in ("build", BUILD_AT_CORNER):
        return {"vp": _tile_vp(state, action)}
    return {}


def _layout(state: State, action: Action) -> str:
    turned = f", turned {_plural(action[4], 'quarter turn')} clockwise" if action[4] else ""
    return f"Island tile {action[3]} is laid at row {action[1] + 1}, column {action[2] + 1}{turned}"


def _pirate(state: State, action: Action) -> str:
    total = sum(state.pirates) + action[1]
    return f"A pirate marker of strength {action[1]} is turned face up (the pirates now total {total})"


def _progress(state: State, action: Action) -> str:
    return f"Progress token PT{action[2] + 1:02d} ({TOKEN_EFFECTS[action[2]]}) is laid on space {c.PROGRESS_SPACES[action[1]]}"


def _production(state: State, action: Action) -> str:
    return f"A {c.GOODS[action[2]]} production token of value {action[3]} is laid on production space {action[1] + 1}"


def _order(state: State, action: Action) -> str:
    names = [state.names[s] for s in action[1]]
    return f"The order discs are stacked {', '.join(names)} from the top: {names[0]} starts"


def _tower(state: State, action: Action) -> str:
    colour, k = c.COLOURS[action[1]], action[2]
    if state.round == 0:
        return f"{_plural(k, colour + ' cube').capitalize()} land in the tray and go to storage" if k != 1 else \
            f"1 {colour} cube lands in the tray and goes to storage"
    if k == 0:
        return f"No {colour} cube comes out of the tower"
    return f"{_plural(k, colour + ' cube')} {'comes' if k == 1 else 'come'} out of the tower into the action field"


def _stray(state: State, action: Action) -> str:
    k = action[2]
    return f"{_plural(k, c.COLOURS[action[1]] + ' cube')} {'falls' if k == 1 else 'fall'} out of the tower at the wrong time"


_CHANCE = {"layout": _layout, "pirate": _pirate, "progress": _progress, "production": _production, "order": _order,
           "tower": _tower, "stray": _stray}


def _choose(state: State, action: Action, who: str) -> str:
    ap = state.phase_ap + ap_bonus(state.me, action[1])
    if action[0] == "special":
        return f"{who} uses the white special action as {_colour_action(action[1])} with {ap} AP"
    if action[1] == c.WHITE:
        return f"{who} chooses white (order move) with {ap} AP"
    return f"{who} chooses {_colour_action(action[1])} with {ap} AP"


def _gold(state: State, action: Action, who: str) -> str:
    return f"{who} takes {gold_income(state)} gold instead of an action"


def _use(state: State, action: Action, who: str) -> str:
    if action[1] == "PT21":
        return f"{who} uses PT21 and scores {_plural(sum(state.field), 'VP')} instead of an action"
    if action[1] == "PT10":
        return f"{who} uses PT10: each ship gets 8 more AP"
    first = state.names[order_of(state)[0]]
    return f"{who} uses PT16 and puts the order disc on top of {first}'s"


def _cash(state: State, action: Action, who: str) -> str:
    if action[1] == "chest":
        return f"{who} returns a treasure chest for 3 gold"
    return f"{who} cashes {action[1]} for {3 if action[1] == 'PT17' else 5} gold"


def _spend(state: State, action: Action, who: str) -> str:
    return f"{who} spends 1 gold for 1 more AP (now {state.ap + 1})"


def _ships(state: State, action: Action, who: str) -> str:
    board = state.board
    assert board is not None
    if action[1] == action[2]:
        return f"{who} puts both ships on the frame, on {frame_name(board, action[1])}"
    return f"{who} puts both ships on the frame, on {frame_name(board, action[1])} and {frame_name(board, action[2])}"


def _sail(state: State, action: Action, who: str) -> str:
    board = state.board
    assert board is not None
    start = state.me.ships[action[1] - 1]
    end = node_of(board, action[2], action[3])
    where = frame_name(board, action[3]) if action[2] < 0 else node_text(action[2], action[3])
    if start == end:
        return f"{who} leaves ship {action[1]} where it is, at {where}"
    steps = distances(board, start, state.ap).get(end, 0)
    anchor = "the anchor at " if end < board.cells and board.terrain[end] == 1 else ""
    return f"{who} sails ship {action[1]} {_plural(steps, 'space')} to {anchor}{where}"


def _sail_back(state: State, action: Action, who: str) -> str:
    board = state.board
    assert board is not None
    node = state.me.ships[action[1] - 1]
    where = node_text(*divmod(node, board.width))
    return f"{who} sails ship {action[1]} out and back to the anchor at {where}"


def _found(state: State, action: Action, who: str) -> str:
    board = state.board
    assert board is not None
    if action[0] == "decline":
        return f"{who} founds no trading post there"
    post = board.anchor_post[state.me.ships[state.sailed]]
    island = board.island_of[post]
    where = f"{post // board.width},{post % board.width}"
    gold = " and gets 1 gold (PT19)" if owns(state.me, PT19) else ""
    if not state.discovered[island]:
        return f"{who} founds a trading post at {where} and discovers the island (3 VP){gold}"
    return f"{who} founds a trading post at {where}{gold}"


def _found_island(state: State) -> int:
    board = state.board
    assert board is not None
    return board.island_of[board.anchor_post[state.me.ships[state.sailed]]]


def _cannon_gold(state: State, action: Action) -> bool:
    return bool(state.me.cannons + action[1] == c.CANNON_MAX and state.ap > action[1])


def _order_gold(state: State, action: Action) -> bool:
    return bool(state.me.order_pos + action[1] == state.components.order_last and state.ap > action[1])


def _advance_gold(state: State, action: Action) -> str:
    """End-of-track gold for a progress move: "now", "later" (after the tokens it makes due), or ""."""
    if state.me.progress + action[1] != state.components.progress_last or state.ap <= action[1]:
        return ""
    components = state.components
    due = sum(1 for space, _ in components.progress_vp if state.me.progress < space <= state.me.progress + action[1])
    return "later" if due and any(t != EMPTY for t in state.progress_spaces) else "now"


def _take_ends_with_gold(state: State) -> bool:
    """This token is the last one due, and the progress move that made it due reached the track's end."""
    left = sum(1 for t in state.progress_spaces if t != EMPTY) - 1
    return state.track_gold and (state.tokens_due == 1 or left == 0)


def _cannons(state: State, action: Action, who: str) -> str:
    now = state.me.cannons + action[1]
    gold = " and gets 2 gold at the track's end" if _cannon_gold(state, action) else ""
    if action[1] == 0:  # legal ("0..min(AP, 12 − cannons)"): the action ends with the disc where it is
        return f"{who} loads no cannon and leaves the cannon disc at {now}{gold}"
    return f"{who} loads {_plural(action[1], 'cannon')} (now {now}){gold}"


def _advance(state: State, action: Action, who: str) -> str:
    now = state.me.progress + action[1]
    gold = {"now": " and gets 2 gold at the track's end",
            "later": " (2 gold at the track's end once the progress tokens are taken)"}.get(_advance_gold(state, action), "")
    if action[1] == 0:  # legal (brown: "0..min(AP, last − position)"): the action ends with the disc where it is
        return f"{who} leaves the progress disc where it is (at {now}){gold}"
    return f"{who} advances {_plural(action[1], 'space')} on the progress track (now at {now}){gold}"


def _take(state: State, action: Action, who: str) -> str:
    gold = " and gets 2 gold at the progress track's end" if _take_ends_with_gold(state) else ""
    return f"{who} takes progress token PT{action[1] + 1:02d} ({TOKEN_EFFECTS[action[1]]}){gold}"


def _move(state: State, action: Action, who: str) -> str:
    now = state.me.order_pos + action[1]
    gold = " and gets 2 gold at the track's end" if _order_gold(state, action) else ""
    if action[1] == 0:
        return f"{who} leaves the order disc where it is{gold}"
    return f"{who} moves the order disc {_plural(action[1], 'space')} to space {now}{gold}"


def _plan(state: State, action: Action, who: str) -> str:
    kind = state.components.kinds[state.components.kind_index(action[1])]
    return f"{who} plans a {action[1]} tile for {kind.take_cost} AP"


def _build(state: State, action: Action, who: str) -> str:
    """The square named is the anchor cell (covered by the tile), in either notation."""
    board = state.board
    assert board is not None
    components = state.components
    placement = placement_of(components, action)
    kind = components.kinds[placement[0]]
    cells = shape_cells(state, *placement)
    vp = _tile_vp(state, action)
    goods = [c.GOODS[board.goods[cell]] for cell in cells if board.goods[cell] >= 0]
    taking = f" and takes {' and '.join(goods)}" if goods else ""
    row, col = build_action(components, placement)[3:]
    return f"{who} builds a {action[1]} tile at {row},{col} for {kind.build_cost} AP, scoring {vp} VP{taking}"


def _tile_vp(state: State, action: Action) -> int:
    """The VP the tile itself scores: its value on a big or a small island."""
    board = state.board
    assert board is not None
    placement = placement_of(state.components, action)
    kind = state.components.kinds[placement[0]]
    cells = shape_cells(state, *placement)
    return kind.vp_big if board.islands[board.island_of[cells[0]]].big else kind.vp_small


def _buy(state: State, action: Action, who: str) -> str:
    return f"{who} buys a {c.GOODS[action[1]]} production token for {action[2]} AP"


def _end(state: State, action: Action, who: str) -> str:
    return f"{who} ends the action" + (f", leaving {state.ap} AP unused" if state.ap else "")


_PLAYER = {"choose": _choose, "special": _choose, "gold": _gold, "use": _use, "cash": _cash, "spend": _spend,
           "ships": _ships, "sail": _sail, "back": _sail_back, "found": _found, "decline": _found, "cannons": _cannons, "advance": _advance,
           "take": _take, "move": _move, "plan": _plan, "build": _build, BUILD_AT_CORNER: _build, "buy": _buy,
           "end": _end}
