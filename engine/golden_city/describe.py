"""Game-log sentences: what a person would write about each action, as messages (:mod:`engine.core.messages`).

``describe_message(state, action)`` speaks of the state *before* the action, so it can say whom a bid
displaces or what a house costs ("Anna builds on the desert suburb DE7, paying 2 desert cards").
Secrets stay secret: a landscape card dealt into a hand and a bonus card kept are not named.
:data:`TEMPLATES` are the sentences' English templates, the source of the game's catalog; ``describe`` is the
message in English.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.messages import Arg, Listing, Message, Template, Term, english, message
from engine.golden_city.bidding import displacement_cost
from engine.golden_city.component_set import HARBOUR, INNER, OUTER, ComponentSet
from engine.golden_city.components import TERRAIN_NAMES, TERRAINS
from engine.golden_city.flow import pair_of
from engine.golden_city.notation import DECLINE_BONUS, Action
from engine.golden_city.state import BID, GOODS_DRAW, LAYOUT, OVER, REVEAL, SETUP_DEAL, SETUP_GOODS, State

GAME = "golden_city"

#: The English templates by id: the catalog's source (service/i18n/games/translations).
TEMPLATES: dict[str, Template] = {
    "golden_city.cards": ("a {terrain} card", "{n} {terrain} cards"),
    "golden_city.cards.as_joker": "{cards} as a joker",
    "golden_city.cards.as_jokers": "{cards} as jokers",
    "golden_city.nothing": "nothing",
    "golden_city.site.harbour": "harbour {site}",
    "golden_city.site.outer": "the outer {terrain} city part {site}",
    "golden_city.site.inner": "the inner {terrain} city part {site}",
    "golden_city.site.suburb": "the {terrain} suburb {site}",
    "golden_city.goods_card": "goods card {card} ({goods})",
    "golden_city.pair": "pair {pair} ({cards})",
    "golden_city.pair.no_cards": "no cards",
    "golden_city.region.river": "the river {river}",
    "golden_city.region.district": "the {terrain} district",
    "golden_city.bid": "{who} puts the bidding hand on {pair}",
    "golden_city.bid.displace": ("{who} displaces {owner} from {pair}, paying {n} coin",
                                 "{who} displaces {owner} from {pair}, paying {n} coins"),
    "golden_city.build": "{who} builds a house on {site}, paying {paid}{key}",
    "golden_city.build.key": " and a key card",
    "golden_city.pass.second": "{who} builds no second house this turn",
    "golden_city.pass": "{who} passes without building",
    "golden_city.draw": "{who} takes the reward's landscape card from the draw pile",
    "golden_city.decline.bonus": "{who} takes no bonus card",
    "golden_city.decline.card": "{who} does without the reward's landscape card",
    "golden_city.bonus": "{who} looks through the bonus cards and keeps one face down",
    "golden_city.goods.pile": "{who} takes the top goods card of the face-down pile",
    "golden_city.goods": "{who} takes {goods} from the display",
    "golden_city.box": "{who} has five goods cards and returns {goods} to the box",
    "golden_city.discard": "{who} keeps 5 landscape cards and discards {cards}",
    "golden_city.deal.starts": "A {terrain} card starts pair {pair}",
    "golden_city.deal.completes": "A {terrain} card completes pair {pair}",
    "golden_city.deal.setup": "{who} draws a landscape card",
    "golden_city.deal.reward": "{who} draws a landscape card as a reward",
    "golden_city.reshuffle": ("The draw pile is empty: the {n} discarded card are shuffled into a new draw pile",
                              "The draw pile is empty: the {n} discarded cards are shuffled into a new draw pile"),
    "golden_city.reveal.scoring": "Round {round} scores {good} and {regions} (card {card})",
    "golden_city.reveal.drawn": "{who} draws {goods} and lays it face up",
    "golden_city.reveal.setup": "{goods:cap} is turned up for the goods display",
    "golden_city.reveal.refill": "{goods:cap} refills the goods display",
    # The board's caption (replay_ui/games/golden_city.py): where the round stands.
    "golden_city.caption.setup": "Setup",
    "golden_city.caption.round": "Round {round}",
    "golden_city.caption.bidding": "bidding (a displacement costs {cost})",
    "golden_city.caption.final": "final scoring",
    "golden_city.caption.building": "building",
    "golden_city.caption.layout": "laying out the landscape pairs",
    "golden_city.caption.start_key": "start key {who}",
    "golden_city.caption.scoring": "scoring {good} and {regions}",
    "golden_city.caption.last_round": "last round",
}


def terrain(index: int) -> Term:
    """Terrain ``index`` as a glossary term."""
    return Term(GAME, "terrain", TERRAIN_NAMES[index])


def good(name: str) -> Term:
    """A good (the component set's name) as a glossary term."""
    return Term(GAME, "good", name)


def cards_phrase(counts: tuple[int, ...], own: int = -1) -> Arg:
    """``a mountains card and 2 coast cards as a joker`` (``own``: the terrain being paid for)."""
    parts: list[Arg] = []
    for kind, count in enumerate(counts):
        if not count:
            continue
        words = message("golden_city.cards", n=count, terrain=terrain(kind))
        if own >= 0 and kind != own:
            words = message("golden_city.cards.as_joker" if count == 2 else "golden_city.cards.as_jokers", cards=words)
        parts.append(words)
    if not parts:
        return message("golden_city.nothing")
    return parts[0] if len(parts) == 1 else Listing(tuple(parts), "and")


def site_phrase(components: ComponentSet, site: int) -> Message:
    """``harbour HA16``, ``the mountains suburb MT4``, ``the outer desert city part C-DE-O2``."""
    sid = components.site_ids[site]
    kind = components.kinds[site]
    if kind == HARBOUR:
        return message("golden_city.site.harbour", site=sid)
    place = terrain(components.terrains[site])
    if kind == OUTER:
        return message("golden_city.site.outer", terrain=place, site=sid)
    if kind == INNER:
        return message("golden_city.site.inner", terrain=place, site=sid)
    return message("golden_city.site.suburb", terrain=place, site=sid)


def goods_phrase(components: ComponentSet, card: str) -> Message:
    """``goods card G5 (wine and cloth)``."""
    bits = components.goods_of_card[card]
    shown = tuple(good(g) for i, g in enumerate(components.goods) if bits >> i & 1)
    return message("golden_city.goods_card", card=card, goods=Listing(shown, "all_and"))


def pair_phrase(state: State, pair: int) -> Message:
    """``pair 2 (forest + forest)``."""
    cards = tuple(terrain(t) for t in pair_of(state, pair) if t >= 0)
    return message("golden_city.pair", pair=pair + 1,
                   cards=Listing(cards, "plus") if cards else message("golden_city.pair.no_cards"))


def region_phrase(region: str) -> Message:
    """``the river R-NE`` or ``the mountains district`` (:meth:`ComponentSet.region_name` as a message)."""
    if region.startswith("D-"):
        return message("golden_city.region.district", terrain=terrain(TERRAINS.index(region[2:])))
    return message("golden_city.region.river", river=region)


def caption_message(state: State, phase: int) -> tuple[Message, ...]:
    """The board's caption in ``phase`` (the phase the position belongs to) as messages: the round, what it is
    doing, the start key, the scoring card shown, the last round."""
    if phase in (SETUP_DEAL, SETUP_GOODS):
        return (message("golden_city.caption.setup"),)
    parts = [message("golden_city.caption.round", round=state.round)]
    if phase == BID:
        parts.append(message("golden_city.caption.bidding", cost=state.displacements + 1))
    elif phase == OVER:
        parts.append(message("golden_city.caption.final"))
    elif phase not in (REVEAL, LAYOUT):
        parts.append(message("golden_city.caption.building"))
    else:
        parts.append(message("golden_city.caption.layout"))
    if phase != OVER:
        parts.append(message("golden_city.caption.start_key", who=state.names[state.start_seat]))
    if state.scoring_card:
        components = state.components
        card = state.scoring_card
        regions = tuple(region_phrase(r) for r in components.scoring_regions[card])
        parts.append(message("golden_city.caption.scoring", good=good(components.goods[components.scoring_good[card]]),
                             regions=Listing(regions, "all_and")))
    if state.end_triggered and phase != OVER:
        parts.append(message("golden_city.caption.last_round"))
    return tuple(parts)


def describe(state: State, action: Action) -> str:
    """One sentence about ``action`` taken in ``state``, in English."""
    return english(describe_message(state, action), TEMPLATES)


def describe_message(state: State, action: Action) -> Message:
    """One sentence about ``action`` taken in ``state``, as a message."""
    verb = action[0]
    if verb in CHANCE_SENTENCES:
        return CHANCE_SENTENCES[verb](state, action)
    who = state.names[state.turn]
    return SENTENCES[verb](state, action, who)


def _bid(state: State, action: Action, who: str) -> Message:
    pair = action[1]
    owner = state.bids[pair]
    if owner < 0:
        return message("golden_city.bid", who=who, pair=pair_phrase(state, pair))
    return message("golden_city.bid.displace", who=who, owner=state.names[owner], pair=pair_phrase(state, pair),
                   n=displacement_cost(state))


def _build(state: State, action: Action, who: str) -> Message:
    components = state.components
    site = components.site_index[action[1]]
    paid = cards_phrase(action[2], components.terrains[site])
    key: Arg = message("golden_city.build.key") if action[3] else ""
    return message("golden_city.build", who=who, site=site_phrase(components, site), paid=paid, key=key)


def _pass(state: State, action: Action, who: str) -> Message:
    return message("golden_city.pass.second" if state.built else "golden_city.pass", who=who)


def _draw(state: State, action: Action, who: str) -> Message:
    return message("golden_city.draw", who=who)


def _decline(state: State, action: Action, who: str) -> Message:
    return message("golden_city.decline.bonus" if action == DECLINE_BONUS else "golden_city.decline.card", who=who)


def _bonus(state: State, action: Action, who: str) -> Message:
    return message("golden_city.bonus", who=who)


def _goods(state: State, action: Action, who: str) -> Message:
    if action[1] == "pile":
        return message("golden_city.goods.pile", who=who)
    return message("golden_city.goods", who=who, goods=goods_phrase(state.components, action[1]))


def _box(state: State, action: Action, who: str) -> Message:
    return message("golden_city.box", who=who, goods=goods_phrase(state.components, action[1]))


def _discard(state: State, action: Action, who: str) -> Message:
    return message("golden_city.discard", who=who, cards=cards_phrase(action[1]))


def _deal(state: State, action: Action) -> Message:
    if state.phase == LAYOUT:
        n = state.n
        slot = len(state.layout)
        which = "golden_city.deal.starts" if slot < n else "golden_city.deal.completes"
        return message(which, terrain=terrain(action[1]), pair=slot % n + 1)
    who = state.names[state.turn]
    return message("golden_city.deal.setup" if state.phase == SETUP_DEAL else "golden_city.deal.reward", who=who)


def _reshuffle(state: State, action: Action) -> Message:
    return message("golden_city.reshuffle", n=sum(state.discard))


def _reveal(state: State, action: Action) -> Message:
    components = state.components
    card = action[2]
    if action[1] == "scoring":
        regions = tuple(region_phrase(r) for r in components.scoring_regions[card])
        return message("golden_city.reveal.scoring", round=state.round,
                       good=good(components.goods[components.scoring_good[card]]),
                       regions=Listing(regions, "all_and"), card=card)
    goods = goods_phrase(components, card)
    if state.phase == GOODS_DRAW:
        return message("golden_city.reveal.drawn", who=state.names[state.turn], goods=goods)
    which = "golden_city.reveal.setup" if state.phase == SETUP_GOODS else "golden_city.reveal.refill"
    return message(which, goods=goods)


SENTENCES: dict[str, Callable[[State, Action, str], Message]] = {
    "bid": _bid, "build": _build, "pass": _pass, "draw": _draw, "decline": _decline, "bonus": _bonus,
    "goods": _goods, "box": _box, "discard": _discard,
}
CHANCE_SENTENCES: dict[str, Callable[[State, Action], Message]] = {"deal": _deal, "reshuffle": _reshuffle, "reveal": _reveal}
