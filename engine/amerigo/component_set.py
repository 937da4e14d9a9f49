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
from engine.core.errors import SetupError, StateFormatError
from engine.core.jsonread import JsonReader, as_setup_error

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


SUBJECT = "bad amerigo components"


def _fail(field: str, why: str) -> SetupError:
    return SetupError(f"{SUBJECT}: {field}: {why}")


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


def _tile_rows(field: JsonReader) -> tuple[str, ...]:
    """A tile's rows: TILE_SIZE strings of TILE_SIZE known characters."""
    size = c.TILE_SIZE
    rows = field.texts(low=size, high=size)
    if not all(len(row) == size for row in rows):
        raise field.fail(f"must be {size} rows of {size} characters")
    bad = sorted({ch for row in rows for ch in row} - set(TILE_CHARS))
    if bad:
        raise field.fail(f"unknown characters {bad}; expected {TILE_CHARS!r}")
    return rows


def _check_ring(field: JsonReader, grid: tuple[str, ...]) -> None:
    """The outer ring is water but for the four ports."""
    size = len(grid)
    for r in range(size):
        for col in range(size):
            ring = r in (0, size - 1) or col in (0, size - 1)
            if ring and (r, col) not in PORTS and grid[r][col] not in WATER_CHARS:
                raise field.fail(f"the outer ring must be water except the four ports, but ({r},{col}) is land")


def _check_anchors(field: JsonReader, grid: tuple[str, ...]) -> None:
    """Every anchor touches exactly one trading-post space, and every trading-post space one anchor."""
    size = len(grid)
    for r in range(size):
        for col in range(size):
            ch = grid[r][col]
            if ch not in "AP":
                continue
            partner = "P" if ch == "A" else "A"
            links = [cell for cell in _neighbours(r, col, size) if grid[cell[0]][cell[1]] == partner]
            if len(links) != 1:
                what = "anchor" if ch == "A" else "trading-post space"
                raise field.fail(f"the {what} at ({r},{col}) must touch exactly one {partner}, touches {len(links)}")


def _read_tile(field: JsonReader) -> tuple[str, ...]:
    grid = _tile_rows(field)
    _check_ring(field, grid)
    _check_anchors(field, grid)
    for region in _regions(grid, "." + "P" + c.GOOD_LETTERS):
        if sum(1 for port in PORTS if port in region) > 1:
            raise field.fail("a land region may touch at most one port")
    if len(_regions(grid, WATER_CHARS)) != 1:
        raise field.fail("its water must be connected")
    return grid


def _read_tiles(field: JsonReader) -> tuple[tuple[str, tuple[str, ...]], ...]:
    entries = field.entries()
    if not entries:
        raise field.fail("must be an object of tile name → rows")
    tiles = tuple((name, _read_tile(rows)) for name, rows in entries)
    for g, letter in enumerate(c.GOOD_LETTERS):
        spaces = sum(row.count(letter) for _, rows in tiles for row in rows)
        if spaces > c.GOODS_TOKENS_PER_GOOD:
            raise field.fail(f"{spaces} {c.GOODS[g]} spaces, but there are only {c.GOODS_TOKENS_PER_GOOD} tokens")
    for name, _ in tiles:
        if not name or " " in name:
            raise field.fail(f"tile name {name!r} must be one word")
    return tiles


def _read_shape(field: JsonReader) -> tuple[tuple[int, int], ...]:
    cells = [cell.integers(2, 0) for cell in field.items(1, of="[row, col] cells")]
    cell_set = {(r, col) for r, col in cells}
    if len(cell_set) != len(cells):
        raise field.fail("cells must be distinct")
    if min(r for r, _ in cell_set) != 0 or min(col for _, col in cell_set) != 0:
        raise field.fail("cells must start at row 0 and column 0")
    if not _connected(cell_set):
        raise field.fail("cells must be orthogonally connected")
    return tuple(sorted(cell_set))


def _read_shapes(field: JsonReader) -> dict[str, tuple[tuple[int, int], ...]]:
    entries = field.entries()
    if not entries:
        raise field.fail("must be an object of shape name → list of [row, col] cells")
    return {name: _read_shape(cells) for name, cells in entries}


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


