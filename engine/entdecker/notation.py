"""Entdecker action notation: one short lower-case line per action.

Coordinates are cells (x, y), x = 0.. west to east, y = 0.. north to south; stacks are numbered
from 1; sides are n, e, s, w; a rotation r = 0..3 is that many clockwise quarter turns of the tile
as the component table draws it. The grammar::

    spin 4                  chance: the income wheel stops at 4 (every player gains up to 4 gold)
    back 2 event            chance: stack 2's new top tile shows a '?' back
    back 2 plain            chance: ... a plain back
    tile cape?storm         chance: the tile drawn is of that type (topology, plus ?event on a '?' tile)
    chip 3                  chance: a discovery chip of value 3 is drawn (friendly natives, island scoring)
    start edge 4 0 n        start the ship from the circle at the north border side of cell (4, 0)
    start tile 3 2 1        start from water region 1 of the tile at (3, 2) (regions in the table's order)
    pass                    no start is possible: the turn ends
    buy 3                   pay 3 gold for 3 tiles to turn over this turn
    draw 2                  turn over the top tile of stack 2
    place 4 1 3             place the tile drawn at (4, 1) turned 3 quarter turns
    build fort 0            build a fort (scout, fort, settlement) on land part 0 of the ship's tile
    takeback 3 2            take one's scout at (3, 2) back into the supply
    end                     end the expedition
    take chip               accept the friendly natives' discovery chip
    decline chip            decline it

Actions are small tuples whose first element names the kind (``start_edge``, ``start_tile``,
``take_chip``, ``decline_chip`` for the two-word verbs); parsing and formatting are cached, since
folding a log meets the same few texts again and again (plain dicts: an lru_cache wrapper is a
Python-level call, which the compiled engine otherwise avoids).
"""

from __future__ import annotations

import re
from typing import Any, Final

from engine.core.errors import NotationError
from engine.core.notation import parse_notation, parse_remembered, remembered
from engine.entdecker.components import EVENT_NAMES, UNIT_NAMES

Action = tuple[Any, ...]

PASS: Action = ("pass",)
END: Action = ("end",)
TAKE_CHIP: Action = ("take_chip",)
DECLINE_CHIP: Action = ("decline_chip",)
SIDE_LETTERS = ("n", "e", "s", "w")
BACK_WORDS = ("plain", "event")
_TILE_KEY = re.compile(r"^[a-z][a-z0-9_]*(\?(" + "|".join(EVENT_NAMES) + r"))?$")

EXPECTED = (
    "one of: spin <v>, back <stack> event|plain, tile <type>, chip <v>, start edge <x> <y> <n|e|s|w>, "
    "start tile <x> <y> <region>, pass, buy <n>, draw <stack>, place <x> <y> <rotation 0-3>, "
    "build scout|fort|settlement <part>, takeback <x> <y>, end, take chip, decline chip"
)
_FIXED = {PASS: "pass", END: "end", TAKE_CHIP: "take chip", DECLINE_CHIP: "decline chip"}
_FIXED_PARSES = {text: action for action, text in _FIXED.items()}


#: Texts and actions remembered at most by parse_action and format_action (so that a stream of distinct
#: texts cannot grow them without end).
REMEMBERED_MAX: Final = 16384
#: Notations by action: the rules' check writes every action it checks.
_FORMATTED: Final[dict[Action, str]] = {}
#: Actions by the exact text they were read from (see :func:`~engine.core.notation.parse_remembered`).
_PARSED: Final[dict[str, Action]] = {}


def format_action(action: Action) -> str:
    """The notation of ``action``."""
    return remembered(_FORMATTED, action, _format, REMEMBERED_MAX)


def _format(action: Action) -> str:
    fixed = _FIXED.get(action)
    if fixed is not None:
        return fixed
    try:
        op = action[0]
        if op == "place":
            return f"place {action[1]} {action[2]} {action[3]}"
        if op == "draw":
            return f"draw {action[1] + 1}"
        if op == "tile":
            return f"tile {action[1]}"
        if op == "back":
            return f"back {action[1] + 1} {BACK_WORDS[action[2]]}"
        if op in ("spin", "chip", "buy"):
            return f"{op} {action[1]}"
        if op == "start_edge":
            return f"start edge {action[1]} {action[2]} {SIDE_LETTERS[action[3]]}"
        if op == "start_tile":
            return f"start tile {action[1]} {action[2]} {action[3]}"
        if op == "build":
            return f"build {UNIT_NAMES[action[1]]} {action[2]}"
        if op == "takeback":
            return f"takeback {action[1]} {action[2]}"
    except (TypeError, IndexError, KeyError):
        pass
    raise NotationError(repr(action), "an entdecker action tuple")


