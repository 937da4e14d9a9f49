"""A player's decisions: start, buy, explore (draw, build, take back, end), place, the natives' chip.

Each ``legal_*`` lists the legal actions of its decision point in a stable order; each ``apply_*``
assumes its action legal (the rules object checks it against the legal actions first).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from engine.core.records import add_at, set_at
from engine.entdecker import flow, geometry
from engine.entdecker.component_set import ComponentSet
from engine.entdecker.notation import DECLINE_CHIP, END, PASS, TAKE_CHIP, Action
from engine.entdecker.state import (
    BUY,
    EMPTY,
    EXPLORE,
    NATIVES,
    NATIVES_CHIP,
    NO_UNIT,
    PLACE,
    SCOUT,
    SHIP_CIRCLE,
    SHIP_TILE,
    START,
    TILE,
    State,
    unit_code,
    unit_kind,
    unit_seat,
)

STORM: Final = 0
HOSTILE: Final = 1
FRIENDLY: Final = 2
PIRATES: Final = 3
RUINS: Final = 4
TREASURE: Final = 5
RUINS_VP: Final = 3
TREASURE_GOLD: Final = 3


@lru_cache(maxsize=32)
def _circle_starts(components: ComponentSet) -> tuple[tuple[int, Action], ...]:
    """(cell, action) of every start circle, by cell then side."""
    return tuple((cell, ("start_edge", cell % components.width, cell // components.width, d)) for cell, d in components.circles)


def start_fee(state: State, cell: int) -> int:
    """The fee for starting on the tile at ``cell``: another player's unit there costs its listed price.

    "Ha egy játékos olyan területről akar indulni, amelyiken egy másik játékosnak egysége található, akkor
    az plusz pénzbe kerül. Annyi aranyat kell elköltenie, amennyibe az ott levő egység került. Ezt az
    összeget a másik játékos nem kapja meg!" (starting from an area with another player's unit costs as
    much gold as that unit cost; the other player does not get it.) R5: the listed cost, never doubled.
    """
    code = state.units[cell]
    if code == NO_UNIT or unit_seat(code) == state.turn:
        return 0
    return state.components.unit_cost[unit_kind(code)]


def legal_start(state: State) -> list[Action]:
    """Circles with an unexplored cell behind them; from round 2 the open water regions of placed tiles.

    "Az első körben a hajó csak a tábla szélén levő körök valamelyikéből indulhat." (in the first round
    the ship may only start from one of the circles at the board's edge.) A start needs gold for the fee
    and one tile; with no start possible the player must pass (R6).
    """
    components, board = state.components, state.board
    gold = state.gold[state.turn]
    out: list[Action] = []
    if gold >= 1:
        out.extend(action for cell, action in _circle_starts(components) if board[cell] == EMPTY)
    if state.round >= 2:
        width = components.width
        for cell, g in geometry.open_regions(components, board):
            if gold >= start_fee(state, cell) + 1:
                out.append(("start_tile", cell % width, cell // width, g))
    if not out:
        out.append(PASS)
    return out + legal_takeback(state)


def legal_takeback(state: State) -> list[Action]:
    """ "A felderítő kivétel. Ezt a játékos bármikor visszaveheti" (a scout may be taken back at any time; R8:
    at its owner's start and explore decisions)."""
    width = state.components.width
    return [("takeback", cell % width, cell // width) for cell in flow.own_scouts(state)]


def legal_buy(state: State) -> list[Action]:
    """ "Minden részlet egy aranyba kerül. Legalább egy részletet mindenkinek fel kell fordítania minden körben."
    (each tile costs one gold; everyone must turn over at least one tile each turn.)"""
    return [("buy", n) for n in range(1, min(state.gold[state.turn], sum(state.stacks)) + 1)]


def legal_explore(state: State) -> list[Action]:
    """Draw from a stack, build on the new land, take a scout back, or end the expedition.

    ``end`` only once a tile has been turned over this turn: "Legalább egy részletet mindenkinek fel
    kell fordítania minden körben" (everyone must turn over at least one tile each turn).
    """
    out: list[Action] = []
    if flow.can_draw(state):
        out.extend(("draw", k) for k, size in enumerate(state.stacks) if size)
    out.extend(legal_build(state))
    out.extend(legal_takeback(state))
    if state.drawn:
        out.append(END)
    return out


def legal_build(state: State) -> list[Action]:
    """Units from the supply the player can pay for, on each land part of the ship's new tile.

    "Egy részletre csak egyetlen egység építhető. Amennyiben egy részleten több, nem egybefüggő
    szárazföld is feltűnik, a játékosnak el kell döntenie, hogy melyik részre építkezik." (one unit per
    tile; on a tile with several separate land areas the player decides which one to build on.)
    """
    if not flow.ship_on_new_land(state):
        return []
    parts = len(state.components.faces[state.board[state.ship[1]]].parts)
    supply = state.supply[state.turn]
    gold = state.gold[state.turn]
    return [("build", unit, p) for unit in range(3) if supply[unit] and flow.unit_cost(state, unit) <= gold
            for p in range(parts)]


def legal_place(state: State) -> list[Action]:
    """Every distinct (cell, rotation) where the drawn tile fits behind one of the ship's passages."""
    width = state.components.width
    return [("place", cell % width, cell // width, r)
            for cell, r in geometry.placements(state.components, state.board, state.ship, state.tile)]


def legal_natives(state: State) -> list[Action]:
    """ "A játékos húzhat egy felfedezés korongot" (the player *may* draw a discovery chip)."""
    return [TAKE_CHIP, DECLINE_CHIP]


# --- applying ------------------------------------------------------------------------------------


def apply_start_edge(state: State, action: Action) -> State:
    """The ship goes onto a circle of the rim (no fee)."""
    new = state.copy()
    new.ship = (SHIP_CIRCLE, geometry.cell_at(state.components, action[1], action[2]), action[3])
    new.phase = BUY
    return new


def apply_start_tile(state: State, action: Action) -> State:
    """The ship goes into a water region of a placed tile; a fee goes to the bank."""
    cell = geometry.cell_at(state.components, action[1], action[2])
    new = state.copy()
    new.gold = add_at(state.gold, state.turn, -start_fee(state, cell))
    new.ship = (SHIP_TILE, cell, action[3])
    new.phase = BUY
    return new


def apply_pass(state: State, action: Action) -> State:
    """No start was possible: the turn ends."""
    return flow.finish_turn(state)


def apply_takeback(state: State, action: Action) -> State:
    """The scout returns to its owner's supply (no refund); the decision point stays open."""
    cell = geometry.cell_at(state.components, action[1], action[2])
    new = state.copy()
    new.supply = set_at(state.supply, state.turn, add_at(state.supply[state.turn], SCOUT, 1))
    new.units = set_at(state.units, cell, NO_UNIT)
    return new


def apply_buy(state: State, action: Action) -> State:
    """Pay one gold per tile; the expedition begins."""
    n = action[1]
    new = state.copy()
    new.gold = add_at(state.gold, state.turn, -n)
    new.draws_left = n
    return flow.explore_point(new)


def apply_draw(state: State, action: Action) -> State:
    """One paid draw is used; chance turns over the top tile of the stack."""
    new = state.copy()
    new.draws_left = state.draws_left - 1
    new.drawn = state.drawn + 1
    new.stack = action[1]
    new.phase = TILE
    return new


def apply_place(state: State, action: Action) -> State:
    """The tile is laid; its event (if any) happens; the ship sails onto it (not after a storm).

    "Ezután a hajót az új területre kell mozgatni." (then the ship must be moved onto the new area.)
    "I, ... leolvassa a részleten látható eseményt ... Ez a részlet lepakolása után hajtódik végre." (the
    event shown is carried out after the tile is placed.)
    """
    components = state.components
    cell = geometry.cell_at(components, action[1], action[2])
    entry = next(side for c, side in geometry.passages(components, state.board, state.ship) if c == cell)
    code = state.tile * 4 + action[3]
    new = state.copy()
    new.board = set_at(state.board, cell, code)
    new.placed = state.placed + (cell,)
    new.tile = -1
    event = components.kinds[code >> 2].event
    if event == STORM:
        # "Vihar: A kör azonnal véget ér. A játékos nem tehet le egységet és nem forgathat fel további részleteket."
        new.storm = True
        return flow.finish_turn(new)
    new.ship = (SHIP_TILE, cell, components.faces[code].region_of_side[entry])
    return resolve_event(new, event)


def resolve_event(state: State, event: int) -> State:
    """The event of a '?' tile just placed (storm is handled by the caller; hostile natives act at a build)."""
    seat = state.turn
    if event == FRIENDLY:
        return flow.with_phase(state, NATIVES) if any(state.pool) else flow.explore_point(state)
    if event == PIRATES:
        # "Kalózok: A játékos elveszti maradék aranya felét, felfelé kerekítve." (loses half, rounded up)
        state = state.copy()
        state.gold = set_at(state.gold, seat, state.gold[seat] // 2)
    elif event == RUINS:
        # "Romok: A játékos kap három győzelempontot." (gains three victory points at once)
        state = state.copy()
        state.score = add_at(state.score, seat, RUINS_VP)
    elif event == TREASURE:
        # "Kincs: A játékos kap három aranyat. Ezzel együtt sem lehet több aranya tizenkettőnél."
        state = state.copy()
        state.gold = set_at(state.gold, seat, min(state.components.gold_max, state.gold[seat] + TREASURE_GOLD))
    return flow.explore_point(state)


def apply_build(state: State, action: Action) -> State:
    """ "A köre ezután véget ér, még akkor is, ha további részleteket húzhatott volna." (his turn then ends,
    even if he could have drawn more tiles.)"""
    seat, unit, part = state.turn, action[1], action[2]
    cell = state.ship[1]
    new = state.copy()
    new.gold = add_at(state.gold, seat, -flow.unit_cost(state, unit))
    new.supply = set_at(state.supply, seat, add_at(state.supply[seat], unit, -1))
    new.units = set_at(state.units, cell, unit_code(seat, unit, part))
    return flow.finish_turn(new)


def apply_end(state: State, action: Action) -> State:
    """ "Hamarabb is abbahagyhatják ... nem kapja vissza az elköltött aranyat." (they may stop early; the gold
    spent is not returned.)"""
    return flow.finish_turn(state)


def apply_take_chip(state: State, action: Action) -> State:
    """The player accepts the natives' chip: chance draws it from the pool."""
    return flow.with_phase(state, NATIVES_CHIP)


def apply_decline_chip(state: State, action: Action) -> State:
    """The player declines the natives' chip."""
    return flow.explore_point(state)


#: The function that applies each kind of decision, by its verb.
BY_VERB = {
    "start_edge": apply_start_edge, "start_tile": apply_start_tile, "pass": apply_pass, "takeback": apply_takeback,
    "buy": apply_buy, "draw": apply_draw, "place": apply_place, "build": apply_build, "end": apply_end,
    "take_chip": apply_take_chip, "decline_chip": apply_decline_chip,
}


def apply_decision(state: State, action: Action) -> State:
    """The state after the player's decision ``action`` (assumed legal), sent by its kind."""
    return BY_VERB[action[0]](state, action)


# --- checking ------------------------------------------------------------------------------------
# The rules' check asks whether an action is one of the legal actions. Listing them all is what a
# player's choice needs, but to check one action (every event of an imported log) the listing is
# mostly wasted: a start decision scans the whole map for open water. These tests answer the same
# question for one action directly; each is True only for an action the matching ``legal_*`` lists
# (an exact tuple of ints), and False sends the action to the full comparison, which also words the
# reason when it is illegal.


def _ints(action: Action, count: int) -> bool:
    """``action`` is a verb followed by exactly ``count`` plain ints (as parsing makes them)."""
    if len(action) != count + 1:
        return False
    for i in range(1, count + 1):
        if type(action[i]) is not int:
            return False
    return True


def _own_scout_at(state: State, action: Action) -> bool:
    """``takeback x y`` names a cell holding one of the active player's scouts (see :func:`legal_takeback`)."""
    if not _ints(action, 2):
        return False
    cell = geometry.cell_at(state.components, action[1], action[2])
    return cell >= 0 and flow.is_own_scout(state, state.units[cell])


def _start_edge_listed(state: State, action: Action) -> bool:
    """A start circle before an unexplored cell, with a gold for the tile (see :func:`legal_start`)."""
    if not _ints(action, 3) or state.gold[state.turn] < 1:
        return False
    components = state.components
    cell = geometry.cell_at(components, action[1], action[2])
    side: int = action[3]
    return cell >= 0 and 0 <= side < 4 and components.neighbours[cell][side] < 0 and state.board[cell] == EMPTY


def _start_tile_listed(state: State, action: Action) -> bool:
    """An open water region of a placed tile from round 2, the fee and a tile paid (see :func:`legal_start`)."""
    if not _ints(action, 3) or state.round < 2:
        return False
    components, board = state.components, state.board
    cell = geometry.cell_at(components, action[1], action[2])
    region: int = action[3]
    if cell < 0 or board[cell] == EMPTY or not 0 <= region < len(components.faces[board[cell]].regions):
        return False
    return geometry.region_is_open(components, board, cell, region) and state.gold[state.turn] >= start_fee(state, cell) + 1


def _build_listed(state: State, action: Action) -> bool:
    """A unit the player has and can pay for, on a land part of the ship's new tile (see :func:`legal_build`)."""
    if not _ints(action, 2) or not flow.ship_on_new_land(state):
        return False
    unit: int = action[1]
    part: int = action[2]
    if not 0 <= unit < 3 or not state.supply[state.turn][unit] or flow.unit_cost(state, unit) > state.gold[state.turn]:
        return False
    return 0 <= part < len(state.components.faces[state.board[state.ship[1]]].parts)


def _draw_listed(state: State, action: Action) -> bool:
    """A stack still holding a tile, while a draw is possible (see :func:`legal_explore`)."""
    if not _ints(action, 1):
        return False
    stack: int = action[1]
    return 0 <= stack < len(state.stacks) and state.stacks[stack] > 0 and flow.can_draw(state)


def _place_listed(state: State, action: Action) -> bool:
    """A cell behind one of the ship's passages where the drawn tile fits in this rotation (see :func:`legal_place`)."""
    if not _ints(action, 3):
        return False
    components = state.components
    cell = geometry.cell_at(components, action[1], action[2])
    if cell < 0:
        return False
    for passage, _ in geometry.passages(components, state.board, state.ship):
        if passage == cell:
            return action[3] in geometry.fitting_rotations(components, state.board, state.tile, cell)
    return False


def _buy_listed(state: State, tiles: int) -> bool:
    """A number of tiles from one up to the gold and the tiles left (see :func:`legal_buy`)."""
    return 1 <= tiles <= min(state.gold[state.turn], sum(state.stacks))


def surely_legal(state: State, action: Action) -> bool:
    """True when ``action`` is one of the legal actions of ``state`` (found without listing them); False when it
    may not be (then compare it with the list)."""
    if not action:
        return False
    verb = action[0]
    phase = state.phase
    if phase == EXPLORE:
        if verb == "draw":
            return _draw_listed(state, action)
        if verb == "build":
            return _build_listed(state, action)
        if verb == "end":
            return len(action) == 1 and state.drawn > 0
        return verb == "takeback" and _own_scout_at(state, action)
    if phase == PLACE:
        return verb == "place" and _place_listed(state, action)
    if phase == START:
        if verb == "start_edge":
            return _start_edge_listed(state, action)
        if verb == "start_tile":
            return _start_tile_listed(state, action)
        return verb == "takeback" and _own_scout_at(state, action)
    if phase == BUY:
        return verb == "buy" and _ints(action, 1) and _buy_listed(state, action[1])
    if phase == NATIVES:
        return action == TAKE_CHIP or action == DECLINE_CHIP
    return False
