"""The component set a game plays with: the defaults of :mod:`components`, or a custom set.

``Setup.options["components"]`` may replace any of these tables (JSON-shaped; a key left out keeps
the default)::

    {"island_tiles": {"I01": ["~~~.~~~", ...7 rows of 7...], ...},
     "shapes": {"M1": [[0, 0]], ...},
     "neutral_tiles": [["D2", 6, 2, 3], ...],      shape, count, VP small island, VP big island
     "village_tiles": [["M1", 3, 1, 1], ...],      the same, per player
     "progress_track": {"last": 20, "vp": [[3, 1], [6, 3], ...]},
     "order_track": {"last": 13, "vp": [[4, 1], ...]}}

Every table is validated; a bad one raises a SetupError naming the field and saying why.
The result is a :class:`ComponentSet` of derived, indexed tables that the rules read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.amerigo import components as c
from engine.core.errors import SetupError

TILE_CHARS = "~A.P" + c.GOOD_LETTERS
WATER_CHARS = "~A"
PORTS = ((0, 3), (3, 6), (6, 3), (3, 0))
NEUTRAL, VILLAGE = "neutral", "village"
FIELDS = ("island_tiles", "shapes", "neutral_tiles", "village_tiles", "progress_track", "order_track")


class TileKind(NamedTuple):
    """One kind of landscape tile: every tile of a kind is interchangeable."""

    name: str  # "neutral D2", "village L3"
    group: str  # NEUTRAL or VILLAGE
    shape: str
    orientations: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (rotation, cells), deduplicated
    size: int
    take_cost: int
    build_cost: int
    vp_small: int
    vp_big: int
    copies: int  # in the neutral supply, or per player


class ComponentSet(NamedTuple):
    """Every static table the rules need, indexed by small integers."""

    island_tiles: tuple[tuple[str, tuple[str, ...]], ...]
    kinds: tuple[TileKind, ...]
    neutral_kinds: tuple[int, ...]
    village_kinds: tuple[int, ...]
    progress_last: int
    progress_vp: tuple[tuple[int, int], ...]
    order_last: int
    order_vp: tuple[tuple[int, int], ...]
    custom: str | None  # the custom set as canonical JSON, None for the defaults

    def kind_index(self, name: str) -> int:
        """The index of the tile kind called ``name`` ("village L3"); -1 when unknown."""
        for i, kind in enumerate(self.kinds):
            if kind.name == name:
                return i
        return -1

    def tile_index(self, name: str) -> int:
        """The index of the island tile called ``name``; -1 when unknown."""
        for i, (tile, _) in enumerate(self.island_tiles):
            if tile == name:
                return i
        return -1


def rotate_cells(cells: tuple[tuple[int, int], ...], quarter_turns: int) -> tuple[tuple[int, int], ...]:
    """The cells turned ``quarter_turns`` times by (r, c) → (c, −r), shifted to a (0, 0) corner, sorted."""
    turned = list(cells)
    for _ in range(quarter_turns % 4):
        turned = [(col, -row) for row, col in turned]
    top = min(r for r, _ in turned)
    left = min(col for _, col in turned)
    return tuple(sorted((r - top, col - left) for r, col in turned))


def orientations(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """The distinct rotations of a shape (rotations only, no reflection: Ruling 12), first rotation of each kept."""
    seen: list[tuple[tuple[int, int], ...]] = []
    result = []
    for k in range(4):
        turned = rotate_cells(cells, k)
        if turned not in seen:
            seen.append(turned)
            result.append((k, turned))
    return tuple(result)


def rotate_tile(rows: tuple[str, ...], quarter_turns: int) -> tuple[str, ...]:
    """An island tile turned clockwise: ``local'(r, c) = local(6 − c, r)`` applied ``quarter_turns`` times."""
    size = len(rows)
    for _ in range(quarter_turns % 4):
        rows = tuple("".join(rows[size - 1 - col][r] for col in range(size)) for r in range(size))
    return rows


# --- validation -------------------------------------------------------------------------------------------


def _fail(field: str, why: str) -> SetupError:
    return SetupError(f"bad amerigo components: {field}: {why}")


def _is_int(value: Any) -> bool:
    return type(value) is int


def _neighbours(r: int, col: int, size: int) -> list[tuple[int, int]]:
    steps = ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1))
    return [(y, x) for y, x in steps if 0 <= y < size and 0 <= x < size]


