"""The one-off reward of a site ("A jutalmazás"), taken right after the house is placed.

Coins, keys and letters are taken at once. Ruling: where the rulebook says "may" (a landscape
draw, a bonus card) the player may decline, so that is a decision; a goods card must be taken,
only which one is a choice. A reward from an empty supply gives nothing (and its choice is not
offered).
"""

from __future__ import annotations

from typing import Final

from engine.golden_city.cards import can_draw_landscape
from engine.golden_city.component_set import BONUS, CARD, COIN1, COIN2, GOODS, INNER_REWARD, KEY, OUTER_COIN, OUTER_REWARD
from engine.golden_city.flow import continue_turn
from engine.golden_city.notation import DECLINE_BONUS, DECLINE_CARD, DRAW, GOODS_PILE, Action
from engine.golden_city.state import (
    BONUS_CHOICE,
    BOX,
    CARD_CHOICE,
    CARD_DRAW,
    GOODS_CHOICE,
    GOODS_DRAW,
    GOODS_LIMIT,
    GOODS_REFILL,
    State,
    replaced,
    with_phase,
    with_player,
)

#: Letters for the first and the second builder in an outer / inner city part; later builders get none.
OUTER_LETTERS: Final = (5, 3)
INNER_LETTERS: Final = (10, 6)


def take_coins(state: State, seat: int, count: int) -> State:
    """Up to ``count`` coins from the supply ("1, vagy 2 érmét kap a készletből")."""
    count = min(count, state.coin_supply)
    if not count:
        return state
    player = state.players[seat].copy()
    player.coins += count
    new = state.copy()
    new.players = replaced(state.players, seat, player)
    new.coin_supply = state.coin_supply - count
    return new


def take_letters(state: State, seat: int, count: int) -> State:
    """Letters from the (unlimited) supply."""
    player = state.players[seat].copy()
    player.letters += count
    return with_player(state, seat, player)


def offer_card(state: State) -> State:
    """"egy területkártyát húzhat" (may draw a landscape card): a choice, if a card can be had."""
    if can_draw_landscape(state):
        return with_phase(state, CARD_CHOICE)
    return continue_turn(state)


def resolve(state: State, seat: int, site: int, earlier_builders: int) -> State:
    """The reward of ``site`` for ``seat``, who just built there after ``earlier_builders`` others."""
    reward = state.components.rewards[site]
    if reward == COIN1 or reward == COIN2:
        return continue_turn(take_coins(state, seat, 1 if reward == COIN1 else 2))
    if reward == CARD:
        return offer_card(state)
    if reward == KEY:
        return continue_turn(take_key(state, seat))
    if reward == BONUS:
        return with_phase(state, BONUS_CHOICE) if state.bonus_pile else continue_turn(state)
    if reward == GOODS:
        return with_phase(state, GOODS_CHOICE) if state.goods_display or state.goods_pile else continue_turn(state)
    if reward == OUTER_REWARD or reward == OUTER_COIN:
        return continue_turn(outer_reward(state, seat, earlier_builders, reward == OUTER_COIN))
    if reward == INNER_REWARD:
        return inner_reward(state, seat, earlier_builders)
    return continue_turn(state)


def take_key(state: State, seat: int) -> State:
    """"egy kulcskártyát kap a készletből, amit felfordítva maga elé letesz" (a key card, face up)."""
    if not state.key_supply:
        return state
    player = state.players[seat].copy()
    player.keys += 1
    new = state.copy()
    new.players = replaced(state.players, seat, player)
    new.key_supply = state.key_supply - 1
    return new


def outer_reward(state: State, seat: int, earlier: int, coin: bool) -> State:
    """"elsőként ... 5 kereskedőlevelet kap. A második ... 3 ... A többi ... nem kap semmit" and the
    first builder's +1 coin on the outer parts that show it (digest ruling: one per district)."""
    if earlier >= len(OUTER_LETTERS):
        return state
    state = take_letters(state, seat, OUTER_LETTERS[earlier])
    return take_coins(state, seat, 1) if coin and earlier == 0 else state


