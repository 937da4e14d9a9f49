"""Why an action is illegal: a precise lower-case reason and the name of the rule it breaks.

Only called once an action is known not to be among the legal ones, so speed does not matter
here; each function re-derives the first rule the action breaks.
"""

from __future__ import annotations

from engine.puerto_rico import builder, captain, mayor, roles, settler
from engine.puerto_rico.components import (
    BUILDING_NAMES,
    CITY_SPACES,
    CONSTRUCTION_HUT,
    GOOD_NAMES,
    HACIENDA,
    HOSPICE,
    ISLAND_SPACES,
    OFFICE,
    ROLE_NAMES,
    SPACES,
    UNIVERSITY,
    WHARF,
)
from engine.puerto_rico.flow import can_decline, colonist_available
from engine.puerto_rico.notation import SLOT_NAMES, Action, declined, format_action, taking_everything
from engine.puerto_rico.state import (
    BUILD,
    CRAFT,
    DRAW,
    HACIENDA_DRAW,
    LOAD,
    OVER,
    PHASE_NAMES,
    PLACE,
    ROLE,
    SETTLE,
    STORE,
    TRADE,
    State,
    city_spaces_used,
)

#: The phase each kind of action belongs to.
PHASE_OF = {
    "role": ROLE, "plant": SETTLE, "quarry": SETTLE, "hacienda": SETTLE, "place": PLACE, "build": BUILD,
    "extra": CRAFT, "sell": TRADE, "load": LOAD, "wharf": LOAD, "keep": STORE, "draw": DRAW, "reshuffle": DRAW,
}
WAITING_FOR = {
    ROLE: "a role to be chosen", SETTLE: "a plantation to be taken", PLACE: "a colonist to be placed",
    BUILD: "a building to be built", CRAFT: "the craftsman's extra barrel", TRADE: "a barrel to be sold",
    LOAD: "goods to be loaded", STORE: "goods to be stored", DRAW: "a plantation to be drawn",
    HACIENDA_DRAW: "the hacienda's plantation to be drawn", OVER: "nothing: the game is over",
}


def explain(state: State, action: Action) -> tuple[str, str]:
    """(reason, rule) for an action of this game's shape that is not legal in ``state`` (PhasedRules.check
    answers for any other shape)."""
    op = action[0]
    phase = state.phase
    if op == "pass":
        return _why_no_pass(state)
    expected = PHASE_OF[op]
    if not (expected == phase or (expected == DRAW and phase == HACIENDA_DRAW)):
        return (f"the game is waiting for {WAITING_FOR[phase]} ({PHASE_NAMES[phase]}), not for a {op} action", "turn: phase")
    if op in ("draw", "reshuffle"):
        return "only chance draws plantations, and only what the stack holds", "settler: face-down stack"
    if declined(action):
        base = taking_everything(action)
        if base not in LEGAL[phase](state):
            return EXPLAINERS[op](state, base)
        return _why_no_decline(state, action)
    return EXPLAINERS[op](state, action)


LEGAL = {ROLE: roles.legal_actions, SETTLE: settler.legal_actions, BUILD: builder.legal_actions, LOAD: captain.legal_actions}


def _why_no_decline(state: State, action: Action) -> tuple[str, str]:
    """Why a legal action may not be taken declining its privilege or bonus here."""
    op, seat = action[0], state.turn
    player = state.players[seat]
    if op in ("load", "wharf"):
        bonus = captain.bonus_due(state, seat, player)
        if not bonus:
            return (f"{_seat(state)} earns no bonus VP on this loading (neither the captain's first-load point nor a "
                    "working harbor's)", "captain: bonus VP")
        if action[-1] > bonus:
            return f"only {bonus} bonus VP is due on this loading", "captain: bonus VP"
    elif op == "role" and not state.colonist_supply:
        return "the colonist supply is empty: the mayor has no privilege colonist to decline", "mayor: privilege"
    elif op in ("plant", "quarry") and player.city[HOSPICE] <= 0:
        return f"{_seat(state)} has no working hospice, so there is no hospice colonist to decline", "settler: hospice"
    elif op == "build" and player.city[UNIVERSITY] <= 0:
        return f"{_seat(state)} has no working university, so there is no university colonist to decline", "builder: university"
    elif op != "role" and not colonist_available(state):
        return "no colonist is left in the supply or on the ship, so there is none to decline", "colonists: supply"
    if not can_decline(state):
        return ("the game's end has been triggered, so declining a VP or a colonist can no longer change it and is not "
                "offered: the bonus is always taken", "privilege: declining")
    return "not possible now", "privilege: declining"


def _seat(state: State) -> str:
    return f"seat {state.turn}"


def _why_no_pass(state: State) -> tuple[str, str]:
    phase = state.phase
    if phase == ROLE:
        return "every player must choose a role on their turn", "roles: choose one"
    if phase == PLACE:
        return f"{_seat(state)} must place every colonist while an empty circle is left", "mayor: san juan"
    if phase == LOAD:
        return f"{_seat(state)} can load a cargo ship and must", "captain: forced loading"
    if phase == STORE:
        return f"{_seat(state)} must choose what to keep", "captain: storage"
    return f"no pass: it is not {_seat(state)}'s decision now ({PHASE_NAMES[phase]})", "turn: phase"


