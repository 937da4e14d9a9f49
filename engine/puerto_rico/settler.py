"""The settler phase ("Az ültetvényes"); the chance draws that refill the face-up row are :mod:`engine.puerto_rico.chance`.

Each player from the settler may take one face-up plantation; the settler (privilege) or
the owner of a working construction hut may take a quarry instead; a working hacienda lets
its owner first draw the top face-down plantation; a working hospice puts a colonist on the
tile taken from the row or the quarries ("azonnal rakhat egy telepest": may put), which its
owner may decline (``plant corn without colonist``, ``quarry without colonist``) while that
can matter (:func:`flow.can_decline`). At the end the untaken plantations are discarded
and players + 1 new ones are turned up, reshuffling the discards when the stack runs out.
"""

from __future__ import annotations

from engine.core.records import add_at
from engine.puerto_rico.components import CONSTRUCTION_HUT, HACIENDA, HOSPICE, ISLAND_SPACES, QUARRY
from engine.puerto_rico.flow import can_decline, colonist_available, end_phase, take_colonist
from engine.puerto_rico.notation import (
    HACIENDA_TAKE,
    PASS,
    PLANT_ACTIONS,
    PLANT_WITHOUT,
    QUARRY_TAKE,
    QUARRY_WITHOUT,
    Action,
    declined,
)
from engine.puerto_rico.state import DRAW, HACIENDA_DRAW, SETTLE, State, at_turn, begin_phase, one_more_done, with_player


def begin(state: State) -> State:
    """The settler phase starts with the settler."""
    new = begin_phase(state, SETTLE)
    new.hacienda_used = False
    return advance(new)


def legal_actions(state: State) -> tuple[Action, ...]:
    """What the settler at ``turn`` may do: plant, quarry, hacienda, pass (empty: nothing to do)."""
    return legal_for_seat(state, state.turn)


def legal_for_seat(state: State, seat: int) -> tuple[Action, ...]:
    """What ``seat`` may do in the settler phase now."""
    player = state.players[seat]
    if sum(player.island) >= ISLAND_SPACES:
        return ()
    face_up = state.face_up
    quarry = state.quarries > 0 and (seat == state.chooser or player.city[CONSTRUCTION_HUT] > 0)
    if player.city[HOSPICE] > 0 and colonist_available(state) and can_decline(state):
        actions: list[Action] = []
        for g in range(5):
            if face_up[g]:
                actions += (PLANT_ACTIONS[g], PLANT_WITHOUT[g])
        if quarry:
            actions += (QUARRY_TAKE, QUARRY_WITHOUT)
    else:
        actions = [PLANT_ACTIONS[g] for g in range(5) if face_up[g]]
        if quarry:
            actions.append(QUARRY_TAKE)
    if not state.hacienda_used and player.city[HACIENDA] > 0 and any(state.stack):
        actions.append(HACIENDA_TAKE)
    if actions:
        actions.append(PASS)
    return tuple(actions)


def advance(state: State) -> State:
    """Move to the next player with a choice; after the last one, refill the face-up row."""
    n, turns_done = state.n, state.turns_done
    while turns_done < n:
        seat = (state.chooser + turns_done) % n
        if legal_for_seat(state, seat):
            return at_turn(state, seat, turns_done)
        turns_done += 1
        if state.hacienda_used:  # the hacienda is the skipped player's, not the next one's
            state = state.copy()
            state.hacienda_used = False
    discards, face_up = state.discards, state.face_up
    new = state.copy()
    new.phase, new.face_up, new.to_draw = DRAW, (0,) * 5, n + 1
    new.discards = tuple([discards[g] + face_up[g] for g in range(5)])
    return resolve_draws(new)


def apply(state: State, action: Action) -> State:
    """Take a plantation or quarry (with or without the hospice colonist), draw with the hacienda, or pass."""
    op = action[0]
    if op == "hacienda":
        new = state.copy()
        new.phase, new.hacienda_used = HACIENDA_DRAW, True
        return new
    if op == "plant":
        state = _settle(state, action[1], not declined(action))
        state.face_up = add_at(state.face_up, action[1], -1)  # on the new state _settle made
    elif op == "quarry":
        state = _settle(state, QUARRY, not declined(action))
        state.quarries -= 1
    new = one_more_done(state)
    new.hacienda_used = False
    return advance(new)


def _settle(state: State, tile: int, hospice: bool) -> State:
    """A new state: ``tile`` on the island of the player at ``turn``; a working hospice staffs it from the supply
    (else the ship) unless declined."""
    seat = state.turn
    player = state.players[seat].copy()
    player.island = add_at(player.island, tile, 1)
    if hospice and player.city[HOSPICE] > 0:
        state, got = take_colonist(state)
        if got:
            player.island_workers = add_at(player.island_workers, tile, 1)
    return with_player(state, seat, player)


def resolve_draws(state: State) -> State:
    """Wait for chance while the row needs refilling and tiles are left; else end the phase."""
    if state.to_draw > 0 and (any(state.stack) or any(state.discards)):
        return state
    new = state.copy()
    new.to_draw = 0
    return end_phase(new)
