"""The immutable game state: NamedTuples of ints and tuples, shared between successive states.

A move replaces only the player board and the counters it touches; everything else is the
same object as before (structural sharing), which is what makes folding fast.
Counts stand in for tiles wherever tiles of a kind are interchangeable (plantations on an
island, the face-up row, the face-down stack), so that equal positions are equal values.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple

from engine.core.records import field_index, with_fields
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


(ROLE, SETTLE, PLACE, BUILD, CRAFT, TRADE, LOAD, STORE, DRAW, HACIENDA_DRAW, OVER) = Phase
PHASE_NAMES = ("role", "settler", "mayor", "builder", "craftsman", "trader", "captain", "storage", "draw", "hacienda draw", "over")

NOT_OWNED: Final = -1

class Player(NamedTuple):
    """One player's board and purse.

    ``island`` counts tiles per kind (corn, indigo, sugar, tobacco, coffee, quarry) and
    ``island_workers`` the occupied ones; ``city`` holds, per building kind, -1 when not
    owned, else the colonists on it; ``san_juan`` the colonists not placed on a circle.
    """

    doubloons: int
    vp: int
    goods: tuple[int, ...]
    island: tuple[int, ...]
    island_workers: tuple[int, ...]
    city: tuple[int, ...]
    san_juan: int

    def evolve(self, **changes: object) -> Player:
        """A copy with ``changes``."""
        return with_fields(self, _PLAYER_INDEX, changes)  # type: ignore[return-value]


class State(NamedTuple):
    """The whole game. See the module docstring; ``turn`` is the seat the phase is at."""

    names: tuple[str, ...]
    players: tuple[Player, ...]
    governor: int
    phase: Phase
    turn: int
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

    def evolve(self, **changes: object) -> State:
        """A copy with ``changes``."""
        return with_fields(self, _STATE_INDEX, changes)  # type: ignore[return-value]

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)


_PLAYER_INDEX = field_index(Player)
_STATE_INDEX = field_index(State)


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


def with_player(state: State, seat: int, player: Player, **changes: object) -> State:
    """``state`` with one player board replaced, and any other ``changes`` (one copy of the state for both)."""
    players = state.players
    return state.evolve(players=players[:seat] + (player,) + players[seat + 1 :], **changes)


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
