"""The immutable game state: records (:class:`engine.core.records.Record`) of ints and tuples, shared
between successive states.

A move replaces only the player board and the counters it touches; everything else is the
same object as before (structural sharing), which is what makes folding fast.
Counts stand in for tiles wherever tiles of a kind are interchangeable (plantations on an
island, the face-up row, the face-down stack), so that equal positions are equal values.
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar, Final, final

from engine.core.records import PhasedRecord, Record, own_slots, set_at
from engine.puerto_rico.components import (
    BARRELS,
    BUILDINGS,
    N_BUILDINGS,
    PLANTATIONS,
    QUARRIES,
    ROLE_CARDS,
    SETUP,
    SPACES,
)


class Phase(IntEnum):
    """What a Puerto Rico state waits for: a role pick, a role's phase, a chance draw, or nobody (OVER)."""

    ROLE = 0
    SETTLE = 1
    PLACE = 2
    BUILD = 3
    CRAFT = 4
    TRADE = 5
    LOAD = 6
    STORE = 7
    DRAW = 8
    HACIENDA_DRAW = 9
    OVER = 10


# The phases by name as Final constants (not unpacked from Phase): the compiled engine reads a constant, not a global.
ROLE: Final = Phase.ROLE
SETTLE: Final = Phase.SETTLE
PLACE: Final = Phase.PLACE
BUILD: Final = Phase.BUILD
CRAFT: Final = Phase.CRAFT
TRADE: Final = Phase.TRADE
LOAD: Final = Phase.LOAD
STORE: Final = Phase.STORE
DRAW: Final = Phase.DRAW
HACIENDA_DRAW: Final = Phase.HACIENDA_DRAW
OVER: Final = Phase.OVER
PHASE_NAMES = ("role", "settler", "mayor", "builder", "craftsman", "trader", "captain", "storage", "draw", "hacienda draw", "over")

NOT_OWNED: Final = -1

@final
class Player(Record):
    """One player's board and purse.

    ``island`` counts tiles per kind (corn, indigo, sugar, tobacco, coffee, quarry) and
    ``island_workers`` the occupied ones; ``city`` holds, per building kind, -1 when not
    owned, else the colonists on it; ``san_juan`` the colonists not placed on a circle.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "doubloons", "vp", "goods", "island", "island_workers", "city", "san_juan",
    )
    __slots__ = FIELDS

    doubloons: int
    vp: int
    goods: tuple[int, ...]
    island: tuple[int, ...]
    island_workers: tuple[int, ...]
    city: tuple[int, ...]
    san_juan: int

    def __init__(
        self, doubloons: int, vp: int, goods: tuple[int, ...], island: tuple[int, ...], island_workers: tuple[int, ...],
        city: tuple[int, ...], san_juan: int,
    ) -> None:
        self.doubloons = doubloons
        self.vp = vp
        self.goods = goods
        self.island = island
        self.island_workers = island_workers
        self.city = city
        self.san_juan = san_juan

    def copy(self) -> Player:
        """A new record with the same fields, for a move to change before it hands it on."""
        return Player(
            self.doubloons, self.vp, self.goods, self.island, self.island_workers, self.city, self.san_juan,
        )


@final
class State(PhasedRecord):
    """The whole game. See the module docstring; ``turn`` is the seat the phase is at."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "names", "players", "governor", "phase", "turn", "chooser", "turns_done", "picks", "round", "role_coins",
        "roles_taken", "colonist_supply", "colonist_ship", "vp_bank", "goods_supply", "ship_goods", "ship_loads",
        "trading_house", "face_up", "stack", "discards", "quarries", "building_supply", "to_draw", "hacienda_used",
        "captain_bonus_used", "wharf_used", "last_slot", "produced", "end_triggered",
    )
    __slots__ = own_slots(FIELDS)

    names: tuple[str, ...]
    players: tuple[Player, ...]
    governor: int
    chooser: int  # who chose the role being played (its privilege is theirs)
    turns_done: int  # players done in the phase; in the captain phase, turns in a row without a load
    picks: int  # roles chosen this round
    round: int
    role_coins: tuple[int, ...]  # doubloons on each role card in play
    roles_taken: tuple[bool, ...]
    colonist_supply: int
    colonist_ship: int
    vp_bank: int
    goods_supply: tuple[int, ...]
    ship_goods: tuple[int, ...]  # the kind on each cargo ship, -1 when empty
    ship_loads: tuple[int, ...]
    trading_house: tuple[int, ...]  # kinds of the barrels sold, in order
    face_up: tuple[int, ...]  # face-up plantations per kind
    stack: tuple[int, ...]  # face-down plantations per kind (their order is unknowable)
    discards: tuple[int, ...]
    quarries: int
    building_supply: tuple[int, ...]
    to_draw: int  # plantations still to turn up to refill the face-up row
    hacienda_used: bool  # the settler at ``turn`` has drawn with the hacienda
    captain_bonus_used: bool
    wharf_used: tuple[bool, ...]
    last_slot: int  # mayor: the slot of the previous placement (placements go in slot order)
    produced: tuple[bool, ...]  # craftsman: the kinds the craftsman received this phase
    end_triggered: bool

    def __init__(
        self, names: tuple[str, ...], players: tuple[Player, ...], governor: int, phase: Phase, turn: int, chooser: int,
        turns_done: int, picks: int, round: int, role_coins: tuple[int, ...], roles_taken: tuple[bool, ...],
        colonist_supply: int, colonist_ship: int, vp_bank: int, goods_supply: tuple[int, ...],
        ship_goods: tuple[int, ...], ship_loads: tuple[int, ...], trading_house: tuple[int, ...],
        face_up: tuple[int, ...], stack: tuple[int, ...], discards: tuple[int, ...], quarries: int,
        building_supply: tuple[int, ...], to_draw: int, hacienda_used: bool, captain_bonus_used: bool,
        wharf_used: tuple[bool, ...], last_slot: int, produced: tuple[bool, ...], end_triggered: bool,
    ) -> None:
        self.names = names
        self.players = players
        self.governor = governor
        self.phase = phase
        self.turn = turn
        self.chooser = chooser
        self.turns_done = turns_done
        self.picks = picks
        self.round = round
        self.role_coins = role_coins
        self.roles_taken = roles_taken
        self.colonist_supply = colonist_supply
        self.colonist_ship = colonist_ship
        self.vp_bank = vp_bank
        self.goods_supply = goods_supply
        self.ship_goods = ship_goods
        self.ship_loads = ship_loads
        self.trading_house = trading_house
        self.face_up = face_up
        self.stack = stack
        self.discards = discards
        self.quarries = quarries
        self.building_supply = building_supply
        self.to_draw = to_draw
        self.hacienda_used = hacienda_used
        self.captain_bonus_used = captain_bonus_used
        self.wharf_used = wharf_used
        self.last_slot = last_slot
        self.produced = produced
        self.end_triggered = end_triggered

    def copy(self) -> State:
        """A new record with the same fields, for a move to change before it hands it on."""
        return State(
            self.names, self.players, self.governor, self.phase, self.turn, self.chooser, self.turns_done, self.picks,
            self.round, self.role_coins, self.roles_taken, self.colonist_supply, self.colonist_ship, self.vp_bank,
            self.goods_supply, self.ship_goods, self.ship_loads, self.trading_house, self.face_up, self.stack,
            self.discards, self.quarries, self.building_supply, self.to_draw, self.hacienda_used,
            self.captain_bonus_used, self.wharf_used, self.last_slot, self.produced, self.end_triggered,
        )

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)


