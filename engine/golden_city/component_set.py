"""A component set, validated and precomputed once: the board graph as bitmasks, the card tables.

:func:`component_set` turns JSON-shaped data (``Setup.options["components"]``; any top-level key left
out keeps the default of :mod:`engine.golden_city.components`) into a :class:`ComponentSet`, raising
:class:`~engine.core.errors.SetupError` that names the field and why. Sets are cached by their canonical
JSON, so every state of a game (and every game with the same set) shares one object, and the road
graph is computed once per set: a site's neighbours are one integer bitmask, which makes "is this site
connected to my houses" a single ``&``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Final, NamedTuple

from engine.core.errors import SetupError, StateFormatError
from engine.core.jsonread import JsonReader, as_setup_error
from engine.golden_city.components import DEFAULT_COMPONENTS, TERRAINS

HARBOUR: Final = 0
SUBURB: Final = 1
OUTER: Final = 2
INNER: Final = 3
KINDS = ("harbour", "suburb", "outer", "inner")
REWARDS = ("coin1", "coin2", "card", "key", "bonus", "goods", "outer", "outer+coin", "inner")
COIN1: Final = 0
COIN2: Final = 1
CARD: Final = 2
KEY: Final = 3
BONUS: Final = 4
GOODS: Final = 5
OUTER_REWARD: Final = 6
OUTER_COIN: Final = 7
INNER_REWARD: Final = 8
assert INNER_REWARD == len(REWARDS) - 1  # one name per reward, in the order of REWARDS
#: Which rewards a site of each kind may carry.
REWARDS_BY_KIND = {
    HARBOUR: {COIN1, COIN2, CARD, KEY, BONUS, GOODS},
    SUBURB: {COIN1, COIN2, CARD, KEY, BONUS, GOODS},
    OUTER: {OUTER_REWARD, OUTER_COIN},
    INNER: {INNER_REWARD},
}
BONUS_EFFECTS = ("goods", "coins", "city", "river", "terrain")
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+-]*\Z")
#: Words of the notation that an id may not be (``goods pile`` takes the blind card).
RESERVED_IDS = {"pile"}
PLAYER_COUNTS: Final = (3, 4)
#: A player holds at most 7 landscape cards (5 after the hand limit + a pair) and draws at most one
#: more, so 7n + 1 cards guarantee that a needed draw always finds a card.
CARDS_PER_PLAYER: Final = 7


SUBJECT = "bad golden city components"


def _fail(field: str, why: str) -> SetupError:
    return SetupError(f"{SUBJECT}: {field}: {why}")


class ComponentSet:
    """One validated component set with its precomputed tables (read-only; shared by all states)."""

    def __init__(self, data: dict[str, Any], key: str) -> None:
        self.data = data
        self.key = key
        self.is_default = data == DEFAULT_COMPONENTS
        root = JsonReader(data, SUBJECT)
        _read_sites(self, root.at("sites"))
        _read_goods(self, root.at("goods"), root.at("goods_cards"))
        _read_scoring(self, root.at("scoring_cards"))
        _read_bonus(self, root.at("bonus_cards"))
        _read_counts(self, root)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComponentSet) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return "ComponentSet(default)" if self.is_default else f"ComponentSet({len(self.site_ids)} sites)"

    # Attributes set by the readers (declared for the type checker).
    site_ids: tuple[str, ...]
    site_index: dict[str, int]
    kinds: tuple[int, ...]
    terrains: tuple[int, ...]
    rivers: tuple[int, ...]
    river_ids: tuple[str, ...]
    rewards: tuple[int, ...]
    neighbours: tuple[int, ...]
    neighbour_ids: tuple[tuple[str, ...], ...]
    harbours: int
    singles: int
    city: int
    river_mask: int
    terrain_masks: tuple[int, ...]
    district_masks: tuple[int, ...]
    river_masks: tuple[int, ...]
    goods: tuple[str, ...]
    goods_card_ids: tuple[str, ...]
    goods_of_card: dict[str, int]
    scoring_ids: tuple[str, ...]
    scoring_back: dict[str, int]
    scoring_good: dict[str, int]
    scoring_regions: dict[str, tuple[str, ...]]
    region_masks: dict[str, int]
    bonus_ids: tuple[str, ...]
    bonus_effect: dict[str, tuple[str, int]]
    landscape: tuple[int, ...]
    key_cards: int
    coins: int
    start_coins: int
    houses: dict[int, int]

    def site_bits(self, mask: int) -> list[int]:
        """The site indexes set in ``mask``, in index order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def region_name(self, region: str) -> str:
        """``the river R-NE`` or ``the mountains district``, for sentences."""
        if region.startswith("D-"):
            return f"the {TERRAIN_WORDS[TERRAINS.index(region[2:])]} district"
        return f"the river {region}"