def _role(state: State, action: Action) -> tuple[str, str]:
    card = action[1]
    if card >= len(state.roles_taken):
        return f"there is no {ROLE_NAMES[card]} card with {state.n} players", "roles: cards in play"
    return f"the {ROLE_NAMES[card]} has already been chosen this round", "roles: one each"


def _settle(state: State, action: Action) -> tuple[str, str]:
    player = state.players[state.turn]
    op = action[0]
    if sum(player.island) >= ISLAND_SPACES:
        return f"{_seat(state)} has filled all 12 island spaces", "settler: island spaces"
    if op == "plant":
        return f"no {GOOD_NAMES[action[1]]} plantation is face up", "settler: face-up row"
    if op == "quarry":
        if not state.quarries:
            return "no quarries are left", "settler: quarries"
        if state.turn != state.chooser and player.city[CONSTRUCTION_HUT] <= 0:
            return "only the settler (privilege) or the owner of a working construction hut may take a quarry", "settler: quarry"
    if op == "hacienda":
        if player.city[HACIENDA] <= 0:
            return f"{_seat(state)} has no working hacienda", "settler: hacienda"
        if state.hacienda_used:
            return "the hacienda draws once, before taking", "settler: hacienda"
        return "the face-down stack is empty", "settler: hacienda"
    return "not possible now", "settler"


def _place(state: State, action: Action) -> tuple[str, str]:
    slot = action[1]
    free = mayor.free_circles(state.players[state.turn])
    if not free[slot]:
        return f"{_seat(state)} has no empty circle on a {SLOT_NAMES[slot]}", "mayor: circles"
    if slot < state.last_slot:
        return (f"colonists are placed in board order and the last went to the {SLOT_NAMES[state.last_slot]}", "mayor: placement order")
    return ("the other colonists would not fit on the circles after it: empty circles must be filled before San Juan", "mayor: san juan")


def _build(state: State, action: Action) -> tuple[str, str]:
    building, seat = action[1], state.turn
    player = state.players[seat]
    name = BUILDING_NAMES[building]
    if player.city[building] >= 0:
        return f"seat {seat} already has a {name}", "builder: no duplicates"
    if not state.building_supply[building]:
        return f"the {name} is sold out", "builder: sold out"
    free = CITY_SPACES - city_spaces_used(player)
    if SPACES[building] > free:
        return f"seat {seat} has {free} free city spaces, needs {SPACES[building]}", "builder: city spaces"
    cost = builder.price(player, building, seat == state.chooser)
    return f"seat {seat} has {player.doubloons} doubloons, needs {cost}", "builder: cost"


def _extra(state: State, action: Action) -> tuple[str, str]:
    good = GOOD_NAMES[action[1]]
    if not state.produced[action[1]]:
        return f"the craftsman did not produce {good} this phase", "craftsman: privilege"
    return f"no {good} is left in the supply", "craftsman: supply"


def _sell(state: State, action: Action) -> tuple[str, str]:
    good, player = action[1], state.players[state.turn]
    if not player.goods[good]:
        return f"{_seat(state)} has no {GOOD_NAMES[good]}", "trader: goods"
    if len(state.trading_house) >= 4:
        return "the trading house is full", "trader: four spaces"
    if good in state.trading_house and player.city[OFFICE] <= 0:
        return f"the trading house already holds {GOOD_NAMES[good]} and seat {state.turn} has no working office", "trader: one of a kind"
    return "not possible now", "trader"


def _load(state: State, action: Action) -> tuple[str, str]:
    good, capacity = action[1], action[2]
    player = state.players[state.turn]
    name = GOOD_NAMES[good]
    caps = captain.capacities(state)
    if not player.goods[good]:
        return f"{_seat(state)} has no {name}", "captain: goods"
    if capacity not in caps:
        return f"there is no {capacity}-ship with {state.n} players", "captain: ships"
    i = caps.index(capacity)
    kinds = state.ship_goods
    if kinds[i] >= 0 and kinds[i] != good:
        return f"the {capacity}-ship carries {GOOD_NAMES[kinds[i]]}", "captain: one kind per ship"
    if kinds[i] < 0 and good in kinds:
        return f"{name} is already on the {caps[kinds.index(good)]}-ship", "captain: one ship per kind"
    if kinds[i] == good:
        return f"the {capacity}-ship is full", "captain: full ship"
    return f"{name} must go on the empty ship that takes the most barrels", "captain: ship choice"


def _wharf(state: State, action: Action) -> tuple[str, str]:
    player = state.players[state.turn]
    if player.city[WHARF] <= 0:
        return f"{_seat(state)} has no working wharf", "captain: wharf"
    if state.wharf_used[state.turn]:
        return "the wharf ships once per captain phase", "captain: wharf"
    return f"{_seat(state)} has no {GOOD_NAMES[action[1]]}", "captain: goods"


def _keep(state: State, action: Action) -> tuple[str, str]:
    choices = captain.keep_choices(state.players[state.turn])
    possible = "; ".join(format_action(("keep", k)) for k in choices)
    return f"one barrel on the windrose plus whole kinds per working warehouse; possible: {possible}", "captain: storage"


EXPLAINERS = {
    "role": _role, "plant": _settle, "quarry": _settle, "hacienda": _settle, "place": _place, "build": _build,
    "extra": _extra, "sell": _sell, "load": _load, "wharf": _wharf, "keep": _keep,
}
