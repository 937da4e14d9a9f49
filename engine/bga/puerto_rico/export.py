"""Puerto Rico on Board Game Arena, export: each event as notifications of our own ``type`` names.

==========================  ============================================================
``roleSelected``            ``${player_name} selected the ${rol_type_tr}`` (BGA's args)
``roleDoubloons``           ``… got ${nbr} doubloon(s) from the role card``
``privilegeColonist``       ``… got 1 colonist from the supply as his privilege``
``privilegeDoubloon``       ``… got 1 doubloon as his privilege`` (prospector)
``shipColonists``           ``… got ${nbr} colonist(s) from the ship``
``plantationTaken``         ``… got a new plantation (${plantation_name})``
``quarryTaken``             ``… got a new quarry``
``haciendaPlantation``      ``… got a new plantation from the deck (${plantation_name})``
``hospiceColonist``         ``… got 1 colonist on it from his hospice``
``plantationTurnedUp``      ``A ${plantation_name} plantation is turned face up``
``plantationsReshuffled``   ``The discarded plantations are shuffled into a new stack``
``colonistPlaced``          ``… placed a colonist on his ${slot_name}``
``buildingBought``          ``… bought a new building for ${price} doubloon(s): ${building_name}``
``universityColonist``      ``… got 1 colonist on it from his university``
``extraBarrel``             ``… got an extra ${good_name} barrel as his privilege``
``barrelSold``              ``… sold a ${good_name} barrel and got ${price} doubloon(s) from the sale``
``goodsShipped``            ``… shipped ${nbr} ${good_name} on the ${capacity}-barrel ship and got ${nbr} victory point(s) for shipping``
                            (``with his wharf`` instead of the ship for the wharf)
``harborVictoryPoint``      ``… got 1 victory point from his harbor``
``privilegeVictoryPoint``   ``… got 1 victory point as his privilege``
``goodsKept``               ``… keeps ${kept_text}; the other barrels go back to the supply``
``playerPassed``            ``${player_name} passes``
``bonusDeclined``           ``… declined the colonist of his hospice`` (university, privilege),
                            ``… declined ${nbr} bonus victory point(s)``
==========================  ============================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from engine.core.events import Event
from engine.core.protocol import Rules
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, HARBOR, ROLE_NAMES, SETUP, TILE_NAMES
from engine.puerto_rico.notation import declined
from engine.puerto_rico.state import HACIENDA_DRAW, State

#: Puerto Rico actions are tuples (see :mod:`engine.puerto_rico.notation`).
PRAction = tuple[Any, ...]

def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"


def notes_for(rules: Rules, state: State, event: Event, after: State, names: Sequence[str],
              ids: Sequence[int]) -> list[dict[str, Any]]:
    """The notifications that tell ``event`` (see the table in the module docstring)."""
    action = cast(PRAction, rules.parse_action(event.action or ""))
    op = action[0]
    if op == "draw":
        good = GOOD_NAMES[action[1]]
        if state.phase == HACIENDA_DRAW:
            seat = state.turn
            return [_note("haciendaPlantation", "${player_name} got a new plantation from the deck (${plantation_name})",
                          names, ids, seat, plantation_type=good, plantation_name=good)]
        return [{"type": "plantationTurnedUp", "log": "A ${plantation_name} plantation is turned face up",
                 "args": {"plantation_type": good, "plantation_name": good}}]
    if op == "reshuffle":
        return [{"type": "plantationsReshuffled", "log": "The discarded plantations are shuffled into a new stack", "args": {}}]
    seat = state.turn
    before, now = state.players[seat], after.players[seat]
    write = _WRITERS.get(op)
    return write(state, after, action, seat, before, now, names, ids) if write is not None else []


def _note(kind: str, log: str, names: Sequence[str], ids: Sequence[int], seat: int, **args: Any) -> dict[str, Any]:
    return {"type": kind, "log": log, "args": {"player_name": names[seat], "player_id": ids[seat], **args}}


def _role(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    card = action[1]
    word = ROLE_NAMES[card].rstrip("2")
    notes = [_note("roleSelected", "${player_name} selected the ${rol_type_tr}", names, ids, seat, i18n=["rol_type_tr"],
                   rol_id=card, rol_type=word, rol_type_tr=word.capitalize())]
    coins = state.role_coins[card]
    if coins:
        notes.append(_note("roleDoubloons", "${player_name} got ${nbr} " + _plural(coins, "doubloon") + " from the role card",
                           names, ids, seat, nbr=coins))
    if word == "prospector":
        notes.append(_note("privilegeDoubloon", "${player_name} got 1 doubloon as his privilege", names, ids, seat))
    if word == "mayor":
        if not declined(action) and state.colonist_supply > 0:
            notes.append(_note("privilegeColonist", "${player_name} got 1 colonist from the supply as his privilege", names, ids, seat))
        elif declined(action):
            notes.append(_note("bonusDeclined", "${player_name} declined the colonist of his privilege", names, ids, seat))
        n, ship = state.n, state.colonist_ship
        for k in range(n):
            share = ship // n + (1 if k < ship % n else 0)
            if share:
                s = (seat + k) % n
                notes.append(_note("shipColonists", "${player_name} got ${nbr} " + _plural(share, "colonist") + " from the ship",
                                   names, ids, s, nbr=share))
    return notes


def _settle(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
            ids: Sequence[int]) -> list[dict[str, Any]]:
    if action[0] == "hacienda":
        return []  # the draw that follows says it ("got a new plantation from the deck")
    if action[0] == "quarry":
        tile = 5
        notes = [_note("quarryTaken", "${player_name} got a new quarry", names, ids, seat)]
    else:
        tile = action[1]
        good = GOOD_NAMES[tile]
        notes = [_note("plantationTaken", "${player_name} got a new plantation (${plantation_name})", names, ids, seat,
                       plantation_type=good, plantation_name=good)]
    got = now.island_workers[tile] > before.island_workers[tile]
    return notes + _bonus_colonist("hospice", got, action, names, ids, seat)


def _place(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
           ids: Sequence[int]) -> list[dict[str, Any]]:
    slot = (TILE_NAMES + BUILDING_NAMES)[action[1]]
    shown = f"{slot} plantation" if slot in GOOD_NAMES else slot
    return [_note("colonistPlaced", "${player_name} placed a colonist on his ${slot_name}", names, ids, seat,
                  slot_type=slot, slot_name=shown)]


def _build(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
           ids: Sequence[int]) -> list[dict[str, Any]]:
    building = action[1]
    price = before.doubloons - now.doubloons
    name = BUILDING_NAMES[building]
    log = "${player_name} bought a new building for ${price} " + _plural(price, "doubloon") + ": ${building_name}"
    notes = [_note("buildingBought", log,
                   names, ids, seat, price=price, building_type=name, building_name=name)]
    return notes + _bonus_colonist("university", now.city[building] > 0, action, names, ids, seat)


def _bonus_colonist(building: str, got: bool, action: PRAction, names: Sequence[str], ids: Sequence[int],
                    seat: int) -> list[dict[str, Any]]:
    """The colonist a hospice or university adds to the new tile or building: got, declined, or none to give."""
    if got:
        return [_note(f"{building}Colonist", f"${{player_name}} got 1 colonist on it from his {building}", names, ids, seat)]
    if declined(action):
        return [_note("bonusDeclined", f"${{player_name}} declined the colonist of his {building}", names, ids, seat)]
    return []


def _craft(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
           ids: Sequence[int]) -> list[dict[str, Any]]:
    seat = state.chooser
    good = GOOD_NAMES[action[1]]
    return [_note("extraBarrel", "${player_name} got an extra ${good_name} barrel as his privilege", names, ids, seat,
                  good_type=good, good_name=good)]


def _sell(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    good = GOOD_NAMES[action[1]]
    price = now.doubloons - before.doubloons
    log = "${player_name} sold a ${good_name} barrel and got ${price} " + _plural(price, "doubloon") + " from the sale"
    return [_note("barrelSold", log,
                  names, ids, seat, good_type=good, good_name=good, price=price)]


def _ship(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    good_index = action[1]
    good = GOOD_NAMES[good_index]
    # Counted on the state before: storage may follow at once and return barrels to the supply.
    if action[0] == "load":
        barrels = min(before.goods[good_index], action[2] - state.ship_loads[SETUP[state.n].ship_capacities.index(action[2])])
    else:
        barrels = before.goods[good_index]
    harbor = before.city[HARBOR] > 0
    privilege = seat == state.chooser and not state.captain_bonus_used
    vp_declined = declined(action)
    bonus = int(harbor) + int(privilege) - vp_declined
    if action[0] == "wharf":
        log = ("${player_name} shipped ${nbr} ${good_name} with his wharf and got ${nbr} "
               + _plural(barrels, "victory point") + " for shipping")
        notes = [_note("goodsShipped", log, names, ids, seat, nbr=barrels, good_type=good, good_name=good, wharf=True)]
    else:
        log = ("${player_name} shipped ${nbr} ${good_name} on the ${capacity}-barrel ship and got ${nbr} "
               + _plural(barrels, "victory point") + " for shipping")
        notes = [_note("goodsShipped", log, names, ids, seat, nbr=barrels, good_type=good, good_name=good, capacity=action[2])]
    if harbor and bonus > 0:
        notes.append(_note("harborVictoryPoint", "${player_name} got 1 victory point from his harbor", names, ids, seat))
        bonus -= 1
    if privilege and bonus > 0:
        notes.append(_note("privilegeVictoryPoint", "${player_name} got 1 victory point as his privilege", names, ids, seat))
    if vp_declined:
        notes.append(_note("bonusDeclined", "${player_name} declined ${nbr} bonus " + _plural(vp_declined, "victory point"),
                           names, ids, seat, nbr=vp_declined))
    return notes


def _keep(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    kept = action[1]
    text = ", ".join(f"{c} {GOOD_NAMES[g]}" for g, c in enumerate(kept) if c) or "nothing"
    return [_note("goodsKept", "${player_name} keeps ${kept_text}; the other barrels go back to the supply", names, ids, seat,
                  kept_text=text, kept={GOOD_NAMES[g]: c for g, c in enumerate(kept) if c})]


def _pass(state: State, after: State, action: PRAction, seat: int, before: Any, now: Any, names: Sequence[str],
          ids: Sequence[int]) -> list[dict[str, Any]]:
    return [_note("playerPassed", "${player_name} passes", names, ids, seat)]


_WRITERS: dict[str, Any] = {
    "role": _role, "plant": _settle, "quarry": _settle, "hacienda": _settle, "place": _place, "build": _build,
    "extra": _craft, "sell": _sell, "load": _ship, "wharf": _ship, "keep": _keep, "pass": _pass,
}
