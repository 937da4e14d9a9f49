"""The round's skeleton ("A játék menete"): six phases in order, then the next round or the end.

1. a scoring card is turned up (chance), 2. the landscape pairs are laid out (chance), 3. bidding,
4. building (one turn each, from the start player clockwise), 5. scoring, 6. the start key passes
clockwise. Each function here moves the game to its next waiting point: a decision, a chance
draw, or the end. Ends ("A játék vége"): after a player placed their last house or became blocked,
the round is played out including its scoring and the game ends without phase 6; after the last
scoring card has been scored it ends at once.
"""

from __future__ import annotations

from typing import Final

from engine.golden_city.cards import can_draw_landscape, hand_size
from engine.golden_city.scoring import score_round
from engine.golden_city.state import (
    BID,
    BUILD,
    DISCARD,
    HAND_LIMIT,
    LAYOUT,
    NOBODY,
    OVER,
    REVEAL,
    SETUP_GOODS,
    State,
    next_seat,
    with_phase,
)

#: Face-up goods cards in the display.
DISPLAY_SIZE: Final = 3


def after_setup_deal(state: State) -> State:
    """The next player's setup card, then the goods display ("felső 3 lapját ... felfordítva")."""
    new = state.copy()
    if state.turn + 1 < state.n:
        new.turn = state.turn + 1
        return new
    new.turn = state.start_seat
    new.phase = SETUP_GOODS
    return fill_setup_display(new)


def fill_setup_display(state: State) -> State:
    """Chance turns up goods cards until 3 lie face up (or the pile is empty), then round 1 starts."""
    if len(state.goods_display) < DISPLAY_SIZE and state.goods_pile:
        return with_phase(state, SETUP_GOODS)
    return start_round(state)


def start_round(state: State) -> State:
    """Phase 1: the top scoring card is turned up (chance)."""
    new = state.copy()
    new.phase = REVEAL
    new.round = state.round + 1
    new.turn = state.start_seat
    return new


def next_layout_card(state: State) -> State:
    """Phase 2: the next of 2n landscape cards (chance), or bidding once all lie face up.

    "3 játékos esetén 6 lapot, 4 játékos esetén 8 lapot" (6 cards for 3 players, 8 for 4), laid in
    pairs; with the rulebook's mixing tip the first n cards start pairs 1..n and the next n complete
    them. A card that cannot be had (both piles empty; impossible with a valid component set) is
    left out (-1).
    """
    layout = state.layout
    while len(layout) < 2 * state.n:
        if can_draw_landscape(state):
            new = state.copy()
            new.layout = layout
            new.phase = LAYOUT
            return new
        layout = (*layout, -1)
    new = state.copy()
    new.layout = layout
    new.phase = BID
    new.turn = state.start_seat
    new.bids = (NOBODY,) * state.n
    new.displacements = 0
    return new


def pair_of(state: State, pair: int) -> tuple[int, ...]:
    """The terrains of pair ``pair`` (one card each; -1 where no card lies)."""
    layout = state.layout
    n = state.n
    return tuple(layout[i] if i < len(layout) else -1 for i in (pair, n + pair))


def end_bidding(state: State) -> State:
    """Every pair carries a hand: each player takes their pair into hand; building starts.

    "A játékosok visszaveszik licitkezeiket és kezeikbe veszik a megszerzett terepkártyákat" (players
    take back their hands and take the cards won into hand). The hand limit is checked only at the
    end of a building turn.
    """
    players = list(state.players)
    for pair, seat in enumerate(state.bids):
        hand = list(players[seat].hand)
        for terrain in pair_of(state, pair):
            if terrain >= 0:
                hand[terrain] += 1
        player = players[seat].copy()
        player.hand = tuple(hand)
        players[seat] = player
    new = state.copy()
    new.players = tuple(players)
    new.layout = ()
    new.bids = (NOBODY,) * state.n
    new.phase = BUILD
    new.turn = state.start_seat
    new.built = 0
    new.site = -1
    return new


def continue_turn(state: State) -> State:
    """After a house and its reward: the turn goes on, or ends on its own after the second house."""
    new = state.copy()
    new.site = -1
    if state.built >= 2:
        return end_building_turn(new)
    new.phase = BUILD
    return new


def end_building_turn(state: State) -> State:
    """The hand limit ("Kártyalimit ... nem maradhat több mint 5 területkártya"), then the next player."""
    if hand_size(state.players[state.turn].hand) > HAND_LIMIT:
        new = state.copy()
        new.phase = DISCARD
        new.site = -1
        return new
    return next_builder(state)


def next_builder(state: State) -> State:
    """The next player clockwise builds; after everybody has, the round is scored."""
    seat = next_seat(state, state.turn)
    if seat == state.start_seat:
        return end_round(state)
    new = state.copy()
    new.phase = BUILD
    new.turn = seat
    new.built = 0
    new.site = -1
    return new


def end_round(state: State) -> State:
    """Phase 5 (scoring) and phase 6 (the start key passes), or the end of the game.

    "A megkezdett kört a játékosok még végigjátsszák" (the round begun is played to its end) after a
    trigger; the end of the game follows its scoring, so the key does not pass. After the last
    scoring card ("Az utolsó értékelő-kártya szerinti értékelés is lezajlik") the game ends at once.
    """
    new = score_round(state).copy()
    new.built = 0
    if new.end_triggered or not new.scoring_pile:
        new.phase = OVER
        new.turn = NOBODY
        return new
    new.start_seat = next_seat(new, new.start_seat)
    return start_round(new)