def _regions(rows: tuple[str, ...], chars: str) -> list[set[tuple[int, int]]]:
    """The orthogonally connected regions of the cells whose character is in ``chars``."""
    size = len(rows)
    cells = {(r, col) for r in range(size) for col in range(size) if rows[r][col] in chars}
    regions = []
    while cells:
        todo = [cells.pop()]
        region = set(todo)
        while todo:
            r, col = todo.pop()
            for cell in _neighbours(r, col, size):
                if cell in cells:
                    cells.remove(cell)
                    region.add(cell)
                    todo.append(cell)
        regions.append(region)
    return regions


def _validate_tile(name: str, rows: Any) -> tuple[str, ...]:
    field = f"island_tiles.{name}"
    size = c.TILE_SIZE
    if not isinstance(rows, list | tuple) or len(rows) != size or not all(isinstance(r, str) and len(r) == size for r in rows):
        raise _fail(field, f"must be {size} rows of {size} characters")
    grid: tuple[str, ...] = tuple(rows)
    bad = sorted({ch for row in grid for ch in row} - set(TILE_CHARS))
    if bad:
        raise _fail(field, f"unknown characters {bad}; expected {TILE_CHARS!r}")
    for r in range(size):
        for col in range(size):
            ring = r in (0, size - 1) or col in (0, size - 1)
            if ring and (r, col) not in PORTS and grid[r][col] not in WATER_CHARS:
                raise _fail(field, f"the outer ring must be water except the four ports, but ({r},{col}) is land")
    for r in range(size):
        for col in range(size):
            ch = grid[r][col]
            if ch in "AP":
                partner = "P" if ch == "A" else "A"
                links = [cell for cell in _neighbours(r, col, size) if grid[cell[0]][cell[1]] == partner]
                if len(links) != 1:
                    what = "anchor" if ch == "A" else "trading-post space"
                    raise _fail(field, f"the {what} at ({r},{col}) must touch exactly one {partner}, touches {len(links)}")
    for region in _regions(grid, "." + "P" + c.GOOD_LETTERS):
        if sum(1 for port in PORTS if port in region) > 1:
            raise _fail(field, "a land region may touch at most one port")
    if len(_regions(grid, WATER_CHARS)) != 1:
        raise _fail(field, "its water must be connected")
    return grid


