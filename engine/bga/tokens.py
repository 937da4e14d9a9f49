"""BGA's icon tokens in log lines (``[KNOWLEDGE4]``, ``[BUILDING5]``) as the words a player reads.

On BGA such a token is drawn as an icon: ``[KNOWLEDGE4]`` is a knowledge icon with a 4, ``[BUILDING5]``
a trading station. A log without BGA's pictures shows the raw brackets, which mean nothing to a reader,
so the log-only page shows words instead (the raw token stays available as a tooltip).

Resources read the same in every game: ``<amount> <resource>``. Piece tables are per game and only as
far as the log itself proves them: in Gaia Project a ``[BUILDING4]`` is what each player "places a
starting" (a mine); the others follow from what upgrading to them costs in the sample log against the
rulebook's costs (trading station 3 or 6 credits and 2 ore, research lab 5 and 3, planetary institute
6 and 4, academy 6 and 6). Anything unknown becomes ``<kind> <number>``, still readable and never wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_TOKEN = re.compile(r"\[([A-Z][A-Z_]{1,30})(\d{1,4})\]")
# BGA draws a run of icons side by side ("[POWER3][QIC1][ORE1]"): in words they need commas.
_RUN = re.compile(r"(?:\[[A-Z][A-Z_]{1,30}\d{1,4}\])+")

# Resources: the number is an amount.
_RESOURCES: Mapping[str, tuple[str, str]] = {
    "KNOWLEDGE": ("knowledge", "knowledge"), "POWER": ("power", "power"), "ORE": ("ore", "ore"),
    "QIC": ("QIC", "QIC"), "VP": ("VP", "VP"), "COIN": ("coin", "coins"), "POINT": ("point", "points"),
    "GOLD": ("gold", "gold"), "CREDIT": ("credit", "credits"), "TOKEN": ("token", "tokens"),
}
# Per game, how a resource is called there (BGA's Gaia Project names its credits GOLD).
_GAME_RESOURCES: Mapping[str, Mapping[str, tuple[str, str]]] = {
    "gaiaproject": {"GOLD": ("credit", "credits")},
}
# Per game, pieces: the number names which one.
_GAME_PIECES: Mapping[str, Mapping[str, Mapping[int, str]]] = {
    "gaiaproject": {
        "BUILDING": {4: "mine", 5: "trading station", 6: "research lab", 7: "academy", 8: "academy", 9: "planetary institute"},
    },
}
# Kinds of numbered things whose names we do not know: "faction 3", "action 20", "research track 5".
_KINDS: Mapping[str, str] = {"RACE": "faction", "ACTION": "action", "RESEARCH": "research track", "BUILDING": "building",
                             "TECH": "technology tile", "BOOSTER": "booster", "FEDERATION": "federation token"}


def readable_tokens(text: str, game: str = "") -> str:
    """``text`` with every ``[NAMEn]`` token of BGA's log written out in words for ``game`` (a BGA short name)."""
    if "[" not in text:
        return text
    return _RUN.sub(lambda run: ", ".join(_word(kind, int(number), game) for kind, number in _TOKEN.findall(run.group(0))), text)


def has_tokens(text: str) -> bool:
    """True if ``text`` holds at least one BGA icon token."""
    return _TOKEN.search(text) is not None


def _word(kind: str, number: int, game: str) -> str:
    piece = _GAME_PIECES.get(game, {}).get(kind, {}).get(number)
    if piece is not None:
        return piece
    resource = _GAME_RESOURCES.get(game, {}).get(kind) or _RESOURCES.get(kind)
    if resource is not None:
        one, many = resource
        return f"{number} {one if number == 1 else many}"
    label = _KINDS.get(kind) or kind.lower().replace("_", " ")
    return f"{label} {number}"