def city_spaces_used(player: Player) -> int:
    """City spaces taken by the player's buildings (a large building takes two)."""
    city = player.city
    used = 0
    for b in range(N_BUILDINGS):
        if city[b] >= 0:
            used += SPACES[b]
    return used


def colonists_of(player: Player) -> int:
    """Every colonist a player has: on plantations, quarries, buildings and in San Juan."""
    colonists = player.san_juan
    for workers in player.island_workers:
        colonists += workers
    for workers in player.city:
        if workers > 0:
            colonists += workers
    return colonists


def with_player(state: State, seat: int, player: Player) -> State:
    """A new state: ``state`` with one player board replaced (the caller may set more fields on it)."""
    new = state.copy()
    new.players = set_at(state.players, seat, player)
    return new


def at_turn(state: State, seat: int, turns_done: int) -> State:
    """A new state: ``state`` with the turn at ``seat``, ``turns_done`` players done in the phase."""
    new = state.copy()
    new.turn = seat
    new.turns_done = turns_done
    return new


def begin_phase(state: State, phase: Phase) -> State:
    """A new state: ``state`` in ``phase``, nobody done in it yet."""
    new = state.copy()
    new.phase = phase
    new.turns_done = 0
    return new


def one_more_done(state: State) -> State:
    """A new state: one more player done in the phase."""
    new = state.copy()
    new.turns_done = state.turns_done + 1
    return new


def initial_state(names: tuple[str, ...]) -> State:
    """The game as the rulebook's setup table lays it out, before the face-up row is drawn (for 3 to 5
    players: the rules object has checked the count)."""
    n = len(names)
    row = SETUP[n]
    players = []
    stack = list(PLANTATIONS)
    for seat in range(n):
        island = [0] * 6
        island[row.starting_plantations[seat]] = 1
        stack[row.starting_plantations[seat]] -= 1
        players.append(Player(row.doubloons, 0, (0,) * 5, tuple(island), (0,) * 6, (NOT_OWNED,) * N_BUILDINGS, 0))
    cards = ROLE_CARDS[n]
    return State(
        names=tuple(names), players=tuple(players), governor=0, phase=DRAW, turn=0, chooser=0, turns_done=0, picks=0,
        round=1, role_coins=(0,) * cards, roles_taken=(False,) * cards, colonist_supply=row.colonist_supply,
        colonist_ship=row.colonist_ship, vp_bank=row.vp_chips, goods_supply=BARRELS, ship_goods=(-1,) * 3,
        ship_loads=(0,) * 3, trading_house=(), face_up=(0,) * 5, stack=tuple(stack), discards=(0,) * 5,
        quarries=QUARRIES, building_supply=tuple(b.copies for b in BUILDINGS), to_draw=n + 1,
        hacienda_used=False, captain_bonus_used=False, wharf_used=(False,) * n, last_slot=0, produced=(False,) * 5,
        end_triggered=False,
    )
