"""The captain phase ("A kapitány"): forced loading round after round, then storage.

From the captain in order, a player who can load must load one kind per turn, as many barrels
as fit. A ship carries one kind; a kind on one ship goes on no other; a full ship takes
nothing; of the empty ships the one that takes the most barrels (any of those that take them
all). One VP per barrel, +1 on the captain's first loading (privilege), +1 per loading with a
working harbor; either bonus may be declined ("sem az ahhoz tartozó privilégiummal nem kötelező
élnie"; "nem kötelező használni működő lila épületeiket"), written ``load sugar 7 without 1 vp``
(2 when both are due and both declined), while that can matter (:func:`flow.can_decline`: a chip
left in the bank can keep the chips from running out). The captain's privilege is tied to his
first loading, so declining it there forfeits it for the phase. A working wharf ships all
barrels of one kind, once per phase and optional.
The loading ends when every player in turn has passed or been unable to load. Then each player
keeps one barrel (windrose) plus all barrels of one kind per small warehouse and two per large
warehouse; the rest go back. Last, full ships are emptied into the supply.
"""

from __future__ import annotations

from itertools import combinations

from engine.core.records import add_at, set_at
from engine.puerto_rico.components import HARBOR, LARGE_WAREHOUSE, SHIP_CAPACITIES, SMALL_WAREHOUSE, WHARF
from engine.puerto_rico.flow import can_decline, end_phase
from engine.puerto_rico.notation import (
    LOAD_ACTIONS,
    LOAD_WITHOUT,
    PASS,
    WHARF_ACTIONS,
    WHARF_WITHOUT,
    Action,
    declined,
    keep_action,
)
from engine.puerto_rico.state import LOAD, STORE, Player, State, at_turn, begin_phase, one_more_done, with_player


def capacities(state: State) -> tuple[int, ...]:
    """Cargo ship capacities for this player count."""
    return SHIP_CAPACITIES[state.n]


def begin(state: State) -> State:
    """Loading starts with the captain."""
    new = begin_phase(state, LOAD)
    new.turn, new.captain_bonus_used, new.wharf_used = state.chooser, False, (False,) * state.n
    return advance(new)


def ship_choices(state: State, good: int, amount: int) -> tuple[int, ...]:
    """The ships (indexes) ``amount`` barrels of ``good`` may go onto, by the ship-choice rules."""
    caps, kinds, loads = capacities(state), state.ship_goods, state.ship_loads
    if good in kinds:
        i = kinds.index(good)
        return (i,) if loads[i] < caps[i] else ()
    empty = [i for i in range(3) if kinds[i] < 0]
    if not empty:
        return ()
    taking_all = tuple(i for i in empty if caps[i] >= amount)
    return taking_all or (max(empty, key=lambda i: caps[i]),)


def legal_cargo(state: State, seat: int) -> list[Action]:
    """Every (good, ship) load open to ``seat``."""
    caps = capacities(state)
    goods = state.players[seat].goods
    return [LOAD_ACTIONS[good, caps[i]] for good in range(5) if goods[good] for i in ship_choices(state, good, goods[good])]


def legal_actions(state: State) -> tuple[Action, ...]:
    """Loads, then wharf shipments; pass only when no cargo ship can take anything."""
    return legal_for_seat(state, state.turn)


def legal_for_seat(state: State, seat: int) -> tuple[Action, ...]:
    """The legal loads of ``seat`` now, each followed by its forms declining bonus VP."""
    player = state.players[seat]
    actions = legal_cargo(state, seat)
    can_load = bool(actions)
    if player.city[WHARF] > 0 and not state.wharf_used[seat]:
        actions.extend(WHARF_ACTIONS[g] for g in range(5) if player.goods[g])
    if not actions:
        return ()
    bonus = bonus_due(state, seat, player)
    if bonus and can_decline(state):
        declining = range(1, bonus + 1)
        actions = [
            variant
            for a in actions
            for variant in (a, *(LOAD_WITHOUT[a[1], a[2], k] if a[0] == "load" else WHARF_WITHOUT[a[1], k] for k in declining))
        ]
    if not can_load:
        actions.append(PASS)
    return tuple(actions)


def bonus_due(state: State, seat: int, player: Player) -> int:
    """Bonus VP a loading by ``seat`` earns now: the captain's first-load point, the harbor's point."""
    bonus = 1 if player.city[HARBOR] > 0 else 0
    if seat == state.chooser and not state.captain_bonus_used:
        bonus += 1
    return bonus


def advance(state: State) -> State:
    """Skip players who cannot load; after a full turn of the table without a load, store."""
    n, turns_done, seat = state.n, state.turns_done, state.turn
    while turns_done < n:
        if legal_for_seat(state, seat):
            return at_turn(state, seat, turns_done) if turns_done != state.turns_done or seat != state.turn else state
        turns_done, seat = turns_done + 1, (seat + 1) % n
    return begin_storage(state)


