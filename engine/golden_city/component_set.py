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
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final

from engine.core.errors import SetupError
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


def _fail(field: str, why: str) -> SetupError:
    return SetupError(f"bad golden city components: {field} {why}")


class ComponentSet:
    """One validated component set with its precomputed tables (read-only; shared by all states)."""

    def __init__(self, data: dict[str, Any], key: str) -> None:
        self.data = data
        self.key = key
        self.is_default = data == DEFAULT_COMPONENTS
        _read_sites(self, data["sites"])
        _read_goods(self, data["goods"], data["goods_cards"])
        _read_scoring(self, data["scoring_cards"])
        _read_bonus(self, data["bonus_cards"])
        _read_counts(self, data)

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


def _check_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or not ID_PATTERN.match(value) or value in RESERVED_IDS:
        raise _fail(field, f"must be an id of letters, digits, '-', '_' or '+' (not 'pile'), got {value!r}")
    return value


def _terrain(value: Any, field: str) -> int:
    if value not in TERRAINS:
        raise _fail(field, f"must be one of {', '.join(TERRAINS)}, got {value!r}")
    return TERRAINS.index(value)


def _list(value: Any, field: str, *, minimum: int = 0) -> list[Any]:
    if not isinstance(value, list) or len(value) < minimum:
        raise _fail(field, f"must be a list of at least {minimum} entries, got {value!r}"[:200])
    return value


def _int(value: Any, field: str, minimum: int = 0) -> int:
    if type(value) is not int or value < minimum:
        raise _fail(field, f"must be an integer of at least {minimum}, got {value!r}")
    return value


def _unique(ids: list[str], field: str) -> None:
    seen: set[str] = set()
    for value in ids:
        if value in seen:
            raise _fail(field, f"lists {value!r} twice")
        seen.add(value)


def _read_site(raw: Any, i: int) -> tuple[str, int, int, str | None, int, list[str]]:
    field = f"sites[{i}]"
    if not isinstance(raw, dict) or set(raw) != {"id", "kind", "terrain", "river", "reward", "neighbours"}:
        raise _fail(field, "must be an object with id, kind, terrain, river, reward and neighbours")
    sid = _check_id(raw["id"], f"{field}.id")
    if raw["kind"] not in KINDS:
        raise _fail(f"{field}.kind", f"must be one of {', '.join(KINDS)}, got {raw['kind']!r}")
    kind = KINDS.index(raw["kind"])
    terrain = _terrain(raw["terrain"], f"{field}.terrain")
    if (kind == HARBOUR) != (terrain == 0):
        raise _fail(f"{field}.terrain", f"of {sid}: harbours and only harbours are coast (CO), got {raw['terrain']!r}")
    river = raw["river"]
    if river is not None and (kind != SUBURB or not isinstance(river, str) or not ID_PATTERN.match(river)):
        raise _fail(f"{field}.river", f"of {sid}: only suburbs lie on a river, named by an id; got {river!r}")
    if river is not None and river.startswith("D-"):
        raise _fail(f"{field}.river", f"of {sid}: 'D-' names a city district, not a river; got {river!r}")
    if raw["reward"] not in REWARDS:
        raise _fail(f"{field}.reward", f"of {sid} must be one of {', '.join(REWARDS)}, got {raw['reward']!r}")
    reward = REWARDS.index(raw["reward"])
    if reward not in REWARDS_BY_KIND[kind]:
        allowed = ", ".join(REWARDS[r] for r in sorted(REWARDS_BY_KIND[kind]))
        raise _fail(f"{field}.reward", f"of {sid}: a {KINDS[kind]} carries one of {allowed}, got {raw['reward']!r}")
    nbrs = _list(raw["neighbours"], f"{field}.neighbours")
    if not all(isinstance(x, str) for x in nbrs):
        raise _fail(f"{field}.neighbours", f"of {sid} must be site ids, got {nbrs!r}")
    _unique(nbrs, f"{field}.neighbours")
    return sid, kind, terrain, river, reward, nbrs


