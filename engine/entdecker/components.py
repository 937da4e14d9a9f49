"""Entdecker's component set as plain data: a documented reconstruction, not a scan of the box.

Only some numbers are sourced (see ``docs/games/entdecker.md``, "Component data"): 120 tiles of which
38 reserve tiles and 20 draw tiles with a '?' back; reserve backs numbered 1 (four water sides)
to 6 (four land sides); 20 discovery chips (five 1s, seven 2s, six 3s, two 4s); income 2-5; gold
0-12 starting at 4; a 10 x 7 board; 3 scouts, 2 forts and 1 settlement per player, costing 1, 3
and 6 ("Felderítő=1 (ebből van három darab), erőd=3 (ebből két darab), telep=6 (ebből pedig egy)").
The tile topologies, the split of the 82 draw tiles over them, the events' distribution, the
reserve faces of backs 2-5, the stack sizes and the wheel's segments are **reconstructed**: our
design, checked with random-policy playouts.

The layout is JSON-shaped on purpose: a game may be set up with another component set passed as
``Setup.options["components"]`` in exactly this shape (checked by :mod:`engine.entdecker.component_set`).

* ``board``: ``w`` columns by ``h`` rows of cells inside a rim of open sea.
* ``topologies``: a tile face per code, sides N E S W as ``L`` (land) / ``W`` (water); ``land``
  lists its land parts (each the sides it touches; ``[]`` is an islet touching no side) and
  ``water`` its water regions (each the water sides joined by sea passages), in index order.
* ``draw_tiles``: the draw tiles per type; ``event`` is null for a plain back, else the event
  printed on a '?' tile (storm, hostile, friendly, pirates, ruins, treasure). The type key is the
  topology code, plus ``?event`` for a '?' tile.
* ``stack_sizes``: the face-down stacks the shuffled draw tiles are dealt into.
* ``reserve``: per back number 1-6, the face of those reserve tiles and how many there are.
* ``chips``: discovery chips per value; ``wheel``: the income wheel's segments.
* ``units``: cost and copies per player of each unit, in rank order (settlement > fort > scout).
* ``gold``: start and cap of the gold track.
"""

from __future__ import annotations

from typing import Any

#: The default component set (see the module docstring for what is sourced and what reconstructed).
DEFAULT_COMPONENTS: dict[str, Any] = {
    "board": {"w": 10, "h": 7, "rim": "water"},
    "topologies": {
        "SEA": {"sides": "WWWW", "land": [], "water": [["N", "E", "S", "W"]]},
        "ISLET": {"sides": "WWWW", "land": [[]], "water": [["N", "E", "S", "W"]]},
        "CAPE": {"sides": "LWWW", "land": [["N"]], "water": [["E", "S", "W"]]},
        "CORNER": {"sides": "LLWW", "land": [["N", "E"]], "water": [["S", "W"]]},
        "TWIN": {"sides": "LLWW", "land": [["N"], ["E"]], "water": [["S", "W"]]},
        "ISTHMUS": {"sides": "LWLW", "land": [["N", "S"]], "water": [["E"], ["W"]]},
        "STRAIT": {"sides": "LWLW", "land": [["N"], ["S"]], "water": [["E", "W"]]},
        "BAY": {"sides": "LLLW", "land": [["N", "E", "S"]], "water": [["W"]]},
        "FJORD": {"sides": "LLLW", "land": [["N", "E"], ["S"]], "water": [["W"]]},
        "LAND": {"sides": "LLLL", "land": [["N", "E", "S", "W"]], "water": []},
    },
    "draw_tiles": [
        {"type": "SEA", "topology": "SEA", "event": None, "count": 10},
        {"type": "SEA?storm", "topology": "SEA", "event": "storm", "count": 3},
        {"type": "SEA?pirates", "topology": "SEA", "event": "pirates", "count": 2},
        {"type": "ISLET", "topology": "ISLET", "event": None, "count": 2},
        {"type": "CAPE", "topology": "CAPE", "event": None, "count": 16},
        {"type": "CAPE?storm", "topology": "CAPE", "event": "storm", "count": 1},
        {"type": "CAPE?pirates", "topology": "CAPE", "event": "pirates", "count": 1},
        {"type": "CAPE?treasure", "topology": "CAPE", "event": "treasure", "count": 1},
        {"type": "CAPE?ruins", "topology": "CAPE", "event": "ruins", "count": 1},
        {"type": "CAPE?hostile", "topology": "CAPE", "event": "hostile", "count": 1},
        {"type": "CAPE?friendly", "topology": "CAPE", "event": "friendly", "count": 1},
        {"type": "CORNER", "topology": "CORNER", "event": None, "count": 14},
        {"type": "CORNER?pirates", "topology": "CORNER", "event": "pirates", "count": 1},
        {"type": "CORNER?treasure", "topology": "CORNER", "event": "treasure", "count": 1},
        {"type": "CORNER?ruins", "topology": "CORNER", "event": "ruins", "count": 1},
        {"type": "CORNER?hostile", "topology": "CORNER", "event": "hostile", "count": 1},
        {"type": "CORNER?friendly", "topology": "CORNER", "event": "friendly", "count": 1},
        {"type": "TWIN", "topology": "TWIN", "event": None, "count": 4},
        {"type": "ISTHMUS", "topology": "ISTHMUS", "event": None, "count": 3},
        {"type": "STRAIT", "topology": "STRAIT", "event": None, "count": 3},
        {"type": "BAY", "topology": "BAY", "event": None, "count": 8},
        {"type": "BAY?treasure", "topology": "BAY", "event": "treasure", "count": 1},
        {"type": "BAY?ruins", "topology": "BAY", "event": "ruins", "count": 1},
        {"type": "BAY?hostile", "topology": "BAY", "event": "hostile", "count": 1},
        {"type": "BAY?friendly", "topology": "BAY", "event": "friendly", "count": 1},
        {"type": "FJORD", "topology": "FJORD", "event": None, "count": 2},
    ],
    "stack_sizes": [17, 17, 16, 16, 16],
    "reserve": {
        "1": ["SEA", 5],
        "2": ["CAPE", 6],
        "3": ["CORNER", 6],
        "4": ["ISTHMUS", 4],
        "5": ["BAY", 7],
        "6": ["LAND", 10],
    },
    "chips": {"1": 5, "2": 7, "3": 6, "4": 2},
    "wheel": [2, 3, 3, 4, 4, 5],
    "units": {
        "scout": {"cost": 1, "copies": 3},
        "fort": {"cost": 3, "copies": 2},
        "settlement": {"cost": 6, "copies": 1},
    },
    "gold": {"start": 4, "max": 12},
}

#: The six events a '?' tile may show, in the order of the seed's event table.
EVENT_NAMES = ("storm", "hostile", "friendly", "pirates", "ruins", "treasure")
#: Units by index, lowest rank first (a settlement outranks a fort, a fort a scout).
UNIT_NAMES = ("scout", "fort", "settlement")
#: Sides of a square: N, E, S, W = 0, 1, 2, 3.
SIDE_NAMES = ("N", "E", "S", "W")
