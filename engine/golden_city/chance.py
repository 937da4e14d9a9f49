"""Chance events: every draw from a face-down pile, weighted by what the pile really holds.

* Landscape draws (setup, layout, the card and inner rewards): the outcome is a terrain weighted by
  its count in the draw pile; cards of one terrain are identical.
* The reshuffle: the draw that empties the pile is followed at once by chance's ``reshuffle`` (the
  discards become the new pile; their order is decided by each later draw), before anyone acts. With
  the pile still empty when a draw needs a card (there were no discards then), the only outcome of
  that draw is ``reshuffle`` first. Games of rules version 1 (``late_reshuffle``) reshuffle only then.
* Goods draws (the 3 setup reveals, blind takes, display refills): a card id of the goods pile.
* The scoring reveal: a card of the lowest back left (the pile lies sorted by back, 1 on top).
"""

from __future__ import annotations

from typing import Final

from engine.core.records import add_at
from engine.golden_city import flow
from engine.golden_city.cards import reshuffle, take_from_pile
from engine.golden_city.notation import RESHUFFLE, Action
from engine.golden_city.rewards import check_goods_limit, receive_goods
from engine.golden_city.state import (
    CARD_DRAW,
    GOODS_DRAW,
    GOODS_REFILL,
    LANDSCAPE_PHASES,
    LAYOUT,
    OVER,
    REVEAL,
    SETUP_DEAL,
    SETUP_GOODS,
    Phase,
    State,
    with_player,
)
from engine.golden_city.state import (
    RESHUFFLE as RESHUFFLE_PHASE,
)

DEALS: Final[tuple[Action, ...]] = tuple(("deal", t) for t in range(5))
RESHUFFLE_ONLY: Final[tuple[tuple[Action, int], ...]] = ((RESHUFFLE, 1),)


def outcomes(state: State) -> tuple[tuple[Action, int], ...]:
    """The possible outcomes of the chance event the state waits for, with their weights."""
    phase = state.phase
    if phase == RESHUFFLE_PHASE:
        return RESHUFFLE_ONLY
    if phase in LANDSCAPE_PHASES:
        pile = state.pile
        if not any(pile):
            return RESHUFFLE_ONLY
        return tuple([(DEALS[t], pile[t]) for t in range(len(pile)) if pile[t]])
    if phase == REVEAL:
        return scoring_outcomes(state)
    return tuple([reveal_outcome(_GOODS_REVEALS, "goods", card) for card in state.goods_pile])


def scoring_outcomes(state: State) -> tuple[tuple[Action, int], ...]:
    """Uniform over the remaining cards of the lowest back: the back of the next card is public."""
    pile = state.scoring_pile
    back = state.components.scoring_back
    top = back[pile[0]]
    return tuple([reveal_outcome(_SCORING_REVEALS, "scoring", card) for card in pile if back[card] == top])


#: Reveal outcomes of each pile by card id, made once: a goods draw lists every card left in the pile.
_GOODS_REVEALS: Final[dict[str, tuple[Action, int]]] = {}
_SCORING_REVEALS: Final[dict[str, tuple[Action, int]]] = {}


def reveal_outcome(reveals: dict[str, tuple[Action, int]], pile: str, card: str) -> tuple[Action, int]:
    """``(("reveal", pile, card), 1)`` (remembered in ``reveals``): card ``card`` comes off ``pile``, as likely
    as every other card there."""
    outcome = reveals.get(card)
    if outcome is None:
        outcome = (("reveal", pile, card), 1)
        if len(reveals) < 4096:  # ids come from component sets: a bound against a stream of custom sets
            reveals[card] = outcome
    return outcome


def apply(state: State, action: Action) -> State:
    """The state after a chance outcome."""
    verb = action[0]
    if verb == "reshuffle":
        if state.phase == RESHUFFLE_PHASE:
            new = reshuffle(state).copy()
            new.phase = Phase(state.resume)  # the int back as its Phase (compiled code checks)
            new.resume = -1
            return new
        return reshuffle(state)
    if verb == "deal":
        return reshuffle_if_run_out(apply_deal(take_from_pile(state, action[1]), action[1]))
    if action[1] == "scoring":
        card: str = action[2]
        new = state.copy()
        new.scoring_card = card
        new.scoring_pile = tuple([c for c in state.scoring_pile if c != card])
        new.layout = ()
        return flow.next_layout_card(new)
    card = action[2]
    new = state.copy()
    new.goods_pile = tuple([c for c in state.goods_pile if c != card])
    return apply_goods(new, card)


def reshuffle_if_run_out(state: State) -> State:
    """After a draw: if it emptied the pile, chance reshuffles the discards now, before anyone acts.

    "Akkor, amikor a játék folyamán később elfogynak a húzó-pakli lapjai, … keverjék meg a lerakó-pakli
    lapjait" (when later in the game the draw pile runs out, shuffle the discards into a new pile): at
    the moment it runs out, so cards discarded afterwards wait for the next reshuffle. Nothing happens
    without discards, at the end of the game, or in a game of rules version 1 (``late_reshuffle``).
    """
    if state.late_reshuffle or any(state.pile) or not any(state.discard) or state.phase == OVER:
        return state
    new = state.copy()
    new.resume = state.phase
    new.phase = RESHUFFLE_PHASE
    return new


def apply_deal(state: State, terrain: int) -> State:
    """A landscape card, already off the pile, goes where the phase sends it."""
    phase = state.phase
    if phase == LAYOUT:
        new = state.copy()
        new.layout = (*state.layout, terrain)
        return flow.next_layout_card(new)
    seat = state.turn
    player = state.players[seat].copy()
    player.hand = add_at(player.hand, terrain, 1)
    state = with_player(state, seat, player)
    if phase == SETUP_DEAL:
        return flow.after_setup_deal(state)
    return flow.continue_turn(state)  # CARD_DRAW: a reward's draw


def apply_goods(state: State, card: str) -> State:
    """A goods card, already off the pile, goes to the display or to the player who drew it blind."""
    phase = state.phase
    if phase == SETUP_GOODS or phase == GOODS_REFILL:
        new = state.copy()
        new.goods_display = (*state.goods_display, card)
        return flow.fill_setup_display(new) if phase == SETUP_GOODS else check_goods_limit(new)
    return check_goods_limit(receive_goods(state, card))  # GOODS_DRAW: the blind take


CHANCE_DRAW_PHASES = (SETUP_DEAL, LAYOUT, CARD_DRAW, SETUP_GOODS, GOODS_DRAW, GOODS_REFILL, REVEAL)
