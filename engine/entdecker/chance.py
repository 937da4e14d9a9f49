"""Chance: the wheel, the stacks' backs, the tiles drawn, the chips (digest, "Chance points").

The lazy model: a stack's new top shows a '?' back with weight U - V, a plain one with weight
U' - V' (U = undrawn tiles with that back, tops included; V = the other stacks whose top shows it),
and the tile drawn from a stack is a type with the back shown there, weighted by its undrawn
copies. This gives exactly the odds of shuffling the tiles, dealing them into stacks and seeing
the backs of the tops, without any hidden identity in the state.
"""

from __future__ import annotations

from engine.core.records import add_at, set_at
from engine.entdecker import flow, geometry
from engine.entdecker.component_set import EVENT_BACK, PLAIN_BACK
from engine.entdecker.notation import Action
from engine.entdecker.scoring import award
from engine.entdecker.state import BACK, NATIVES_CHIP, PLACE, SCORE_CHIP, SETUP_BACK, SPIN, START, TILE, State


def outcomes(state: State) -> list[tuple[Action, int]]:
    """Every possible chance outcome now with its weight (only positive weights are listed)."""
    phase = state.phase
    if phase == TILE:
        return _tile_outcomes(state)
    if phase in (SETUP_BACK, BACK):
        return _back_outcomes(state, state.stack)
    if phase == SPIN:
        return list(state.components.spin_outcomes)
    if phase in (NATIVES_CHIP, SCORE_CHIP):
        chips = state.components.chip_actions
        pool = state.pool
        return [(chips[i], pool[i]) for i in range(len(pool)) if pool[i]]
    return []


def _tile_outcomes(state: State) -> list[tuple[Action, int]]:
    back = state.tops[state.stack]
    components = state.components
    tiles, backs = components.tile_actions, components.draw_backs
    undrawn = state.undrawn
    return [(tiles[t], undrawn[t]) for t in range(len(undrawn)) if undrawn[t] and backs[t] == back]


def _back_outcomes(state: State, stack: int) -> list[tuple[Action, int]]:
    # Per back (plain, '?'): the weight is the undrawn tiles showing it less the other stacks' tops showing it.
    backs = state.components.draw_backs
    counts = state.undrawn
    weight_plain = weight_event = 0
    for t in range(len(counts)):
        if backs[t] == EVENT_BACK:
            weight_event += counts[t]
        else:
            weight_plain += counts[t]
    tops = state.tops
    for k in range(len(tops)):
        if k != stack and tops[k] >= 0:
            if tops[k] == EVENT_BACK:
                weight_event -= 1
            else:
                weight_plain -= 1
    out: list[tuple[Action, int]] = []
    if weight_event > 0:
        out.append((("back", stack, EVENT_BACK), weight_event))
    if weight_plain > 0:
        out.append((("back", stack, PLAIN_BACK), weight_plain))
    return out


def apply(state: State, action: Action) -> State:
    """The state after the chance outcome ``action``."""
    phase = state.phase
    if phase == TILE:
        return _drawn(state, action[1])
    if phase == SETUP_BACK:
        new = state.copy()
        new.tops = set_at(state.tops, action[1], action[2])
        following = action[1] + 1
        if following < len(new.tops):
            new.stack = following
        else:
            new.stack = 0
            new.phase = SPIN
        return new
    if phase == BACK:
        new = state.copy()
        new.tops = set_at(state.tops, action[1], action[2])
        return _after_draw(new)
    if phase == SPIN:
        return _income(state, action[1])
    if phase == NATIVES_CHIP:
        return flow.explore_point(_gain_chip(state, state.turn, action[1]))
    return _island_chip(state, action[1])


def _income(state: State, value: int) -> State:
    """ "Minden játékos annyi pénzt kap, amennyit a nyíl mutat, de semmilyen módon nem mehet a játékosok
    aranykészlete tizenkettő fölé." (every player gains what the arrow shows, never above twelve.)"""
    cap = state.components.gold_max
    gold = state.gold
    new = state.copy()
    new.gold = tuple([min(cap, gold[seat] + value) for seat in range(len(gold))])
    new.income = value
    new.phase = START
    return new


def _drawn(state: State, key: str) -> State:
    """The tile comes off its stack; chance turns the stack's new top next, if there is one."""
    kind = state.components.key_index[key]
    k = state.stack
    stacks = add_at(state.stacks, k, -1)
    new = state.copy()
    new.undrawn = add_at(state.undrawn, kind, -1)
    new.stacks = stacks
    new.tops = set_at(state.tops, k, -1)
    new.tile = kind
    if stacks[k]:
        new.phase = BACK
        return new
    return _after_draw(new)


def _after_draw(state: State) -> State:
    """ "Ha a részlet nem illeszkedik, akkor kikerül a játékból ... Ha a részlet illeszkedik, akkor muszáj
    letenni." (a tile that does not fit leaves the game, and a '?' tile's event does not happen; one that
    fits must be placed.)"""
    if geometry.fits_behind_passage(state.components, state.board, state.ship, state.tile):
        return flow.with_phase(state, PLACE)
    new = state.copy()
    new.discarded = add_at(state.discarded, state.tile, 1)
    new.tile = -1
    return flow.explore_point(new)


def _gain_chip(state: State, seat: int, value: int) -> State:
    index = state.components.chip_values.index(value)
    new = state.copy()
    new.chips = set_at(state.chips, seat, state.chips[seat] + (value,))
    new.pool = add_at(state.pool, index, -1)
    return new


def _island_chip(state: State, value: int) -> State:
    """A greatest explorer's chip; after the last one the island is scored with the highest value drawn.

    "Ha egynél több játékos kapott korongot, akkor csak a legnagyobb értékűt kell beleszámolni." (if more
    than one player got a chip, only the highest value counts.)
    """
    seat, queue = state.chip_queue[0], state.chip_queue[1:]
    new = _gain_chip(state, seat, value).copy()
    new.chip_queue = queue
    new.chip_best = max(state.chip_best, value)
    if queue:
        return new
    scored = award(new, new.islands[0], new.chip_best).copy()
    scored.islands = new.islands[1:]
    scored.chip_best = 0
    return flow.score_islands(scored)