def _validate_tiles(raw: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(raw, Mapping) or not raw:
        raise _fail("island_tiles", "must be an object of tile name → rows")
    tiles = tuple((str(name), _validate_tile(str(name), rows)) for name, rows in raw.items())
    for g, letter in enumerate(c.GOOD_LETTERS):
        spaces = sum(row.count(letter) for _, rows in tiles for row in rows)
        if spaces > c.GOODS_TOKENS_PER_GOOD:
            raise _fail("island_tiles", f"{spaces} {c.GOODS[g]} spaces, but there are only {c.GOODS_TOKENS_PER_GOOD} tokens")
    for name, _ in tiles:
        if not name or " " in name:
            raise _fail("island_tiles", f"tile name {name!r} must be one word")
    return tiles


def _validate_shapes(raw: Any) -> dict[str, tuple[tuple[int, int], ...]]:
    if not isinstance(raw, Mapping) or not raw:
        raise _fail("shapes", "must be an object of shape name → list of [row, col] cells")
    shapes = {}
    for name, cells in raw.items():
        field = f"shapes.{name}"
        if not isinstance(cells, list | tuple) or not cells:
            raise _fail(field, "must be a non-empty list of [row, col] cells")
        if not all(isinstance(cell, list | tuple) and len(cell) == 2 and all(_is_int(v) and v >= 0 for v in cell) for cell in cells):
            raise _fail(field, "every cell must be [row, col] with non-negative integers")
        cell_set = {(int(r), int(col)) for r, col in cells}
        if len(cell_set) != len(cells):
            raise _fail(field, "cells must be distinct")
        if min(r for r, _ in cell_set) != 0 or min(col for _, col in cell_set) != 0:
            raise _fail(field, "cells must start at row 0 and column 0")
        if not _connected(cell_set):
            raise _fail(field, "cells must be orthogonally connected")
        shapes[str(name)] = tuple(sorted(cell_set))
    return shapes


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, col = todo.pop()
        for cell in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
            if cell in cells and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    return seen == cells


def _validate_tile_list(field: str, raw: Any, shapes: Mapping[str, Any]) -> tuple[tuple[str, int, int, int], ...]:
    if not isinstance(raw, list | tuple) or not raw:
        raise _fail(field, "must be a non-empty list of [shape, count, vp small, vp big]")
    entries = []
    for i, entry in enumerate(raw):
        where = f"{field}[{i}]"
        if not isinstance(entry, list | tuple) or len(entry) != 4:
            raise _fail(where, "must be [shape, count, vp small, vp big]")
        shape, count, small, big = entry
        if shape not in shapes:
            raise _fail(where, f"unknown shape {shape!r}")
        if not _is_int(count) or count < 1:
            raise _fail(where, f"count must be a positive integer, got {count!r}")
        if not (_is_int(small) and _is_int(big) and 0 <= small and 0 <= big):
            raise _fail(where, "VP values must be non-negative integers")
        entries.append((str(shape), count, small, big))
    names = [e[0] for e in entries]
    if len(set(names)) != len(names):
        raise _fail(field, "each shape may appear once (tiles of one shape are interchangeable)")
    return tuple(entries)


def _validate_track(field: str, raw: Any) -> tuple[int, tuple[tuple[int, int], ...]]:
    if isinstance(raw, tuple):  # the defaults
        return raw
    if not isinstance(raw, Mapping) or set(raw) != {"last", "vp"}:
        raise _fail(field, 'must be {"last": <last space>, "vp": [[space, vp], ...]}')
    last, vp = raw["last"], raw["vp"]
    if not _is_int(last) or last < 2:
        raise _fail(f"{field}.last", f"must be an integer of at least 2, got {last!r}")
    if not isinstance(vp, list | tuple) or not all(isinstance(e, list | tuple) and len(e) == 2 for e in vp):
        raise _fail(f"{field}.vp", "must be a list of [space, vp] pairs")
    pairs = tuple((e[0], e[1]) for e in vp)
    if not all(_is_int(s) and _is_int(v) and 1 <= s <= last and v >= 0 for s, v in pairs):
        raise _fail(f"{field}.vp", f"spaces must be integers 1..{last} and VP non-negative integers")
    if [s for s, _ in pairs] != sorted({s for s, _ in pairs}):
        raise _fail(f"{field}.vp", "spaces must be strictly increasing")
    return last, pairs


def _kinds(shapes: Mapping[str, tuple[tuple[int, int], ...]], group: str,
           entries: tuple[tuple[str, int, int, int], ...]) -> list[TileKind]:
    kinds = []
    for shape, count, small, big in entries:
        size = len(shapes[shape])
        cost = size if group == NEUTRAL else 1
        kinds.append(TileKind(f"{group} {shape}", group, shape, orientations(shapes[shape]), size, cost, cost, small, big, count))
    return kinds


def build_component_set(raw: Mapping[str, Any] | None) -> ComponentSet:
    """The components from a custom component set over the defaults (None: the defaults)."""
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise _fail(", ".join(unknown), f"unknown field; expected some of {', '.join(FIELDS)}")
    tiles = _validate_tiles(raw["island_tiles"]) if "island_tiles" in raw else tuple(c.ISLAND_TILES.items())
    shapes = _validate_shapes(raw["shapes"]) if "shapes" in raw else dict(c.SHAPES)
    neutral = _validate_tile_list("neutral_tiles", raw.get("neutral_tiles", c.NEUTRAL_TILES), shapes)
    village = _validate_tile_list("village_tiles", raw.get("village_tiles", c.VILLAGE_TILES), shapes)
    progress_last, progress_vp = _validate_track("progress_track", raw.get("progress_track", c.PROGRESS_TRACK))
    order_last, order_vp = _validate_track("order_track", raw.get("order_track", c.ORDER_TRACK))
    kinds = _kinds(shapes, NEUTRAL, neutral) + _kinds(shapes, VILLAGE, village)
    n_neutral = len(neutral)
    return ComponentSet(
        island_tiles=tiles, kinds=tuple(kinds), neutral_kinds=tuple(range(n_neutral)),
        village_kinds=tuple(range(n_neutral, len(kinds))), progress_last=progress_last, progress_vp=progress_vp,
        order_last=order_last, order_vp=order_vp, custom=json.dumps(raw, sort_keys=True) if raw else None,
    )


DEFAULT_SET = build_component_set(None)
_custom: dict[str, ComponentSet] = {}


def component_set(raw: Any) -> ComponentSet:
    """The components for ``Setup.options["components"]`` (None: the defaults); one object per distinct set."""
    if raw is None or (isinstance(raw, Mapping) and not raw):
        return DEFAULT_SET
    if not isinstance(raw, Mapping):
        raise _fail("components", "must be an object of tables (see engine/amerigo/components.py)")
    try:
        key = json.dumps(raw, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise _fail("components", f"must be JSON data ({exc})") from None
    if key not in _custom:
        _custom[key] = build_component_set(raw)
    return _custom[key]
