"""The turn's skeleton: where an expedition stands, the end of a turn, the next turn.

Every apply ends in one of these, so a state always waits for a decision, for chance, or for nobody.
"""

from __future__ import annotations

from engine.entdecker import geometry, scoring
from engine.entdecker.state import (
    EMPTY,
    EXPLORE,
    NO_SHIP,
    SCORE_CHIP,
    SCOUT,
    SHIP_TILE,
    SPIN,
    START,
    Island,
    Phase,
    State,
)


def with_phase(state: State, phase: Phase) -> State:
    """``state`` waiting in ``phase`` (a copy: records are values)."""
    new = state.copy()
    new.phase = phase
    return new


def ship_on_new_land(state: State) -> bool:
    """The ship stands on a tile placed this turn that shows land (where a unit may be built).

    "Ha egy játékos olyan területre ért hajójával, amin szárazföld látható, dönthet úgy, hogy odaépít
    egyet a készletéből" (a player whose ship reached a tile showing land may build a unit there); R7:
    only a tile reached this turn, never the start tile or circle.
    """
    mode, cell, _ = state.ship
    return mode == SHIP_TILE and bool(state.placed) and cell == state.placed[-1] and bool(
        state.components.faces[state.board[cell]].parts) and not state.storm


def unit_cost(state: State, unit: int) -> int:
    """What ``unit`` costs on the ship's tile: double on a hostile-natives tile."""
    cost = state.components.unit_cost[unit]
    return 2 * cost if is_hostile(state, state.ship[1]) else cost


def is_hostile(state: State, cell: int) -> bool:
    """Whether the tile at ``cell`` shows hostile natives ("Barátságatlan őslakók")."""
    code = state.board[cell]
    return code != EMPTY and state.components.kinds[code >> 2].event == 1


def own_scouts(state: State) -> list[int]:
    """Cells of the active player's scouts on the map, ascending."""
    own_scout = state.turn * 4 + SCOUT  # a unit code's bits above the part: seat and unit (see state.unit_code)
    return [c for c, code in enumerate(state.units) if code >= 0 and code >> 4 == own_scout]


def is_own_scout(state: State, code: int) -> bool:
    """Whether the unit code ``code`` (or NO_UNIT) is a scout of the active player (as :func:`own_scouts` finds them)."""
    return code >= 0 and code >> 4 == state.turn * 4 + SCOUT


def can_still_build(state: State) -> bool:
    """A build is possible now or after taking a scout back (so the decision point is worth offering)."""
    if not ship_on_new_land(state):
        return False
    gold = state.gold[state.turn]
    supply = state.supply[state.turn]
    for unit in range(3):
        if unit_cost(state, unit) <= gold and (supply[unit] > 0 or (unit == SCOUT and own_scouts(state))):
            return True
    return False


def can_draw(state: State) -> bool:
    """Draws are left, the ship has an open passage and a stack still holds a tile."""
    return (state.draws_left > 0 and not state.storm and any(state.stacks)
            and geometry.has_passage(state.components, state.board, state.ship))


def explore_point(state: State) -> State:
    """Wait for the next explore decision, or end the turn when nothing is left to decide.

    The expedition ends when draws run out, at a dead end ("Amennyiben olyan területre lép, amelyről
    nem lehet továbbhaladni, nincs is más választása": on a tile from which it cannot go on he has no
    choice), when the stacks are empty or at a storm; a build stays possible until the turn ends.
    """
    if can_draw(state) or can_still_build(state):
        return with_phase(state, EXPLORE)
    return finish_turn(state)


