"""The island map's geometry, derived once from the component set and the island layout.

The map is a grid of ``rows x cols`` island tiles of 7 x 7 spaces (H = 7 rows, W = 7 cols);
space (y, x) is the cell ``y * W + x``. Frame spaces are extra movement nodes numbered
``H * W + f``; each touches only the tile-corner water spaces the digest lists ("Frame spaces").
An *island* is a maximal orthogonally connected set of land spaces, across tile edges.

Nothing here changes during a game: the rules keep one :class:`Board` per layout and share it
between every state (what changes, the covers of the spaces, lives in the state).
"""

from __future__ import annotations

from typing import ClassVar, Final, NamedTuple, final

from engine.amerigo import components as c
from engine.amerigo.component_set import ComponentSet, rotate_tile
from engine.core.records import Record

WATER: Final = 0
ANCHOR: Final = 1
LAND: Final = 2
POST_SPACE: Final = 3
NO_GOOD: Final = -1


class Island(NamedTuple):
    """One island: its land cells (sorted), whether it is big (≥ 20 land spaces)."""

    cells: tuple[int, ...]
    big: bool


@final
class Board(Record):
    """The static map of one layout (see the module docstring).

    A record rather than a NamedTuple: sailing and building read its tables at every decision, and compiled
    with mypyc a record's field is one memory load where a NamedTuple's is a generic attribute lookup."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "rows", "cols", "height", "width", "terrain", "goods", "island_of", "islands", "anchor_post", "frames",
        "sea_adj", "land_adj", "initial_chests",
    )
    __slots__ = FIELDS

    rows: int
    cols: int
    height: int
    width: int
    terrain: tuple[int, ...]  # per cell: WATER, ANCHOR, LAND, POST_SPACE
    goods: tuple[int, ...]  # per cell: the good of a goods space, else NO_GOOD
    island_of: tuple[int, ...]  # per cell: the island of a land cell, else -1
    islands: tuple[Island, ...]
    anchor_post: dict[int, int]  # anchor cell → its trading-post space
    frames: tuple[tuple[str, tuple[int, ...]], ...]  # frame spaces: (name, the cells they touch)
    sea_adj: tuple[tuple[int, ...], ...]  # per node (cells, then frames): the water nodes one step away
    land_adj: tuple[tuple[int, ...], ...]  # per cell: orthogonally adjacent land cells
    initial_chests: tuple[bool, ...]  # per island: a treasure chest at setup

    def __init__(
        self, rows: int, cols: int, height: int, width: int, terrain: tuple[int, ...], goods: tuple[int, ...],
        island_of: tuple[int, ...], islands: tuple[Island, ...], anchor_post: dict[int, int],
        frames: tuple[tuple[str, tuple[int, ...]], ...], sea_adj: tuple[tuple[int, ...], ...],
        land_adj: tuple[tuple[int, ...], ...], initial_chests: tuple[bool, ...],
    ) -> None:
        self.rows = rows
        self.cols = cols
        self.height = height
        self.width = width
        self.terrain = terrain
        self.goods = goods
        self.island_of = island_of
        self.islands = islands
        self.anchor_post = anchor_post
        self.frames = frames
        self.sea_adj = sea_adj
        self.land_adj = land_adj
        self.initial_chests = initial_chests

    def copy(self) -> Board:
        """A new record with the same fields (a board never changes: nothing needs this but the protocol)."""
        return Board(self.rows, self.cols, self.height, self.width, self.terrain, self.goods, self.island_of,
                     self.islands, self.anchor_post, self.frames, self.sea_adj, self.land_adj, self.initial_chests)

    @property
    def cells(self) -> int:
        """The number of map cells (frame nodes come after them)."""
        return self.height * self.width

    def is_frame(self, node: int) -> bool:
        """Whether ``node`` is a frame space."""
        return node >= self.height * self.width

    def node_name(self, node: int) -> str:
        """``F3`` for a frame space, ``12,5`` (row, column) for a map cell."""
        if node >= self.cells:
            return self.frames[node - self.cells][0]
        return f"{node // self.width},{node % self.width}"


def frame_spaces(rows: int, cols: int, players: int) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """The frame spaces and the map spaces each touches: 3 per corner frame, 1 per short frame."""
    h, w = rows * c.TILE_SIZE, cols * c.TILE_SIZE
    touching: list[tuple[tuple[int, int], ...]] = [
        ((0, 0),), ((0, 6),), ((6, 0),),
        ((0, w - 1),), ((0, w - 7),), ((6, w - 1),),
        ((h - 1, 0),), ((h - 1, 6),), ((h - 7, 0),),
        ((h - 1, w - 1),), ((h - 1, w - 7),), ((h - 7, w - 1),),
    ]
    if cols == 4:  # the short frames sit on the 4-tile (28-space) sides
        touching += [((0, 13), (0, 14)), ((h - 1, 13), (h - 1, 14))]
    if rows == 4:
        touching += [((13, 0), (14, 0)), ((13, w - 1), (14, w - 1))]
    return tuple((f"F{i + 1}", cells) for i, cells in enumerate(touching))


def frame_side(cells: tuple[tuple[int, int], ...], height: int, width: int) -> str:
    """Which side of the map a frame space lies on, for people: ``top-left corner``, ``top side``, ``left side``."""
    row, col = cells[0]
    vertical = "top" if row == 0 else "bottom" if row == height - 1 else ""
    horizontal = "left" if col == 0 else "right" if col == width - 1 else ""
    if vertical and horizontal and len(cells) == 1 and (row, col) in ((0, 0), (0, width - 1), (height - 1, 0),
                                                                      (height - 1, width - 1)):
        return f"{vertical}-{horizontal} corner"
    return f"{vertical or horizontal} side"


def frame_name(board: Board, frame: int) -> str:
    """``F3 (top side)``: a frame space's name and where it lies."""
    name, cells = board.frames[frame]
    return f"{name} ({frame_side(tuple(divmod(cell, board.width) for cell in cells), board.height, board.width)})"


