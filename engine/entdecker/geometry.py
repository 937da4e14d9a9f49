"""The map: fitting tiles, the ship's open passages, holes and islands.

Pure functions of a board tuple and the component set (see :mod:`engine.entdecker.state`). The rim
around the grid is explored open sea (digest R1): a side facing off the grid needs water, and it
counts as explored for holes.
"""

from __future__ import annotations

from engine.entdecker.component_set import ComponentSet, opposite
from engine.entdecker.state import EMPTY, SHIP_CIRCLE, SHIP_TILE

# The whole board is small (70 cells by default): plain loops over tuples beat any cleverer structure.


def cell_at(components: ComponentSet, x: int, y: int) -> int:
    """The index of cell (x, y); -1 off the board (:meth:`ComponentSet.cell`, as a compiled function)."""
    width, height = components.width, components.height
    return y * width + x if 0 <= x < width and 0 <= y < height else -1


def constraint(components: ComponentSet, board: tuple[int, ...], cell: int) -> tuple[int, int]:
    """(mask, land) for an empty cell: the sides a tile must match, and which of those must be land.

    "a letett területnek minden oldalával passzolnia kell az esetleges környező részletekhez – földhöz
    föld, vízhez víz" (every side of the placed tile must match the neighbouring tiles: land to land,
    water to water); a side facing the rim needs water (R1); an empty neighbour imposes nothing.
    """
    mask = land = 0
    faces = components.faces
    for d, other in enumerate(components.neighbours[cell]):
        if other < 0:
            mask |= 1 << d
        else:
            code = board[other]
            if code != EMPTY:
                mask |= 1 << d
                if faces[code].land >> ((d + 2) & 3) & 1:
                    land |= 1 << d
    return mask, land


def fitting_rotations(components: ComponentSet, board: tuple[int, ...], kind: int, cell: int) -> tuple[int, ...]:
    """The distinct rotations of tile ``kind`` that fit at the empty ``cell``."""
    mask, land = constraint(components, board, cell)
    return tuple(r for r, tile_land in components.kinds[kind].rotations if not (tile_land ^ land) & mask)


def passages(components: ComponentSet, board: tuple[int, ...], ship: tuple[int, int, int]) -> tuple[tuple[int, int], ...]:
    """The ship's open passages as (empty cell, that cell's side facing the ship), in side order."""
    mode, cell, index = ship
    if mode == SHIP_CIRCLE:
        return ((cell, index),) if board[cell] == EMPTY else ()
    if mode != SHIP_TILE:
        return ()
    region = components.faces[board[cell]].regions[index]
    out = []
    for d, other in enumerate(components.neighbours[cell]):
        if region >> d & 1 and other >= 0 and board[other] == EMPTY:
            out.append((other, opposite(d)))
    return tuple(out)


def has_passage(components: ComponentSet, board: tuple[int, ...], ship: tuple[int, int, int]) -> bool:
    """Whether the ship has an open passage (:func:`passages` is not empty), without listing them."""
    mode, cell, index = ship[0], ship[1], ship[2]
    if mode == SHIP_CIRCLE:
        return board[cell] == EMPTY
    return mode == SHIP_TILE and region_is_open(components, board, cell, index)


def fits_behind_passage(components: ComponentSet, board: tuple[int, ...], ship: tuple[int, int, int], kind: int) -> bool:
    """Whether tile ``kind`` fits behind one of the ship's passages (:func:`placements` is not empty)."""
    rotations = components.kinds[kind].rotations
    for cell, _ in passages(components, board, ship):
        mask, land = constraint(components, board, cell)
        for i in range(len(rotations)):
            if not (rotations[i][1] ^ land) & mask:
                return True
    return False


def region_is_open(components: ComponentSet, board: tuple[int, ...], cell: int, region: int) -> bool:
    """Whether water region ``region`` of the tile at ``cell`` has a passage into an unexplored cell."""
    mask = components.faces[board[cell]].regions[region]
    for d, other in enumerate(components.neighbours[cell]):
        if mask >> d & 1 and other >= 0 and board[other] == EMPTY:
            return True
    return False


