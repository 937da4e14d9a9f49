"""Puerto Rico action notation: one short lower-case line per action.

Actions are small interned tuples; their notation is::

    role settler | role mayor | role builder | role craftsman | role trader | role captain
    role prospector | role prospector2      (5 players have two prospector cards)
    role mayor without colonist             the mayor declines the privilege colonist
    plant corn      settler: take the face-up corn plantation (indigo, sugar, tobacco, coffee)
    quarry          settler: take a quarry (the settler's privilege, or a construction hut)
    plant corn without colonist | quarry without colonist
                    ... declining the working hospice's colonist
    hacienda        settler: draw the top face-down plantation with a hacienda (before taking)
    place corn      mayor: put one colonist on an empty circle of a corn plantation
    place quarry    ... of a quarry
    place harbor    ... of a building (its full name: place small indigo plant)
    build harbor    builder: build a building (full name: build small sugar mill)
    build harbor without colonist           ... declining the working university's colonist
    extra sugar     craftsman: the privilege barrel of a kind produced this phase
    sell tobacco    trader: sell one barrel
    load sugar 7    captain: load sugar on the cargo ship of capacity 7
    wharf tobacco   captain: ship every tobacco barrel with the wharf
    load sugar 7 without 1 vp | wharf tobacco without 2 vp
                    ... declining that many of the bonus VP due (the captain's first-load
                    privilege, the harbor): 1, or 2 when both are due
    keep 1 corn 4 sugar   captain's end: the barrels kept (windrose + warehouses), goods in
                    price order (corn, indigo, sugar, tobacco, coffee); "keep nothing" keeps none
    pass            decline where the rules allow it
    draw corn       chance: a corn plantation comes off the face-down stack
    reshuffle       chance: the discarded plantations are shuffled into a new stack

Without a suffix every privilege and building bonus due is taken. The "without" forms are
offered only while the game's end has not been triggered: until then a VP chip or a colonist
left in the bank can decide whether the chips or the colonists run out; afterwards the game
ends with the round whatever the counts, and declining would only lose the point or the
colonist. Actions with a suffix carry the count declined as their last element.

Parsing is cached: events carry notation, so folding a log parses the same few texts
again and again.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

from engine.core.errors import NotationError
from engine.core.notation import parse_notation
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, MAYOR, ROLE_NAMES, TILE_NAMES

Action = tuple[Any, ...]

PASS: Final[Action] = ("pass",)
QUARRY_TAKE: Final[Action] = ("quarry",)
HACIENDA_TAKE: Final[Action] = ("hacienda",)
RESHUFFLE: Final[Action] = ("reshuffle",)

ROLE_ACTIONS: Final = tuple(("role", r) for r in range(len(ROLE_NAMES)))
PLANT_ACTIONS: Final = tuple(("plant", g) for g in range(5))
#: Mayor slots: the six island tile kinds, then the 23 buildings (slot 6 + building index).
PLACE_ACTIONS: Final = tuple(("place", s) for s in range(len(TILE_NAMES) + len(BUILDING_NAMES)))
BUILD_ACTIONS: Final = tuple(("build", b) for b in range(len(BUILDING_NAMES)))
EXTRA_ACTIONS: Final = tuple(("extra", g) for g in range(5))
SELL_ACTIONS: Final = tuple(("sell", g) for g in range(5))
WHARF_ACTIONS: Final = tuple(("wharf", g) for g in range(5))
DRAW_ACTIONS: Final = tuple(("draw", g) for g in range(5))
#: Load actions by (good, ship capacity); capacities run from 4 to 8 over all player counts.
LOAD_ACTIONS: Final = {(g, c): ("load", g, c) for g in range(5) for c in range(4, 9)}

# Declining a privilege or a building's bonus: the base action plus the count declined.
MAYOR_WITHOUT: Final[Action] = ("role", MAYOR, 1)
QUARRY_WITHOUT: Final[Action] = ("quarry", 1)
PLANT_WITHOUT: Final = tuple(("plant", g, 1) for g in range(5))
BUILD_WITHOUT: Final = tuple(("build", b, 1) for b in range(len(BUILDING_NAMES)))
#: Loads declining 1 or 2 bonus VP, by (good, ship capacity, VP declined).
LOAD_WITHOUT: Final = {(g, c, k): ("load", g, c, k) for g in range(5) for c in range(4, 9) for k in (1, 2)}
#: Wharf shipments declining 1 or 2 bonus VP, by (good, VP declined).
WHARF_WITHOUT: Final = {(g, k): ("wharf", g, k) for g in range(5) for k in (1, 2)}

SLOT_NAMES: Final = TILE_NAMES + BUILDING_NAMES

#: The length of each action that takes every bonus due; a longer one ends in the count it declines.
BASE_LENGTH: Final = {"role": 2, "plant": 2, "quarry": 1, "build": 2, "load": 3, "wharf": 2}


def declined(action: Action) -> int:
    """How many of the bonuses due ``action`` declines with its "without" suffix (the privilege or
    building colonist: 1; bonus VP: 1 or 2); 0 when it takes everything due."""
    base = BASE_LENGTH.get(action[0])
    return int(action[-1]) if base is not None and len(action) > base else 0


def taking_everything(action: Action) -> Action:
    """``action`` without its "without" suffix: the same move taking every bonus due."""
    base = BASE_LENGTH.get(action[0])
    return action[:base] if base is not None else action

EXPECTED = (
    "one of: role <role>, plant <good>, quarry, hacienda, place <tile or building>, build <building>, "
    "extra <good>, sell <good>, load <good> <ship capacity>, wharf <good>, keep <count> <good>... | keep nothing, "
    "pass, draw <good>, reshuffle; role mayor, plant, quarry and build may end in 'without colonist', "
    "load and wharf in 'without <1 or 2> vp'"
)


def _fixed_notations() -> dict[Action, str]:
    table: dict[Action, str] = {PASS: "pass", QUARRY_TAKE: "quarry", HACIENDA_TAKE: "hacienda", RESHUFFLE: "reshuffle"}
    table.update({a: f"role {ROLE_NAMES[a[1]]}" for a in ROLE_ACTIONS})
    table.update({a: f"plant {GOOD_NAMES[a[1]]}" for a in PLANT_ACTIONS})
    table.update({a: f"place {SLOT_NAMES[a[1]]}" for a in PLACE_ACTIONS})
    table.update({a: f"build {BUILDING_NAMES[a[1]]}" for a in BUILD_ACTIONS})
    table.update({a: f"extra {GOOD_NAMES[a[1]]}" for a in EXTRA_ACTIONS})
    table.update({a: f"sell {GOOD_NAMES[a[1]]}" for a in SELL_ACTIONS})
    table.update({a: f"wharf {GOOD_NAMES[a[1]]}" for a in WHARF_ACTIONS})
    table.update({a: f"draw {GOOD_NAMES[a[1]]}" for a in DRAW_ACTIONS})
    table.update({a: f"load {GOOD_NAMES[a[1]]} {a[2]}" for a in LOAD_ACTIONS.values()})
    colonist = " without colonist"
    table[MAYOR_WITHOUT] = f"role {ROLE_NAMES[MAYOR]}{colonist}"
    table[QUARRY_WITHOUT] = f"quarry{colonist}"
    table.update({a: f"plant {GOOD_NAMES[a[1]]}{colonist}" for a in PLANT_WITHOUT})
    table.update({a: f"build {BUILDING_NAMES[a[1]]}{colonist}" for a in BUILD_WITHOUT})
    table.update({a: f"load {GOOD_NAMES[a[1]]} {a[2]} without {a[3]} vp" for a in LOAD_WITHOUT.values()})
    table.update({a: f"wharf {GOOD_NAMES[a[1]]} without {a[2]} vp" for a in WHARF_WITHOUT.values()})
    return table


FORMATS: Final[dict[Action, str]] = _fixed_notations()
PARSES: Final[dict[str, Action]] = {text: action for action, text in FORMATS.items()}


@lru_cache(maxsize=4096)
def keep_action(kept: tuple[int, ...]) -> Action:
    """The interned storage action keeping ``kept`` barrels per good."""
    return ("keep", kept)


def format_keep(kept: tuple[int, ...]) -> str:
    """``keep 1 corn 4 sugar`` (or ``keep nothing``)."""
    parts = [f"{count} {GOOD_NAMES[g]}" for g, count in enumerate(kept) if count]
    return "keep " + (" ".join(parts) if parts else "nothing")


def format_action(action: Action) -> str:
    """The notation of ``action``."""
    text = FORMATS.get(action)
    if text is not None:
        return text
    if isinstance(action, tuple) and len(action) == 2 and action[0] == "keep":
        return format_keep(action[1])
    raise NotationError(repr(action), "a puerto rico action tuple")


def _parse_keep(text: str, words: list[str]) -> Action:
    expected = "keep <count> <good> ... with goods in the order corn, indigo, sugar, tobacco, coffee, or keep nothing"
    if words == ["nothing"]:
        return keep_action((0,) * 5)
    if not words or len(words) % 2:
        raise NotationError(text, expected)
    kept = [0] * 5
    last = -1
    for count_text, good_name in zip(words[::2], words[1::2], strict=True):
        if not count_text.isdigit() or good_name not in GOOD_NAMES or int(count_text) == 0:
            raise NotationError(text, expected)
        good = GOOD_NAMES.index(good_name)
        if good <= last:
            raise NotationError(text, expected)
        kept[good] = int(count_text)
        last = good
    return keep_action(tuple(kept))


@lru_cache(maxsize=8192)
def parse_action(text: object) -> Action:  # object: a non-string is a NotationError, also when compiled
    """The action written ``text``; raises NotationError saying what was expected."""
    return parse_notation(text, PARSES, _parse_normal)


def _parse_normal(text: str) -> Action:
    """The action of a normalised text that is not one of the fixed spellings: a keep, or an error."""
    verb, _, rest = text.partition(" ")
    if verb == "keep":
        return _parse_keep(text, rest.split())
    raise NotationError(text, _expected_for(verb))


def _expected_for(verb: str) -> str:
    """What may follow a known verb, or the whole notation for an unknown one."""
    choices = {
        "role": ROLE_NAMES, "plant": GOOD_NAMES, "extra": GOOD_NAMES, "sell": GOOD_NAMES, "wharf": GOOD_NAMES,
        "draw": GOOD_NAMES, "place": SLOT_NAMES, "build": BUILDING_NAMES,
    }
    if verb in choices:
        suffix = {
            "plant": ", optionally then 'without colonist' (hospice)",
            "build": ", optionally then 'without colonist' (university)",
            "wharf": ", optionally then 'without 1 vp' or 'without 2 vp'",
            "role": "; 'role mayor without colonist' declines the privilege",
        }.get(verb, "")
        return f"{verb} followed by one of: {', '.join(choices[verb])}{suffix}"
    if verb == "load":
        return "load <good> <ship capacity 4-8>, e.g. load corn 6, optionally then 'without 1 vp' or 'without 2 vp'"
    if verb == "quarry":
        return "quarry, or quarry without colonist"
    return EXPECTED
