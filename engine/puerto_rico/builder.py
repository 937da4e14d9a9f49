"""The builder phase ("Az építész"): each player may build one building.

Cost = the printed cost, less one doubloon per occupied quarry up to the building's column,
less one more for the builder (privilege), never below 0 ("sosem csökkenhet 0 dublon alá").
No duplicates, no sold-out buildings, a large building needs two free city spaces. A working
university staffs the new building with one colonist from the supply (else the ship); its owner
may decline it ("elvehet egy telepest": may take; ``build harbor without colonist``) while that
can matter (:func:`flow.can_decline`). A
player who fills all 12 city spaces ends the game after this round.
"""

from __future__ import annotations

from typing import Final

from engine.core.records import add_at, set_at
from engine.puerto_rico.components import CITY_SPACES, COLUMNS, COSTS, N_BUILDINGS, QUARRY, SPACES, UNIVERSITY
from engine.puerto_rico.flow import can_decline, colonist_available, end_phase, take_colonist, turn_to_next_chooser
from engine.puerto_rico.notation import BUILD_ACTIONS, BUILD_WITHOUT, PASS, Action, declined
from engine.puerto_rico.state import BUILD, Player, State, begin_phase, city_spaces_used, one_more_done, with_player


def begin(state: State) -> State:
    """The builder phase starts with the builder."""
    return advance(begin_phase(state, BUILD))


#: Cost after the quarry discount, by occupied quarries (0-8) and building: a table, since legal-move
#: listing prices every building for every player.
QUARRY_PRICES: Final = tuple(tuple(COSTS[b] - min(q, COLUMNS[b]) for b in range(N_BUILDINGS)) for q in range(9))


def price(player: Player, building: int, is_builder: bool) -> int:
    """What ``player`` pays for ``building``: quarries up to the column, the privilege, floor 0."""
    discount = min(player.island_workers[QUARRY], COLUMNS[building]) + (1 if is_builder else 0)
    return max(0, COSTS[building] - discount)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every building the player at ``turn`` may build now, then pass (empty: nothing to build)."""
    return legal_for_seat(state, state.turn)


def legal_for_seat(state: State, seat: int) -> tuple[Action, ...]:
    """Every building ``seat`` may build now, then pass."""
    player = state.players[seat]
    free_spaces = CITY_SPACES - city_spaces_used(player)
    # Comparing the undiscounted-floor price with the money is enough: money is never negative.
    budget = player.doubloons + (1 if seat == state.chooser else 0)
    prices = QUARRY_PRICES[player.island_workers[QUARRY]]
    supply, city = state.building_supply, player.city
    actions: list[Action] = [
        BUILD_ACTIONS[b]
        for b in range(N_BUILDINGS)
        if supply[b] and city[b] < 0 and SPACES[b] <= free_spaces and prices[b] <= budget
    ]
    if actions and city[UNIVERSITY] > 0 and colonist_available(state) and can_decline(state):
        actions = [a for build in actions for a in (build, BUILD_WITHOUT[build[1]])]
    if actions:
        actions.append(PASS)
    return tuple(actions)


def advance(state: State) -> State:
    """On to the next player who can build; after the last one, the phase ends."""
    chooser = turn_to_next_chooser(state, legal_for_seat)
    return end_phase(state) if chooser is None else chooser


def apply(state: State, action: Action) -> State:
    """Build (pay, take the tile, maybe a university colonist) or pass."""
    if action[0] == "build":
        state = build(state, state.turn, action[1], university=not declined(action))
    return advance(one_more_done(state))


def build(state: State, seat: int, building: int, university: bool = True) -> State:
    """``seat`` builds ``building``, taking a working university's colonist unless ``university`` is False."""
    player = state.players[seat]
    cost = price(player, building, seat == state.chooser)
    workers = 0
    if university and player.city[UNIVERSITY] > 0:
        state, got = take_colonist(state)
        workers = 1 if got else 0
    player = player.copy()
    player.doubloons -= cost
    player.city = set_at(player.city, building, workers)
    new = with_player(state, seat, player)
    new.building_supply = add_at(state.building_supply, building, -1)
    if city_spaces_used(player) >= CITY_SPACES:
        new.end_triggered = True
    return new
