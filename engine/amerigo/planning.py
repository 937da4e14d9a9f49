"""Red: planning, tiles from the supply into one's stock; yellow: buying production tokens.

Seed, "PIROS AKCIÓ: TERVEZÉS": "Egy saját falulapka elvétele, annak méretétől függetlenül, 1 AP-be
kerül. Egy semleges tájlap ára 1-6 AP, a méretétől függően. Egy játékos csak egy semleges
tájlapkát vehet el minden fázisban" (an own village tile costs 1 AP whatever its size; a neutral
tile 1-6 AP by size; one neutral tile per phase; PT14: two, both paid). "SÁRGA AKCIÓ": "A
termelésjelző AP költsége megegyezik a jelzón látható számmal" (a production token costs its
printed value in AP).
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.kind_table import kind_table
from engine.amerigo.notation import END, SPEND, Action
from engine.amerigo.state import EMPTY, State, players_with
from engine.amerigo.tokens import PT14, owns
from engine.amerigo.turns import legal_cash
from engine.core.records import add_at, set_at


def neutral_limit(state: State) -> int:
    """Neutral tiles the player may plan this phase: 1, or 2 with PT14."""
    return 2 if owns(state.me, PT14) else 1


def legal_plan(state: State) -> list[Action]:
    """Every tile the AP pay for: own village tiles (1 AP), a neutral tile (its size) while under the limit."""
    components = state.components
    table = kind_table(components)
    player = state.me
    ap = state.ap
    result: list[Action] = []
    if ap >= 1:
        result += [table.plan_actions[k] for i, k in enumerate(components.village_kinds) if player.villages[i]]
    neutral_open = state.neutral_taken < neutral_limit(state)
    if neutral_open:
        result += [table.plan_actions[k] for k in components.neutral_kinds if state.neutral[k] and table.take_costs[k] <= ap]
    if player.gold and (any(player.villages) or (neutral_open and any(state.neutral))):
        result.append(SPEND)
    return result + legal_cash(player) + [END]


def apply_plan(state: State, action: Action) -> State:
    """The tile goes from the supply to the player's stock."""
    components = state.components
    table = kind_table(components)
    k = table.kind_index(action[1])
    seat = state.seat
    player = state.players[seat].copy()
    player.stock = add_at(player.stock, k, 1)
    new = state.copy()
    if table.is_village[k]:
        player.villages = add_at(player.villages, k - len(components.neutral_kinds), -1)
    else:
        new.neutral = add_at(state.neutral, k, -1)
        new.neutral_taken = state.neutral_taken + 1
    new.players = players_with(state.players, seat, player)
    new.ap = state.ap - table.take_costs[k]
    return new


def production_kind(good: int, value: int) -> int:
    """The production kind index of a (good, value) token."""
    return good * len(c.PRODUCTION_VALUES) + c.PRODUCTION_VALUES.index(value)


def legal_buy(state: State) -> list[Action]:
    """Every kind of production token on the board whose value the AP pay for."""
    values = len(c.PRODUCTION_VALUES)
    kinds = sorted({k for k in state.production_spaces if k != EMPTY})
    result: list[Action] = [("buy", k // values, c.PRODUCTION_VALUES[k % values]) for k in kinds
                            if c.PRODUCTION_VALUES[k % values] <= state.ap]
    if state.me.gold and kinds:
        result.append(SPEND)
    return result + legal_cash(state.me) + [END]


def apply_buy(state: State, action: Action) -> State:
    """The token (from the first space holding one like it) goes to the player's sheet."""
    kind = production_kind(action[1], action[2])
    space = state.production_spaces.index(kind)
    seat = state.seat
    player = state.players[seat].copy()
    player.production = add_at(player.production, kind, 1)
    new = state.copy()
    new.production_spaces = set_at(state.production_spaces, space, EMPTY)
    new.ap = state.ap - action[2]
    new.players = players_with(state.players, seat, player)
    return new