def open_regions(components: ComponentSet, board: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every (cell, water region) of a placed tile with a passage into an unexplored cell, sorted.

    Found from the unexplored cells' side (fewer as the map fills): a neighbouring tile's water side
    facing one of them opens the region holding that side.
    """
    faces = components.faces
    neighbours = components.neighbours
    found = set()
    for cell, code in enumerate(board):
        if code != EMPTY:
            continue
        for d, other in enumerate(neighbours[cell]):
            if other >= 0:
                placed = board[other]
                if placed != EMPTY:
                    region = faces[placed].region_of_side[(d + 2) & 3]
                    if region >= 0:
                        found.add((other, region))
    return sorted(found)


def placements(components: ComponentSet, board: tuple[int, ...], ship: tuple[int, int, int], kind: int) -> tuple[tuple[int, int], ...]:
    """Every distinct (cell, rotation) where tile ``kind`` may be placed behind the ship's passages, sorted.

    "Lehelyezi a részletet egy olyan területre, amely szomszédos azzal a hellyel, amin a hajó áll. A két
    területnek kapcsolódnia kell egymáshoz egy szaggatott vonallal" (he places the tile next to where the
    ship stands; the two must be joined by a dashed line): the matching rule forces water on the side
    facing the ship, so the passage continues onto the new tile.
    """
    out: list[tuple[int, int]] = []
    for cell, _ in passages(components, board, ship):
        out.extend((cell, r) for r in fitting_rotations(components, board, kind, cell))
    out.sort()
    return tuple(out)


def empty_neighbours(components: ComponentSet, board: tuple[int, ...], cells: tuple[int, ...]) -> list[int]:
    """The empty cells next to any of ``cells``, each once, in ascending order."""
    found = {other for cell in cells for other in components.neighbours[cell] if other >= 0 and board[other] == EMPTY}
    return sorted(found)


def facing_land(components: ComponentSet, board: tuple[int, ...], cell: int) -> int:
    """Sides of ``cell`` that face a land side of a neighbouring tile (the rim and empty cells: none)."""
    land = 0
    faces = components.faces
    for d, other in enumerate(components.neighbours[cell]):
        if other >= 0:
            code = board[other]
            if code != EMPTY and faces[code].land >> ((d + 2) & 3) & 1:
                land |= 1 << d
    return land


def is_enclosed(components: ComponentSet, board: tuple[int, ...], cell: int) -> bool:
    """Whether every side of ``cell`` faces a tile or the rim (a single hole when the cell is empty)."""
    return all(other < 0 or board[other] != EMPTY for other in components.neighbours[cell])


def land_locked_group(components: ComponentSet, board: tuple[int, ...], cell: int) -> list[int] | None:
    """The empty group around ``cell`` if every side it shows outward faces land (a larger hole), else None.

    The search stops at the first side facing water or the rim: such a group is still reachable by sea.
    """
    faces = components.faces
    if not _faces_only_land(components, board, cell):  # most cells: answered before any search
        return None
    group = [cell]
    seen = {cell}
    i = 0
    while i < len(group):
        here = group[i]
        i += 1
        for d, other in enumerate(components.neighbours[here]):
            if other < 0:
                return None
            code = board[other]
            if code == EMPTY:
                if other not in seen:
                    seen.add(other)
                    group.append(other)
            elif not faces[code].land >> ((d + 2) & 3) & 1:
                return None
    return sorted(group)


def _faces_only_land(components: ComponentSet, board: tuple[int, ...], cell: int) -> bool:
    """Whether no side of ``cell`` faces the rim or a tile's water side (empty neighbours aside)."""
    faces = components.faces
    around = components.neighbours[cell]
    for d in range(4):
        other = around[d]
        if other < 0:
            return False
        code = board[other]
        if code != EMPTY and not faces[code].land >> ((d + 2) & 3) & 1:
            return False
    return True


def island_of(components: ComponentSet, board: tuple[int, ...], cell: int, part: int) -> tuple[set[tuple[int, int]], bool]:
    """The island holding land part ``part`` of the tile at ``cell``: its (cell, part) nodes, and whether complete.

    Two parts of neighbouring tiles are joined when both contain the shared side; the island is
    complete when none of its parts has a land side facing an unexplored cell ("a sziget teljes
    egészében kirajzolódott": the island has been drawn in full).
    """
    faces = components.faces
    neighbours = components.neighbours
    nodes = {(cell, part)}
    todo = [(cell, part)]
    complete = True
    while todo:
        here, p = todo.pop()
        mask = faces[board[here]].parts[p]
        for d in range(4):
            if mask >> d & 1:
                other = neighbours[here][d]
                code = board[other]  # a land side never faces the rim (R1), so ``other`` is on the grid
                if code == EMPTY:
                    complete = False
                    continue
                node = (other, faces[code].part_of_side[(d + 2) & 3])
                if node not in nodes:
                    nodes.add(node)
                    todo.append(node)
    return nodes, complete
