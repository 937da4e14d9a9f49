"""Puerto Rico on Board Game Arena: reading one log line.

:func:`classify` tells what a public notification says: a role choice by its structure
(``args.rol_type``, as BGA sends it), everything else by the rendered English line, in the
phrases of BGA's 2016 Puerto Rico, with the kinds (goods, buildings, ships) read from ``args``
when present and from the words otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.bga.history import LogNote
from engine.puerto_rico.components import BUILDING_NAMES, GOOD_NAMES, TILE_NAMES
from engine.puerto_rico.state import BUILD, CRAFT, LOAD, PLACE, ROLE, SETTLE, STORE, TRADE

_GOOD = r"(corn|indigo|sugar|tobacco|coffee)"
_POSSESSIVE = r"(?:his|her|their)"
_BY_LENGTH = sorted(BUILDING_NAMES, key=len, reverse=True)
_ROLE_WORDS = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector")

# Lines that state a bonus belonging to the decision before them.
PRIVILEGE_COLONIST, HOSPICE, UNIVERSITY = "privilege colonist", "hospice", "university"
HARBOR_VP, PRIVILEGE_VP = "harbor vp", "privilege vp"
#: A line saying the decision before it declined a bonus (our export writes one for every decline).
DECLINED = "declined"

# (kind, pattern) in the order tried; the first match decides.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((k, re.compile(p, re.IGNORECASE)) for k, p in (
    ("place", r"\bplaced? an? colonists? on\b"),
    (DECLINED, r"\bdeclined?s?\b"),
    (PRIVILEGE_COLONIST, rf"colonists? from the supply as {_POSSESSIVE} privilege"),
    (HOSPICE, rf"colonists?\b.*\b(?:from|with|by) {_POSSESSIVE} hospice"),
    (UNIVERSITY, rf"colonists?\b.*\b(?:from|with|by) {_POSSESSIVE} university"),
    (HARBOR_VP, rf"victory points? from {_POSSESSIVE} harbou?r"),
    (PRIVILEGE_VP, rf"victory points? as {_POSSESSIVE} privilege"),
    ("hacienda", r"got a new plantation from the deck|\bhacienda\b.*\bplantation|plantation\b.*\bhacienda"),
    ("plant", r"got an? new plantation|\btook an? .*plantation"),
    ("quarry", r"got an? new quarry|\btook a quarry"),
    ("draw", r"turned face up|face-up|new plantations? (?:is|are) (?:drawn|revealed)"),
    ("reshuffle", r"shuffled"),
    ("build", r"bought an? (?:new )?building|\bbuilt an?\b|\bbuilds an?\b"),
    ("extra", rf"\b{_GOOD}\b.*\bas {_POSSESSIVE} privilege"),
    ("sell", r"from the sale|\bsold\b|\bsells\b"),
    ("ship", r"for shipping|\bshipped\b|\bships\b"),
    ("keep", r"\bkeeps?\b|\bkept\b"),
    ("pass", r"\bpass(?:es|ed)?\b"),
    ("consequence", rf"from the role card|from the ship|from {_POSSESSIVE} factory|doubloons? as {_POSSESSIVE} privilege|"
                    r"bonus points?|produced?|"
                    r"\bgovernor\b|new round|go back to the supply|lost|discard"),
))
BONUS_KINDS = frozenset({PRIVILEGE_COLONIST, HOSPICE, UNIVERSITY, HARBOR_VP, PRIVILEGE_VP, DECLINED})
DECISIONS = frozenset({"role", "hacienda", "plant", "quarry", "place", "build", "extra", "sell", "ship", "keep", "pass"})


#: The phases in which each kind of decision can be taken (a pass fits any).
PHASES_OF: dict[str, tuple[int, ...]] = {
    "role": (ROLE,), "plant": (SETTLE,), "quarry": (SETTLE,), "hacienda": (SETTLE,), "place": (PLACE,), "build": (BUILD,),
    "extra": (CRAFT,), "sell": (TRADE,), "ship": (LOAD,), "keep": (STORE,),
}


@dataclass
class Item:
    """One classified notification: what kind of line it is and the values read from it."""

    note: LogNote
    kind: str
    values: dict[str, Any] = field(default_factory=dict)
    bonuses: list[Item] = field(default_factory=list)


def _word(pattern: str, text: str) -> str | None:
    match = re.search(pattern, text, re.IGNORECASE)
    return match.group(1).lower() if match else None


def _arg_text(args: Mapping[str, Any], *names: str) -> str | None:
    for name in names:
        value = args.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip().lower()
    return None


def _good(note: LogNote) -> int | None:
    name = _arg_text(note.args, "plantation_type", "good_type", "good_name", "plantation_name") or _word(rf"\b{_GOOD}\b", note.text)
    return GOOD_NAMES.index(name) if name in GOOD_NAMES else None


def _building(note: LogNote) -> int | None:
    name = _arg_text(note.args, "building_type", "building_name")
    if name in BUILDING_NAMES:
        return BUILDING_NAMES.index(name)
    text = note.text.lower()
    for candidate in _BY_LENGTH:
        if re.search(rf"\b{re.escape(candidate)}\b", text):
            return BUILDING_NAMES.index(candidate)
    return None


def _slot(note: LogNote) -> str | None:
    name = _arg_text(note.args, "slot_type")
    if name in TILE_NAMES or name in BUILDING_NAMES:
        return name
    building = _building(note)
    if building is not None:
        return BUILDING_NAMES[building]
    text = note.text.lower()
    return _word(r"\b(corn|indigo|sugar|tobacco|coffee|quarry)\b", text)


def as_int(value: Any) -> int | None:
    """``value`` as an int when it is one or a string of digits (BGA sends both), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _kept(note: LogNote) -> tuple[int, ...] | None:
    raw = note.args.get("kept")
    if isinstance(raw, Mapping):
        counts = [as_int(raw.get(g, 0)) for g in GOOD_NAMES]
        if all(c is not None and c >= 0 for c in counts):
            return tuple(c or 0 for c in counts)
    text = note.text.lower()
    if re.search(r"\bkeeps? nothing\b", text):
        return (0,) * 5
    found = re.findall(rf"(\d+) {_GOOD}", text)
    if not found:
        return None
    kept = [0] * 5
    for count, good in found:
        kept[GOOD_NAMES.index(good)] += int(count)
    return tuple(kept)