TERRAIN_WORDS = ("coast", "mountains", "meadow", "forest", "desert")


def _id(field: JsonReader) -> str:
    """An id: letters, digits, '-', '_' or '+', not a word of the notation."""
    value = field.text()
    if not ID_PATTERN.match(value) or value in RESERVED_IDS:
        raise field.expected("an id of letters, digits, '-', '_' or '+' (not 'pile')")
    return value


SITE_FIELDS = ("id", "kind", "terrain", "river", "reward", "neighbours")


class _Site(NamedTuple):
    sid: str
    kind: int
    terrain: int
    river: str | None
    reward: int
    neighbours: tuple[str, ...]


def _river(field: JsonReader, kind: int) -> str | None:
    """A suburb's river (an id, not a district's ``D-`` name), or null; other sites lie on none."""
    if field.is_null():
        return None
    river = field.text()
    if kind != SUBURB or not ID_PATTERN.match(river) or river.startswith("D-"):
        raise field.expected("null, or for a suburb the id of a river (not 'D-', which names a city district)")
    return river


def _read_site(raw: JsonReader) -> _Site:
    site = raw.fields(SITE_FIELDS)
    sid = _id(site.at("id"))
    kind = site.at("kind").choice(KINDS)
    terrain = site.at("terrain").choice(TERRAINS)
    if (kind == HARBOUR) != (terrain == 0):
        raise site.at("terrain").fail(f"of {sid}: harbours and only harbours are coast (CO), got {TERRAINS[terrain]!r}")
    reward = site.at("reward").choice(REWARDS)
    if reward not in REWARDS_BY_KIND[kind]:
        allowed = ", ".join(REWARDS[r] for r in sorted(REWARDS_BY_KIND[kind]))
        raise site.at("reward").fail(f"of {sid}: a {KINDS[kind]} carries one of {allowed}, got {REWARDS[reward]!r}")
    neighbours = site.at("neighbours").texts(unique=True)
    return _Site(sid, kind, terrain, _river(site.at("river"), kind), reward, neighbours)


def _neighbour_masks(field: JsonReader, sites: list[_Site], index: dict[str, int]) -> tuple[int, ...]:
    """Each site's neighbours as a bitmask; roads go both ways."""
    masks = []
    for site in sites:
        mask = 0
        for other in site.neighbours:
            if other not in index or other == site.sid:
                raise field.fail(f"{site.sid} names neighbour {other!r}, which is not another site")
            if site.sid not in sites[index[other]].neighbours:
                raise field.fail(f"{site.sid} names neighbour {other}, but {other} does not name {site.sid} (roads go both ways)")
            mask |= 1 << index[other]
        masks.append(mask)
    return tuple(masks)


def _mask(sites: list[_Site], test: Callable[[_Site], bool]) -> int:
    return sum(1 << i for i, site in enumerate(sites) if test(site))


