"""The immutable game state: records (:class:`engine.core.records.Record`) of ints and tuples, shared between successive states.

A move replaces only the records and counters it touches; the rest (the map's geometry, the
component components, the other players) is the same object as before, which keeps folding fast.
Interchangeable pieces are counted, not named: tiles per kind, production tokens per kind
(good x value), cubes per colour, pirate markers by value.

:func:`initial_state` is the game before its first chance event; the setup's chance steps follow it
(:mod:`engine.amerigo.chance`). Seed, "ELŐKÉSZÜLETEK": islands of 9 / 12 / 16 random tiles (2 / 3 / 4 players) in frames; the
time markers; the supplies; "Jól keverjétek meg a kalózzelzőket, és tegyék képpel lefelé 5
darabot ... Az egyik, véletlenszerűen választott kalózzelzőt fordítsátok meg" (shuffle the pirates,
five face down, one of them turned up); a progress token face up on each progress space; the
production tokens for the player count on their spaces; the order discs in one random stack
("Akié a legfelső korong, az lesz a kezdőjátékos. Az összes többi játékos annyi aranyat kap,
ahány játékos előtte van": the top disc starts, every other player gets 1 gold per disc above
his); all 49 cubes thrown into the tower. Each random step is a chance event (digest § Engine
interface), in the digest's setup order.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar, Final, final

from engine.amerigo import components as c
from engine.amerigo.board import Board
from engine.amerigo.component_set import ComponentSet
from engine.core.errors import SetupError
from engine.core.records import PhasedRecord, Record, own_slots


class Phase(IntEnum):
    """What an Amerigo state waits for: a chance step, a player's decision, or nobody (OVER).

    These are the engine's wait points; the rulebook's colour phases are the state's field ``colour``.
    """

    LAYOUT = 0
    PIRATE = 1
    PROGRESS = 2
    PRODUCTION = 3
    ORDER = 4
    TOWER = 5
    CHOOSE = 6
    PLACE_SHIPS = 7
    SAIL = 8
    FOUND = 9
    CANNONS = 10
    ADVANCE = 11
    TAKE_TOKEN = 12
    PLAN = 13
    BUILD = 14
    BUY = 15
    MOVE_ORDER = 16
    OVER = 17


# One Final name per phase (not one tuple unpacking): compiled, a Final name is a C static, any other module
# global a dictionary lookup at every use.
LAYOUT: Final = Phase.LAYOUT
PIRATE: Final = Phase.PIRATE
PROGRESS: Final = Phase.PROGRESS
PRODUCTION: Final = Phase.PRODUCTION
ORDER: Final = Phase.ORDER
TOWER: Final = Phase.TOWER
CHOOSE: Final = Phase.CHOOSE
PLACE_SHIPS: Final = Phase.PLACE_SHIPS
SAIL: Final = Phase.SAIL
FOUND: Final = Phase.FOUND
CANNONS: Final = Phase.CANNONS
ADVANCE: Final = Phase.ADVANCE
TAKE_TOKEN: Final = Phase.TAKE_TOKEN
PLAN: Final = Phase.PLAN
BUILD: Final = Phase.BUILD
BUY: Final = Phase.BUY
MOVE_ORDER: Final = Phase.MOVE_ORDER
OVER: Final = Phase.OVER
CHANCE_PHASES: Final = frozenset((LAYOUT, PIRATE, PROGRESS, PRODUCTION, ORDER, TOWER))
PHASE_NAMES: Final = ("island layout", "pirate reveal", "progress draw", "production draw", "order stack", "cube tower",
               "action choice", "ship placement", "sailing", "trading post", "cannons", "progress", "progress token",
               "planning", "building", "production purchase", "order move", "game over")

NO_ACTION: Final = -1
UNPLACED: Final = -1
EMPTY: Final = -1  # an empty progress or production space
NOT_MOVED: Final[tuple[bool, ...]] = (False, False)  # ``ships_moved`` at the start of a turn
ZERO7: Final[tuple[int, ...]] = (0,) * 7  # typed so: compiled, a 7-tuple type is a C struct, packed anew at every use

@final
class Player(Record):
    """One player's sheet, pieces and supplies.

    ``stock`` counts the tiles planned (beside the sheet) per tile kind; ``villages`` the
    player's village tiles still in the supply per village kind (in components village order);
    ``production`` the production tokens bought per production kind (good * 3 + value index);
    ``tokens`` the progress tokens owned (indices into PROGRESS_TOKENS, in the order taken) and
    ``used`` those of them turned face down.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "vp", "gold", "cannons", "progress", "order_pos", "order_stamp", "ships", "posts_left", "posts_founded",
        "villages", "stock", "goods", "production", "tokens", "used", "chests",
    )
    __slots__ = FIELDS

    vp: int
    gold: int
    cannons: int
    progress: int
    order_pos: int
    order_stamp: int  # larger = higher in a stack of order discs
    # The two ships' map nodes, UNPLACED before the first sailing. Typed tuple[int, ...] (as ships_moved): compiled, a
    # tuple[int, int] is a C struct, packed into a new tuple whenever it is indexed by a variable (which ship).
    ships: tuple[int, ...]
    posts_left: int
    posts_founded: int
    villages: tuple[int, ...]
    stock: tuple[int, ...]
    goods: tuple[int, ...]
    production: tuple[int, ...]
    tokens: tuple[int, ...]
    used: tuple[int, ...]
    chests: int

    def __init__(
        self, vp: int, gold: int, cannons: int, progress: int, order_pos: int, order_stamp: int, ships: tuple[int, ...],
        posts_left: int, posts_founded: int, villages: tuple[int, ...], stock: tuple[int, ...], goods: tuple[int, ...],
        production: tuple[int, ...], tokens: tuple[int, ...], used: tuple[int, ...], chests: int,
    ) -> None:
        self.vp = vp
        self.gold = gold
        self.cannons = cannons
        self.progress = progress
        self.order_pos = order_pos
        self.order_stamp = order_stamp
        self.ships = ships
        self.posts_left = posts_left
        self.posts_founded = posts_founded
        self.villages = villages
        self.stock = stock
        self.goods = goods
        self.production = production
        self.tokens = tokens
        self.used = used
        self.chests = chests

    def copy(self) -> Player:
        """A new record with the same fields, for a move to change before it hands it on."""
        return Player(
            self.vp, self.gold, self.cannons, self.progress, self.order_pos, self.order_stamp, self.ships,
            self.posts_left, self.posts_founded, self.villages, self.stock, self.goods, self.production, self.tokens,
            self.used, self.chests,
        )


