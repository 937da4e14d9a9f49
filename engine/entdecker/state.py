"""The immutable game state: one record (:class:`engine.core.records.Record`) of ints and tuples, shared between successive states.

The map is a tuple with one entry per cell (``y * w + x``): -1 for an unexplored cell, else the
placed tile's code ``kind * 4 + rotation`` (see :mod:`engine.entdecker.component_set`). Units are a
parallel tuple: -1, or :func:`unit_code` of (seat, unit, land part). A move replaces only the
tuples it touches.

The stacks hold no tile identities: only how many tiles each stack has left and the back of its
top tile. Which tile comes off a stack is a chance event weighted by the copies of each type not
yet drawn (``undrawn``), which gives exactly the odds of a shuffled, dealt set of stacks whose top
backs are visible (digest, "Chance points"). So the state holds no secret but the chip pool's
contents and the undrawn tiles' distribution, which :func:`engine.entdecker.serialize.view` hides.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar, Final, NamedTuple, final

from engine.core.records import PhasedRecord, own_slots
from engine.entdecker.component_set import ComponentSet


class Phase(IntEnum):
    """What an Entdecker state waits for: a chance outcome, a player's decision, or nobody (OVER)."""

    SETUP_BACK = 0
    SPIN = 1
    START = 2
    BUY = 3
    EXPLORE = 4
    TILE = 5
    BACK = 6
    PLACE = 7
    NATIVES = 8
    NATIVES_CHIP = 9
    SCORE_CHIP = 10
    OVER = 11


# Each phase as a Final name: compiled code reads a Final from a static, any other imported name from a dict.
SETUP_BACK: Final = Phase.SETUP_BACK
SPIN: Final = Phase.SPIN
START: Final = Phase.START
BUY: Final = Phase.BUY
EXPLORE: Final = Phase.EXPLORE
TILE: Final = Phase.TILE
BACK: Final = Phase.BACK
PLACE: Final = Phase.PLACE
NATIVES: Final = Phase.NATIVES
NATIVES_CHIP: Final = Phase.NATIVES_CHIP
SCORE_CHIP: Final = Phase.SCORE_CHIP
OVER: Final = Phase.OVER
PHASE_NAMES = ("setup", "income", "start", "buy", "explore", "draw", "stack back", "place", "friendly natives",
               "natives chip", "island chip", "over")
CHANCE_PHASES: Final = frozenset((SETUP_BACK, SPIN, TILE, BACK, NATIVES_CHIP, SCORE_CHIP))

SCOUT: Final = 0
FORT: Final = 1
SETTLEMENT: Final = 2
EMPTY: Final = -1
NO_UNIT: Final = -1
# The ship: nowhere (between turns), on a start circle (cell, border side) or in a tile's water region.
SHIP_NONE: Final = 0
SHIP_CIRCLE: Final = 1
SHIP_TILE: Final = 2
NO_SHIP: Final = (SHIP_NONE, -1, -1)


class Island(NamedTuple):
    """A complete island waiting to be scored: its first cell (smallest y, then x), size, units' cells."""

    first: int
    size: int
    unit_cells: tuple[int, ...]


