"""Amerigo action notation: one short lower-case line per action (token and tile ids upper case).

Actions are small tuples; their notation is::

  chance
    layout 0,1 I07 r2        the island tile I07, turned 2 quarter turns clockwise, at grid row 0, column 1
    pirate 3                 a pirate marker of value 3 is turned face up
    progress L2 PT05         progress token PT05 is drawn onto progress space L2 (L1-L4, R1-R4)
    production 4 cotton 3    production space 4 gets a cotton token of value 3
    order 2 0 3 1            the order discs' random stack, top first (seat numbers)
    tower blue 4             4 blue cubes come out of the tower (into storage at setup, else the action field)
    stray red 1              1 red cube fell out of the tower at the wrong time (it joins this throw)
  a player's action choice
    choose red               perform the red action (the colours in the action field; PT15 widens red/green)
    special red              the white special action, performed as red
    gold                     take gold instead of an action
    use PT21                 score the cubes in the action field instead of an action
  at any of one's own decision points
    cash chest | cash PT17 | cash PT18      3 / 3 / 5 gold
    spend gold               1 gold for 1 more AP (sailing: for each ship that has not moved yet)
  inside an action
    ships F1 F5              blue, first time: the two ships onto frame spaces (the smaller number first)
    use PT10                 blue: each ship gets 8 more AP
    sail 1 12,5 | sail 2 F3  blue: ship 1 or 2 moves to a map space (row,col) or a frame space (its own space: stays)
    sail 1 back              blue: ship 1 sails out and back to the anchor it started on (at least 2 steps)
    found | decline          blue: found a trading post at the anchor the ship reached, or not
    cannons 4                black: move the cannon disc 4 spaces
    advance 3                brown: move the progress disc 3 spaces
    take PT05                brown: take a progress token for a VP space reached or passed
    move 4 | use PT16        white: move the order disc 4 spaces, or onto the first player's disc
    plan village L3          red: take a village tile (or "plan neutral D2": a neutral tile) into one's stock
    build neutral D2 r1 at 12,5  green: build a tile from the stock, turned 0-3 quarter turns clockwise, its
                             anchor cell (the first square of the unturned shape: top row, leftmost) on map
                             space (row,col). Equivalent turns name the same placement; the legal actions list
                             the first of them.
    build neutral D2 r1 12,5 the old form (rules version 1, still read): (row,col) is the turned shape's
                             bounding-box corner, and only the first of equivalent turns exists
    buy cotton 3             yellow: buy a production token (good, value)
    end                      close the action under way

Seats in ``order`` are seat numbers (the notation is for machines and logs); sentences name the players.

Parsing is cached: events carry notation, so folding a log parses the same texts again and again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from itertools import permutations
from typing import Any, Final, NamedTuple

from engine.amerigo import components as c
from engine.core.errors import NotationError
from engine.core.notation import parse_notation, parse_remembered

Action = tuple[Any, ...]

GOLD: Final[Action] = ("gold",)
SPEND: Final[Action] = ("spend",)
CASH_CHEST: Final[Action] = ("cash", "chest")
FOUND: Final[Action] = ("found",)
DECLINE: Final[Action] = ("decline",)
END: Final[Action] = ("end",)
USE_PT10: Final[Action] = ("use", "PT10")
USE_PT16: Final[Action] = ("use", "PT16")
USE_PT21: Final[Action] = ("use", "PT21")
CASH_PT17: Final[Action] = ("cash", "PT17")
CASH_PT18: Final[Action] = ("cash", "PT18")

#: The verb of the old build form, ``build <kind> r<k> <row>,<col>``: the square is the top-left corner of the
#: turned shape's bounding box (maybe not a square the tile covers). Stored events never change, so it is
#: still read, and written back exactly as it was.
BUILD_AT_CORNER: Final = "build_corner"


class BuildMove(NamedTuple):
    """A build read by name: ``(verb, kind, rotation, row, col)``. Equal to (and hashed as) the stored tuple.

    ``verb`` is ``"build"`` (``row, col`` is the anchor cell) or :data:`BUILD_AT_CORNER` (the bounding box's corner).
    """

    verb: str
    kind: str
    rotation: int
    row: int
    col: int

    @classmethod
    def read(cls, action: Action) -> BuildMove | None:
        """``action`` as a build, or None when it is not one of the two build forms with all five parts."""
        if len(action) != len(cls._fields) or action[0] not in ("build", BUILD_AT_CORNER):
            return None
        return cls(*action)

# Tables of actions are typed with Action (a tuple of any length): compiled, an element of a fixed-length tuple type
# would be unpacked into a C struct on every read and packed into a new tuple wherever it is stored.
CHOOSE_ACTIONS: Final[tuple[Action, ...]] = tuple(("choose", colour) for colour in range(7))
SPECIAL_ACTIONS: Final[tuple[Action, ...]] = tuple(("special", colour) for colour in range(7))
TOWER_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(("tower", colour, k) for k in range(50)) for colour in range(7))
STRAY_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(("stray", colour, k) for k in range(50)) for colour in range(7))
#: Per progress space, the draw of each progress token onto it.
PROGRESS_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(tuple(("progress", space, token) for token in range(len(c.PROGRESS_TOKENS)))
                                for space in range(len(c.PROGRESS_SPACES)))
#: Per production space, the draw of each production kind (good * 3 + value index) onto it.
PRODUCTION_ACTIONS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(("production", space, kind // len(c.PRODUCTION_VALUES), c.PRODUCTION_VALUES[kind % len(c.PRODUCTION_VALUES)])
          for kind in range(len(c.GOODS) * len(c.PRODUCTION_VALUES)))
    for space in range(max(c.PRODUCTION_SPACES.values())))

EXPECTED = (
    "one of: layout <row>,<col> <tile> r<0-3>, pirate <value>, progress <L1-L4|R1-R4> <PTnn>, "
    "production <space> <good> <value>, order <seat>..., tower <colour> <count>, stray <colour> <count>, "
    "choose <colour>, special <colour>, gold, use PT10|PT16|PT21, cash chest|PT17|PT18, spend gold, "
    "ships F<n> F<n>, sail <1|2> <row>,<col>|F<n>|back, found, decline, cannons <n>, advance <n>, take PTnn, move <n>, "
    "plan village|neutral <shape>, build village|neutral <shape> r<0-3> at <row>,<col>, buy <good> <value>, end"
)
_FIXED: dict[Action, str] = {
    GOLD: "gold", SPEND: "spend gold", CASH_CHEST: "cash chest", FOUND: "found", DECLINE: "decline", END: "end",
    USE_PT10: "use PT10", USE_PT16: "use PT16", USE_PT21: "use PT21", CASH_PT17: "cash PT17", CASH_PT18: "cash PT18",
}
_FIXED_PARSE = {text: action for action, text in _FIXED.items()}
_TOKEN = re.compile(r"PT(0[1-9]|1[0-9]|2[0-4])")
_SPACE = re.compile(r"(\d+),(\d+)")
_FRAME = re.compile(r"F([1-9]\d?)")
_NUMBER = re.compile(r"0|[1-9]\d*")
_ROTATION = re.compile(r"r([0-3])")
_NAME = re.compile(r"[A-Za-z0-9_]+")


def node_text(row: int, col: int) -> str:
    """A sailing destination: ``12,5`` (row -1: frame space ``F<col+1>``)."""
    return f"F{col + 1}" if row < 0 else f"{row},{col}"


def format_action(action: Action) -> str:
    """The notation of ``action``."""
    text = _FIXED.get(action)
    if text is not None:
        return text
    try:
        formatted: str = _FORMATTERS[action[0]](action)
        return formatted
    except (KeyError, IndexError, TypeError, ValueError):
        raise NotationError(repr(action), "an amerigo action tuple") from None


_FORMATTERS: dict[str, Any] = {
    "layout": lambda a: f"layout {a[1]},{a[2]} {a[3]} r{a[4]}",
    "pirate": lambda a: f"pirate {a[1]}",
    "progress": lambda a: f"progress {c.PROGRESS_SPACES[a[1]]} PT{a[2] + 1:02d}",
    "production": lambda a: f"production {a[1] + 1} {c.GOODS[a[2]]} {a[3]}",
    "order": lambda a: "order " + " ".join(str(s) for s in a[1]),
    "tower": lambda a: f"tower {c.COLOURS[a[1]]} {a[2]}",
    "stray": lambda a: f"stray {c.COLOURS[a[1]]} {a[2]}",
    "choose": lambda a: f"choose {c.COLOURS[a[1]]}",
    "special": lambda a: f"special {c.COLOURS[a[1]]}",
    "ships": lambda a: f"ships F{a[1] + 1} F{a[2] + 1}",
    "sail": lambda a: f"sail {a[1]} {node_text(a[2], a[3])}",
    "back": lambda a: f"sail {a[1]} back",
    "cannons": lambda a: f"cannons {a[1]}",
    "advance": lambda a: f"advance {a[1]}",
    "take": lambda a: f"take PT{a[1] + 1:02d}",
    "move": lambda a: f"move {a[1]}",
    "plan": lambda a: f"plan {a[1]}",
    "build": lambda a: f"build {a[1]} r{a[2]} at {a[3]},{a[4]}",
    BUILD_AT_CORNER: lambda a: f"build {a[1]} r{a[2]} {a[3]},{a[4]}",
    "buy": lambda a: f"buy {c.GOODS[a[1]]} {a[2]}",
}


def _number(text: str, word: str) -> int:
    if not _NUMBER.fullmatch(word):
        raise NotationError(text, f"a whole number, got {word!r}")
    return int(word)


def _space(text: str, word: str) -> tuple[int, int]:
    match = _SPACE.fullmatch(word)
    if not match:
        raise NotationError(text, f"a map space <row>,<col>, got {word!r}")
    return _number(text, match.group(1)), _number(text, match.group(2))


def _colour(text: str, word: str) -> int:
    if word not in c.COLOURS:
        raise NotationError(text, f"a colour ({', '.join(c.COLOURS)}), got {word!r}")
    return c.COLOURS.index(word)


def _good(text: str, word: str) -> int:
    if word not in c.GOODS:
        raise NotationError(text, f"a good ({', '.join(c.GOODS)}), got {word!r}")
    return c.GOODS.index(word)


def _token(text: str, word: str) -> int:
    if not _TOKEN.fullmatch(word):
        raise NotationError(text, f"a progress token PT01-PT24, got {word!r}")
    return int(word[2:]) - 1


def _frame(text: str, word: str) -> int:
    match = _FRAME.fullmatch(word)
    if not match:
        raise NotationError(text, f"a frame space F1-F16, got {word!r}")
    return int(match.group(1)) - 1


def _tile_kind(text: str, group: str, shape: str) -> str:
    if group not in ("village", "neutral") or not _NAME.fullmatch(shape):
        raise NotationError(text, "village <shape> or neutral <shape>, e.g. village L3")
    return f"{group} {shape}"


def _parse_layout(text: str, verb: str, args: list[str]) -> Action:
    rotation = _ROTATION.fullmatch(args[2])
    if not rotation or not _NAME.fullmatch(args[1]):
        raise NotationError(text, "layout <row>,<col> <tile> r<0-3>")
    return ("layout", *_space(text, args[0]), args[1], int(rotation.group(1)))


def _parse_pirate(text: str, verb: str, args: list[str]) -> Action:
    return ("pirate", _number(text, args[0]))


def _parse_progress(text: str, verb: str, args: list[str]) -> Action:
    if args[0] not in c.PROGRESS_SPACES:
        raise NotationError(text, f"a progress space ({', '.join(c.PROGRESS_SPACES)})")
    return ("progress", c.PROGRESS_SPACES.index(args[0]), _token(text, args[1]))


def _parse_production(text: str, verb: str, args: list[str]) -> Action:
    space = _number(text, args[0])
    if not 1 <= space <= 10:
        raise NotationError(text, "a production space 1-10")
    return ("production", space - 1, _good(text, args[1]), _value(text, args[2]))


def _parse_order(text: str, verb: str, args: list[str]) -> Action:
    seats = tuple(_number(text, w) for w in args)
    if not 2 <= len(seats) <= 4 or sorted(seats) != list(range(len(seats))):
        raise NotationError(text, "order followed by every seat number once, top disc first")
    return ("order", seats)


def _parse_colour_number(text: str, verb: str, args: list[str]) -> Action:
    """``tower <colour> <n>`` and ``stray <colour> <n>``."""
    return (verb, _colour(text, args[0]), _number(text, args[1]))


def _parse_colour(text: str, verb: str, args: list[str]) -> Action:
    """``choose <colour>`` and ``special <colour>``."""
    return (verb, _colour(text, args[0]))


def _parse_ships(text: str, verb: str, args: list[str]) -> Action:
    a, b = _frame(text, args[0]), _frame(text, args[1])
    if a > b:
        raise NotationError(text, "ships F<a> F<b> with a ≤ b")
    return ("ships", a, b)


def _parse_sail(text: str, verb: str, args: list[str]) -> Action:
    if args[0] not in ("1", "2"):
        raise NotationError(text, "sail <ship 1 or 2> <destination>")
    if args[1] == "back":
        return ("back", int(args[0]))
    where = (-1, _frame(text, args[1])) if args[1].startswith("F") else _space(text, args[1])
    return ("sail", int(args[0]), *where)


def _parse_number(text: str, verb: str, args: list[str]) -> Action:
    """``cannons <n>``, ``advance <n>`` and ``move <n>``."""
    return (verb, _number(text, args[0]))


def _parse_take(text: str, verb: str, args: list[str]) -> Action:
    return ("take", _token(text, args[0]))


def _parse_plan(text: str, verb: str, args: list[str]) -> Action:
    return ("plan", _tile_kind(text, args[0], args[1]))


def _parse_build_at_corner(text: str, verb: str, args: list[str]) -> Action:
    rotation = _ROTATION.fullmatch(args[2])
    if not rotation:
        raise NotationError(text, "build <group> <shape> r<0-3> at <row>,<col>")
    return (BUILD_AT_CORNER, _tile_kind(text, args[0], args[1]), int(rotation.group(1)), *_space(text, args[3]))


def _parse_buy(text: str, verb: str, args: list[str]) -> Action:
    return ("buy", _good(text, args[0]), _value(text, args[1]))


#: Each verb with arguments: how many words follow it (-1: any number) and its parser.
_VERBS: Final[dict[str, tuple[int, Callable[[str, str, list[str]], Action]]]] = {
    "layout": (3, _parse_layout), "pirate": (1, _parse_pirate), "progress": (2, _parse_progress),
    "production": (3, _parse_production), "order": (-1, _parse_order), "tower": (2, _parse_colour_number),
    "stray": (2, _parse_colour_number), "choose": (1, _parse_colour), "special": (1, _parse_colour),
    "ships": (2, _parse_ships), "sail": (2, _parse_sail), "cannons": (1, _parse_number), "advance": (1, _parse_number),
    "take": (1, _parse_take), "move": (1, _parse_number), "plan": (2, _parse_plan), "build": (4, _parse_build_at_corner),
    "buy": (2, _parse_buy),
}


def _parse_words(text: str, verb: str, args: list[str]) -> Action:
    """The action of a verb with arguments (the fixed forms are looked up before)."""
    if verb not in _VERBS:
        raise NotationError(text, EXPECTED)
    if verb == "build" and len(args) == 5:
        return _parse_build(text, args)
    count, parse = _VERBS[verb]
    if count >= 0 and len(args) != count:
        raise NotationError(text, f"{verb} followed by {count} words")
    return parse(text, verb, args)


def _parse_build(text: str, args: list[str]) -> Action:
    """``build <group> <shape> r<0-3> at <row>,<col>``: the anchor cell's map space."""
    rotation = _ROTATION.fullmatch(args[2])
    if not rotation or args[3] != "at":
        raise NotationError(text, "build <group> <shape> r<0-3> at <row>,<col>")
    return ("build", _tile_kind(text, args[0], args[1]), int(rotation.group(1)), *_space(text, args[4]))


def _value(text: str, word: str) -> int:
    value = _number(text, word)
    if value not in c.PRODUCTION_VALUES:
        raise NotationError(text, f"a production value ({', '.join(map(str, c.PRODUCTION_VALUES))})")
    return value


@lru_cache(maxsize=16384)
def parse_action(text: object) -> Action:  # object: a non-string is a NotationError, also when compiled
    """The action written ``text``; raises NotationError saying what was expected."""
    return parse_remembered(text, _PARSED, _parse_any)


#: Actions by the exact text they were read from (see :func:`~engine.core.notation.parse_remembered`).
_PARSED: Final[dict[str, Action]] = {}


def _parse_any(text: object) -> Action:
    """The action of any text, not remembered."""
    return parse_notation(text, _FIXED_PARSE, _parse_normal, names=True)


def _parse_normal(text: str) -> Action:
    """The action of a normalised text that is not one of the fixed spellings."""
    words = text.split()
    if not words:
        raise NotationError(text, EXPECTED)
    action = _parse_words(text, words[0], words[1:])
    if format_action(action) != text:  # leading zeros and the like: one spelling per action
        raise NotationError(text, f"the canonical spelling {format_action(action)!r}")
    return action


def all_orders(n: int) -> tuple[Action, ...]:
    """Every order stack of ``n`` discs, top first."""
    return tuple(("order", p) for p in permutations(range(n)))