def tile_codes(rows: tuple[str, ...], rotation: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The terrain and the good (NO_GOOD for none) of every space of an island tile turned ``rotation`` quarter
    turns clockwise, row by row. Remembered: a layout is made of a few tiles, and every game lays one out."""
    key = (rows, rotation)
    codes = _tile_codes.get(key)
    if codes is None:
        if len(_tile_codes) > 4096:
            _tile_codes.clear()
        flat = "".join(rotate_tile(rows, rotation))
        codes = _tile_codes[key] = (tuple([_terrain(ch) for ch in flat]), tuple([_good(ch) for ch in flat]))
    return codes


_tile_codes: Final[dict[tuple[tuple[str, ...], int], tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def _terrain(ch: str) -> int:
    if ch == "~":
        return WATER
    if ch == "A":
        return ANCHOR
    return POST_SPACE if ch == "P" else LAND


def _good(ch: str) -> int:
    return c.GOOD_LETTERS.index(ch) if ch in c.GOOD_LETTERS else NO_GOOD


def _laid_out(components: ComponentSet, layout: tuple[tuple[int, int], ...], cols: int, width: int,
              cells: int) -> tuple[list[int], list[int]]:
    """The terrain and the good of every map cell: the tiles of ``layout`` in a grid of ``cols`` columns."""
    size = c.TILE_SIZE
    terrain = [WATER] * cells
    goods = [NO_GOOD] * cells
    for index in range(len(layout)):
        tile, rotation = layout[index]
        tile_terrain, tile_goods = tile_codes(components.island_tiles[tile][1], rotation)
        corner = (index // cols) * size * width + (index % cols) * size
        for r in range(size):
            row_start = corner + r * width
            for col in range(size):
                terrain[row_start + col] = tile_terrain[r * size + col]
                goods[row_start + col] = tile_goods[r * size + col]
    return terrain, goods


def _islands(terrain: tuple[int, ...], width: int, land_adj: tuple[tuple[int, ...], ...]) -> tuple[list[int], list[Island]]:
    island_of = [-1] * len(terrain)
    islands: list[Island] = []
    for start in range(len(terrain)):
        if terrain[start] < LAND or island_of[start] >= 0:
            continue
        index = len(islands)
        island_of[start] = index
        todo, cells = [start], [start]
        while todo:
            for other in land_adj[todo.pop()]:
                if island_of[other] < 0:
                    island_of[other] = index
                    cells.append(other)
                    todo.append(other)
        islands.append(Island(tuple(sorted(cells)), len(cells) >= c.BIG_ISLAND))
    return island_of, islands


def _around(cell: int, height: int, width: int) -> tuple[int, ...]:
    """The cells next to ``cell`` on a map ``height`` × ``width``: above, below, left, right."""
    y, x = divmod(cell, width)
    steps = []
    if y > 0:
        steps.append(cell - width)
    if y < height - 1:
        steps.append(cell + width)
    if x > 0:
        steps.append(cell - 1)
    if x < width - 1:
        steps.append(cell + 1)
    return tuple(steps)


def _grid_around(height: int, width: int) -> tuple[tuple[int, ...], ...]:
    """:func:`_around` of every cell of a map ``height`` × ``width`` (remembered: there are three map sizes)."""
    key = (height, width)
    table = _grids.get(key)
    if table is None:
        table = _grids[key] = tuple([_around(cell, height, width) for cell in range(height * width)])
    return table


_grids: Final[dict[tuple[int, int], tuple[tuple[int, ...], ...]]] = {}


def build_board(components: ComponentSet, layout: tuple[tuple[int, int], ...], players: int) -> Board:
    """The geometry of a complete layout (one (tile, rotation) per grid cell, row by row)."""
    rows, cols = c.GRID[players]
    height, width = rows * c.TILE_SIZE, cols * c.TILE_SIZE
    n = height * width
    terrain_list, goods_list = _laid_out(components, layout, cols, width, n)
    terrain = tuple(terrain_list)

    # One pass over the cells: a land cell's land neighbours, a water cell's water neighbours, an anchor's post.
    land_adj_list: list[tuple[int, ...]] = []
    sea: list[list[int]] = []
    anchor_post = {}
    grid = _grid_around(height, width)
    for i in range(n):
        around = grid[i]
        kind = terrain[i]
        if kind >= LAND:
            land_adj_list.append(tuple([o for o in around if terrain[o] >= LAND]))
            sea.append([])
            continue
        land_adj_list.append(())
        sea.append([o for o in around if terrain[o] <= ANCHOR])
        if kind == ANCHOR:
            anchor_post[i] = next(o for o in around if terrain[o] == POST_SPACE and _same_tile(i, o, width))
    land_adj = tuple(land_adj_list)
    frames_at = frame_spaces(rows, cols, players)
    frames = tuple([(name, tuple([y * width + x for y, x in cells])) for name, cells in frames_at])
    for f in range(len(frames)):
        touched = frames[f][1]
        sea.append(list(touched))
        for cell in touched:
            sea[cell].append(n + f)
    island_of, islands = _islands(terrain, width, land_adj)
    chests, left = [], c.CHESTS
    for island in islands:  # Ruling 8: more big islands than chests: the first ones (by top-left cell) get them
        chests.append(island.big and left > 0)
        left -= island.big
    return Board(rows, cols, height, width, terrain, tuple(goods_list), tuple(island_of), tuple(islands), anchor_post,
                 frames, tuple([tuple(s) for s in sea]), land_adj, tuple(chests))


def _same_tile(a: int, b: int, width: int) -> bool:
    """Anchors pair with the trading-post space on their own tile (a link never crosses a tile edge)."""
    size = c.TILE_SIZE
    return (a // width) // size == (b // width) // size and (a % width) // size == (b % width) // size


_boards: dict[tuple[int, tuple[tuple[int, int], ...], int], Board] = {}
_component_sets: dict[int, ComponentSet] = {}


def board_for(components: ComponentSet, layout: tuple[tuple[int, int], ...], players: int) -> Board:
    """The (cached) board of a complete layout."""
    key = (id(components), layout, players)
    board = _boards.get(key)
    if board is None:
        if len(_boards) > 256:
            _boards.clear()
        board = _boards[key] = build_board(components, layout, players)
        _component_sets[id(components)] = components  # keeps the component set alive, so that its id stays unique
    return board