def fill_holes(state: State) -> tuple[State, tuple[int, ...]]:
    """Fill every hole next to this turn's tiles from the reserve; the state and the filled cells.

    "Ha egy kör végére olyan lyuk keletkezik, amelybe csak egyetlen típusú részlet illeszkedik – vagyis
    mind a négy oldalról felderített terület veszi körbe –, a tartalékkártyákból kell pótolni. Előfordulhatnak
    nagyobb lyukak is, melyeket minden oldalról szárazföld határol. Ezeket is a tartalékkártyákkal kell
    kipótolni." (a hole surrounded on all four sides by explored area is filled from the reserve; larger
    holes bordered by land on every side are filled from the reserve too.) Only cells next to a new tile
    can have become holes, and filling one never makes another (its neighbours are all explored).
    """
    components = state.components
    board = list(state.board)
    reserve = list(state.reserve)
    filled: list[int] = []
    view = state.board  # the board as filled so far, as a tuple (made again only after a fill)
    for cell in geometry.empty_neighbours(components, state.board, state.placed):
        if board[cell] != EMPTY:
            continue
        if geometry.is_enclosed(components, view, cell):
            group = [cell]
        else:
            found = geometry.land_locked_group(components, view, cell)
            if found is None:
                continue
            group = found
        for hole in group:
            code = components.hole_fill[geometry.facing_land(components, view, hole) if len(group) == 1 else 0b1111]
            board[hole] = code
            number = components.kinds[code >> 2].reserve
            reserve[number - 1] = max(0, reserve[number - 1] - 1)  # R11: an empty reserve stack lends a copy
            filled.append(hole)
        view = tuple(board)
    if not filled:
        return state, ()
    new = state.copy()
    new.board = tuple(board)
    new.reserve = tuple(reserve)
    return new, tuple(filled)


def completed_islands(state: State, cells: tuple[int, ...]) -> tuple[Island, ...]:
    """Complete islands holding a land part of one of ``cells``, in order of their first cell (R12).

    An island can only become complete when a tile is added to it, so the islands through this turn's
    tiles are the only ones that may be newly complete; complete ones never change again.
    """
    components, board = state.components, state.board
    seen: set[tuple[int, int]] = set()
    found = []
    for cell in cells:
        for part in range(len(components.faces[board[cell]].parts)):
            if (cell, part) in seen:
                continue
            nodes, complete = geometry.island_of(components, board, cell, part)
            seen |= nodes
            if complete:
                found.append(scoring.island_record(state, nodes))
    return tuple(sorted(found))


def finish_turn(state: State) -> State:
    """End of turn: holes, then islands (R9: filling first, so a reserve tile may complete an island)."""
    state, filled = fill_holes(state)
    islands = completed_islands(state, state.placed + filled)
    new = state.copy()
    new.islands = islands
    new.tile = -1
    return score_islands(new)


def score_islands(state: State) -> State:
    """Score the waiting islands in order until one needs chips drawn (chance), then go on."""
    while state.islands:
        island = state.islands[0]
        if not island.unit_cells:
            state = without_first_island(state)  # nobody stands there: marked scored, no points
            continue
        queue = scoring.chips_due(state, island)
        if queue:
            new = state.copy()
            new.phase = SCORE_CHIP
            new.chip_queue = queue
            new.chip_best = 0
            return new
        state = without_first_island(scoring.award(state, island, 0))
    return end_or_next_turn(state)


def end_or_next_turn(state: State) -> State:
    """Check the end; else the next seat clockwise plays (after the last seat a new round begins)."""
    if scoring.is_over_now(state):
        return scoring.final_scoring(state)
    turn = (state.turn + 1) % state.n
    round_number = state.round + (turn == 0)
    new = state.copy()
    new.turn = turn
    new.round = round_number
    new.ship = NO_SHIP
    new.draws_left = 0
    new.drawn = 0
    new.placed = ()
    new.storm = False
    new.tile = -1
    new.chip_queue = ()
    new.chip_best = 0
    new.phase = opening_phase(new)
    return new


def opening_phase(state: State) -> Phase:
    """A turn opens with the spin when a round starts (R3; every turn with ``income_each_turn``)."""
    return SPIN if state.turn == 0 or state.income_each_turn else START


def without_first_island(state: State) -> State:
    """``state`` with its first waiting island scored (dropped from the queue)."""
    new = state.copy()
    new.islands = state.islands[1:]
    return new