def _read_tile_entry(field: JsonReader, shapes: Mapping[str, Any]) -> tuple[str, int, int, int]:
    """One ``[shape, count, vp small, vp big]`` entry of a tile list."""
    shape, count, small, big = field.items(4, 4, of="fields: [shape, count, vp small, vp big]")
    name = shape.text()
    if name not in shapes:
        raise field.fail(f"unknown shape {name!r}")
    return name, count.integer(1), small.integer(0), big.integer(0)


def _read_tile_list(field: JsonReader, shapes: Mapping[str, Any]) -> tuple[tuple[str, int, int, int], ...]:
    entries = tuple(_read_tile_entry(entry, shapes) for entry in field.items(1, of="[shape, count, vp small, vp big] entries"))
    names = [e[0] for e in entries]
    if len(set(names)) != len(names):
        raise field.fail("each shape may appear once (tiles of one shape are interchangeable)")
    return entries


def _track_space(pair: JsonReader, last: int) -> tuple[int, int]:
    """One ``[space, vp]`` pair of a track: a space 1..last and the VP it gives."""
    space, vp = pair.items(2, 2, of="fields: [space, vp]")
    return space.integer(1, last), vp.integer(0)


def _read_track(field: JsonReader) -> tuple[int, tuple[tuple[int, int], ...]]:
    track = field.fields(("last", "vp"))
    last = track.at("last").integer(2)
    pairs = tuple(_track_space(pair, last) for pair in track.at("vp").items(of="[space, vp] pairs"))
    if [s for s, _ in pairs] != sorted({s for s, _ in pairs}):
        raise track.at("vp").fail("spaces must be strictly increasing")
    return last, pairs


def _kinds(shapes: Mapping[str, tuple[tuple[int, int], ...]], group: str,
           entries: tuple[tuple[str, int, int, int], ...]) -> list[TileKind]:
    kinds = []
    for shape, count, small, big in entries:
        size = len(shapes[shape])
        cost = size if group == NEUTRAL else 1
        kinds.append(TileKind(f"{group} {shape}", group, shape, orientations(shapes[shape]), size, cost, cost, small, big, count))
    return kinds


#: The default component set in the JSON shape of a custom one (every custom table replaces one of these).
DEFAULT_DATA: dict[str, Any] = json.loads(json.dumps({
    "island_tiles": c.ISLAND_TILES, "shapes": c.SHAPES, "neutral_tiles": c.NEUTRAL_TILES, "village_tiles": c.VILLAGE_TILES,
    "progress_track": {"last": c.PROGRESS_TRACK[0], "vp": c.PROGRESS_TRACK[1]},
    "order_track": {"last": c.ORDER_TRACK[0], "vp": c.ORDER_TRACK[1]},
}))


def _read(root: JsonReader, custom: str | None) -> ComponentSet:
    tiles = _read_tiles(root.at("island_tiles"))
    shapes = _read_shapes(root.at("shapes"))
    neutral = _read_tile_list(root.at("neutral_tiles"), shapes)
    village = _read_tile_list(root.at("village_tiles"), shapes)
    progress_last, progress_vp = _read_track(root.at("progress_track"))
    order_last, order_vp = _read_track(root.at("order_track"))
    kinds = _kinds(shapes, NEUTRAL, neutral) + _kinds(shapes, VILLAGE, village)
    n_neutral = len(neutral)
    return ComponentSet(
        island_tiles=tiles, kinds=tuple(kinds), neutral_kinds=tuple(range(n_neutral)),
        village_kinds=tuple(range(n_neutral, len(kinds))), progress_last=progress_last, progress_vp=progress_vp,
        order_last=order_last, order_vp=order_vp, custom=custom,
    )


def build_component_set(raw: Mapping[str, Any] | None) -> ComponentSet:
    """The components from a custom component set over the defaults (None: the defaults)."""
    raw = dict(raw or {})
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise _fail(", ".join(unknown), f"unknown field; expected some of {', '.join(FIELDS)}")
    custom = json.dumps(raw, sort_keys=True) if raw else None
    try:
        return _read(JsonReader({**DEFAULT_DATA, **json.loads(custom or "{}")}, SUBJECT), custom)
    except StateFormatError as exc:
        raise as_setup_error(exc) from None


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