def _read_sites(cs: ComponentSet, raw: Any) -> None:
    rows = [_read_site(site, i) for i, site in enumerate(_list(raw, "sites", minimum=1))]
    ids = [row[0] for row in rows]
    _unique(ids, "sites")
    index = {sid: i for i, sid in enumerate(ids)}
    neighbours = []
    for sid, _, _, _, _, nbrs in rows:
        mask = 0
        for other in nbrs:
            if other not in index or other == sid:
                raise _fail("sites", f"{sid} names neighbour {other!r}, which is not another site")
            if sid not in rows[index[other]][5]:
                raise _fail("sites", f"{sid} names neighbour {other}, but {other} does not name {sid} (roads go both ways)")
            mask |= 1 << index[other]
        neighbours.append(mask)
    cs.site_ids = tuple(ids)
    cs.site_index = index
    cs.kinds = tuple(row[1] for row in rows)
    cs.terrains = tuple(row[2] for row in rows)
    cs.rewards = tuple(row[4] for row in rows)
    cs.neighbours = tuple(neighbours)
    cs.neighbour_ids = tuple(tuple(row[5]) for row in rows)
    river_ids = tuple(dict.fromkeys(row[3] for row in rows if row[3] is not None))
    cs.river_ids = river_ids
    cs.rivers = tuple(-1 if row[3] is None else river_ids.index(row[3]) for row in rows)

    def mask_of(test: Any) -> int:
        return sum(1 << i for i, row in enumerate(rows) if test(row))

    cs.harbours = mask_of(lambda r: r[1] == HARBOUR)
    if not cs.harbours:
        raise _fail("sites", "must include at least one harbour")
    cs.singles = mask_of(lambda r: r[1] in (HARBOUR, SUBURB))
    cs.city = mask_of(lambda r: r[1] in (OUTER, INNER))
    cs.river_mask = mask_of(lambda r: r[3] is not None)
    cs.terrain_masks = tuple(mask_of(lambda r, t=t: r[1] != HARBOUR and r[2] == t) for t in range(len(TERRAINS)))
    cs.district_masks = tuple(mask_of(lambda r, t=t: r[1] in (OUTER, INNER) and r[2] == t) for t in range(len(TERRAINS)))
    cs.river_masks = tuple(mask_of(lambda r, rid=rid: r[3] == rid) for rid in river_ids)
    cs.region_masks = {rid: cs.river_masks[i] for i, rid in enumerate(river_ids)}
    cs.region_masks.update({f"D-{TERRAINS[t]}": cs.district_masks[t] for t in range(1, len(TERRAINS)) if cs.district_masks[t]})


def _read_goods(cs: ComponentSet, goods: Any, cards: Any) -> None:
    names = _list(goods, "goods", minimum=1)
    if not all(isinstance(g, str) and g and g == g.strip() for g in names):
        raise _fail("goods", f"must be names, got {names!r}")
    _unique(names, "goods")
    cs.goods = tuple(names)
    ids = []
    goods_of: dict[str, int] = {}
    for i, raw in enumerate(_list(cards, "goods_cards")):
        field = f"goods_cards[{i}]"
        if not isinstance(raw, dict) or set(raw) != {"id", "goods"}:
            raise _fail(field, "must be an object with id and goods")
        gid = _check_id(raw["id"], f"{field}.id")
        shown = _list(raw["goods"], f"{field}.goods", minimum=1)
        if any(g not in names for g in shown):
            raise _fail(f"{field}.goods", f"of {gid} must name goods of {names!r}, got {shown!r}")
        _unique(shown, f"{field}.goods")
        ids.append(gid)
        goods_of[gid] = sum(1 << names.index(g) for g in shown)
    _unique(ids, "goods_cards")
    cs.goods_card_ids = tuple(ids)
    cs.goods_of_card = goods_of


