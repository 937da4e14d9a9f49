"""Puerto Rico strategy bots: a shipping player and a building player, usable as opponents and as rollout policies.

Both score every legal action with a hand-written estimate of its worth in victory points (a doubloon
counts :data:`DOUBLOON` of a point) and take the best, breaking ties with the rng they are given. They
differ only in their :class:`Style`, the weights of the two strategies strong players describe:

* **shipping** ("corn and indigo, the captain, wharf and harbor"): cheap plantations (corn needs no
  building) and the small indigo plant and indigo plant early, the captain whenever there are barrels
  to ship, the craftsman before it, the harbor and the wharf as soon as they are affordable, the
  warehouses so that nothing rots; it sells only what it cannot ship well.
* **building** ("factory and craftsman, the big buildings"): quarries from the settler, the dear
  goods (tobacco, coffee) for the trader's doubloons, the factory, the construction hut and the
  markets early, then the large buildings (guild hall, residence, city hall, customs house, fortress)
  once it can afford them.

Colonists are placed as a whole (the mayor's placement in slot order allows every arrangement of the
colonists, see :mod:`engine.puerto_rico.mayor`): the bot values each empty circle, takes the best
ones and places them in slot order; :meth:`StrategyBot.plan` offers the placements at once so that a
playout applies them without asking for the legal placements in between (:mod:`engine.players.picking`).

A bot decides nothing about the rules: it picks among the legal actions it is given, with the
randomness it is given (ties; and, with ``explore`` above 0, a uniformly random legal action that
often, which keeps rollouts varied when a bot is used as a rollout policy).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, final

from engine.players.picking import PlanningPlayer, forced_or_explored, pick
from engine.puerto_rico.builder import price
from engine.puerto_rico.captain import capacities
from engine.puerto_rico.components import (
    BUILDER,
    CAPTAIN,
    CIRCLES,
    CITY_SPACES,
    COLUMNS,
    CORN,
    CRAFTSMAN,
    ISLAND_SPACES,
    MAYOR,
    N_BUILDINGS,
    OFFICE,
    PRICES,
    PRODUCERS,
    QUARRY,
    SETTLER,
    SPACES,
    TRADER,
    TRADING_HOUSE_SPACES,
)
from engine.puerto_rico.craftsman import production
from engine.puerto_rico.mayor import BUILDING_SLOT, N_SLOTS, free_at, free_from
from engine.puerto_rico.notation import PLACE_ACTIONS, declined
from engine.puerto_rico.state import BUILD, PLACE, Player, State, city_spaces_used
from engine.puerto_rico.trader import sale_price

#: A doubloon's worth in victory points (a building of n points costs about 2n doubloons).
DOUBLOON: Final = 0.5
#: What declining a privilege or a building's bonus costs in the estimate (the bots never want to).
DECLINE: Final = 1.5
#: A large building's circle: its bonus counts only while it is staffed.
LARGE_CIRCLE: Final = 6.0
#: The worth of a barrel made by a staffed plantation and building, beside its price.
BARREL: Final = 1.2
#: A barrel's worth per good to the craftsman role's valuation: more for the dearer kinds.
_BARREL_WORTH: Final = tuple(0.6 + PRICES[good] * 0.25 for good in range(5))


@final
class Style:
    """A strategy's weights: per building, per island tile kind (five plantations, then the quarry), per role."""

    def __init__(self, name: str, buildings: tuple[float, ...], tiles: tuple[float, ...], roles: tuple[float, ...],
                 keeps_for_shipping: tuple[bool, ...]) -> None:
        self.name = name
        self.buildings = buildings
        self.tiles = tiles
        self.roles = roles
        #: Kinds it would rather ship than sell (a sale of one of them is worth a point less).
        self.keeps_for_shipping = keeps_for_shipping


# Buildings in the bank board's order: small indigo, small sugar, small market, hacienda, construction hut,
# small warehouse, indigo plant, sugar mill, hospice, office, large market, large warehouse, tobacco storage,
# coffee roaster, factory, university, harbor, wharf, guild hall, residence, fortress, customs house, city hall.
SHIPPING: Final = Style(
    "shipping",
    buildings=(3.0, 2.0, 1.5, 1.5, 1.0, 3.0, 4.0, 3.5, 2.0, 1.0, 1.5, 4.0, 3.0, 3.0, 2.5, 2.0, 7.0, 7.5,
               7.0, 6.0, 6.0, 8.0, 6.5),
    tiles=(3.0, 2.6, 2.0, 1.6, 1.4, 1.2),
    roles=(1.0, 0.9, 0.9, 1.2, 0.8, 1.4, 1.0, 1.0),
    keeps_for_shipping=(True, True, True, False, False),
)
BUILDING: Final = Style(
    "building",
    buildings=(2.0, 2.0, 3.0, 2.0, 2.5, 1.5, 2.5, 2.5, 2.5, 3.0, 3.5, 2.0, 4.0, 4.5, 7.0, 4.0, 4.0, 4.0,
               9.0, 8.0, 7.0, 7.0, 8.5),
    tiles=(2.2, 1.8, 2.0, 2.4, 2.6, 3.2),
    roles=(1.0, 1.0, 1.3, 1.1, 1.2, 0.8, 1.0, 1.0),
    keeps_for_shipping=(False, False, False, False, False),
)


