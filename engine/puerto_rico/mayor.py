"""The mayor phase ("A polgármester"): new colonists arrive and every player places them.

The mayor may take one colonist from the supply (privilege; he may decline it: ``role mayor
without colonist``, see :mod:`roles`); the ship's colonists are handed
out one at a time from the mayor clockwise. Then, in order from the mayor, each player lifts
all their colonists and places them again one per action. Empty circles must be filled as
far as possible ("Az üres karikákat a lehetőségek határáig fel kell tölteni"); colonists stay
in San Juan only when no empty circle is left. A player with at least as many colonists as
circles has no choice, so they are placed at once. Otherwise placements go in slot order
(a slot is a plantation kind, the quarry or a building) so that each arrangement has exactly
one action sequence, and a slot is offered only if the circles from it onwards can still
take every colonist left. Last the mayor refills the ship: one colonist per empty building
circle of all players, at least one per player; a supply that cannot do it ends the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.core.records import add_at
from engine.puerto_rico.components import CIRCLES, N_BUILDINGS
from engine.puerto_rico.flow import end_phase
from engine.puerto_rico.notation import PLACE_ACTIONS, Action
from engine.puerto_rico.state import NOT_OWNED, PLACE, Player, State, begin_phase, colonists_of, with_player

#: Slots 0-5 are island tile kinds; slot 6 + b is building b.
BUILDING_SLOT: Final = 6
N_SLOTS: Final = BUILDING_SLOT + N_BUILDINGS
NO_WORKERS: Final = (0,) * 6


def begin(state: State, privilege: bool = True) -> State:
    """Privilege colonist (unless declined), hand out the ship's colonists, then placement from the mayor."""
    n, mayor = state.n, state.chooser
    players = list(state.players)
    supply = state.colonist_supply
    privileged = privilege and supply > 0
    if privileged:
        supply -= 1
    ship = state.colonist_ship
    for k in range(n):
        seat = (mayor + k) % n
        share = ship // n + (1 if k < ship % n else 0)
        player = players[seat] = players[seat].copy()
        player.san_juan += share + (1 if privileged and seat == mayor else 0)
    new = begin_phase(state, PLACE)
    new.players, new.colonist_supply, new.colonist_ship = tuple(players), supply, 0
    return advance(new)


def free_at(player: Player, slot: int) -> int:
    """Empty circles of one slot: of an island tile kind, or of a building (none when not owned)."""
    if slot < BUILDING_SLOT:
        return player.island[slot] - player.island_workers[slot]
    workers = player.city[slot - BUILDING_SLOT]
    return CIRCLES[slot - BUILDING_SLOT] - workers if workers >= 0 else 0


def free_circles(player: Player) -> list[int]:
    """Empty circles per slot."""
    return [free_at(player, slot) for slot in range(N_SLOTS)]


def free_from(player: Player, first: int) -> int:
    """Empty circles of every slot from ``first`` on."""
    island, workers, city = player.island, player.island_workers, player.city
    room = 0
    for tile in range(first, BUILDING_SLOT):
        room += island[tile] - workers[tile]
    for b in range(max(first - BUILDING_SLOT, 0), N_BUILDINGS):
        if city[b] >= 0:
            room += CIRCLES[b] - city[b]
    return room


def lift_all(player: Player) -> Player:
    """The player's colonists all back in San Juan, ready to be placed again."""
    lifted = player.copy()
    lifted.island_workers, lifted.san_juan = NO_WORKERS, colonists_of(player)
    lifted.city = tuple([0 if w > 0 else w for w in player.city])
    return lifted


def fill_all(player: Player) -> Player:
    """Every circle staffed; the colonists left over stay in San Juan."""
    city = []
    circles = 0
    for b, workers in enumerate(player.city):
        if workers >= 0:
            city.append(CIRCLES[b])
            circles += CIRCLES[b]
        else:
            city.append(NOT_OWNED)
    for tiles in player.island:
        circles += tiles
    filled = player.copy()
    filled.island_workers, filled.city, filled.san_juan = player.island, tuple(city), colonists_of(player) - circles
    return filled


