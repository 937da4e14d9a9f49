"""A player's turn in a phase: the decisions offered at every own decision point, and the turn's end.

Seed: "Azzal a játékosal kezdve, akinek a korongja legelöl van a speciálisakció-sávon, minden
játékos az adott sorrendben választ egyet az elérhető akciókból, és végrehajtja azt" (in player
order each player chooses one available action and performs it); "Ha a játékos nem tudja vagy
nem akarja az összes akciópontját felhasználni, akkor a megmaradót (akár mind) elveszíti" (AP
left unused are lost). A chest "bármikor" (at any time) gives 3 gold: the engine offers chests
and the once gold tokens at each of the owner's decision points.
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.flow import end_phase
from engine.amerigo.gold import gain_gold
from engine.amerigo.notation import CASH_CHEST, CASH_PT17, CASH_PT18, Action
from engine.amerigo.state import CHOOSE, NO_ACTION, NOT_MOVED, Player, State, players_with, with_player
from engine.amerigo.tokens import GOLD_TOKENS, PT17, PT18, unused


def legal_cash(player: Player) -> list[Action]:
    """Chests and once gold tokens the player may turn into gold now."""
    actions = []
    if player.chests:
        actions.append(CASH_CHEST)
    if player.tokens:
        if unused(player, PT17):
            actions.append(CASH_PT17)
        if unused(player, PT18):
            actions.append(CASH_PT18)
    return actions


def apply_cash(state: State, action: Action) -> State:
    """A chest (3 gold) or a once gold token (3 or 5 gold) cashed; the decision point stays."""
    seat = state.seat
    player = state.players[seat]
    if action == CASH_CHEST:
        player = gain_gold(player.evolve(chests=player.chests - 1), c.CHEST_GOLD)
    else:
        token = PT17 if action == CASH_PT17 else PT18
        player = gain_gold(player.evolve(used=(*player.used, token)), GOLD_TOKENS[token])
    return with_player(state, seat, player)


def apply_spend(state: State) -> State:
    """1 gold for 1 more AP in the action under way."""
    seat = state.seat
    player = state.players[seat].copy()
    player.gold -= 1
    new = state.copy()
    new.players = players_with(state.players, seat, player)
    new.ap = state.ap + 1
    return new


def end_action(state: State) -> State:
    """The action under way ends (end-of-track gold if due); the next player in order, or the phase's end."""
    if state.track_gold:
        seat = state.seat
        state = with_player(state, seat, gain_gold(state.players[seat], c.END_OF_TRACK_GOLD))
    return next_turn(state)


def next_turn(state: State) -> State:
    """The next player in this phase's order chooses; after the last one the phase ends."""
    turn = state.turn + 1
    new = state.copy()
    new.action = NO_ACTION
    new.ap = 0
    new.ships_moved = NOT_MOVED
    new.sailed = -1
    new.neutral_taken = 0
    new.tokens_due = 0
    new.track_gold = False
    if turn >= len(state.turn_order):
        return end_phase(new)
    new.phase = CHOOSE
    new.turn = turn
    return new
