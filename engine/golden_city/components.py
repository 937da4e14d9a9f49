"""The default component set of Die goldene Stadt, as plain literals (a data module: no file is read).

The layout is a **documented reconstruction**: the Hungarian rulebook (see :mod:`engine.golden_city`)
gives the counts (16 harbours, 30 suburbs, 12 of them on 4 rivers, a city of 4 districts with 1 inner and
2 outer parts each, 6 key cards, 8 goods and 8 bonus cards, 16 scoring cards with backs 1, 2 and 3), but
not the board's geography, the rewards printed on each site, the goods on each goods card or the
scoring cards' faces. Those come from our digest (``docs/games/golden_city.md`` § Component data), designed
there to be plausible and self-consistent. Swap in real data through ``Setup.options["components"]``
(same JSON shape as :data:`DEFAULT_COMPONENTS`; any top-level key left out keeps the default), see
:mod:`engine.golden_city.component_set`.

Sites: ``(id, kind, terrain, river or None, reward, neighbours)``. Kinds: ``harbour``, ``suburb``,
``outer``, ``inner`` (city parts). Terrains: ``CO`` coast, ``MT`` mountains, ``ME`` meadow, ``FO`` forest,
``DE`` desert. Rewards: ``coin1``, ``coin2``, ``card``, ``key``, ``bonus``, ``goods`` (harbours and
suburbs); ``outer``, ``outer+coin`` (outer parts); ``inner`` (inner parts).
"""

from __future__ import annotations

from typing import Any

#: Terrain codes in their fixed order (hands, piles and payments are counted in this order).
TERRAINS = ("CO", "MT", "ME", "FO", "DE")
TERRAIN_NAMES = ("coast", "mountains", "meadow", "forest", "desert")
CO, MT, ME, FO, DE = range(5)

