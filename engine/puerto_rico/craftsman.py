"""The craftsman phase ("Az iparos"): production for everyone, then the privilege barrel.

Corn comes from each occupied corn plantation; the other goods from occupied plantations up
to the colonists on the matching production buildings. Players take their goods in order
from the craftsman, each only what the supply still holds. A working factory pays 1/2/3/5
doubloons for 2/3/4/5 kinds received. Then the craftsman may take one more barrel of a kind
he produced ("csak olyan árut választhat, amelynek előállítására képes"), if the supply has it.
"""

from __future__ import annotations

from engine.core.records import add_at
from engine.puerto_rico.components import CORN, FACTORY, FACTORY_BONUS, PRODUCERS
from engine.puerto_rico.flow import end_phase
from engine.puerto_rico.notation import EXTRA_ACTIONS, PASS, Action
from engine.puerto_rico.state import CRAFT, Player, State, at_turn, with_player


def production(player: Player) -> tuple[int, ...]:
    """Barrels per good the player's occupied plantations and staffed buildings make."""
    made = [player.island_workers[CORN]]
    city = player.city
    for good in range(1, 5):
        staffed = 0
        for b in PRODUCERS[good]:
            if city[b] > 0:
                staffed += city[b]
        made.append(min(player.island_workers[good], staffed))
    return tuple(made)


def begin(state: State) -> State:
    """Everyone produces in order from the craftsman; the craftsman then decides on the extra."""
    n = state.n
    supply = list(state.goods_supply)
    players = list(state.players)
    received_by_chooser: tuple[bool, ...] = (False,) * 5
    for k in range(n):
        seat = (state.chooser + k) % n
        player = players[seat]
        made = production(player)
        received = [min(made[good], supply[good]) for good in range(5)]
        kinds = 0
        for good in range(5):
            supply[good] -= received[good]
            if received[good]:
                kinds += 1
        money = player.doubloons + (FACTORY_BONUS[kinds] if player.city[FACTORY] > 0 else 0)
        goods = tuple([player.goods[good] + received[good] for good in range(5)])
        player = players[seat] = player.copy()
        player.goods, player.doubloons = goods, money
        if k == 0:
            received_by_chooser = tuple([got > 0 for got in received])
    new = at_turn(state, state.chooser, 0)
    new.players, new.goods_supply, new.produced, new.phase = tuple(players), tuple(supply), received_by_chooser, CRAFT
    return new if legal_actions(new) else end_phase(new)


def legal_actions(state: State) -> tuple[Action, ...]:
    """The privilege barrels the craftsman may take, then pass."""
    actions = [EXTRA_ACTIONS[g] for g in range(5) if state.produced[g] and state.goods_supply[g]]
    if actions:
        actions.append(PASS)
    return tuple(actions)


def apply(state: State, action: Action) -> State:
    """Take the privilege barrel (or pass); the phase ends."""
    if action[0] == "extra":
        good = action[1]
        player = state.players[state.chooser].copy()
        player.goods = add_at(player.goods, good, 1)
        new = with_player(state, state.chooser, player)
        new.goods_supply = add_at(state.goods_supply, good, -1)
    else:
        new = state.copy()
    new.produced = (False,) * 5
    return end_phase(new)