def classify(note: LogNote) -> Item:
    """What a public notification says, by its structure (``rol_type``) and its text."""
    args = note.args
    rol_type = args.get("rol_type")
    if isinstance(rol_type, str) and rol_type.strip().lower().rstrip("2") in _ROLE_WORDS:
        return Item(note, "role", {"role": rol_type.strip().lower().rstrip("2"), "rol_id": as_int(args.get("rol_id"))})
    text = note.text
    role = _word(rf"\bselected the ({'|'.join(_ROLE_WORDS)})\b", text)
    if role:
        return Item(note, "role", {"role": role, "rol_id": None})
    for kind, pattern in _PATTERNS:
        if pattern.search(text):
            return Item(note, kind, _values(kind, note))
    return Item(note, "unknown")


def _values(kind: str, note: LogNote) -> dict[str, Any]:
    if kind in ("hacienda", "plant", "draw", "extra", "sell"):
        return {"good": _good(note)}
    if kind == "place":
        return {"slot": _slot(note)}
    if kind == "build":
        return {"building": _building(note)}
    if kind == "ship":
        capacity = as_int(note.args.get("capacity")) or as_int(_word(r"\b(\d)[- ]barrel ship\b", note.text))
        wharf = bool(re.search(r"\bwharf\b", note.text, re.IGNORECASE)) or note.args.get("wharf") is True
        return {"good": _good(note), "capacity": capacity, "wharf": wharf}
    if kind == "keep":
        return {"kept": _kept(note)}
    if kind == DECLINED:
        return {"vp": as_int(note.args.get("nbr")) or as_int(_word(r"(\d+) (?:bonus )?victory points?", note.text))}
    return {}