SITES: tuple[tuple[str, str, str, str | None, str, tuple[str, ...]], ...] = (
    ("HA01", "harbour", "CO", None, "card", ("MT1",)),
    ("HA02", "harbour", "CO", None, "coin1", ("MT1", "MT2")),
    ("HA03", "harbour", "CO", None, "card", ("MT2", "MT3")),
    ("HA04", "harbour", "CO", None, "coin1", ("MT3", "MT8")),
    ("HA05", "harbour", "CO", None, "card", ("ME1",)),
    ("HA06", "harbour", "CO", None, "coin1", ("ME1", "ME2")),
    ("HA07", "harbour", "CO", None, "card", ("ME2", "ME3")),
    ("HA08", "harbour", "CO", None, "coin1", ("ME3", "ME7")),
    ("HA09", "harbour", "CO", None, "card", ("FO1",)),
    ("HA10", "harbour", "CO", None, "coin1", ("FO1", "FO2")),
    ("HA11", "harbour", "CO", None, "card", ("FO2", "FO3")),
    ("HA12", "harbour", "CO", None, "coin1", ("FO3", "FO8")),
    ("HA13", "harbour", "CO", None, "card", ("DE1",)),
    ("HA14", "harbour", "CO", None, "coin1", ("DE1", "DE2")),
    ("HA15", "harbour", "CO", None, "card", ("DE2", "DE3")),
    ("HA16", "harbour", "CO", None, "coin1", ("DE3", "DE7")),
    ("MT1", "suburb", "MT", "R-NW", "coin2", ("HA01", "HA02", "MT2", "MT4")),
    ("MT2", "suburb", "MT", None, "goods", ("HA02", "HA03", "MT1", "MT3", "MT4", "MT5")),
    ("MT3", "suburb", "MT", None, "bonus", ("HA03", "HA04", "MT2", "MT5", "MT8")),
    ("MT4", "suburb", "MT", "R-NW", "key", ("MT1", "MT2", "MT5", "MT6", "DE7")),
    ("MT5", "suburb", "MT", None, "coin1", ("MT2", "MT3", "MT4", "MT6", "MT7", "MT8")),
    ("MT6", "suburb", "MT", None, "key", ("MT4", "MT5", "MT7", "C-MT-O1")),
    ("MT7", "suburb", "MT", None, "goods", ("MT5", "MT6", "MT8", "C-MT-O1", "C-MT-O2")),
    ("MT8", "suburb", "MT", "R-NE", "bonus", ("HA04", "MT3", "MT5", "MT7", "ME4", "C-MT-O2")),
    ("ME1", "suburb", "ME", "R-NE", "coin2", ("HA05", "HA06", "ME2", "ME4")),
    ("ME2", "suburb", "ME", None, "goods", ("HA06", "HA07", "ME1", "ME3", "ME4", "ME5")),
    ("ME3", "suburb", "ME", None, "bonus", ("HA07", "HA08", "ME2", "ME5", "ME7")),
    ("ME4", "suburb", "ME", "R-NE", "card", ("MT8", "ME1", "ME2", "ME5", "ME6")),
    ("ME5", "suburb", "ME", None, "goods", ("ME2", "ME3", "ME4", "ME6", "ME7")),
    ("ME6", "suburb", "ME", None, "key", ("ME4", "ME5", "ME7", "C-ME-O1", "C-ME-O2")),
    ("ME7", "suburb", "ME", "R-SE", "bonus", ("HA08", "ME3", "ME5", "ME6", "FO4", "C-ME-O2")),
    ("FO1", "suburb", "FO", "R-SE", "coin2", ("HA09", "HA10", "FO2", "FO4")),
    ("FO2", "suburb", "FO", None, "goods", ("HA10", "HA11", "FO1", "FO3", "FO4", "FO5")),
    ("FO3", "suburb", "FO", None, "bonus", ("HA11", "HA12", "FO2", "FO5", "FO8")),
    ("FO4", "suburb", "FO", "R-SE", "key", ("ME7", "FO1", "FO2", "FO5", "FO6")),
    ("FO5", "suburb", "FO", None, "coin1", ("FO2", "FO3", "FO4", "FO6", "FO7", "FO8")),
    ("FO6", "suburb", "FO", None, "key", ("FO4", "FO5", "FO7", "C-FO-O1")),
    ("FO7", "suburb", "FO", None, "goods", ("FO5", "FO6", "FO8", "C-FO-O1", "C-FO-O2")),
    ("FO8", "suburb", "FO", "R-SW", "bonus", ("HA12", "FO3", "FO5", "FO7", "DE4", "C-FO-O2")),
    ("DE1", "suburb", "DE", "R-SW", "coin2", ("HA13", "HA14", "DE2", "DE4")),
    ("DE2", "suburb", "DE", None, "goods", ("HA14", "HA15", "DE1", "DE3", "DE4", "DE5")),
    ("DE3", "suburb", "DE", None, "bonus", ("HA15", "HA16", "DE2", "DE5", "DE7")),
    ("DE4", "suburb", "DE", "R-SW", "card", ("FO8", "DE1", "DE2", "DE5", "DE6")),
    ("DE5", "suburb", "DE", None, "goods", ("DE2", "DE3", "DE4", "DE6", "DE7")),
    ("DE6", "suburb", "DE", None, "key", ("DE4", "DE5", "DE7", "C-DE-O1", "C-DE-O2")),
    ("DE7", "suburb", "DE", "R-NW", "bonus", ("HA16", "MT4", "DE3", "DE5", "DE6", "C-DE-O2")),
    ("C-MT-O1", "outer", "MT", None, "outer+coin", ("MT6", "MT7", "C-MT-O2", "C-MT-I", "C-DE-O2")),
    ("C-MT-O2", "outer", "MT", None, "outer", ("MT7", "MT8", "C-MT-O1", "C-MT-I", "C-ME-O1")),
    ("C-MT-I", "inner", "MT", None, "inner", ("C-MT-O1", "C-MT-O2")),
    ("C-ME-O1", "outer", "ME", None, "outer+coin", ("ME6", "C-MT-O2", "C-ME-O2", "C-ME-I")),
    ("C-ME-O2", "outer", "ME", None, "outer", ("ME6", "ME7", "C-ME-O1", "C-ME-I", "C-FO-O1")),
    ("C-ME-I", "inner", "ME", None, "inner", ("C-ME-O1", "C-ME-O2")),
    ("C-FO-O1", "outer", "FO", None, "outer+coin", ("FO6", "FO7", "C-ME-O2", "C-FO-O2", "C-FO-I")),
    ("C-FO-O2", "outer", "FO", None, "outer", ("FO7", "FO8", "C-FO-O1", "C-FO-I", "C-DE-O1")),
    ("C-FO-I", "inner", "FO", None, "inner", ("C-FO-O1", "C-FO-O2")),
    ("C-DE-O1", "outer", "DE", None, "outer+coin", ("DE6", "C-FO-O2", "C-DE-O2", "C-DE-I")),
    ("C-DE-O2", "outer", "DE", None, "outer", ("DE6", "DE7", "C-MT-O1", "C-DE-O1", "C-DE-I")),
    ("C-DE-I", "inner", "DE", None, "inner", ("C-DE-O1", "C-DE-O2")),
)