def advance(state: State) -> State:
    """Place for each player without a choice; stop at the first one with a choice."""
    n = state.n
    while state.turns_done < n:
        seat = (state.chooser + state.turns_done) % n
        player = lift_all(state.players[seat])
        if 0 < player.san_juan < free_from(player, 0):
            new = with_player(state, seat, player)
            new.turn, new.last_slot = seat, 0
            return new
        state = with_player(state, seat, fill_all(player))
        state.turns_done += 1  # on the new state with_player made
    return refill_ship(state)


def refill_ship(state: State) -> State:
    """The ship gets one colonist per empty building circle, at least one per player."""
    empty = 0
    for player in state.players:
        for b, workers in enumerate(player.city):
            if workers >= 0:
                empty += CIRCLES[b] - workers
    needed = max(state.n, empty)
    new = state.copy()
    if state.colonist_supply >= needed:
        new.colonist_ship, new.colonist_supply = needed, state.colonist_supply - needed
    else:
        # "nincs elég telepes a telepeshajó feltöltésére": the game ends after this round.
        new.colonist_ship, new.colonist_supply, new.end_triggered = state.colonist_supply, 0, True
    return end_phase(new)


def placement_slots(free: list[int], first: int, colonists: int) -> list[int]:
    """The slots from ``first`` on that the next of ``colonists`` may go to, given the empty circles per slot.

    The rule of :func:`legal_actions` on a list of empty circles that the caller keeps up to date (the rollout
    policy plans a player's placements at once with it); ``legal_actions`` reads the player's board one slot
    at a time instead, the same rule without building the list at every placement of a game.
    """
    slots, room = [], sum(free[first:])
    for slot in range(first, N_SLOTS):
        if free[slot] and room >= colonists:
            slots.append(slot)
        room -= free[slot]
        if room < colonists:
            break
    return slots


def legal_actions(state: State) -> tuple[Action, ...]:
    """The slots the next colonist may go to (see the module docstring and :func:`placement_slots`)."""
    player = state.players[state.turn]
    pool = player.san_juan
    actions = []
    # A slot is offered while the circles from it onwards can take every colonist left: the slots
    # are read one at a time (no list of all 29), since this is the commonest decision of a game.
    room_from_here = free_from(player, state.last_slot)
    for slot in range(state.last_slot, N_SLOTS):
        free = free_at(player, slot)
        if free and room_from_here >= pool:
            actions.append(PLACE_ACTIONS[slot])
        room_from_here -= free
        if room_from_here < pool:
            break
    return tuple(actions)


def place(player: Player, slot: int) -> Player:
    """One colonist from San Juan onto ``slot`` (the hottest path of a fold)."""
    new = player.copy()
    if slot < BUILDING_SLOT:
        new.island_workers = add_at(player.island_workers, slot, 1)
    else:
        new.city = add_at(player.city, slot - BUILDING_SLOT, 1)
    new.san_juan = player.san_juan - 1
    return new


def apply_placements(state: State, actions: Sequence[Action]) -> State:
    """The state after ``actions``, placements of the seat placing colonists in turn (a rollout policy's plan): what
    :func:`apply` leaves after each of them, with one new board and state instead of one per colonist.

    The caller checks that they are placements, no more than the colonists in San Juan; each must be legal in turn.
    """
    if not actions:
        return state
    seat = state.turn
    player = state.players[seat]
    workers, city = list(player.island_workers), list(player.city)
    for action in actions:
        slot = action[1]
        if slot < BUILDING_SLOT:
            workers[slot] += 1
        else:
            city[slot - BUILDING_SLOT] += 1
    placed = player.copy()
    placed.island_workers, placed.city = tuple(workers), tuple(city)
    placed.san_juan = player.san_juan - len(actions)
    return _after_placing(state, seat, placed, actions[-1][1])


def apply(state: State, action: Action) -> State:
    """Place one colonist; the player's placement ends when San Juan is empty."""
    seat, slot = state.turn, action[1]
    return _after_placing(state, seat, place(state.players[seat], slot), slot)


def _after_placing(state: State, seat: int, placed: Player, last_slot: int) -> State:
    """The state with ``seat``'s board as ``placed``, its last placement on ``last_slot``: the seat places on while
    San Juan holds a colonist; once it is empty the next seat's placement is set up (:func:`advance`)."""
    new = with_player(state, seat, placed)
    new.last_slot = last_slot
    if placed.san_juan:
        return new
    new.turns_done += 1
    return advance(new)