def inner_reward(state: State, seat: int, earlier: int) -> State:
    """"elsőként ... 10 kereskedőlevelet kap, és ráadásul húzhat 1 lapot" (first: 10 letters and may
    draw a card); "A második ... 6"; later builders nothing."""
    if earlier >= len(INNER_LETTERS):
        return continue_turn(state)
    state = take_letters(state, seat, INNER_LETTERS[earlier])
    return offer_card(state) if earlier == 0 else continue_turn(state)


# Decisions --------------------------------------------------------------------------------------

CARD_CHOICES: tuple[Action, ...] = (DRAW, DECLINE_CARD)


def legal_card(state: State) -> tuple[Action, ...]:
    """Draw the card or decline it."""
    return CARD_CHOICES


def apply_card_choice(state: State, action: Action) -> State:
    """A draw goes to chance (CARD_DRAW); declining ends the reward."""
    if action == DRAW:
        return with_phase(state, CARD_DRAW)
    return continue_turn(state)


def legal_bonus(state: State) -> tuple[Action, ...]:
    """"átnézheti a bonusz-kártyákból kialakított lefordított paklit és kiválaszthat egy lapot" (may look
    through the face-down bonus pile and choose one card): each card left, or none."""
    return (*(("bonus", card) for card in state.bonus_pile), DECLINE_BONUS)


def apply_bonus_choice(state: State, action: Action) -> State:
    """The chosen card goes face down in front of the player; the pile goes back."""
    if action == DECLINE_BONUS:
        return continue_turn(state)
    card = action[1]
    seat = state.turn
    player = state.players[seat].copy()
    player.bonus = (*player.bonus, card)
    new = state.copy()
    new.players = replaced(state.players, seat, player)
    new.bonus_pile = tuple([c for c in state.bonus_pile if c != card])
    return continue_turn(new)


def legal_goods(state: State) -> tuple[Action, ...]:
    """"elveheti a három felfordított árukártya egyikét, de húzhat a lefordított pakliból is" (one of the
    face-up cards, or the top of the face-down pile)."""
    displayed: tuple[Action, ...] = tuple(("goods", card) for card in state.goods_display)
    return (*displayed, GOODS_PILE) if state.goods_pile else displayed


def apply_goods_choice(state: State, action: Action) -> State:
    """A display card is taken (and the display refilled by chance); the pile's top is drawn by chance."""
    if action == GOODS_PILE:
        return with_phase(state, GOODS_DRAW)
    card: str = action[1]
    new = receive_goods(state, card).copy()
    new.goods_display = tuple([c for c in state.goods_display if c != card])
    if state.goods_pile:
        # "új lap felfordításával 3 darabra kell kiegészítenie ... amíg a húzó pakliban van lap"
        new.phase = GOODS_REFILL
        return new
    return check_goods_limit(new)


def receive_goods(state: State, card: str) -> State:
    """``card`` face up in front of the player at turn."""
    seat = state.turn
    player = state.players[seat].copy()
    player.goods = (*player.goods, card)
    return with_player(state, seat, player)


def check_goods_limit(state: State) -> State:
    """"Egy játékos birtokában maximum 4 árukártya lehet ... egy tetszése szerinti lapot vissza kell tennie"
    (at most 4 goods cards; with a fifth, return any one of them to the box)."""
    if len(state.players[state.turn].goods) > GOODS_LIMIT:
        return with_phase(state, BOX)
    return continue_turn(state)


def legal_box(state: State) -> tuple[Action, ...]:
    """Any one of the five goods cards, the new one included."""
    return tuple(("box", card) for card in state.players[state.turn].goods)


def apply_box(state: State, action: Action) -> State:
    """The card goes back to the box, out of the game."""
    card: str = action[1]
    seat = state.turn
    player = state.players[seat].copy()
    player.goods = tuple([c for c in player.goods if c != card])
    new = state.copy()
    new.players = replaced(state.players, seat, player)
    new.goods_boxed = (*state.goods_boxed, card)
    return continue_turn(new)