def _read_sites(cs: ComponentSet, field: JsonReader) -> None:
    sites = [_read_site(raw) for raw in field.items(1, of="sites")]
    ids = [site.sid for site in sites]
    cs.site_ids = _unique_ids(field, list(dict.fromkeys(ids)), len(ids))
    cs.site_index = {sid: i for i, sid in enumerate(ids)}
    cs.neighbours = _neighbour_masks(field, sites, cs.site_index)
    cs.kinds = tuple(site.kind for site in sites)
    cs.terrains = tuple(site.terrain for site in sites)
    cs.rewards = tuple(site.reward for site in sites)
    cs.neighbour_ids = tuple(site.neighbours for site in sites)
    river_ids = tuple(dict.fromkeys(site.river for site in sites if site.river is not None))
    cs.river_ids = river_ids
    cs.rivers = tuple(-1 if site.river is None else river_ids.index(site.river) for site in sites)
    cs.harbours = _mask(sites, lambda s: s.kind == HARBOUR)
    if not cs.harbours:
        raise field.fail("must include at least one harbour")
    _site_masks(cs, sites)


def _site_masks(cs: ComponentSet, sites: list[_Site]) -> None:
    """The bitmasks of sites by kind, terrain, district and river."""
    cs.singles = _mask(sites, lambda s: s.kind in (HARBOUR, SUBURB))
    cs.city = _mask(sites, lambda s: s.kind in (OUTER, INNER))
    cs.river_mask = _mask(sites, lambda s: s.river is not None)
    cs.terrain_masks = tuple(sum(1 << i for i, s in enumerate(sites) if s.kind != HARBOUR and s.terrain == t)
                             for t in range(len(TERRAINS)))
    cs.district_masks = tuple(sum(1 << i for i, s in enumerate(sites) if s.kind in (OUTER, INNER) and s.terrain == t)
                              for t in range(len(TERRAINS)))
    cs.river_masks = tuple(sum(1 << i for i, s in enumerate(sites) if s.river == rid) for rid in cs.river_ids)
    cs.region_masks = {rid: cs.river_masks[i] for i, rid in enumerate(cs.river_ids)}
    cs.region_masks.update({f"D-{TERRAINS[t]}": cs.district_masks[t] for t in range(1, len(TERRAINS)) if cs.district_masks[t]})


def _read_goods(cs: ComponentSet, goods: JsonReader, cards: JsonReader) -> None:
    names = goods.texts(low=1, unique=True)
    if not all(name and name == name.strip() for name in names):
        raise goods.expected("names without spaces around them")
    cs.goods = names
    goods_of: dict[str, int] = {}
    for raw in cards.items(of="goods cards"):
        card = raw.fields(("id", "goods"))
        shown = card.at("goods").texts(names, low=1, unique=True)
        goods_of[_id(card.at("id"))] = sum(1 << names.index(g) for g in shown)
    cs.goods_card_ids = _unique_ids(cards, list(goods_of), len(cards.items()))
    cs.goods_of_card = goods_of


def _unique_ids(field: JsonReader, ids: list[str], entries: int) -> tuple[str, ...]:
    """The ids of a list's entries, refused when one came twice (fewer distinct ids than entries)."""
    if len(ids) != entries:
        raise field.fail("lists an id twice")
    return tuple(ids)


def _read_scoring(cs: ComponentSet, cards: JsonReader) -> None:
    cs.scoring_back, cs.scoring_good, cs.scoring_regions = {}, {}, {}
    entries = cards.items(1, of="scoring cards")
    for raw in entries:
        card = raw.fields(("id", "back", "good", "regions"))
        sid = _id(card.at("id"))
        cs.scoring_good[sid] = card.at("good").choice(cs.goods)
        cs.scoring_regions[sid] = card.at("regions").texts(cs.region_masks, low=1, unique=True)
        cs.scoring_back[sid] = card.at("back").integer(1)
    ids = list(_unique_ids(cards, list(cs.scoring_back), len(entries)))
    # The pile lies with back 1 on top, then 2, then 3; inside a back the order is chance's.
    cs.scoring_ids = tuple(sorted(ids, key=lambda s: (cs.scoring_back[s], ids.index(s))))