def score(new: State, seat: int, player: Player, barrels: int, declined: int = 0) -> None:
    """VP for one loading, set on ``new`` and ``player``, the state and ``seat``'s board the loading has just made:
    a VP per barrel, the captain's first-load point, the harbor point, less the bonus VP ``declined`` (the
    captain's point is used up by his first loading either way)."""
    points = barrels + (1 if player.city[HARBOR] > 0 else 0) - declined
    if seat == new.chooser and not new.captain_bonus_used:
        points += 1
        new.captain_bonus_used = True
    player.vp += points
    # VP owed after the bank runs out still count; running out ends the game after this round.
    new.vp_bank -= min(new.vp_bank, points)
    new.end_triggered = new.end_triggered or new.vp_bank == 0


def apply(state: State, action: Action) -> State:
    """Load on a ship, ship with the wharf (either maybe declining bonus VP), or pass."""
    seat, n = state.turn, state.n
    op = action[0]
    if op == "pass":
        return advance(at_turn(state, (seat + 1) % n, state.turns_done + 1))
    player = state.players[seat].copy()
    good = action[1]
    new = at_turn(state, (seat + 1) % n, 0)
    if op == "load":
        i = capacities(state).index(action[2])
        barrels = min(player.goods[good], action[2] - state.ship_loads[i])
        new.ship_goods, new.ship_loads = set_at(state.ship_goods, i, good), add_at(state.ship_loads, i, barrels)
    else:
        barrels = player.goods[good]
        new.goods_supply, new.wharf_used = add_at(state.goods_supply, good, barrels), set_at(state.wharf_used, seat, True)
    player.goods = add_at(player.goods, good, -barrels)
    new.players = set_at(state.players, seat, player)
    score(new, seat, player, barrels, declined(action))
    return advance(new)


# --- storage at the end of the captain phase ---------------------------------------------


def keep_choices(player: Player) -> tuple[tuple[int, ...], ...]:
    """Every distinct way to keep the most barrels: warehoused kinds whole, one on the windrose."""
    goods = player.goods
    kinds = [g for g in range(5) if goods[g]]
    stores = (1 if player.city[SMALL_WAREHOUSE] > 0 else 0) + (2 if player.city[LARGE_WAREHOUSE] > 0 else 0)
    if len(kinds) <= stores:
        return (goods,)
    seen: dict[tuple[int, ...], None] = {}
    for stored in combinations(kinds, stores):
        for windrose in kinds:
            if windrose not in stored:
                kept = tuple(goods[g] if g in stored else (1 if g == windrose else 0) for g in range(5))
                seen.setdefault(kept)
    return tuple(seen)


def begin_storage(state: State) -> State:
    """Storage goes in order from the captain."""
    return advance_storage(begin_phase(state, STORE))


def legal_storage(state: State) -> tuple[Action, ...]:
    """The keep actions of the player at ``turn`` (empty when only one outcome is possible)."""
    choices = keep_choices(state.players[state.turn])
    return tuple(keep_action(k) for k in choices) if len(choices) > 1 else ()


def advance_storage(state: State) -> State:
    """Store without asking where there is no choice; stop at the first real choice."""
    n, turns_done = state.n, state.turns_done
    while turns_done < n:
        seat = (state.chooser + turns_done) % n
        choices = keep_choices(state.players[seat])
        if len(choices) > 1:
            return at_turn(state, seat, turns_done)
        state = keep(state, seat, choices[0])
        turns_done += 1
    return unload_full_ships(state)


def keep(state: State, seat: int, kept: tuple[int, ...]) -> State:
    """``seat`` keeps ``kept``; the rest of their barrels go back to the supply."""
    player = state.players[seat]
    if kept == player.goods:
        return state
    supply, goods = state.goods_supply, player.goods
    supply = tuple([supply[g] + goods[g] - kept[g] for g in range(5)])
    player = player.copy()
    player.goods = kept
    new = with_player(state, seat, player)
    new.goods_supply = supply
    return new


def apply_storage(state: State, action: Action) -> State:
    """Keep the chosen barrels."""
    state = keep(state, state.turn, action[1])
    return advance_storage(one_more_done(state))


def unload_full_ships(state: State) -> State:
    """Full ships go back empty, their barrels to the supply; the phase ends."""
    caps = capacities(state)
    supply, kinds, loads = state.goods_supply, state.ship_goods, state.ship_loads
    for i in range(3):
        if loads[i] == caps[i]:
            supply = add_at(supply, kinds[i], loads[i])
            kinds, loads = set_at(kinds, i, -1), set_at(loads, i, 0)
    new = state.copy()
    new.goods_supply, new.ship_goods, new.ship_loads = supply, kinds, loads
    return end_phase(new)