@final
class StrategyBot(PlanningPlayer):
    """A :data:`engine.core.declaration.Player` playing one :class:`Style` (see the module docstring), which also plans
    the colonists' placements."""

    def __init__(self, style: Style, explore: float = 0.0) -> None:
        self.style = style
        self.explore = explore
        #: What the bot is, for people (a compiled class's ``__doc__`` cannot be set per object).
        self.description = f"Puerto Rico's {style.name} strategy bot" + (f", {explore:.0%} random moves" if explore else "")

    def __call__(self, state: State, actions: list[Any], rng: random.Random) -> Any:
        """The legal action this strategy values most (ties broken by ``rng``)."""
        chosen = forced_or_explored(actions, rng, self.explore)
        if chosen is not None:
            return chosen
        if state.phase == PLACE:
            wanted = _placements(self.style, state)
            if wanted and PLACE_ACTIONS[wanted[0]] in actions:
                return PLACE_ACTIONS[wanted[0]]
            return actions[0]
        # Every build's worth reads the rounds left, a pass over each city: counted once a decision, not once a build.
        rounds_left = _rounds_left(state) if state.phase == BUILD else 0
        best_value, best = -1e9, [actions[0]]
        for action in actions:
            value = _value(self.style, state, action, rounds_left)
            if value > best_value + 1e-9:
                best_value, best = value, [action]
            elif value > best_value - 1e-9:
                best.append(action)
        return best[0] if len(best) == 1 else pick(best, rng)

    def plan(self, state: State, rng: random.Random) -> list[Any]:
        """Every placement left to the seat placing colonists (in slot order), else none."""
        if state.phase != PLACE:
            return []
        return [PLACE_ACTIONS[slot] for slot in _placements(self.style, state)]


def _value(style: Style, state: State, action: Any, rounds_left: int) -> float:
    """The estimated worth of ``action`` for the seat to act, in victory points; ``rounds_left`` is
    :func:`_rounds_left` of ``state`` where ``action`` may be a build (only the builder's phase has builds)."""
    verb = action[0]
    if verb == "role":
        return _role_value(style, state, action[1]) - DECLINE * declined(action)
    if verb == "plant":
        return _tile_value(style, state.players[state.turn], action[1]) - DECLINE * declined(action)
    if verb == "quarry":
        return _tile_value(style, state.players[state.turn], QUARRY) - DECLINE * declined(action)
    if verb == "hacienda":
        player = state.players[state.turn]
        return 1.5 if sum(player.island) < ISLAND_SPACES - 1 else -1.0
    if verb == "build":
        return _build_value(style, state, action[1], rounds_left) - DECLINE * declined(action)
    if verb == "extra":
        return 1.0 + PRICES[action[1]] * DOUBLOON
    if verb == "sell":
        return _sell_value(style, state, action[1])
    if verb == "load":
        return _load_value(state, action[1], action[2]) - DECLINE * declined(action)
    if verb == "wharf":
        shipped: int = state.players[state.turn].goods[action[1]]
        return shipped - 1.5 - DECLINE * declined(action)
    if verb == "keep":
        return float(sum(kept * (1 + PRICES[good]) for good, kept in enumerate(action[1])))
    return 0.0  # pass


# --- roles ---------------------------------------------------------------------------------------------


def _role_value(style: Style, state: State, role: int) -> float:
    """What choosing ``role`` brings the chooser, less what it brings the others, weighted by the style."""
    me = state.turn
    player = state.players[me]
    coins = state.role_coins[role] * DOUBLOON if role < len(state.role_coins) else 0.0
    if role == SETTLER:
        gain = _best_tile(style, state, player)
    elif role == MAYOR:
        gain = _mayor_gain(state, player)
    elif role == BUILDER:
        gain = _best_building(style, state, me, True)
    elif role == CRAFTSMAN:
        gain = _production_value(player) + 1.0 - 0.5 * _others_sum(_production_value, state, me)
    elif role == TRADER:
        gain = _best_sale(style, state, player)
    elif role == CAPTAIN:
        gain = _shippable(state, player) + 1.0 - 0.4 * _others_sum(lambda p: _shippable(state, p), state, me)
    else:
        gain = DOUBLOON  # a prospector
    return style.roles[role] * gain + coins


