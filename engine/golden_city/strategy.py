"""Die goldene Stadt strategy bots: a city builder and a trader, usable as opponents and as rollout policies.

Both are one-ply greedy players (:class:`engine.players.picking.GreedyPlayer`): they try every legal
action and keep the one after which their position is worth most, by :func:`worth`, an estimate in
letters (the game's victory points). The estimate counts what the rulebook scores and what buys it:

* letters, and what the bonus cards held would pay now;
* coins (they displace rival bids, pay the coin bonus card, break ties), key cards (an inner city part
  takes one and pays 10 letters to its first builder), goods cards (each scoring card pays 2 letters,
  4 when one is the only holder of its good);
* houses built and the open sites next to them (building is the game's engine: a house's reward and
  the connection it gives to the next site), landscape cards in hand, and the two cards of the pair
  the player's bidding hand lies on;
* being blocked loses the game ("lesz a játék vesztese"), so it weighs more than anything else.

The two strategies weigh these differently, after the tips players give for the game: the **city**
bot heads for the Golden City (city parts pay 5 or 10 letters to the first builder, and keys open the
inner parts), the **trader** bot for the goods and the river suburbs that the scoring cards pay for
round after round, and keeps coins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, final

from engine.core.fold import Player as Bot
from engine.golden_city.scoring import bonus_letters
from engine.golden_city.state import BID, State, houses_in
from engine.players.picking import GreedyPlayer

#: Being blocked: a loss whatever the letters.
BLOCKED: Final = 200.0


@final
class Weights:
    """What one strategy thinks each thing is worth, in letters."""

    def __init__(self, *, coin: float, key: float, goods: float, house: float, city: float, river: float,
                 reach: float, card: float) -> None:
        self.coin = coin
        self.key = key
        self.goods = goods
        self.house = house
        self.city = city
        self.river = river
        self.reach = reach
        self.card = card


CITY: Final = Weights(coin=0.6, key=4.0, goods=1.5, house=1.5, city=3.0, river=0.5, reach=0.4, card=0.9)
TRADER: Final = Weights(coin=0.9, key=2.0, goods=3.5, house=1.2, city=1.0, river=2.0, reach=0.3, card=0.8)


def worth(weights: Weights, state: State, seat: int) -> float:
    """The seat's position as the strategy values it (see the module docstring)."""
    player = state.players[seat]
    components = state.components
    value = float(player.letters) + sum(bonus_letters(components, player, card) for card in player.bonus)
    value += weights.coin * player.coins + weights.key * player.keys + weights.goods * len(player.goods)
    value += weights.house * player.houses.bit_count() + weights.city * houses_in(player, components.city)
    value += weights.river * houses_in(player, components.river_mask)
    value += weights.reach * (player.reach & ~state.taken & ~player.houses).bit_count()
    value += weights.card * sum(player.hand)
    if state.phase == BID:
        value += weights.card * _bid_cards(state, seat)
    return value - (BLOCKED if player.blocked else 0.0)


def _bid_cards(state: State, seat: int) -> int:
    """Cards on the pair the seat's bidding hand lies on (it takes them when the bidding ends)."""
    n = len(state.players)
    for pair, bidder in enumerate(state.bids):
        if bidder == seat:
            return (state.layout[pair] >= 0) + (state.layout[n + pair] >= 0)
    return 0


@final
class Worth:
    """:func:`worth` with one strategy's weights, as a :data:`engine.players.picking.Evaluate`."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights

    def __call__(self, state: State, seat: int) -> float:
        """The seat's position by these weights."""
        return worth(self.weights, state, seat)


def seat_to_act(state: State) -> int:
    """The seat whose decision it is (a bot is asked only at a seat's decision, never for chance or at the end)."""
    return state.turn


def strategy_players(apply: Callable[[State, Any], State]) -> dict[str, Bot]:
    """The game's bots by name, strongest first, playing through the rules' ``apply``."""
    return {
        "city": GreedyPlayer(apply, seat_to_act, Worth(CITY), name="city"),
        "trader": GreedyPlayer(apply, seat_to_act, Worth(TRADER), name="trader"),
    }
