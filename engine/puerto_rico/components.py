"""Static tables of Puerto Rico: goods, plantations, buildings, roles and the setup table.

Facts from the Hungarian rulebook ("A játék elemei", "Játékelőkészületek") and the building table of
the Chinese translation (both named in :mod:`engine.puerto_rico`).
Everything is indexed by small integers so the rules can use tuples instead of dicts.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# Goods (and the plantations that grow them), in the order of their trading price. Each index is a Final literal, not
# unpacked from a range: the compiled engine then inlines it as a constant instead of looking a module global up by name
# at every use (about a tenth of a rollout's CPU went to such lookups).
CORN: Final = 0
INDIGO: Final = 1
SUGAR: Final = 2
TOBACCO: Final = 3
COFFEE: Final = 4
GOODS: Final = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
GOOD_NAMES: Final = ("corn", "indigo", "sugar", "tobacco", "coffee")
#: Trading-house price of one barrel, by kind.
PRICES: Final = (0, 1, 2, 3, 4)
#: Barrels in the game: corn 10, indigo 11, sugar 11, tobacco 9, coffee 9.
BARRELS: Final = (10, 11, 11, 9, 9)

#: Island tiles: the five plantation kinds and the quarry (index 5).
QUARRY: Final = 5
TILE_NAMES: Final = (*GOOD_NAMES, "quarry")
#: Plantation tiles in the game: coffee 8, tobacco 9, corn 10, sugar 11, indigo 12.
PLANTATIONS: Final = (10, 12, 11, 9, 8)
QUARRIES: Final = 8
ISLAND_SPACES: Final = 12
CITY_SPACES: Final = 12


class Building(NamedTuple):
    """One kind of building: ``vp`` is also its column (the most quarries that discount it)."""

    name: str
    cost: int
    vp: int
    circles: int
    copies: int
    produces: int  # the good a production building processes, -1 for violet buildings
    large: bool


def _production(name: str, cost: int, vp: int, circles: int, copies: int, good: int) -> Building:
    return Building(name, cost, vp, circles, copies, good, False)


def _violet(name: str, cost: int, vp: int, copies: int = 2) -> Building:
    return Building(name, cost, vp, 1, copies, -1, False)


def _large(name: str) -> Building:
    return Building(name, 10, 4, 1, 1, -1, True)


#: The 23 kinds of building (49 tiles), in the bank board's column order.
BUILDINGS: Final[tuple[Building, ...]] = (
    _production("small indigo plant", 1, 1, 1, 4, INDIGO),
    _production("small sugar mill", 2, 1, 1, 4, SUGAR),
    _violet("small market", 1, 1),
    _violet("hacienda", 2, 1),
    _violet("construction hut", 2, 1),
    _violet("small warehouse", 3, 1),
    _production("indigo plant", 3, 2, 3, 3, INDIGO),
    _production("sugar mill", 4, 2, 3, 3, SUGAR),
    _violet("hospice", 4, 2),
    _violet("office", 5, 2),
    _violet("large market", 5, 2),
    _violet("large warehouse", 6, 2),
    _production("tobacco storage", 5, 3, 3, 3, TOBACCO),
    _production("coffee roaster", 6, 3, 2, 3, COFFEE),
    _violet("factory", 7, 3),
    _violet("university", 8, 3),
    _violet("harbor", 8, 3),
    _violet("wharf", 9, 3),
    _large("guild hall"),
    _large("residence"),
    _large("fortress"),
    _large("customs house"),
    _large("city hall"),
)
BUILDING_NAMES: Final = tuple(b.name for b in BUILDINGS)
BUILDING_INDEX: Final = {name: i for i, name in enumerate(BUILDING_NAMES)}
# Each building's index in BUILDINGS, as Final literals (see the goods above; a test checks them against the names).
SMALL_INDIGO_PLANT: Final = 0
SMALL_SUGAR_MILL: Final = 1
SMALL_MARKET: Final = 2
HACIENDA: Final = 3
CONSTRUCTION_HUT: Final = 4
SMALL_WAREHOUSE: Final = 5
INDIGO_PLANT: Final = 6
SUGAR_MILL: Final = 7
HOSPICE: Final = 8
OFFICE: Final = 9
LARGE_MARKET: Final = 10
LARGE_WAREHOUSE: Final = 11
TOBACCO_STORAGE: Final = 12
COFFEE_ROASTER: Final = 13
FACTORY: Final = 14
UNIVERSITY: Final = 15
HARBOR: Final = 16
WHARF: Final = 17
GUILD_HALL: Final = 18
RESIDENCE: Final = 19
FORTRESS: Final = 20
CUSTOMS_HOUSE: Final = 21
CITY_HALL: Final = 22
N_BUILDINGS: Final = len(BUILDINGS)
TOTAL_BUILDINGS: Final = sum(b.copies for b in BUILDINGS)  # 49
#: City spaces each building takes (large buildings take two).
SPACES: Final = tuple(2 if b.large else 1 for b in BUILDINGS)
COSTS: Final = tuple(b.cost for b in BUILDINGS)
COLUMNS: Final = tuple(b.vp for b in BUILDINGS)
CIRCLES: Final = tuple(b.circles for b in BUILDINGS)
IS_VIOLET: Final = tuple(b.produces < 0 for b in BUILDINGS)
SMALL_PRODUCTION: Final = (SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL)
LARGE_PRODUCTION: Final = (INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE, COFFEE_ROASTER)
#: Production buildings by the good they process.
PRODUCERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, b in enumerate(BUILDINGS) if b.produces == good) for good in GOODS
)

# Role cards. Two prospector cards exist (5 players use both), each holding its own doubloons.
SETTLER: Final = 0
MAYOR: Final = 1
BUILDER: Final = 2
CRAFTSMAN: Final = 3
TRADER: Final = 4
CAPTAIN: Final = 5
PROSPECTOR: Final = 6
PROSPECTOR_2: Final = 7
ROLE_NAMES: Final = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector", "prospector2")
#: The role cards in play by player count ("5) a szerepkártyák").
ROLE_CARDS: Final = {3: 6, 4: 7, 5: 8}


class SetupRow(NamedTuple):
    """One column of the rulebook's setup table."""

    doubloons: int
    vp_chips: int
    colonist_supply: int
    colonist_ship: int
    ship_capacities: tuple[int, ...]
    starting_plantations: tuple[int, ...]  # by seat, the governor (seat 0) first


SETUP: Final = {
    3: SetupRow(2, 75, 55, 3, (4, 5, 6), (INDIGO, INDIGO, CORN)),
    4: SetupRow(3, 100, 75, 4, (5, 6, 7), (INDIGO, INDIGO, CORN, CORN)),
    5: SetupRow(4, 122, 95, 5, (6, 7, 8), (INDIGO, INDIGO, INDIGO, CORN, CORN)),
}
#: The cargo ships' capacities by player count (a tuple indexed by the count: read at every captain decision, where a
#: lookup in SETUP costs a dict's hashing).
SHIP_CAPACITIES: Final = tuple(SETUP[n].ship_capacities if n in SETUP else () for n in range(max(SETUP) + 1))
#: Trading house spaces.
TRADING_HOUSE_SPACES: Final = 4
#: Factory doubloons by the number of kinds produced ("Gyár": 2 → 1, 3 → 2, 4 → 3, 5 → 5).
FACTORY_BONUS: Final = (0, 0, 1, 2, 3, 5)
