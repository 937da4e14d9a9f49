"""Choosing a role: the chooser takes the doubloons on the card and its phase starts at once.

The prospector has no phase: its chooser takes one doubloon from the bank (privilege).
The mayor's choice of his privilege colonist is made with the pick: ``role mayor`` takes it,
``role mayor without colonist`` declines it ("Ha a szerepet választó játékos él a
privilégiumával, akkor elvesz egy telepest a telepesek kupacából": only if he uses it). Nothing
happens between the pick and the privilege, so folding the two loses no information.
"""

from __future__ import annotations

from typing import Final

from engine.core.records import set_at
from engine.puerto_rico import builder, captain, craftsman, mayor, settler, trader
from engine.puerto_rico.components import BUILDER, CAPTAIN, CRAFTSMAN, MAYOR, SETTLER, TRADER
from engine.puerto_rico.flow import can_decline, end_phase
from engine.puerto_rico.notation import MAYOR_WITHOUT, ROLE_ACTIONS, Action, declined
from engine.puerto_rico.state import State, with_player

PHASE_BEGIN: Final = {
    SETTLER: settler.begin,
    MAYOR: mayor.begin,
    BUILDER: builder.begin,
    CRAFTSMAN: craftsman.begin,
    TRADER: trader.begin,
    CAPTAIN: captain.begin,
}


def legal_actions(state: State) -> tuple[Action, ...]:
    """The role cards nobody has chosen this round; the mayor also without his privilege colonist
    while the supply has one and declining can matter (see :func:`flow.can_decline`)."""
    taken = state.roles_taken
    mayor_declinable = state.colonist_supply > 0 and can_decline(state)
    actions = []
    for card in range(len(taken)):
        if not taken[card]:
            actions.append(ROLE_ACTIONS[card])
            if card == MAYOR and mayor_declinable:
                actions.append(MAYOR_WITHOUT)
    return tuple(actions)


def apply(state: State, action: Action) -> State:
    """Take the role card and its doubloons, then play its phase."""
    card, seat = action[1], state.turn
    player = state.players[seat]
    money = player.doubloons + state.role_coins[card]
    begin = PHASE_BEGIN.get(card)
    if begin is None:  # a prospector: one doubloon, nothing else
        money += 1
    player = player.copy()
    player.doubloons = money
    new = with_player(state, seat, player)
    new.role_coins, new.roles_taken = set_at(state.role_coins, card, 0), set_at(state.roles_taken, card, True)
    new.picks, new.chooser, new.turns_done = state.picks + 1, seat, 0
    if card == MAYOR:
        return mayor.begin(new, privilege=not declined(action))
    return end_phase(new) if begin is None else begin(new)
