"""Game-log sentences: what a person would write about each action.

``describe(state, action)`` speaks of the state *before* the action, so it can say what the action
costs; for an action that ends the turn it also says what the turn's end brought (reserve tiles,
islands scored), found by applying the action.
"""

from __future__ import annotations

from engine.entdecker import flow
from engine.entdecker.component_set import EVENT_BACK
from engine.entdecker.components import SIDE_NAMES, UNIT_NAMES
from engine.entdecker.notation import Action
from engine.entdecker.state import NATIVES_CHIP, OVER, SCORE_CHIP, SETUP_BACK, SPIN, START, State
from engine.entdecker.turn import RUINS, RUINS_VP, start_fee

#: How people call the default topologies (a custom set's codes are shown in lower case).
TOPOLOGY_WORDS = {
    "SEA": "open sea", "ISLET": "sea with an islet", "CAPE": "headland", "CORNER": "coast corner",
    "TWIN": "pair of headlands", "ISTHMUS": "land bridge", "STRAIT": "strait", "BAY": "bay", "FJORD": "fjord",
    "LAND": "land",
}
EVENT_WORDS = ("a storm", "hostile natives", "friendly natives", "pirates", "ruins", "a treasure")
SIDE_WORDS = ("north", "east", "south", "west")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def tile_words(state: State, kind: int) -> str:
    """ "a headland with hostile natives", "open sea", "a coast corner"."""
    info = state.components.kinds[kind]
    name = TOPOLOGY_WORDS.get(info.topology, info.topology.lower())
    name = name if name in ("open sea", "land") else _article(name)
    return f"{name} with {EVENT_WORDS[info.event]}" if info.event >= 0 else name


def _land_sides(land: int) -> str:
    sides = [SIDE_WORDS[d] for d in range(4) if land >> d & 1]
    if not sides:
        return "all sea"
    if len(sides) == 4:
        return "land all round"
    return "land to the " + " and ".join(sides)


def describe(state: State, action: Action, after: State) -> str:
    """One sentence about ``action`` taken in ``state`` (leading to ``after``), with what the turn's end brought."""
    op = action[0]
    sentence = SENTENCES[op](state, action, state.names[state.turn])
    return sentence + _aftermath(state, action, after)


def _spin(state: State, action: Action, who: str) -> str:
    cap = state.components.gold_max
    return f"Round {state.round}: the income wheel stops at {action[1]}; every player gains {action[1]} gold (up to {cap})"


def _back(state: State, action: Action, who: str) -> str:
    back = "a '?' back" if action[2] == EVENT_BACK else "a plain back"
    if state.phase == SETUP_BACK:
        return f"Stack {action[1] + 1} ({state.stacks[action[1]]} tiles) is set out showing {back} on top"
    return f"Stack {action[1] + 1} now shows {back} on top"


def _tile(state: State, action: Action, who: str) -> str:
    return f"{who} turns over {tile_words(state, state.components.key_index[action[1]])}"


def _chip(state: State, action: Action, who: str) -> str:
    if state.phase == NATIVES_CHIP:
        return f"The friendly natives give {who} a discovery chip worth {action[1]}"
    if state.phase == SCORE_CHIP:
        seat = state.chip_queue[0]
        first = state.islands[0].first
        x, y = state.components.xy(first)
        return f"{state.names[seat]} draws a discovery chip worth {action[1]} for the island at ({x}, {y})"
    return f"A discovery chip worth {action[1]} is drawn"


def _start_edge(state: State, action: Action, who: str) -> str:
    return f"{who} sets sail from the {SIDE_WORDS[action[3]]} edge into ({action[1]}, {action[2]})"


def _start_tile(state: State, action: Action, who: str) -> str:
    x, y, g = action[1], action[2], action[3]
    cell = state.components.cell(x, y)
    regions = len(state.components.faces[state.board[cell]].regions)
    where = f"water region {g} of the tile at ({x}, {y})" if regions > 1 else f"the tile at ({x}, {y})"
    fee = start_fee(state, cell)
    if fee:
        owner = state.names[state.units[cell] >> 6]
        unit = UNIT_NAMES[state.units[cell] >> 4 & 3]
        return f"{who} starts the ship from {where}, paying {fee} gold to the bank for {owner}'s {unit} there"
    return f"{who} starts the ship from {where}"