#: The four goods; wine and ceramics are named by the seed, cloth and spices reconstructed.
GOODS = ("wine", "ceramics", "cloth", "spices")

GOODS_CARDS: tuple[tuple[str, tuple[str, str]], ...] = (
    ("G1", ("wine", "ceramics")),
    ("G2", ("wine", "ceramics")),
    ("G3", ("cloth", "spices")),
    ("G4", ("cloth", "spices")),
    ("G5", ("wine", "cloth")),
    ("G6", ("wine", "spices")),
    ("G7", ("ceramics", "cloth")),
    ("G8", ("ceramics", "spices")),
)

#: Scoring cards ``(id, back, good, regions)``. A region is a river id or ``D-<terrain>`` for a city district.
SCORING_CARDS: tuple[tuple[str, int, str, tuple[str, ...]], ...] = (
    ("S1", 1, "ceramics", ("R-NE",)),
    ("S2", 1, "cloth", ("R-SE",)),
    ("S3", 1, "wine", ("R-SW",)),
    ("S4", 1, "spices", ("R-NW",)),
    ("S5", 2, "spices", ("R-NE",)),
    ("S6", 2, "ceramics", ("R-SE",)),
    ("S7", 2, "cloth", ("R-SW",)),
    ("S8", 2, "wine", ("R-NW",)),
    ("S9", 2, "wine", ("D-MT",)),
    ("S10", 2, "ceramics", ("D-ME",)),
    ("S11", 2, "cloth", ("D-FO",)),
    ("S12", 2, "spices", ("D-DE",)),
    ("S13", 3, "spices", ("D-MT",)),
    ("S14", 3, "cloth", ("D-ME",)),
    ("S15", 3, "ceramics", ("D-FO",)),
    ("S16", 3, "wine", ("D-DE",)),
)

#: Bonus cards ``(id, effect, terrain or None)``; effects: goods, coins, city, river, terrain.
BONUS_CARDS: tuple[tuple[str, str, str | None], ...] = (
    ("B-GOODS", "goods", None),
    ("B-COINS", "coins", None),
    ("B-CITY", "city", None),
    ("B-RIVER", "river", None),
    ("B-MT", "terrain", "MT"),
    ("B-ME", "terrain", "ME"),
    ("B-FO", "terrain", "FO"),
    ("B-DE", "terrain", "DE"),
)


def _default_components() -> dict[str, Any]:
    """The default set in the JSON shape ``Setup.options["components"]`` takes."""
    return {
        "sites": [
            {"id": sid, "kind": kind, "terrain": terrain, "river": river, "reward": reward, "neighbours": list(nbrs)}
            for sid, kind, terrain, river, reward, nbrs in SITES
        ],
        "goods": list(GOODS),
        "goods_cards": [{"id": gid, "goods": list(goods)} for gid, goods in GOODS_CARDS],
        "scoring_cards": [
            {"id": sid, "back": back, "good": good, "regions": list(regions)} for sid, back, good, regions in SCORING_CARDS
        ],
        "bonus_cards": [
            {"id": bid, "effect": effect, **({"terrain": terrain} if terrain else {})} for bid, effect, terrain in BONUS_CARDS
        ],
        # 10 landscape cards per terrain.
        "landscape": {"CO": 10, "MT": 10, "ME": 10, "FO": 10, "DE": 10},
        "key_cards": 6,
        "coins": 35,
        "start_coins": 3,
        # Houses per player by player count (18 each in the box; 4 players use 16).
        "houses": {"3": 18, "4": 16},
    }


#: The default component set, JSON-shaped (see the module docstring).
DEFAULT_COMPONENTS: dict[str, Any] = _default_components()
