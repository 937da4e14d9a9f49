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
        components = state.components
        return [(("spin", v), w) for v, w in zip(components.wheel_values, components.wheel_weights, strict=True) if w]
    if phase in (NATIVES_CHIP, SCORE_CHIP):
        components = state.components
        return [(("chip", v), c) for v, c in zip(components.chip_values, state.pool, strict=True) if c]
    return []


def _tile_outcomes(state: State) -> list[tuple[Action, int]]:
    back = state.tops[state.stack]
    kinds = state.components.kinds
    return [(("tile", kinds[t].key), count) for t, count in enumerate(state.undrawn) if count and kinds[t].back == back]


def _back_outcomes(state: State, stack: int) -> list[tuple[Action, int]]:
    kinds = state.components.kinds
    undrawn = [0, 0]
    for t, count in enumerate(state.undrawn):
        undrawn[kinds[t].back] += count
    shown = [0, 0]
    for k, top in enumerate(state.tops):
        if k != stack and top >= 0:
            shown[top] += 1
    out = []
    for back in (EVENT_BACK, PLAIN_BACK):
        weight = undrawn[back] - shown[back]
        if weight > 0:
            out.append((("back", stack, back), weight))
    return out


def apply(state: State, action: Action) -> State:
    """The state after the chance outcome ``action``."""
    phase = state.phase
    if phase == TILE:
        return _drawn(state, action[1])
    if phase == SETUP_BACK:
        tops = set_at(state.tops, action[1], action[2])
        following = action[1] + 1
        if following < len(tops):
            return state.evolve(tops=tops, stack=following)
        return state.evolve(tops=tops, stack=0, phase=SPIN)
    if phase == BACK:
        return _after_draw(state.evolve(tops=set_at(state.tops, action[1], action[2])))
    if phase == SPIN:
        return _income(state, action[1])
    if phase == NATIVES_CHIP:
        return flow.explore_point(_gain_chip(state, state.turn, action[1]))
    return _island_chip(state, action[1])


def _income(state: State, value: int) -> State:
    """ "Minden játékos annyi pénzt kap, amennyit a nyíl mutat, de semmilyen módon nem mehet a játékosok
    aranykészlete tizenkettő fölé." (every player gains what the arrow shows, never above twelve.)"""
    cap = state.components.gold_max
    return state.evolve(gold=tuple(min(cap, g + value) for g in state.gold), income=value, phase=START)


def _drawn(state: State, key: str) -> State:
    """The tile comes off its stack; chance turns the stack's new top next, if there is one."""
    kind = state.components.key_index[key]
    k = state.stack
    stacks = add_at(state.stacks, k, -1)
    state = state.evolve(undrawn=add_at(state.undrawn, kind, -1), stacks=stacks, tops=set_at(state.tops, k, -1), tile=kind)
    if stacks[k]:
        return state.evolve(phase=BACK)
    return _after_draw(state)


def _after_draw(state: State) -> State:
    """ "Ha a részlet nem illeszkedik, akkor kikerül a játékból ... Ha a részlet illeszkedik, akkor muszáj
    letenni." (a tile that does not fit leaves the game, and a '?' tile's event does not happen; one that
    fits must be placed.)"""
    if geometry.placements(state.components, state.board, state.ship, state.tile):
        return state.evolve(phase=PLACE)
    state = state.evolve(discarded=add_at(state.discarded, state.tile, 1), tile=-1)
    return flow.explore_point(state)


def _gain_chip(state: State, seat: int, value: int) -> State:
    index = state.components.chip_values.index(value)
    chips = set_at(state.chips, seat, state.chips[seat] + (value,))
    return state.evolve(chips=chips, pool=add_at(state.pool, index, -1))


def _island_chip(state: State, value: int) -> State:
    """A greatest explorer's chip; after the last one the island is scored with the highest value drawn.

    "Ha egynél több játékos kapott korongot, akkor csak a legnagyobb értékűt kell beleszámolni." (if more
    than one player got a chip, only the highest value counts.)
    """
    seat, queue = state.chip_queue[0], state.chip_queue[1:]
    state = _gain_chip(state, seat, value).evolve(chip_queue=queue, chip_best=max(state.chip_best, value))
    if queue:
        return state
    island = state.islands[0]
    state = award(state, island, state.chip_best).evolve(islands=state.islands[1:], chip_best=0)
    return flow.score_islands(state)
