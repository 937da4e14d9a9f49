"""Game-log sentences: what a person would write about each action.

``describe(state, action)`` speaks of the state *before* the action, so it can say what the
action costs or scores ("Anna builds a harbor for 5 doubloons").
"""

from __future__ import annotations

from engine.puerto_rico import builder, captain, trader
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, HARBOR, ROLE_NAMES
from engine.puerto_rico.mayor import BUILDING_SLOT
from engine.puerto_rico.notation import SLOT_NAMES, Action, declined
from engine.puerto_rico.state import HACIENDA_DRAW, State


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _role_name(card: int) -> str:
    return "prospector" if card >= 6 else ROLE_NAMES[card]


def describe(state: State, action: Action) -> str:
    """One sentence about ``action`` taken in ``state``."""
    op = action[0]
    if op in ("draw", "reshuffle"):
        return _describe_chance(state, action)
    who = state.names[state.turn]
    return SENTENCES[op](state, action, who)


def _describe_chance(state: State, action: Action) -> str:
    if action[0] == "reshuffle":
        return "The discarded plantations are shuffled into a new face-down stack"
    good = GOOD_NAMES[action[1]]
    if state.phase == HACIENDA_DRAW:
        return f"{state.names[state.turn]} draws {_article(good)} plantation with the hacienda"
    return f"{_article(good).capitalize()} plantation is turned face up"


def _role(state: State, action: Action, who: str) -> str:
    coins = state.role_coins[action[1]]
    bonus = f" and takes {_plural(coins, 'doubloon')} from it" if coins else ""
    without = ", declining the privilege colonist" if declined(action) else ""
    return f"{who} chooses the {_role_name(action[1])}{bonus}{without}"


def _plant(state: State, action: Action, who: str) -> str:
    without = ", declining the hospice colonist" if declined(action) else ""
    return f"{who} takes {_article(GOOD_NAMES[action[1]])} plantation{without}"


def _quarry(state: State, action: Action, who: str) -> str:
    without = ", declining the hospice colonist" if declined(action) else ""
    return f"{who} takes a quarry{without}"


def _hacienda(state: State, action: Action, who: str) -> str:
    return f"{who} uses the hacienda to draw a face-down plantation"


def _pass(state: State, action: Action, who: str) -> str:
    return f"{who} passes"


def _place(state: State, action: Action, who: str) -> str:
    slot = action[1]
    what = SLOT_NAMES[slot] if slot >= BUILDING_SLOT or slot == 5 else f"{SLOT_NAMES[slot]} plantation"
    return f"{who} places a colonist on their {what}"


def _build(state: State, action: Action, who: str) -> str:
    building = action[1]
    cost = builder.price(state.players[state.turn], building, state.turn == state.chooser)
    without = ", declining the university colonist" if declined(action) else ""
    return f"{who} builds {_article(BUILDING_NAMES[building])} for {_plural(cost, 'doubloon')}{without}"


def _extra(state: State, action: Action, who: str) -> str:
    return f"{who} takes an extra {GOOD_NAMES[action[1]]} barrel as craftsman"


def _sell(state: State, action: Action, who: str) -> str:
    price = trader.sale_price(state.players[state.turn], action[1], state.turn == state.chooser)
    return f"{who} sells {GOOD_NAMES[action[1]]} for {_plural(price, 'doubloon')}"


def _scored(state: State, barrels: int, declined_vp: int) -> str:
    """``for 7 VP``, with the bonus declined_vp named: the captain's, the harbor's, or one of both."""
    player = state.players[state.turn]
    harbor = player.city[HARBOR] > 0
    privilege = state.turn == state.chooser and not state.captain_bonus_used
    points = barrels + harbor + privilege - declined_vp
    if not declined_vp:
        return f"for {points} VP"
    if harbor and privilege:
        which = "the captain's and the harbor's bonus VP" if declined_vp == 2 else "one of its two bonus VP"
    else:
        which = "the harbor's bonus VP" if harbor else "the captain's bonus VP"
    return f"for {points} VP, declining {which}"


def _load(state: State, action: Action, who: str) -> str:
    good, capacity = action[1], action[2]
    i = captain.capacities(state).index(capacity)
    barrels = min(state.players[state.turn].goods[good], capacity - state.ship_loads[i])
    scored = _scored(state, barrels, declined(action))
    return f"{who} ships {barrels} {GOOD_NAMES[good]} on the {capacity}-ship {scored}"


def _wharf(state: State, action: Action, who: str) -> str:
    barrels = state.players[state.turn].goods[action[1]]
    scored = _scored(state, barrels, declined(action))
    return f"{who} ships {barrels} {GOOD_NAMES[action[1]]} from the wharf {scored}"


def _keep(state: State, action: Action, who: str) -> str:
    kept = action[1]
    parts = [f"{count} {GOOD_NAMES[g]}" for g, count in enumerate(kept) if count]
    lost = sum(state.players[state.turn].goods) - sum(kept)
    kept_text = ", ".join(parts) if parts else "nothing"
    return f"{who} keeps {kept_text} and returns {_plural(lost, 'barrel')} to the supply"


SENTENCES = {
    "role": _role, "plant": _plant, "quarry": _quarry, "hacienda": _hacienda, "pass": _pass, "place": _place,
    "build": _build, "extra": _extra, "sell": _sell, "load": _load, "wharf": _wharf, "keep": _keep,
}