@final
class State(PhasedRecord):
    """The whole game. ``board`` is None until the island layout is complete. ``phase`` (PhasedRecord's) is the wait
    point: a chance step or a decision (CHOOSE, SAIL, …; PHASE_NAMES); ``turn`` is the index into ``turn_order`` of the
    player to act."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "names", "components", "layout", "board", "phase", "round", "colour", "tower", "storage", "field", "stray",
        "thrown", "throw_colour", "cover", "placements", "island_empty", "discovered", "chests", "neutral",
        "progress_spaces", "progress_pool", "production_spaces", "production_pool", "pirates", "pirate_pool", "stamps",
        "turn_order", "turn", "phase_ap", "action", "ap", "ships_moved", "sailed", "neutral_taken", "tokens_due",
        "track_gold", "final", "before_fight", "before_final", "players",
    )
    __slots__ = own_slots(FIELDS)

    names: tuple[str, ...]
    components: ComponentSet
    layout: tuple[tuple[int, int], ...]  # (island tile, rotation) per grid cell so far
    board: Board | None
    round: int  # 0 during setup, then 1..5
    colour: int  # the colour of the action phase under way (0 blue .. 6 white): the rulebook's "phase"
    tower: tuple[int, ...]  # cubes inside the tower, per colour
    storage: tuple[int, ...]  # cubes on the storage spaces of the action circuit
    field: tuple[int, ...]  # cubes in the action field
    stray: tuple[int, ...]  # cubes that fell out of the tower at the wrong time, waiting in the tray
    thrown: tuple[int, ...]  # the cubes thrown in the throw under way (D)
    throw_colour: int  # the next colour whose outcome chance decides in the throw under way
    cover: tuple[int, ...]  # per map cell: 0 empty, -(seat+1) a trading post, k > 0 placement k-1
    placements: tuple[tuple[int, int, int, int, int], ...]  # built tiles: (kind, builder, rotation, row, col)
    island_empty: tuple[int, ...]  # per island: land spaces not yet covered
    discovered: tuple[bool, ...]  # per island: some trading post has been founded on it
    chests: tuple[bool, ...]  # per island: its treasure chest is still there
    neutral: tuple[int, ...]  # neutral tiles in the supply, per neutral kind
    progress_spaces: tuple[int, ...]  # L1-L4, R1-R4: a progress token index or EMPTY
    progress_pool: tuple[int, ...]  # progress tokens not yet drawn (sorted)
    production_spaces: tuple[int, ...]  # the production spaces in play: a production kind or EMPTY
    production_pool: tuple[int, ...]  # production tokens not yet drawn, per production kind
    pirates: tuple[int, ...]  # face-up pirate values, in the order turned up
    pirate_pool: tuple[int, ...]  # the values still face down or in the box (sorted)
    stamps: int  # the last order stamp handed out
    turn_order: tuple[int, ...]  # this phase's order (a snapshot at the start of the phase)
    phase_ap: int
    action: int  # the colour being performed, NO_ACTION between actions
    ap: int  # AP left in the action (for sailing: each unmoved ship's budget)
    ships_moved: tuple[bool, ...]  # per ship, in this action
    sailed: int  # the ship that just ended its move on an anchor (FOUND), else -1
    neutral_taken: int  # neutral tiles planned in this action
    tokens_due: int  # progress tokens still to take in this brown action
    track_gold: bool  # end-of-track gold is due at the end of this action
    final: tuple[tuple[int, ...], ...]  # per seat, once scored: VP from gold, goods, end tokens, progress, order
    before_fight: tuple[tuple[int, ...], ...]  # per seat (VP, gold, chests, cannons) before the latest pirate fight
    before_final: tuple[tuple[int, ...], ...]  # per seat (VP, gold, chests, cannons) before the final scoring
    players: tuple[Player, ...]

    def __init__(
        self, names: tuple[str, ...], components: ComponentSet, layout: tuple[tuple[int, int], ...],
        board: Board | None, phase: Phase, round: int, colour: int, tower: tuple[int, ...], storage: tuple[int, ...],
        field: tuple[int, ...], stray: tuple[int, ...], thrown: tuple[int, ...], throw_colour: int,
        cover: tuple[int, ...], placements: tuple[tuple[int, int, int, int, int], ...], island_empty: tuple[int, ...],
        discovered: tuple[bool, ...], chests: tuple[bool, ...], neutral: tuple[int, ...],
        progress_spaces: tuple[int, ...], progress_pool: tuple[int, ...], production_spaces: tuple[int, ...],
        production_pool: tuple[int, ...], pirates: tuple[int, ...], pirate_pool: tuple[int, ...], stamps: int,
        turn_order: tuple[int, ...], turn: int, phase_ap: int, action: int, ap: int, ships_moved: tuple[bool, ...],
        sailed: int, neutral_taken: int, tokens_due: int, track_gold: bool, final: tuple[tuple[int, ...], ...],
        before_fight: tuple[tuple[int, ...], ...], before_final: tuple[tuple[int, ...], ...],
        players: tuple[Player, ...],
    ) -> None:
        self.names = names
        self.components = components
        self.layout = layout
        self.board = board
        self.phase = phase
        self.round = round
        self.colour = colour
        self.tower = tower
        self.storage = storage
        self.field = field
        self.stray = stray
        self.thrown = thrown
        self.throw_colour = throw_colour
        self.cover = cover
        self.placements = placements
        self.island_empty = island_empty
        self.discovered = discovered
        self.chests = chests
        self.neutral = neutral
        self.progress_spaces = progress_spaces
        self.progress_pool = progress_pool
        self.production_spaces = production_spaces
        self.production_pool = production_pool
        self.pirates = pirates
        self.pirate_pool = pirate_pool
        self.stamps = stamps
        self.turn_order = turn_order
        self.turn = turn
        self.phase_ap = phase_ap
        self.action = action
        self.ap = ap
        self.ships_moved = ships_moved
        self.sailed = sailed
        self.neutral_taken = neutral_taken
        self.tokens_due = tokens_due
        self.track_gold = track_gold
        self.final = final
        self.before_fight = before_fight
        self.before_final = before_final
        self.players = players

    def copy(self) -> State:
        """A new record with the same fields, for a move to change before it hands it on."""
        return State(
            self.names, self.components, self.layout, self.board, self.phase, self.round, self.colour, self.tower,
            self.storage, self.field, self.stray, self.thrown, self.throw_colour, self.cover, self.placements,
            self.island_empty, self.discovered, self.chests, self.neutral, self.progress_spaces, self.progress_pool,
            self.production_spaces, self.production_pool, self.pirates, self.pirate_pool, self.stamps, self.turn_order,
            self.turn, self.phase_ap, self.action, self.ap, self.ships_moved, self.sailed, self.neutral_taken,
            self.tokens_due, self.track_gold, self.final, self.before_fight, self.before_final, self.players,
        )

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)

    @property
    def seat(self) -> int:
        """The seat to act (meaningful at a player's step)."""
        return self.turn_order[self.turn]

    @property
    def me(self) -> Player:
        """The player to act."""
        return self.players[self.turn_order[self.turn]]




def order_of(state: State) -> tuple[int, ...]:
    """Seats in player order: the disc further along the special-action track first; on one space the
    higher disc first (seed: "ezek a játékosok az oszlopban fentről lefelé haladva kerülnek sorra")."""
    players = state.players
    return tuple(sorted(range(len(players)), key=lambda s: (-players[s].order_pos, -players[s].order_stamp)))


def with_player(state: State, seat: int, player: Player) -> State:
    """``state`` with one player replaced."""
    new = state.copy()
    new.players = players_with(state.players, seat, player)
    return new


def players_with(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    """``players`` with the one at ``seat`` replaced: for a move that changes a player and the state in one copy."""
    return players[:seat] + (player,) + players[seat + 1 :]


def add_vectors(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Element-wise sum (of equal lengths: an index loop, which compiles to plain C, unlike zip(strict=True))."""
    return tuple([a[i] + b[i] for i in range(len(a))])


def production_pool(players: int) -> tuple[int, ...]:
    """The production tokens in the game, per production kind (good * 3 + value index)."""
    per_good = c.PRODUCTION_TOKENS[players]
    return tuple(per_good[v] for _ in c.GOODS for v in range(len(c.PRODUCTION_VALUES)))


def initial_state(names: tuple[str, ...], components: ComponentSet) -> State:
    """The game before its first chance event (the first island tile); the rules object has checked the player count."""
    n = len(names)
    rows, cols = c.GRID[n]
    if len(components.island_tiles) < rows * cols:
        raise SetupError(f"bad amerigo components: island_tiles: {n} players need {rows * cols} island tiles, "
                         f"the set has {len(components.island_tiles)}")
    villages = tuple(components.kinds[k].copies for k in components.village_kinds)
    player = Player(vp=0, gold=0, cannons=0, progress=0, order_pos=0, order_stamp=0, ships=(UNPLACED, UNPLACED),
                    posts_left=c.POSTS_PER_PLAYER, posts_founded=0, villages=villages, stock=(0,) * len(components.kinds),
                    goods=(0,) * 5, production=(0,) * 15, tokens=(), used=(), chests=0)
    return State(
        names=names, components=components, layout=(), board=None, phase=LAYOUT, round=0, colour=0, tower=ZERO7,
        storage=ZERO7, field=ZERO7, stray=ZERO7, thrown=ZERO7, throw_colour=7, cover=(), placements=(), island_empty=(),
        discovered=(), chests=(), neutral=tuple(components.kinds[k].copies for k in components.neutral_kinds),
        progress_spaces=(EMPTY,) * len(c.PROGRESS_SPACES), progress_pool=tuple(range(len(c.PROGRESS_TOKENS))),
        production_spaces=(EMPTY,) * c.PRODUCTION_SPACES[n], production_pool=production_pool(n), pirates=(),
        pirate_pool=tuple(sorted(c.PIRATES)), stamps=0, turn_order=(), turn=0, phase_ap=0, action=NO_ACTION, ap=0,
        ships_moved=(False, False), sailed=-1, neutral_taken=0, tokens_due=0, track_gold=False, final=(),
        before_fight=(), before_final=(),
        players=(player,) * n,
    )
