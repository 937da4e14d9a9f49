"""Choosing a role: the chooser takes the doubloons on the card and its phase starts at once.

The prospector has no phase: its chooser takes one doubloon from the bank (privilege).
"""

from __future__ import annotations

from engine.puerto_rico import builder, captain, craftsman, mayor, settler, trader
from engine.puerto_rico.components import BUILDER, CAPTAIN, CRAFTSMAN, MAYOR, SETTLER, TRADER
from engine.puerto_rico.flow import end_phase
from engine.puerto_rico.notation import ROLE_ACTIONS, Action
from engine.puerto_rico.state import State, set_at, with_player

PHASE_BEGIN = {
    SETTLER: settler.begin,
    MAYOR: mayor.begin,
    BUILDER: builder.begin,
    CRAFTSMAN: craftsman.begin,
    TRADER: trader.begin,
    CAPTAIN: captain.begin,
}


def options(state: State) -> tuple[Action, ...]:
    """The role cards nobody has chosen this round."""
    return tuple(ROLE_ACTIONS[card] for card, taken in enumerate(state.roles_taken) if not taken)


def apply(state: State, action: Action) -> State:
    """Take the role card and its doubloons, then play its phase."""
    card, seat = action[1], state.turn
    player = state.players[seat]
    money = player.doubloons + state.role_coins[card]
    begin = PHASE_BEGIN.get(card)
    if begin is None:  # a prospector: one doubloon, nothing else
        money += 1
    state = with_player(state, seat, player.evolve(doubloons=money))
    state = state.evolve(
        role_coins=set_at(state.role_coins, card, 0),
        roles_taken=set_at(state.roles_taken, card, True),
        picks=state.picks + 1,
        chooser=seat,
        step=0,
    )
    return end_phase(state) if begin is None else begin(state)
