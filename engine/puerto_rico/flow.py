"""The round's skeleton: who picks the next role, the end of a phase, the end of a round.

Every phase module ends by calling :func:`end_phase`; it hands the next role pick to the
next player clockwise from the governor, or closes the round ("Új kör": one doubloon on each
role card nobody chose, the governor card passes left) and ends the game after the round in
which a trigger happened ("A játék vége").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.puerto_rico.state import OVER, ROLE, State, at_turn, begin_phase


def end_phase(state: State) -> State:
    """The state after the current role's phase: the next pick, or the end of the round."""
    n = state.n
    if state.picks < n:
        new = begin_phase(state, ROLE)
        new.turn = (state.governor + state.picks) % n
        return new
    return end_round(state)


def turn_to_next_chooser(state: State, legal_for_seat: Callable[[State, int], Sequence[object]]) -> State | None:
    """The turn on the first player, from ``state.turns_done`` on clockwise from the chooser, who has a
    choice in this phase; None when nobody left has one (players without a choice are skipped)."""
    n = state.n
    for turns_done in range(state.turns_done, n):
        seat = (state.chooser + turns_done) % n
        if legal_for_seat(state, seat):
            return at_turn(state, seat, turns_done)
    return None


def end_round(state: State) -> State:
    """Doubloons on unchosen roles, the governor passes left; the game ends if a trigger fired."""
    coins, taken = state.role_coins, state.roles_taken
    coins = tuple([coins[card] if taken[card] else coins[card] + 1 for card in range(len(coins))])
    governor = (state.governor + 1) % state.n
    new = at_turn(state, governor, 0)
    new.role_coins, new.roles_taken, new.governor, new.picks = coins, (False,) * len(coins), governor, 0
    if state.end_triggered:
        new.phase = OVER
    else:
        new.phase, new.round = ROLE, state.round + 1
    return new


def can_decline(state: State) -> bool:
    """Whether declining a VP chip or a colonist is offered: only until an end trigger has fired.

    "sem az ahhoz tartozó privilégiummal nem kötelező élnie" (nobody must use a privilege) and
    "A játékosoknak nem kötelező használni működő lila épületeiket" (nor their violet buildings):
    before the end is triggered a chip or a colonist left in the bank can decide when the chips or
    the colonists run out. Once a trigger has fired the game ends with this round whatever the
    counts, so declining would only lose the point or the colonist, and is not listed.
    """
    return not state.end_triggered


def colonist_available(state: State) -> bool:
    """A hospice or university colonist can be had (from the supply, else from the ship)."""
    return state.colonist_supply > 0 or state.colonist_ship > 0


def take_colonist(state: State) -> tuple[State, bool]:
    """One colonist from the supply, else from the colonist ship (hospice, university)."""
    if state.colonist_supply > 0:
        new = state.copy()
        new.colonist_supply = state.colonist_supply - 1
        return new, True
    if state.colonist_ship > 0:
        new = state.copy()
        new.colonist_ship = state.colonist_ship - 1
        return new, True
    return state, False
