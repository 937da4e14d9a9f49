"""The builder phase ("Az építész"): each player may build one building.

Cost = the printed cost, less one doubloon per occupied quarry up to the building's column,
less one more for the builder (privilege), never below 0 ("sosem csökkenhet 0 dublon alá").
No duplicates, no sold-out buildings, a large building needs two free city spaces. A working
university staffs the new building with one colonist from the supply (else the ship). A
player who fills all 12 city spaces ends the game after this round.
"""

from __future__ import annotations

from engine.puerto_rico.components import CITY_SPACES, COLUMNS, COSTS, N_BUILDINGS, QUARRY, SPACES, UNIVERSITY
from engine.puerto_rico.flow import end_phase, take_colonist
from engine.puerto_rico.notation import BUILD_ACTIONS, PASS, Action
from engine.puerto_rico.state import BUILD, Player, State, add_at, city_spaces_used, set_at, with_player


def begin(state: State) -> State:
    """The builder phase starts with the builder."""
    return advance(state.evolve(phase=BUILD, step=0))


def price(player: Player, building: int, is_builder: bool) -> int:
    """What ``player`` pays for ``building``: quarries up to the column, the privilege, floor 0."""
    discount = min(player.island_workers[QUARRY], COLUMNS[building]) + (1 if is_builder else 0)
    return max(0, COSTS[building] - discount)


def options(state: State) -> tuple[Action, ...]:
    """Every building the player at ``turn`` may build now, then pass (empty: nothing to build)."""
    seat = state.turn
    player = state.players[seat]
    free_spaces = CITY_SPACES - city_spaces_used(player)
    is_builder = seat == state.chooser
    supply, city, money = state.building_supply, player.city, player.doubloons
    actions = [
        BUILD_ACTIONS[b]
        for b in range(N_BUILDINGS)
        if supply[b] and city[b] < 0 and SPACES[b] <= free_spaces and price(player, b, is_builder) <= money
    ]
    if actions:
        actions.append(PASS)
    return tuple(actions)


def advance(state: State) -> State:
    """On to the next player who can build; after the last one, the phase ends."""
    n = state.n
    while state.step < n:
        state = state.evolve(turn=(state.chooser + state.step) % n)
        if options(state):
            return state
        state = state.evolve(step=state.step + 1)
    return end_phase(state)


def apply(state: State, action: Action) -> State:
    """Build (pay, take the tile, maybe a university colonist) or pass."""
    if action[0] == "build":
        state = build(state, state.turn, action[1])
    return advance(state.evolve(step=state.step + 1))


def build(state: State, seat: int, building: int) -> State:
    """``seat`` builds ``building``."""
    player = state.players[seat]
    cost = price(player, building, seat == state.chooser)
    workers = 0
    if player.city[UNIVERSITY] > 0:
        state, got = take_colonist(state)
        workers = 1 if got else 0
    player = player.evolve(doubloons=player.doubloons - cost, city=set_at(player.city, building, workers))
    state = with_player(state, seat, player).evolve(building_supply=add_at(state.building_supply, building, -1))
    if city_spaces_used(player) >= CITY_SPACES:
        state = state.evolve(end_triggered=True)
    return state