def _pass(state: State, action: Action, who: str) -> str:
    return f"{who} has nowhere to start from and passes"


def _buy(state: State, action: Action, who: str) -> str:
    return f"{who} buys {_plural(action[1], 'tile')} for {action[1]} gold"


def _draw(state: State, action: Action, who: str) -> str:
    back = "a '?' tile" if state.tops[action[1]] == EVENT_BACK else "a plain tile"
    return f"{who} draws from stack {action[1] + 1} ({back})"


def _place(state: State, action: Action, who: str) -> str:
    x, y, r = action[1], action[2], action[3]
    code = state.tile * 4 + r
    info = state.components.kinds[state.tile]
    sentence = f"{who} places {tile_words(state, state.tile)} at ({x}, {y}), {_land_sides(state.components.faces[code].land)}"
    effects = {
        0: "; the storm ends the expedition at once",
        1: "; a unit built here costs double",
        2: "; friendly natives greet the crew",
        3: f"; pirates take {state.gold[state.turn] - state.gold[state.turn] // 2} gold",
        4: "; the ruins are worth 3 points",
        5: f"; the treasure brings {min(3, state.components.gold_max - state.gold[state.turn])} gold",
    }
    return sentence + effects.get(info.event, "")


def _build(state: State, action: Action, who: str) -> str:
    unit, part = UNIT_NAMES[action[1]], action[2]
    cell = state.ship[1]
    x, y = state.components.xy(cell)
    face = state.components.faces[state.board[cell]]
    on = f"({x}, {y})"
    if len(face.parts) > 1:
        sides = [SIDE_NAMES[d] for d in range(4) if face.parts[part] >> d & 1]
        on += f", on the {''.join(sides) or 'islet'} land part"
    cost = flow.unit_cost(state, action[1])
    hostile = " (double: hostile natives)" if flow.is_hostile(state, cell) else ""
    return f"{who} builds a {unit} on {on} for {cost} gold{hostile}"


def _takeback(state: State, action: Action, who: str) -> str:
    return f"{who} takes back the scout at ({action[1]}, {action[2]})"


def _end(state: State, action: Action, who: str) -> str:
    unused = f", leaving {_plural(state.draws_left, 'paid draw')} unused" if state.draws_left else ""
    return f"{who} ends the expedition{unused}"


def _take_chip(state: State, action: Action, who: str) -> str:
    return f"{who} accepts a discovery chip from the friendly natives"


def _decline_chip(state: State, action: Action, who: str) -> str:
    return f"{who} declines the friendly natives' chip"


SENTENCES = {
    "spin": _spin, "back": _back, "tile": _tile, "chip": _chip, "start_edge": _start_edge, "start_tile": _start_tile,
    "pass": _pass, "buy": _buy, "draw": _draw, "place": _place, "build": _build, "takeback": _takeback, "end": _end,
    "take_chip": _take_chip, "decline_chip": _decline_chip,
}


def _aftermath(state: State, action: Action, after: State) -> str:
    """What the end of the turn brought when ``action`` ended it: reserve tiles laid, points scored, the end."""
    if state.phase == SETUP_BACK:
        return ""
    ended = after.phase in (SPIN, OVER, SCORE_CHIP) or (after.phase == START and after.turn != state.turn)
    if not ended:
        return ""
    notes = []
    filled = sum(1 for before, now in zip(state.board, after.board, strict=True) if before != now) - (action[0] == "place")
    if filled > 0:
        notes.append(f"{_plural(filled, 'reserve tile')} {'fills' if filled == 1 else 'fill'} the enclosed holes")
    gains = [after.score[seat] - state.score[seat] for seat in range(state.n)]
    if action[0] == "place" and state.components.kinds[state.tile].event == RUINS:
        gains[state.turn] -= RUINS_VP  # already said by the placement's own sentence
    if any(gains):
        notes.append("points: " + ", ".join(f"{state.names[s]} +{g}" for s, g in enumerate(gains) if g))
    if after.phase == OVER:
        notes.append("the game is over")
    return "; " + "; ".join(notes) if notes else ""
