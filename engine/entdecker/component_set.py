"""A component set checked and compiled into the lookup tables the rules run on.

:func:`component_set` takes the JSON shape of :mod:`engine.entdecker.components` (the default
set or ``Setup.options["components"]``), checks it field by field (a :class:`SetupError` names the
field and says why) and precomputes everything the hot paths need: each tile kind's distinct
rotations with their land masks, every rotated face's parts and regions as side bitmasks, the
neighbours of every cell, the start circles, the reserve tile that fills each kind of single hole.

Geometry: cells ``y * w + x``; sides N, E, S, W = 0..3 and side ``d`` is bit ``1 << d`` of a mask;
a face is placed in rotation ``r`` (clockwise quarter turns), which turns side ``d`` into side
``(d + r) % 4``. A placed tile is one integer, its *code* ``kind * 4 + r``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Final, NamedTuple

from engine.core.errors import SetupError, StateFormatError
from engine.core.jsonread import JsonReader, as_setup_error, shown
from engine.entdecker.components import DEFAULT_COMPONENTS, EVENT_NAMES, SIDE_NAMES, UNIT_NAMES

N: Final = 0
E: Final = 1
S: Final = 2
W: Final = 3
ALL_SIDES: Final = 0b1111
PLAIN_BACK: Final = 0
EVENT_BACK: Final = 1
_TOPOLOGY_CODE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def rotate_mask(mask: int, r: int) -> int:
    """A side bitmask turned ``r`` quarter turns clockwise."""
    r %= 4
    return ((mask << r) | (mask >> (4 - r))) & ALL_SIDES


def opposite(side: int) -> int:
    """The side facing ``side`` across a shared edge."""
    return (side + 2) % 4


def mask_sides(mask: int) -> tuple[int, ...]:
    """The sides in a bitmask, N first."""
    return tuple(d for d in range(4) if mask >> d & 1)


class Face(NamedTuple):
    """A tile face in one rotation; parts and regions are side bitmasks in their index order."""

    land: int
    parts: tuple[int, ...]
    regions: tuple[int, ...]
    part_of_side: tuple[int, ...]  # per side: the land part holding it, -1 on water
    region_of_side: tuple[int, ...]  # per side: the water region holding it, -1 on land


class Kind(NamedTuple):
    """A kind of tile: a draw tile type (``reserve`` 0) or the face of a reserve stack (1-6)."""

    key: str  # notation key: "cape", "cape?storm"; a reserve kind: its topology code, lower case
    topology: str
    event: int  # index in EVENT_NAMES, -1 for none
    back: int  # PLAIN_BACK or EVENT_BACK for draw tiles, the back number for reserve tiles
    reserve: int
    rotations: tuple[tuple[int, int], ...]  # the distinct (rotation, land mask), lowest rotation first


class ComponentSet:
    """The compiled component set: immutable, shared by every state of a game.

    Two component sets are equal when compiled from the same data (``source``, canonical JSON).
    """

    def __init__(self, data: Mapping[str, Any], source: str, is_default: bool) -> None:
        self.source = source
        self.is_default = is_default
        self.data = data
        board = data["board"]
        self.width: int = board["w"]
        self.height: int = board["h"]
        self.cells = self.width * self.height
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(_neighbours(c, self.width, self.height) for c in range(self.cells))
        self.circles = tuple((c, d) for c in range(self.cells) for d in range(4) if self.neighbours[c][d] < 0)
        self._compile_kinds(data)
        self._compile_counts(data)

    def _compile_kinds(self, data: Mapping[str, Any]) -> None:
        """The tile kinds (draw tiles, then the six reserve faces) and every rotated face."""
        topologies = {code: _topology(code, spec) for code, spec in data["topologies"].items()}
        kinds: list[Kind] = []
        for entry in data["draw_tiles"]:
            event = EVENT_NAMES.index(entry["event"]) if entry["event"] is not None else -1
            topology = entry["topology"]
            kinds.append(Kind(_type_key(topology, entry["event"]).lower(), topology, event,
                              EVENT_BACK if event >= 0 else PLAIN_BACK, 0, _rotations(topologies[topology])))
        self.draw_kinds = len(kinds)
        self.reserve_kind: tuple[int, ...] = tuple(range(len(kinds), len(kinds) + 6))
        for number in range(1, 7):
            topology = data["reserve"][str(number)][0]
            kinds.append(Kind(topology.lower(), topology, -1, number, number, _rotations(topologies[topology])))
        self.kinds = tuple(kinds)
        self.key_index = {kind.key: i for i, kind in enumerate(kinds[: self.draw_kinds])}
        self.faces = tuple(_rotated(topologies[kind.topology], r) for kind in kinds for r in range(4))
        self.hole_fill = tuple(self._hole_filler(mask) for mask in range(16))
        # Chance's outcomes as actions, made once (see engine.entdecker.chance and its notation).
        self.draw_backs: tuple[int, ...] = tuple(kind.back for kind in kinds[: self.draw_kinds])
        self.tile_actions: tuple[tuple[str, str], ...] = tuple(("tile", kind.key) for kind in kinds[: self.draw_kinds])

    def _compile_counts(self, data: Mapping[str, Any]) -> None:
        """How many of each component: tiles, stacks, chips, wheel segments, units, gold."""
        self.draw_counts: tuple[int, ...] = tuple(entry["count"] for entry in data["draw_tiles"])
        self.stack_sizes: tuple[int, ...] = tuple(data["stack_sizes"])
        self.reserve_counts: tuple[int, ...] = tuple(data["reserve"][str(number)][1] for number in range(1, 7))
        chips = sorted((int(value), count) for value, count in data["chips"].items())
        self.chip_values = tuple(value for value, _ in chips)
        self.chip_counts = tuple(count for _, count in chips)
        wheel = data["wheel"]
        self.wheel_values: tuple[int, ...] = tuple(sorted(set(wheel)))
        self.wheel_weights: tuple[int, ...] = tuple(wheel.count(v) for v in self.wheel_values)
        units = data["units"]
        self.unit_cost: tuple[int, ...] = tuple(units[name]["cost"] for name in UNIT_NAMES)
        self.unit_copies: tuple[int, ...] = tuple(units[name]["copies"] for name in UNIT_NAMES)
        self.gold_start: int = data["gold"]["start"]
        self.gold_max: int = data["gold"]["max"]
        self.chip_actions: tuple[tuple[str, int], ...] = tuple(("chip", value) for value in self.chip_values)
        self.spin_outcomes: tuple[tuple[tuple[str, int], int], ...] = tuple(
            (("spin", value), weight) for value, weight in zip(self.wheel_values, self.wheel_weights, strict=True) if weight)

    def _hole_filler(self, land: int) -> int:
        """The code of the reserve tile (and rotation) whose land sides are exactly ``land``."""
        kind = self.reserve_kind[hole_class(land) - 1]
        for r, mask in self.kinds[kind].rotations:
            if mask == land:
                return kind * 4 + r
        raise SetupError(f"components.reserve: no rotation of {self.kinds[kind].topology} fills a hole facing land on "
                         f"{''.join(SIDE_NAMES[d] for d in mask_sides(land)) or 'no side'}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComponentSet) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)

    def __repr__(self) -> str:
        return "ComponentSet(default)" if self.is_default else f"ComponentSet({self.source[:40]}...)"

    def cell(self, x: int, y: int) -> int:
        """The index of cell (x, y); -1 off the board."""
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else -1

    def xy(self, cell: int) -> tuple[int, int]:
        """(x, y) of a cell index."""
        return cell % self.width, cell // self.width

    def face(self, code: int) -> Face:
        """The face of a placed tile code."""
        return self.faces[code]

    def kind_of(self, code: int) -> Kind:
        """The kind of a placed tile code."""
        return self.kinds[code >> 2]


def hole_class(land: int) -> int:
    """The reserve back number for a hole whose sides face land on ``land`` (1: none ... 6: all four)."""
    count = bin(land).count("1")
    if count == 2:
        return 4 if land in (0b0101, 0b1010) else 3
    return {0: 1, 1: 2, 3: 5, 4: 6}[count]


def _neighbours(cell: int, w: int, h: int) -> tuple[int, ...]:
    # (N, E, S, W); typed as a tuple of any length on purpose: compiled code unboxes a fixed-length tuple
    # type into a C struct at every read and boxes it into a new tuple again to loop over it
    x, y = cell % w, cell // w
    return (cell - w if y > 0 else -1, cell + 1 if x < w - 1 else -1, cell + w if y < h - 1 else -1, cell - 1 if x > 0 else -1)


class _Topology(NamedTuple):
    land: int
    parts: tuple[int, ...]
    regions: tuple[int, ...]


def _topology(code: str, spec: Mapping[str, Any]) -> _Topology:
    land = sum(1 << d for d, letter in enumerate(spec["sides"]) if letter == "L")
    parts = tuple(sum(1 << SIDE_NAMES.index(s) for s in part) for part in spec["land"])
    regions = tuple(sum(1 << SIDE_NAMES.index(s) for s in region) for region in spec["water"])
    return _Topology(land, parts, regions)


def _rotated(topology: _Topology, r: int) -> Face:
    parts = tuple(rotate_mask(m, r) for m in topology.parts)
    regions = tuple(rotate_mask(m, r) for m in topology.regions)
    part_of = tuple(next((i for i, m in enumerate(parts) if m >> d & 1), -1) for d in range(4))
    region_of = tuple(next((i for i, m in enumerate(regions) if m >> d & 1), -1) for d in range(4))
    return Face(rotate_mask(topology.land, r), parts, regions, part_of, region_of)


def _rotations(topology: _Topology) -> tuple[tuple[int, int], ...]:
    """Rotations giving distinct faces (same sides, same sets of parts and regions = one placement)."""
    seen: set[tuple[int, frozenset[int], frozenset[int]]] = set()
    out = []
    for r in range(4):
        face = _rotated(topology, r)
        signature = (face.land, frozenset(face.parts), frozenset(face.regions))
        if signature not in seen:
            seen.add(signature)
            out.append((r, face.land))
    return tuple(out)


def _type_key(topology: str, event: str | None) -> str:
    return topology if event is None else f"{topology}?{event}"


# --- checking a component set -------------------------------------------------------------------


SUBJECT = "bad entdecker components"
#: What a reserve stack of each back number must fill: holes facing land on these sides.
RESERVE_HOLES = {1: "no land side", 2: "one land side", 3: "two adjacent land sides", 4: "two opposite land sides",
                 5: "three land sides", 6: "four land sides"}


def _land_mask(sides: str) -> int:
    return sum(1 << d for d, letter in enumerate(sides) if letter == "L")


def _check_topology(code: str, spec: JsonReader) -> None:
    if not _TOPOLOGY_CODE.match(code):
        raise spec.fail("needs a name of letters, digits and '_' starting with a letter")
    sides = spec.at("sides").text()
    if len(sides) != 4 or set(sides) - {"L", "W"}:
        raise spec.at("sides").expected("four letters L or W for N E S W")
    land = {SIDE_NAMES[d] for d in range(4) if sides[d] == "L"}
    _check_partition(spec.at("land"), land, "land", allow_empty_group=True)
    _check_partition(spec.at("water"), set(SIDE_NAMES) - land, "water", allow_empty_group=False)


def _check_partition(field: JsonReader, sides: set[str], what: str, *, allow_empty_group: bool) -> None:
    """``field`` must split ``sides`` into disjoint groups (a land part may be an islet touching no side)."""
    covered: set[str] = set()
    for group in field.items(of="groups"):
        members = group.texts()
        if not members and not allow_empty_group:
            raise group.fail("is an empty water region")
        for side in members:
            if side not in sides or side in covered:
                raise group.fail(f"names side {side!r}, which is not a free {what} side of this topology")
            covered.add(side)
    if covered != sides:
        raise field.fail(f"must cover every {what} side ({', '.join(sorted(sides))}), covers {', '.join(sorted(covered)) or 'none'}")


def _draw_tile_key(entry: JsonReader, topologies: Mapping[str, Any]) -> str:
    """The type key of one draw tile (``CAPE?ruins``), its fields checked."""
    topology = entry.at("topology").text(topologies)
    event_field = entry.at("event")
    event = None if event_field.is_null() else event_field.text(EVENT_NAMES)
    key = _type_key(topology, event)
    if entry.has("type") and entry.at("type").value != key:
        raise entry.at("type").fail(f"must be the topology plus '?event' ({key!r}), got {shown(entry.at('type').value)}")
    if "W" not in topologies[topology]["sides"]:
        raise entry.fail(f"draws {topology}, which has no water side and could never be placed")
    return key


def _check_draw_tiles(field: JsonReader, topologies: Mapping[str, Any]) -> int:
    keys: set[str] = set()
    total = 0
    for entry in field.items(1, of="tile types"):
        key = _draw_tile_key(entry, topologies)
        if key.lower() in keys:
            raise entry.fail(f"repeats the tile type {key!r}")
        keys.add(key.lower())
        total += entry.at("count").integer(1)
    return total


def _check_reserve(field: JsonReader, topologies: Mapping[str, Any]) -> None:
    numbers = {key for key, _ in field.entries()}
    if numbers != {str(n) for n in RESERVE_HOLES}:
        raise field.fail(f"must have the back numbers 1 to 6, got {sorted(numbers)}")
    for number, needs in RESERVE_HOLES.items():
        entry = field.at(str(number))
        topology, count = entry.items(2, 2)
        code = topology.text(topologies)
        count.integer(0)
        spec = topologies[code]
        land = _land_mask(spec["sides"])
        if hole_class(land) != number:
            raise entry.fail(f"must be a face with {needs} to fill such holes, {code} has sides {spec['sides']}")
        if len(spec["land"]) != (1 if land else 0):
            raise entry.fail(f"must join all its land sides in one part and hold no islet (a filler never splits an "
                             f"island), {code} has {len(spec['land'])} land parts")


def _check_counts(field: JsonReader) -> None:
    entries = field.entries()
    if not entries:
        raise field.fail("must not be empty")
    for key, count in entries:
        if not key.isdigit() or int(key) < 1:
            raise field.fail(f"keys must be positive values, got {key!r}")
        count.integer(0)


def _check_board(board: JsonReader) -> None:
    board.at("w").integer(2, 26)
    board.at("h").integer(2, 26)
    if board.has("rim") and board.at("rim").value != "water":
        raise board.at("rim").fail("must be 'water': the rim is the open sea the ship starts from")


def _check_stacks(field: JsonReader, total: int) -> None:
    sizes = field.integers(None, 1)
    if not sizes:
        raise field.fail("must list at least one stack")
    if sum(sizes) != total:
        raise field.fail(f"must add up to the {total} draw tiles, add up to {sum(sizes)}")


def _check_units(field: JsonReader) -> None:
    names = {key for key, _ in field.entries()}
    if names != set(UNIT_NAMES):
        raise field.fail(f"must define exactly {', '.join(UNIT_NAMES)}, got {sorted(names)}")
    for name in UNIT_NAMES:
        unit = field.at(name)
        unit.at("cost").integer(0)
        unit.at("copies").integer(0)


def _check_fields(root: JsonReader) -> None:
    """Every field of the default set there, and no other."""
    present = {key for key, _ in root.entries()}
    missing = [k for k in DEFAULT_COMPONENTS if k not in present]
    if missing:
        raise root.fail(f"misses the fields {', '.join(missing)}")
    unknown = sorted(present - set(DEFAULT_COMPONENTS))
    if unknown:
        raise root.fail(f"has unknown fields {', '.join(unknown)}")


def _check(root: JsonReader) -> None:
    _check_fields(root)
    _check_board(root.at("board"))
    topologies = {code: spec for code, spec in root.at("topologies").entries()}
    for code, spec in topologies.items():
        _check_topology(code, spec)
    specs = {code: spec.value for code, spec in topologies.items()}
    _check_stacks(root.at("stack_sizes"), _check_draw_tiles(root.at("draw_tiles"), specs))
    _check_reserve(root.at("reserve"), specs)
    _check_counts(root.at("chips"))
    if not root.at("wheel").integers(None, 0):
        raise root.at("wheel").fail("must have at least one segment")
    _check_units(root.at("units"))
    cap = root.at("gold").at("max").integer(1)
    root.at("gold").at("start").integer(0, cap)


def check_components(data: Any) -> None:
    """Raise SetupError naming the first field of ``data`` that is not an acceptable component set."""
    try:
        _check(JsonReader(data, SUBJECT))
    except StateFormatError as exc:
        raise as_setup_error(exc) from None


@lru_cache(maxsize=32)
def _compile_source(source: str) -> ComponentSet:
    data = json.loads(source)
    check_components(data)
    return ComponentSet(data, source, source == DEFAULT_SOURCE)


DEFAULT_SOURCE = json.dumps(DEFAULT_COMPONENTS, sort_keys=True, separators=(",", ":"))


def component_set(data: Any = None) -> ComponentSet:
    """The compiled component set (None: the default one); raises SetupError naming a bad field."""
    if data is None:
        return DEFAULT_SET
    try:
        source = json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise SetupError(f"components must be JSON-shaped data: {exc}") from None
    return _compile_source(source)


DEFAULT_SET = _compile_source(DEFAULT_SOURCE)