def _read_scoring(cs: ComponentSet, cards: Any) -> None:
    ids = []
    cs.scoring_back, cs.scoring_good, cs.scoring_regions = {}, {}, {}
    for i, raw in enumerate(_list(cards, "scoring_cards", minimum=1)):
        field = f"scoring_cards[{i}]"
        if not isinstance(raw, dict) or set(raw) != {"id", "back", "good", "regions"}:
            raise _fail(field, "must be an object with id, back, good and regions")
        sid = _check_id(raw["id"], f"{field}.id")
        if raw["good"] not in cs.goods:
            raise _fail(f"{field}.good", f"of {sid} must be one of {', '.join(cs.goods)}, got {raw['good']!r}")
        regions = _list(raw["regions"], f"{field}.regions", minimum=1)
        for region in regions:
            if region not in cs.region_masks:
                known = ", ".join(cs.region_masks)
                raise _fail(f"{field}.regions", f"of {sid} must name rivers or districts ({known}), got {region!r}")
        _unique(regions, f"{field}.regions")
        ids.append(sid)
        cs.scoring_back[sid] = _int(raw["back"], f"{field}.back", 1)
        cs.scoring_good[sid] = cs.goods.index(raw["good"])
        cs.scoring_regions[sid] = tuple(regions)
    _unique(ids, "scoring_cards")
    # The pile lies with back 1 on top, then 2, then 3; inside a back the order is chance's.
    cs.scoring_ids = tuple(sorted(ids, key=lambda s: (cs.scoring_back[s], ids.index(s))))


def _read_bonus(cs: ComponentSet, cards: Any) -> None:
    ids = []
    cs.bonus_effect = {}
    for i, raw in enumerate(_list(cards, "bonus_cards")):
        field = f"bonus_cards[{i}]"
        if not isinstance(raw, dict) or not {"id", "effect"} <= set(raw) <= {"id", "effect", "terrain"}:
            raise _fail(field, "must be an object with id, effect and (for a terrain card) terrain")
        bid = _check_id(raw["id"], f"{field}.id")
        effect = raw["effect"]
        if effect not in BONUS_EFFECTS:
            raise _fail(f"{field}.effect", f"of {bid} must be one of {', '.join(BONUS_EFFECTS)}, got {effect!r}")
        if (effect == "terrain") != ("terrain" in raw):
            raise _fail(f"{field}.terrain", f"of {bid}: a terrain card and only a terrain card names a terrain")
        terrain = _terrain(raw["terrain"], f"{field}.terrain") if effect == "terrain" else -1
        if terrain == 0:
            raise _fail(f"{field}.terrain", f"of {bid}: harbours never count, so the terrain cannot be CO")
        ids.append(bid)
        cs.bonus_effect[bid] = (effect, terrain)
    _unique(ids, "bonus_cards")
    cs.bonus_ids = tuple(ids)


def _read_counts(cs: ComponentSet, data: Mapping[str, Any]) -> None:
    landscape = data["landscape"]
    if not isinstance(landscape, dict) or set(landscape) != set(TERRAINS):
        raise _fail("landscape", f"must give a count for each of {', '.join(TERRAINS)}, got {landscape!r}")
    cs.landscape = tuple(_int(landscape[t], f"landscape.{t}") for t in TERRAINS)
    cs.key_cards = _int(data["key_cards"], "key_cards")
    cs.coins = _int(data["coins"], "coins")
    cs.start_coins = _int(data["start_coins"], "start_coins")
    houses = data["houses"]
    if not isinstance(houses, dict) or not houses or any(k not in {"3", "4"} for k in houses):
        raise _fail("houses", f"must map player counts ('3', '4') to houses per player, got {houses!r}")
    cs.houses = {int(k): _int(v, f"houses.{k}", 1) for k, v in houses.items()}
    for n in cs.houses:
        if cs.coins < cs.start_coins * n:
            raise _fail("coins", f"{cs.coins} are too few to give {n} players {cs.start_coins} each")
        if cs.landscape[0] < n:
            raise _fail("landscape.CO", f"{cs.landscape[0]} are too few to give each of {n} players a coast card")
        if sum(cs.landscape) < CARDS_PER_PLAYER * n + 1:
            raise _fail("landscape", f"{sum(cs.landscape)} cards are too few for {n} players: at least {CARDS_PER_PLAYER * n + 1}")


def check_for_players(cs: ComponentSet, n: int) -> None:
    """Raise SetupError unless the set can be played by ``n`` players."""
    if n not in cs.houses:
        raise SetupError(f"golden city: this component set gives houses for {sorted(cs.houses)} players, not {n}")


@lru_cache(maxsize=64)
def _cached(key: str) -> ComponentSet:
    data = json.loads(key)
    return ComponentSet(data, key)


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
