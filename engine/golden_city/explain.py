"""Why an action is illegal: a precise lower-case reason and the name of the rule it breaks.

Only called once an action is known not to be among the legal ones, so speed does not matter
here; each function re-derives the first rule the action breaks.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.golden_city.bidding import displacement_cost
from engine.golden_city.building import need_of
from engine.golden_city.cards import is_payment
from engine.golden_city.component_set import INNER, KINDS
from engine.golden_city.components import TERRAIN_NAMES
from engine.golden_city.notation import Action, format_action, format_cards
from engine.golden_city.state import (
    BID,
    BONUS_CHOICE,
    BOX,
    BUILD,
    CARD_CHOICE,
    DISCARD,
    GOODS_CHOICE,
    HAND_LIMIT,
    OVER,
    PHASE_NAMES,
    State,
    open_sites,
)

#: The phase each kind of player action belongs to.
PHASE_OF = {
    "bid": BID, "build": BUILD, "pass": BUILD, "draw": CARD_CHOICE, "bonus": BONUS_CHOICE, "goods": GOODS_CHOICE,
    "box": BOX, "discard": DISCARD,
}
WAITING_FOR = {
    BID: "a bid on a landscape pair", BUILD: "a house to be built (or a pass)", CARD_CHOICE: "a reward card to be drawn or declined",
    BONUS_CHOICE: "a bonus card to be chosen (or declined)", GOODS_CHOICE: "a goods card to be taken",
    BOX: "a goods card to be returned to the box", DISCARD: "landscape cards to be discarded", OVER: "nothing: the game is over",
}


def _waiting(state: State) -> str:
    return WAITING_FOR.get(state.phase, f"chance ({PHASE_NAMES[state.phase]})")


def explain(state: State, action: Action) -> tuple[str, str]:
    """(reason, rule) for an action of this game's shape that is not legal in ``state`` (PhasedRules.check
    answers for any other shape)."""
    verb = action[0]
    if verb in ("deal", "reshuffle", "reveal"):
        return "only chance draws from a face-down pile, and only what it holds", "chance"
    expected = BONUS_CHOICE if action[:2] == ("decline", "bonus") else PHASE_OF.get(verb, CARD_CHOICE)
    if state.phase != expected:
        what = format_action(action).split()[0]
        return f"the game is waiting for {_waiting(state)} ({PHASE_NAMES[state.phase]}), not for {what}", "turn: phase"
    return EXPLAINERS.get(verb, _unknown)(state, action)


def _unknown(state: State, action: Action) -> tuple[str, str]:
    return f"{format_action(action)!r} is not offered now", "turn: phase"


def _bid(state: State, action: Action) -> tuple[str, str]:
    pair = action[1]
    if pair >= state.n:
        return f"there are only {state.n} pairs", "bidding: pairs"
    seat = state.turn
    cost = displacement_cost(state)
    coins = state.players[seat].coins
    owner = state.names[state.bids[pair]]
    return (f"seat {seat} has {coins} coins, displacing {owner} from pair {pair + 1} costs {cost}",
            "bidding: displacement cost")


def _build(state: State, action: Action) -> tuple[str, str]:
    components = state.components
    seat = state.turn
    player = state.players[seat]
    sid = action[1]
    if sid not in components.site_index:
        return f"there is no site {sid!r} on this board", "building: sites"
    if player.houses_left <= 0:
        return f"seat {seat} has no house left", "building: houses"
    site = components.site_index[sid]
    bit = 1 << site
    if bit & state.taken:
        return f"{sid} already holds a house (one house per harbour or suburb)", "building: one house per site"
    if bit & player.houses:
        return f"seat {seat} already has a house in {sid} (one per player in a city part)", "building: one house per site"
    if not bit & open_sites(state, player):
        return f"{sid} is not a road neighbour of any house of seat {seat}", "building: road connection"
    return _build_payment(state, action, site) or ("not offered", "building")


def _build_payment(state: State, action: Action, site: int) -> tuple[str, str] | None:
    components = state.components
    seat = state.turn
    player = state.players[seat]
    sid, pay, key = action[1], action[2], action[3]
    inner = components.kinds[site] == INNER
    if inner and not key:
        return f"{sid} is an inner city part: it also takes a key card (end the action with 'key')", "building: key card"
    if key and not inner:
        return f"{sid} is a {KINDS[components.kinds[site]]}: only inner city parts take a key card", "building: key card"
    if key and not player.keys:
        return f"seat {seat} has no key card for the inner city part {sid}", "building: key card"
    terrain, need = components.terrains[site], need_of(components.kinds[site])
    if not is_payment(pay, terrain, need):
        cost = f"{need} {TERRAIN_NAMES[terrain]} card" + ("s" if need > 1 else "")
        return (f"{sid} costs {cost}, each replaceable by 2 cards of one other terrain; {format_cards(pay)} is not such a payment",
                "building: cost and joker rule")
    if any(p > h for p, h in zip(pay, player.hand, strict=True)):
        return f"seat {seat} holds {format_cards(player.hand) or 'no cards'}, not {format_cards(pay)}", "building: cards in hand"
    return None


def _bonus(state: State, action: Action) -> tuple[str, str]:
    if action[:2] == ("decline", "bonus"):
        return "not offered", "rewards: bonus"
    return f"{action[1]} is not in the bonus pile", "rewards: bonus"


def _goods(state: State, action: Action) -> tuple[str, str]:
    if action[1] == "pile":
        return "the goods pile is empty", "rewards: goods"
    shown = ", ".join(state.goods_display) or "nothing"
    return f"{action[1]} is not on the goods display (it shows {shown})", "rewards: goods"


def _box(state: State, action: Action) -> tuple[str, str]:
    return f"seat {state.turn} holds no goods card {action[1]}", "goods limit"


def _discard(state: State, action: Action) -> tuple[str, str]:
    hand = state.players[state.turn].hand
    over = sum(hand) - HAND_LIMIT
    if sum(action[1]) != over:
        return f"seat {state.turn} holds {sum(hand)} cards and must discard exactly {over} to keep {HAND_LIMIT}", "hand limit"
    return f"seat {state.turn} holds {format_cards(hand)}, not {format_cards(action[1])}", "hand limit"


def _pass(state: State, action: Action) -> tuple[str, str]:
    return "not offered", "building"


EXPLAINERS: dict[str, Callable[[State, Action], tuple[str, str]]] = {
    "bid": _bid, "build": _build, "bonus": _bonus, "decline": _bonus, "goods": _goods, "box": _box,
    "discard": _discard, "pass": _pass,
}
