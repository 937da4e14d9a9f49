"""The trader phase ("A kereskedő"): each player may sell one barrel into the trading house.

The house has four spaces and buys one barrel of each kind only, unless the seller has a
working office. Price by kind (corn 0 … coffee 4); the trader +1 (privilege, only when
selling), a working small market +1, a working large market +2. At the end a full house is
emptied into the supply; otherwise its barrels stay.
"""

from __future__ import annotations

from engine.core.records import add_at
from engine.puerto_rico.components import LARGE_MARKET, OFFICE, PRICES, SMALL_MARKET, TRADING_HOUSE_SPACES
from engine.puerto_rico.flow import end_phase, turn_to_next_chooser
from engine.puerto_rico.notation import PASS, SELL_ACTIONS, Action
from engine.puerto_rico.state import TRADE, Player, State, begin_phase, one_more_done, with_player


def begin(state: State) -> State:
    """The trader phase starts with the trader."""
    return advance(begin_phase(state, TRADE))


def sale_price(player: Player, good: int, is_trader: bool) -> int:
    """Doubloons for one barrel of ``good``."""
    bonus = (1 if is_trader else 0) + (1 if player.city[SMALL_MARKET] > 0 else 0) + (2 if player.city[LARGE_MARKET] > 0 else 0)
    return PRICES[good] + bonus


def legal_actions(state: State) -> tuple[Action, ...]:
    """The barrels the player at ``turn`` may sell, then pass (empty: cannot sell)."""
    return legal_for_seat(state, state.turn)


def legal_for_seat(state: State, seat: int) -> tuple[Action, ...]:
    """The barrels ``seat`` may sell now, then pass."""
    house = state.trading_house
    if len(house) >= TRADING_HOUSE_SPACES:
        return ()
    player = state.players[seat]
    office = player.city[OFFICE] > 0
    actions = [SELL_ACTIONS[g] for g in range(5) if player.goods[g] and (office or g not in house)]
    if actions:
        actions.append(PASS)
    return tuple(actions)


def advance(state: State) -> State:
    """On to the next player who can sell; at the end, empty a full trading house."""
    chooser = turn_to_next_chooser(state, legal_for_seat)
    if chooser is not None:
        return chooser
    new = state.copy()
    new.turns_done = state.n
    if len(state.trading_house) >= TRADING_HOUSE_SPACES:
        supply = state.goods_supply
        for good in state.trading_house:
            supply = add_at(supply, good, 1)
        new.goods_supply, new.trading_house = supply, ()
    return end_phase(new)


def apply(state: State, action: Action) -> State:
    """Sell one barrel (or pass)."""
    if action[0] == "sell":
        seat, good = state.turn, action[1]
        player = state.players[seat].copy()
        player.doubloons += sale_price(player, good, seat == state.chooser)
        player.goods = add_at(player.goods, good, -1)
        state = with_player(state, seat, player)
        state.trading_house += (good,)  # on the new state with_player made
    return advance(one_more_done(state))