def _best_tile(style: Style, state: State, player: Player) -> float:
    if sum(player.island) >= ISLAND_SPACES:
        return 0.0
    best = _tile_value(style, player, QUARRY) if state.quarries > 0 else 0.0
    for good in range(5):
        if state.face_up[good]:
            best = max(best, _tile_value(style, player, good))
    return best


def _tile_value(style: Style, player: Player, tile: int) -> float:
    """A plantation or quarry's worth: the style's taste, more where a building waits for that good."""
    value = style.tiles[tile]
    if tile == QUARRY:
        return value if player.island[QUARRY] < 3 else value * 0.4
    if tile != CORN:
        circles = sum(CIRCLES[b] for b in PRODUCERS[tile] if player.city[b] >= 0)
        value += 1.0 if circles > player.island[tile] else -0.5
    return value


def _others_sum(worth: Callable[[Player], float], state: State, me: int) -> float:
    """The sum of ``worth`` over every player but ``me``, in seat order (a loop: a generator costs more compiled)."""
    total = 0.0
    for seat, player in enumerate(state.players):
        if seat != me:
            total += worth(player)
    return total


def _mayor_gain(state: State, player: Player) -> float:
    colonists = state.colonist_ship // state.n + 1
    building = free_from(player, BUILDING_SLOT)
    island = free_from(player, 0) - building
    return 1.2 * min(building, colonists) + 0.6 * min(island, max(0, colonists - building))


def _production_value(player: Player) -> float:
    made = production(player)
    total = 0.0
    for good in range(5):
        total += made[good] * _BARREL_WORTH[good]
    return total


def _shippable(state: State, player: Player) -> float:
    """About how many barrels the player could ship this captain phase."""
    caps, kinds, loads = capacities(state), state.ship_goods, state.ship_loads
    total = 0
    empty_room = -1  # the largest empty ship's capacity, found when first needed
    for good in range(5):
        held = player.goods[good]
        if not held:
            continue
        if good in kinds:
            i = kinds.index(good)
            total += min(held, caps[i] - loads[i])
        else:
            if empty_room < 0:
                empty_room = max([caps[i] for i in range(len(caps)) if kinds[i] < 0], default=0)
            total += min(held, empty_room)
    return float(total)


def _best_sale(style: Style, state: State, player: Player) -> float:
    if len(state.trading_house) >= TRADING_HOUSE_SPACES:
        return 0.0
    best = 0.0
    for good in range(5):
        if player.goods[good] and (good not in state.trading_house or player.city[OFFICE] > 0):
            best = max(best, (sale_price(player, good, True)) * DOUBLOON - (1.0 if style.keeps_for_shipping[good] else 0.0))
    return best


# --- builder ---------------------------------------------------------------------------------------------


def _best_building(style: Style, state: State, seat: int, is_builder: bool) -> float:
    player = state.players[seat]
    free_spaces = CITY_SPACES - city_spaces_used(player)
    budget = player.doubloons + (1 if is_builder else 0)
    rounds_left = _rounds_left(state)  # once, not per building: it is the hottest part of a rollout's role choice
    best = 0.0
    for b in range(N_BUILDINGS):
        if state.building_supply[b] and player.city[b] < 0 and SPACES[b] <= free_spaces and price(player, b, is_builder) <= budget:
            best = max(best, _building_worth(style, player, b, rounds_left))
    return best + (DOUBLOON if best > 0 else 0.0)


def _build_value(style: Style, state: State, building: int, rounds_left: int) -> float:
    player = state.players[state.turn]
    cost = price(player, building, state.turn == state.chooser)
    return _building_worth(style, player, building, rounds_left) - 0.05 * cost


def _building_worth(style: Style, player: Player, building: int, rounds_left: int) -> float:
    """The style's taste for ``building``, more for a production building its plantations need, late in the game (the
    rounds left by :func:`_rounds_left`) its VP."""
    value = style.buildings[building]
    if building in PRODUCERS[1] or building in PRODUCERS[2] or building in PRODUCERS[3] or building in PRODUCERS[4]:
        good = next(g for g in range(1, 5) if building in PRODUCERS[g])
        circles = sum(CIRCLES[b] for b in PRODUCERS[good] if player.city[b] >= 0)
        value += 1.0 if player.island[good] > circles else -1.0
        if rounds_left < 3:
            value = min(value, float(COLUMNS[building]))
    elif rounds_left < 3 and COLUMNS[building] < 4:
        value = min(value, float(COLUMNS[building]))  # a violet building's effect no longer pays back
    return value