@final
class State(PhasedRecord):
    """The whole game; see the module docstring. ``turn`` (PhasedRecord's, with ``phase``) is the active seat."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "components", "names", "income_each_turn", "phase", "round", "turn", "gold", "score", "supply", "chips", "pool",
        "board", "units", "stacks", "tops", "undrawn", "discarded", "reserve", "ship", "draws_left", "drawn", "stack",
        "tile", "placed", "storm", "islands", "chip_queue", "chip_best", "income",
    )
    __slots__ = own_slots(FIELDS)

    components: ComponentSet
    names: tuple[str, ...]
    income_each_turn: bool
    round: int
    gold: tuple[int, ...]
    score: tuple[int, ...]
    supply: tuple[tuple[int, ...], ...]  # per seat: scouts, forts, settlements not on the map
    chips: tuple[tuple[int, ...], ...]  # per seat: values of the chips held face up, in the order drawn
    pool: tuple[int, ...]  # face-down chips per value (components.chip_values)
    board: tuple[int, ...]
    units: tuple[int, ...]
    stacks: tuple[int, ...]  # tiles left in each face-down stack
    tops: tuple[int, ...]  # per stack: back of its top tile (0 plain, 1 '?'), -1 when empty or not yet turned
    undrawn: tuple[int, ...]  # per draw type: copies still in the stacks
    discarded: tuple[int, ...]  # per draw type: tiles that fitted nowhere and left the game
    reserve: tuple[int, ...]  # reserve tiles left per back number 1..6
    ship: tuple[int, int, int]
    draws_left: int  # tiles bought this turn and not drawn yet
    drawn: int  # tiles drawn this turn
    stack: int  # the stack being drawn from (or turned at setup)
    tile: int  # the draw type in hand, waiting to be placed; -1 none
    placed: tuple[int, ...]  # cells given a draw tile this turn, in order
    storm: bool  # a storm ended this turn's expedition
    islands: tuple[Island, ...]  # complete islands still to score at this turn's end, in order
    chip_queue: tuple[int, ...]  # seats still to draw a chip for the island being scored
    chip_best: int  # the highest chip drawn for that island so far (0: none)
    income: int  # the last spin of the wheel (0 before the first)

    def __init__(
        self, components: ComponentSet, names: tuple[str, ...], income_each_turn: bool, phase: Phase, round: int,
        turn: int, gold: tuple[int, ...], score: tuple[int, ...], supply: tuple[tuple[int, ...], ...],
        chips: tuple[tuple[int, ...], ...], pool: tuple[int, ...], board: tuple[int, ...], units: tuple[int, ...],
        stacks: tuple[int, ...], tops: tuple[int, ...], undrawn: tuple[int, ...], discarded: tuple[int, ...],
        reserve: tuple[int, ...], ship: tuple[int, int, int], draws_left: int, drawn: int, stack: int, tile: int,
        placed: tuple[int, ...], storm: bool, islands: tuple[Island, ...], chip_queue: tuple[int, ...], chip_best: int,
        income: int,
    ) -> None:
        self.components = components
        self.names = names
        self.income_each_turn = income_each_turn
        self.phase = phase
        self.round = round
        self.turn = turn
        self.gold = gold
        self.score = score
        self.supply = supply
        self.chips = chips
        self.pool = pool
        self.board = board
        self.units = units
        self.stacks = stacks
        self.tops = tops
        self.undrawn = undrawn
        self.discarded = discarded
        self.reserve = reserve
        self.ship = ship
        self.draws_left = draws_left
        self.drawn = drawn
        self.stack = stack
        self.tile = tile
        self.placed = placed
        self.storm = storm
        self.islands = islands
        self.chip_queue = chip_queue
        self.chip_best = chip_best
        self.income = income

    def copy(self) -> State:
        """A new record with the same fields, for a move to change before it hands it on."""
        return State(
            self.components, self.names, self.income_each_turn, self.phase, self.round, self.turn, self.gold,
            self.score, self.supply, self.chips, self.pool, self.board, self.units, self.stacks, self.tops,
            self.undrawn, self.discarded, self.reserve, self.ship, self.draws_left, self.drawn, self.stack, self.tile,
            self.placed, self.storm, self.islands, self.chip_queue, self.chip_best, self.income,
        )

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)




def unit_code(seat: int, unit: int, part: int) -> int:
    """One integer for a unit standing on a land part."""
    return seat << 6 | unit << 4 | part


def unit_seat(code: int) -> int:
    """The owner of a unit code."""
    return code >> 6


def unit_kind(code: int) -> int:
    """SCOUT, FORT or SETTLEMENT of a unit code."""
    return code >> 4 & 3


def unit_part(code: int) -> int:
    """The land part of its tile a unit stands on."""
    return code & 15


def initial_state(components: ComponentSet, names: tuple[str, ...], income_each_turn: bool) -> State:
    """The set-up game, waiting for chance to turn up the top back of the first stack."""
    n = len(names)
    return State(
        components=components, names=names, income_each_turn=income_each_turn, phase=SETUP_BACK, round=1, turn=0,
        gold=(components.gold_start,) * n, score=(0,) * n, supply=(components.unit_copies,) * n, chips=((),) * n,
        pool=components.chip_counts, board=(EMPTY,) * components.cells, units=(NO_UNIT,) * components.cells, stacks=components.stack_sizes,
        tops=(-1,) * len(components.stack_sizes), undrawn=components.draw_counts, discarded=(0,) * components.draw_kinds,
        reserve=components.reserve_counts, ship=NO_SHIP, draws_left=0, drawn=0, stack=0, tile=-1, placed=(), storm=False,
        islands=(), chip_queue=(), chip_best=0, income=0,
    )
