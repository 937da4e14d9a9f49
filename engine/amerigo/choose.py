"""The action choice at the start of a player's turn: an available colour, the white special action,
gold, or PT21.

Seed: the cubes' colours "határozza meg, hogy mely akciók lesznek használhatóak ebben a fázisban"
(decide which actions are available) and "A legtöbb kockából álló szín határozza meg az
akciópontok (AP) számát" (the most cubes of one colour give the AP); white special: "Ha ebből a
színből nincs kocka az akciómezőn, akkor a játékos végrehajthatja a megfelelő színű akciót ...
Ha a játékos eléri a speciálisakció-sáv utolsó mezőjét, akkor a fehér kockákat bármilyen színre
átválthatja"; gold: "összeszámolja az akciómezőn lévő kockákat, elosztja ezt a számot hárommal,
felfelé kerekít". A player's AP for an action = phase AP + his tokens' bonuses for the colour
performed (Ruling 2) + gold spent.
"""

from __future__ import annotations

from typing import Final

from engine.amerigo import components as c
from engine.amerigo.gold import gain_gold
from engine.amerigo.notation import CHOOSE_ACTIONS, GOLD, SPECIAL_ACTIONS, USE_PT21, Action
from engine.amerigo.settle import settle
from engine.amerigo.state import (
    ADVANCE,
    BUILD,
    BUY,
    CANNONS,
    MOVE_ORDER,
    PLACE_SHIPS,
    PLAN,
    SAIL,
    UNPLACED,
    State,
    with_player,
)
from engine.amerigo.tokens import PT15, PT20, PT21, ap_bonus, owns, unused
from engine.amerigo.turns import legal_cash, next_turn

FIRST_STEP: Final = {c.BLACK: CANNONS, c.RED: PLAN, c.BROWN: ADVANCE, c.GREEN: BUILD, c.YELLOW: BUY, c.WHITE: MOVE_ORDER}


def space_colour(state: State, position: int) -> int:
    """The colour of a special-action space: -1 for the white start space and for the last space (any)."""
    if position <= 0 or position >= state.components.order_last:
        return -1
    return (position - 1) % 6


def special_colours(state: State, position: int) -> tuple[int, ...]:
    """Colours the white special action may perform for a disc at ``position`` (needs white in the field)."""
    if not state.field[c.WHITE] or position <= 0:
        return ()
    if position >= state.components.order_last:
        return tuple(range(6))  # Ruling 11: any of the six, present or not
    colour = space_colour(state, position)
    return () if state.field[colour] else (colour,)


def available(state: State, colour: int) -> bool:
    """Whether the player to act may choose ``colour`` (PT15: red and green count as each other)."""
    field = state.field
    if field[colour]:
        return True
    return colour in (c.RED, c.GREEN) and bool(field[c.RED] or field[c.GREEN]) and owns(state.me, PT15)


def legal_actions(state: State) -> list[Action]:
    """Every choice open to the player to act."""
    player = state.me
    result = [CHOOSE_ACTIONS[colour] for colour in range(7) if available(state, colour)]
    result += [SPECIAL_ACTIONS[colour] for colour in special_colours(state, player.order_pos)]
    result.append(GOLD)
    if player.tokens and unused(player, PT21):
        result.append(USE_PT21)
    return result + legal_cash(player)


def gold_income(state: State) -> int:
    """⌈cubes in the field / 3⌉, or ⌈/2⌉ with PT20."""
    per = 2 if owns(state.me, PT20) else 3
    return -(-sum(state.field) // per)


def start_action(state: State, colour: int) -> State:
    """The player begins to perform ``colour`` with phase AP + his bonuses for it."""
    player = state.me
    budget = state.phase_ap + ap_bonus(player, colour)
    if colour == c.BLUE:
        step = PLACE_SHIPS if player.ships[0] == UNPLACED else SAIL  # Ruling 4: the first blue by any route
    else:
        step = FIRST_STEP[colour]
    new = state.copy()
    new.action = colour
    new.ap = budget
    new.phase = step
    return settle(new)


def apply(state: State, action: Action) -> State:
    """The state after a choice."""
    op = action[0]
    if op in ("choose", "special"):
        return start_action(state, action[1])
    seat = state.seat
    player = state.players[seat]
    if action == GOLD:
        return next_turn(with_player(state, seat, gain_gold(player, gold_income(state))))
    # PT21: VP equal to every cube in the field (Ruling 13), instead of an action
    player = player.evolve(vp=player.vp + sum(state.field), used=(*player.used, PT21))
    return next_turn(with_player(state, seat, player))
