"""Game-log sentences: what a person would write about each action.

``describe(state, action)`` speaks of the state *before* the action, so it can say whom a bid
displaces or what a house costs ("Anna builds on the desert suburb DE7, paying 2 desert cards").
Secrets stay secret: a landscape card dealt into a hand and a bonus card kept are not named.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.golden_city.bidding import displacement_cost
from engine.golden_city.component_set import HARBOUR, INNER, OUTER, ComponentSet
from engine.golden_city.components import TERRAIN_NAMES
from engine.golden_city.flow import pair_of
from engine.golden_city.notation import DECLINE_BONUS, Action
from engine.golden_city.state import GOODS_DRAW, LAYOUT, SETUP_DEAL, SETUP_GOODS, State


def plural(count: int, word: str) -> str:
    """``1 coin``, ``2 coins``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def cards_phrase(counts: tuple[int, ...], own: int = -1) -> str:
    """``a mountains card and 2 coast cards as a joker`` (``own``: the terrain being paid for)."""
    parts = []
    for terrain, count in enumerate(counts):
        if not count:
            continue
        words = f"a {TERRAIN_NAMES[terrain]} card" if count == 1 else f"{count} {TERRAIN_NAMES[terrain]} cards"
        if own >= 0 and terrain != own:
            words += " as a joker" if count == 2 else " as jokers"
        parts.append(words)
    if len(parts) <= 1:
        return "".join(parts) or "nothing"
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def site_phrase(components: ComponentSet, site: int) -> str:
    """``harbour HA16``, ``the mountains suburb MT4``, ``the outer city part C-DE-O2``."""
    sid = components.site_ids[site]
    kind = components.kinds[site]
    if kind == HARBOUR:
        return f"harbour {sid}"
    terrain = TERRAIN_NAMES[components.terrains[site]]
    if kind == OUTER:
        return f"the outer {terrain} city part {sid}"
    if kind == INNER:
        return f"the inner {terrain} city part {sid}"
    return f"the {terrain} suburb {sid}"


def goods_phrase(components: ComponentSet, card: str) -> str:
    """``goods card G5 (wine and cloth)``."""
    bits = components.goods_of_card[card]
    shown = [g for i, g in enumerate(components.goods) if bits >> i & 1]
    return f"goods card {card} ({' and '.join(shown)})"


def pair_phrase(state: State, pair: int) -> str:
    """``pair 2 (forest + forest)``."""
    cards = [TERRAIN_NAMES[t] for t in pair_of(state, pair) if t >= 0]
    return f"pair {pair + 1} ({' + '.join(cards) or 'no cards'})"


def describe(state: State, action: Action) -> str:
    """One sentence about ``action`` taken in ``state``."""
    verb = action[0]
    if verb in CHANCE_SENTENCES:
        return CHANCE_SENTENCES[verb](state, action)
    who = state.names[state.turn]
    return SENTENCES[verb](state, action, who)


def _bid(state: State, action: Action, who: str) -> str:
    pair = action[1]
    owner = state.bids[pair]
    if owner < 0:
        return f"{who} puts the bidding hand on {pair_phrase(state, pair)}"
    cost = displacement_cost(state)
    return f"{who} displaces {state.names[owner]} from {pair_phrase(state, pair)}, paying {plural(cost, 'coin')}"


def _build(state: State, action: Action, who: str) -> str:
    components = state.components
    site = components.site_index[action[1]]
    paid = cards_phrase(action[2], components.terrains[site])
    key = " and a key card" if action[3] else ""
    return f"{who} builds a house on {site_phrase(components, site)}, paying {paid}{key}"


def _pass(state: State, action: Action, who: str) -> str:
    if state.built:
        return f"{who} builds no second house this turn"
    return f"{who} passes without building"


def _draw(state: State, action: Action, who: str) -> str:
    return f"{who} takes the reward's landscape card from the draw pile"


def _decline(state: State, action: Action, who: str) -> str:
    if action == DECLINE_BONUS:
        return f"{who} takes no bonus card"
    return f"{who} does without the reward's landscape card"


def _bonus(state: State, action: Action, who: str) -> str:
    return f"{who} looks through the bonus cards and keeps one face down"


def _goods(state: State, action: Action, who: str) -> str:
    if action[1] == "pile":
        return f"{who} takes the top goods card of the face-down pile"
    return f"{who} takes {goods_phrase(state.components, action[1])} from the display"


def _box(state: State, action: Action, who: str) -> str:
    return f"{who} has five goods cards and returns {goods_phrase(state.components, action[1])} to the box"


def _discard(state: State, action: Action, who: str) -> str:
    return f"{who} keeps 5 landscape cards and discards {cards_phrase(action[1])}"


def _deal(state: State, action: Action) -> str:
    terrain = TERRAIN_NAMES[action[1]]
    if state.phase == LAYOUT:
        n = state.n
        slot = len(state.layout)
        place = "starts" if slot < n else "completes"
        return f"A {terrain} card {place} pair {slot % n + 1}"
    who = state.names[state.turn]
    if state.phase == SETUP_DEAL:
        return f"{who} draws a landscape card"
    return f"{who} draws a landscape card as a reward"


def _reshuffle(state: State, action: Action) -> str:
    return f"The draw pile is empty: the {plural(sum(state.discard), 'discarded card')} are shuffled into a new draw pile"


def _reveal(state: State, action: Action) -> str:
    components = state.components
    card = action[2]
    if action[1] == "scoring":
        regions = " and ".join(components.region_name(r) for r in components.scoring_regions[card])
        return f"Round {state.round} scores {components.goods[components.scoring_good[card]]} and {regions} (card {card})"
    if state.phase == GOODS_DRAW:
        return f"{state.names[state.turn]} draws {goods_phrase(components, card)} and lays it face up"
    where = "is turned up for the goods display" if state.phase == SETUP_GOODS else "refills the goods display"
    return f"{goods_phrase(components, card).capitalize()} {where}"


SENTENCES: dict[str, Callable[[State, Action, str], str]] = {
    "bid": _bid, "build": _build, "pass": _pass, "draw": _draw, "decline": _decline, "bonus": _bonus,
    "goods": _goods, "box": _box, "discard": _discard,
}
CHANCE_SENTENCES: dict[str, Callable[[State, Action], str]] = {"deal": _deal, "reshuffle": _reshuffle, "reveal": _reveal}