def _number(word: str) -> int | None:
    """A non-negative integer written canonically (so that notation round-trips), else None."""
    if word.isdigit() and str(int(word)) == word:
        return int(word)
    return None


def _numbers(words: list[str], count: int) -> list[int] | None:
    if len(words) != count:
        return None
    values = [_number(w) for w in words]
    return None if any(v is None for v in values) else [v for v in values if v is not None]


# What each verb expects after it, for messages.
_EXPECTED_AFTER = {
    "spin": "spin <value>",
    "chip": "chip <value>",
    "buy": "buy <number of tiles>",
    "draw": "draw <stack number from 1>",
    "back": "back <stack number from 1> event|plain",
    "tile": "tile <type>: a topology code in lower case, optionally ?storm, ?hostile, ?friendly, ?pirates, ?ruins "
            "or ?treasure (tile cape, tile cape?storm)",
    "start": "start edge <x> <y> <n|e|s|w> or start tile <x> <y> <region>",
    "place": "place <x> <y> <rotation 0-3>",
    "build": "build scout|fort|settlement <land part>",
    "takeback": "takeback <x> <y>",
    "take": "take chip",
    "decline": "decline chip",
}


def _parse_words(verb: str, words: list[str]) -> Action | None:
    if verb in ("spin", "chip", "buy", "draw"):
        return _parse_one_number(verb, words)
    if verb == "back":
        return _parse_back(words)
    if verb == "tile":
        return ("tile", words[0]) if len(words) == 1 and _TILE_KEY.match(words[0]) else None
    if verb == "place":
        values = _numbers(words, 3)
        return ("place", *values) if values is not None and values[2] < 4 else None
    if verb == "takeback":
        values = _numbers(words, 2)
        return ("takeback", *values) if values is not None else None
    if verb == "build":
        return _parse_build(words)
    if verb == "start":
        return _parse_start(words)
    return None


def _parse_one_number(verb: str, words: list[str]) -> Action | None:
    """``spin <n>``, ``chip <n>``, ``buy <n>`` and ``draw <stack from 1>`` (a draw's stack counted from 0)."""
    values = _numbers(words, 1)
    if values is None or (verb == "draw" and values[0] < 1):
        return None
    return ("draw", values[0] - 1) if verb == "draw" else (verb, values[0])


def _parse_back(words: list[str]) -> Action | None:
    values = _numbers(words[:1], 1)
    if values is None or values[0] < 1 or len(words) != 2 or words[1] not in BACK_WORDS:
        return None
    return ("back", values[0] - 1, BACK_WORDS.index(words[1]))


def _parse_build(words: list[str]) -> Action | None:
    values = _numbers(words[1:], 1)
    if not words or words[0] not in UNIT_NAMES or values is None:
        return None
    return ("build", UNIT_NAMES.index(words[0]), values[0])


def _parse_start(words: list[str]) -> Action | None:
    if len(words) != 4 or words[0] not in ("edge", "tile"):
        return None
    values = _numbers(words[1:3], 2)
    if values is None:
        return None
    if words[0] == "edge":
        return ("start_edge", *values, SIDE_LETTERS.index(words[3])) if words[3] in SIDE_LETTERS else None
    region = _number(words[3])
    return ("start_tile", *values, region) if region is not None else None


def parse_action(text: object) -> Action:  # object: a non-string is a NotationError, also when compiled
    """The action written ``text``; raises NotationError saying what was expected."""
    return parse_remembered(text, _PARSED, _parse_any, REMEMBERED_MAX)


def _parse_any(text: object) -> Action:
    """The action of any text, not remembered."""
    return parse_notation(text, _FIXED_PARSES, _parse_normal)


def _parse_normal(text: str) -> Action:
    """The action of a normalised text that is not one of the fixed spellings."""
    verb, *words = text.split(" ")
    action = _parse_words(verb, words)
    if action is None:
        raise NotationError(text, _EXPECTED_AFTER.get(verb, EXPECTED))
    return action