def _bonus_terrain(card: JsonReader, effect: str) -> int:
    """A terrain card's terrain (never CO: harbours never count); -1 for another effect, which names none."""
    if (effect == "terrain") != card.has("terrain"):
        raise card.fail("a terrain card and only a terrain card names a terrain")
    if effect != "terrain":
        return -1
    terrain = card.at("terrain").choice(TERRAINS)
    if terrain == 0:
        raise card.at("terrain").fail("harbours never count, so the terrain cannot be CO")
    return terrain


def _read_bonus(cs: ComponentSet, cards: JsonReader) -> None:
    cs.bonus_effect = {}
    entries = cards.items(of="bonus cards")
    for raw in entries:
        card = raw.fields(("id", "effect"), optional=("terrain",))
        bid = _id(card.at("id"))
        effect = card.at("effect").text(BONUS_EFFECTS)
        cs.bonus_effect[bid] = (effect, _bonus_terrain(card, effect))
    cs.bonus_ids = _unique_ids(cards, list(cs.bonus_effect), len(entries))


def _read_counts(cs: ComponentSet, data: JsonReader) -> None:
    landscape = data.at("landscape").fields(TERRAINS)
    cs.landscape = tuple(landscape.at(t).integer(0) for t in TERRAINS)
    cs.key_cards = data.at("key_cards").integer(0)
    cs.coins = data.at("coins").integer(0)
    cs.start_coins = data.at("start_coins").integer(0)
    houses = data.at("houses")
    if not houses.entries() or any(key not in {"3", "4"} for key, _ in houses.entries()):
        raise houses.expected("an object mapping player counts ('3', '4') to houses per player")
    cs.houses = {int(key): count.integer(1) for key, count in houses.entries()}
    for n in cs.houses:
        _check_enough_for(cs, data, n)


def _check_enough_for(cs: ComponentSet, data: JsonReader, n: int) -> None:
    """Enough coins, coast cards and landscape cards for ``n`` players."""
    if cs.coins < cs.start_coins * n:
        raise data.at("coins").fail(f"{cs.coins} are too few to give {n} players {cs.start_coins} each")
    if cs.landscape[0] < n:
        raise data.at("landscape").at("CO").fail(f"{cs.landscape[0]} are too few to give each of {n} players a coast card")
    if sum(cs.landscape) < CARDS_PER_PLAYER * n + 1:
        raise data.at("landscape").fail(f"{sum(cs.landscape)} cards are too few for {n} players: at least {CARDS_PER_PLAYER * n + 1}")


def check_for_players(cs: ComponentSet, n: int) -> None:
    """Raise SetupError unless the set can be played by ``n`` players."""
    if n not in cs.houses:
        raise SetupError(f"golden city: this component set gives houses for {sorted(cs.houses)} players, not {n}")


@lru_cache(maxsize=64)
def _cached(key: str) -> ComponentSet:
    data = json.loads(key)
    try:
        return ComponentSet(data, key)
    except StateFormatError as exc:
        raise as_setup_error(exc) from None


def component_set(custom: Any = None) -> ComponentSet:
    """The default set, or ``custom`` (JSON-shaped; missing top-level keys keep the default) validated."""
    if custom is None:
        return DEFAULT_SET
    if not isinstance(custom, Mapping):
        raise _fail("components", f"must be an object, got {type(custom).__name__}")
    unknown = sorted(set(custom) - set(DEFAULT_COMPONENTS))
    if unknown:
        raise _fail("components", f"has unknown fields {unknown}; known: {', '.join(DEFAULT_COMPONENTS)}")
    merged = {**DEFAULT_COMPONENTS, **custom}
    try:
        key = json.dumps(merged, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise _fail("components", f"must be JSON data ({exc})") from None
    return _cached(key)


DEFAULT_SET = _cached(json.dumps(DEFAULT_COMPONENTS, sort_keys=True, separators=(",", ":")))