def _rounds_left(state: State) -> int:
    """A rough count of rounds to go: from the colonists, the VP chips and the free city spaces left."""
    if state.end_triggered:
        return 0
    colonists = state.colonist_supply // max(state.n, 1)
    chips = state.vp_bank // (3 * state.n)
    spaces = min(CITY_SPACES - city_spaces_used(p) for p in state.players)
    return min(colonists, chips, spaces + 1)


def _sell_value(style: Style, state: State, good: int) -> float:
    player = state.players[state.turn]
    value = sale_price(player, good, state.turn == state.chooser) * DOUBLOON
    return value - (1.0 if style.keeps_for_shipping[good] else 0.0) + 0.01


def _load_value(state: State, good: int, capacity: int) -> float:
    """Barrels this load ships (one point each), a little more for the cheap kinds (the dear ones sell)."""
    caps, kinds, loads = capacities(state), state.ship_goods, state.ship_loads
    held = state.players[state.turn].goods[good]
    if good in kinds:
        i = kinds.index(good)
    else:
        i = caps.index(capacity)
    return min(held, caps[i] - loads[i]) + 0.1 * (4 - PRICES[good])


# --- mayor ---------------------------------------------------------------------------------------------------


def _placements(style: Style, state: State) -> list[int]:
    """The slots, in order, of the best circles for the colonists left to place (from ``last_slot`` on).

    The best circles are the first by worth, ties to the lower slot. A slot's circles are worth one value for the first
    few and a lower one for the rest (:func:`_circle_tiers`), so the slots' tiers are ranked rather than every circle:
    the same circles, without a tuple for each (the planning was a fifth of a rollout's CPU).
    """
    player = state.players[state.turn]
    # Each tier as (minus its worth, its slot, its circles): a plain sort ranks the best first, ties by slot; a slot's
    # two tiers never tie (the first is worth more), so the circles count is never compared.
    tiers: list[tuple[float, int, int]] = []
    for slot in range(state.last_slot, N_SLOTS):
        free = free_at(player, slot)
        if free <= 0:
            continue
        high, high_circles, low = _circle_tiers(style, player, slot)
        first = min(free, high_circles)
        if first:
            tiers.append((-high, slot, first))
        if free > first:
            tiers.append((-low, slot, free - first))
    tiers.sort()
    chosen: list[int] = []
    left = player.san_juan
    for _, slot, circles in tiers:
        taken = min(circles, left)
        chosen.extend([slot] * taken)
        left -= taken
        if not left:
            break
    chosen.sort()
    return chosen


def _circle_tiers(style: Style, player: Player, slot: int) -> tuple[float, int, float]:
    """The worth of ``slot``'s empty circles: (the first ones' worth, how many of them, the others' worth). The first
    circles of a production pair (a plantation with room in its building, or the reverse) count most."""
    if slot == CORN:
        return 3.0, 0, 3.0
    if slot == QUARRY:
        value = style.tiles[QUARRY] + 0.5
        return value, 0, value
    if slot < BUILDING_SLOT:
        good = slot
        staffed_room = sum(CIRCLES[b] for b in PRODUCERS[good] if player.city[b] >= 0)
        pairs = max(0, staffed_room - player.island_workers[good])
        return BARREL + PRICES[good] * 0.5, pairs, 0.3
    building = slot - BUILDING_SLOT
    if COLUMNS[building] == 4 and CIRCLES[building] == 1 and SPACES[building] == 2:
        return LARGE_CIRCLE, 0, LARGE_CIRCLE
    for good in range(1, 5):
        if building in PRODUCERS[good]:
            room = player.island[good] - sum(max(player.city[b], 0) for b in PRODUCERS[good])
            return BARREL + PRICES[good] * 0.5, max(0, room), 0.2
    value = 1.0 + style.buildings[building] * 0.5
    return value, 0, value


#: The shipping strategy bot.
shipping_bot = StrategyBot(SHIPPING)
#: The building strategy bot.
building_bot = StrategyBot(BUILDING)
#: The game's strategy bots by name (:mod:`engine.players.offered`).
STRATEGIES: Final = {"shipping": shipping_bot, "building": building_bot}
