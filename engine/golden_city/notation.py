"""Die goldene Stadt action notation: one short line per action, lower-case verbs, ids as printed.

Actions are small tuples; their notation is::

    bid 2                       bidding: put the bidding hand on pair 2 (pairs 1..n); on a pair with
                                another hand this displaces it and costs the current price
    build MT4 pay CO CO MT      building: a house on site MT4, paying these landscape cards (terrain codes
                                CO MT ME FO DE, always in that order; two cards of one terrain paying for
                                a card of another are a joker)
    build C-DE-I pay DE DE key  ... an inner city part also takes a key card
    pass                        building: end the turn (before the first house or after it)
    draw card                   reward (card, inner part): draw the landscape card the reward allows
    decline card                ... or do without it
    bonus B-CITY                reward (bonus): keep this card of the bonus pile
    decline bonus               ... or take none
    goods G5                    reward (goods): take goods card G5 from the display
    goods pile                  ... or the top card of the face-down goods pile
    box G3                      goods limit: return G3 (one of five) to the box
    discard CO DE DE            hand limit: discard these cards down to 5 (terrain order as for build)

Chance (drawn by whoever appends the event)::

    deal MT                     a landscape card (here: mountains) comes off the draw pile: setup,
                                layout or reward draw
    reshuffle                   the discard pile becomes the new draw pile (no outcome of its own)
    reveal goods G5             goods card G5 comes off the goods pile (display, blind take, refill)
    reveal scoring S7           the round's scoring card S7 is turned up

Ids (sites, goods, scoring and bonus cards) are those of the component set and case-sensitive;
spaces and the case of verbs and terrain codes are normalised. Parsing needs no state, so a
notation is checked against the game only by the rules' ``check``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Final

from engine.core.errors import NotationError
from engine.core.notation import normal_notation, parse_remembered, remembered
from engine.golden_city.components import TERRAINS

Action = tuple[Any, ...]

PASS: Action = ("pass",)
DRAW: Action = ("draw",)
DECLINE_CARD: Action = ("decline", "card")
DECLINE_BONUS: Action = ("decline", "bonus")
GOODS_PILE: Action = ("goods", "pile")
RESHUFFLE: Action = ("reshuffle",)

#: Actions remembered at most by format_action, so that a stream of distinct actions cannot grow it without end.
FORMATTED_MAX: Final = 65536
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]*\Z")
EXPECTED = (
    "one of: bid <pair>, build <site> pay <cards> [key], pass, draw card, decline card, bonus <card>, "
    "decline bonus, goods <card> | goods pile, box <card>, discard <cards>, deal <terrain>, reshuffle, "
    "reveal goods <card>, reveal scoring <card>; cards are terrain codes CO MT ME FO DE"
)
FIXED: dict[str, Action] = {
    "pass": PASS, "draw card": DRAW, "decline card": DECLINE_CARD, "decline bonus": DECLINE_BONUS,
    "goods pile": GOODS_PILE, "reshuffle": RESHUFFLE,
}
FIXED_TEXT = {action: text for text, action in FIXED.items()}


def format_cards(counts: tuple[int, ...]) -> str:
    """``CO CO MT``: each card spelt out, in terrain order."""
    return " ".join(code for code, count in zip(TERRAINS, counts, strict=True) for _ in range(count))


#: Notations by action, remembered (at most FORMATTED_MAX): the rules' check writes every action it checks.
_FORMATTED: Final[dict[Action, str]] = {}


def format_action(action: Action) -> str:
    """The notation of ``action``."""
    return remembered(_FORMATTED, action, _format, FORMATTED_MAX)


def _format(action: Action) -> str:
    text = FIXED_TEXT.get(action)
    if text is not None:
        return text
    if not isinstance(action, tuple) or not action:
        raise NotationError(repr(action), "a golden city action tuple")
    verb = action[0]
    if verb == "bid":
        return f"bid {action[1] + 1}"
    if verb == "build":
        return f"build {action[1]} pay {format_cards(action[2])}" + (" key" if action[3] else "")
    if verb in ("bonus", "goods", "box"):
        return f"{verb} {action[1]}"
    if verb == "discard":
        return f"discard {format_cards(action[1])}"
    if verb == "deal":
        return f"deal {TERRAINS[action[1]]}"
    if verb == "reveal":
        return f"reveal {action[1]} {action[2]}"
    raise NotationError(repr(action), "a golden city action tuple")


def build_action(site: str, pay: tuple[int, ...], key: bool) -> Action:
    """The build action (a plain tuple: equal actions compare equal whoever made them)."""
    return ("build", site, pay, key)


def _id(text: str, word: str, what: str) -> str:
    if not ID.match(word) or word == "pile":
        raise NotationError(text, f"{what}: an id of letters, digits, '-', '_' or '+'")
    return word


def _cards(text: str, words: list[str], what: str, *, minimum: int = 1) -> tuple[int, ...]:
    counts = [0] * len(TERRAINS)
    for word in words:
        code = word.upper()
        if code not in TERRAINS:
            raise NotationError(text, f"{what}: terrain codes {', '.join(TERRAINS)}, got {word!r}")
        counts[TERRAINS.index(code)] += 1
    if sum(counts) < minimum:
        raise NotationError(text, f"{what}: at least {minimum} card")
    return tuple(counts)


def _parse_build(text: str, words: list[str]) -> Action:
    expected = "build <site> pay <cards> [key], e.g. build MT4 pay CO CO MT or build C-DE-I pay DE DE key"
    if len(words) < 3 or words[1].lower() != "pay":
        raise NotationError(text, expected)
    site = _id(text, words[0], expected)
    rest = words[2:]
    key = rest[-1].lower() == "key"
    if key:
        rest = rest[:-1]
    return build_action(site, _cards(text, rest, expected), key)


def _parse_words(text: str, verb: str, words: list[str]) -> Action:
    if verb == "bid":
        if len(words) != 1 or not words[0].isdigit() or not 1 <= int(words[0]) <= 9:
            raise NotationError(text, "bid <pair number from 1>, e.g. bid 2")
        return ("bid", int(words[0]) - 1)
    if verb == "build":
        return _parse_build(text, words)
    if verb in ("bonus", "goods", "box"):
        if len(words) != 1:
            raise NotationError(text, f"{verb} <card id>" + (" or goods pile" if verb == "goods" else ""))
        return (verb, _id(text, words[0], f"{verb} <card id>"))
    if verb == "discard":
        return ("discard", _cards(text, words, "discard <cards>, e.g. discard CO DE"))
    if verb == "deal":
        if len(words) != 1 or words[0].upper() not in TERRAINS:
            raise NotationError(text, f"deal <terrain>, one of {', '.join(TERRAINS)}")
        return ("deal", TERRAINS.index(words[0].upper()))
    if verb == "reveal":
        if len(words) != 2 or words[0].lower() not in ("goods", "scoring"):
            raise NotationError(text, "reveal goods <card id> or reveal scoring <card id>")
        return ("reveal", words[0].lower(), _id(text, words[1], "reveal goods|scoring <card id>"))
    if verb in ("draw", "decline"):
        raise NotationError(text, "draw card, decline card or decline bonus")
    raise NotationError(text, EXPECTED)


#: Actions by the exact text they were read from (see :func:`~engine.core.notation.parse_remembered`).
_PARSED: Final[dict[str, Action]] = {}


def parse_action(text: object) -> Action:  # object: a non-string is a NotationError, also when compiled
    """The action written ``text``; raises NotationError saying what was expected."""
    return parse_remembered(text, _PARSED, _parse_any)


def _parse_any(text: object) -> Action:
    """The action of any text, not remembered."""
    return _parse(normal_notation(text, names=True))


@lru_cache(maxsize=65536)
def _parse(text: str) -> Action:
    """Parsing is cached: events carry notation, so folding a log parses the same few texts again and again."""
    words = text.split()
    if not words:
        raise NotationError(text, EXPECTED)
    verb = words[0].lower()
    fixed = FIXED.get(" ".join([verb, *(w.lower() for w in words[1:])]))
    if fixed is not None:
        return fixed
    return _parse_words(text, verb, words[1:])
