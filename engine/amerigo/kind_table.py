"""Per tile kind of a component set, what planning and building read at every decision, as plain tuples.

A :class:`~engine.amerigo.component_set.TileKind` is a NamedTuple of a module that is not compiled (it only
validates and builds component sets): compiled, each of its fields is read by a generic attribute lookup, and
``ComponentSet.kind_index`` runs as Python. The legal plans and builds read the kinds' names, costs, shapes and
groups many times per decision, so they read them from here: one table per component set, made on first use.
"""

from __future__ import annotations

from typing import Final, final

from engine.amerigo.component_set import VILLAGE, ComponentSet, TileKind
from engine.amerigo.notation import Action


def anchor_offset(kind: TileKind, rotation: int) -> tuple[int, int]:
    """Where the tile's anchor cell lies in the shape turned ``rotation`` quarter turns clockwise, from the turned
    shape's top-left corner. The anchor is the first cell (top row, leftmost) of the unturned shape: a square the
    tile covers, which turns with it."""
    turned = list(kind.orientations[0][1])
    for _ in range(rotation % 4):
        turned = [(col, -row) for row, col in turned]
    anchor_row, anchor_col = turned[0]
    return anchor_row - min(r for r, _ in turned), anchor_col - min(col for _, col in turned)


@final
class KindTable:
    """The tile kinds of one component set, field by field, indexed like ``components.kinds``."""

    __slots__ = ("components", "names", "index", "plan_actions", "take_costs", "build_costs", "orientations",
                 "offsets", "is_village")

    def __init__(self, components: ComponentSet) -> None:
        kinds = components.kinds
        index: dict[str, int] = {}
        for k, kind in enumerate(kinds):
            index.setdefault(kind.name, k)  # the first of a name, as ComponentSet.kind_index finds it
        self.components = components
        self.names: tuple[str, ...] = tuple([kind.name for kind in kinds])
        self.index = index
        self.plan_actions: tuple[Action, ...] = tuple([("plan", kind.name) for kind in kinds])
        self.take_costs: tuple[int, ...] = tuple([kind.take_cost for kind in kinds])
        self.build_costs: tuple[int, ...] = tuple([kind.build_cost for kind in kinds])
        self.orientations: tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...] = tuple(
            [kind.orientations for kind in kinds])
        #: Per kind, per rotation 0-3, :func:`anchor_offset`.
        self.offsets: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            [tuple([anchor_offset(kind, r) for r in range(4)]) for kind in kinds])
        self.is_village: tuple[bool, ...] = tuple([kind.group == VILLAGE for kind in kinds])

    def kind_index(self, name: str) -> int:
        """The index of the tile kind called ``name`` ("village L3"); -1 when unknown."""
        return self.index.get(name, -1)


def kind_table(components: ComponentSet) -> KindTable:
    """The table of ``components``, remembered for the last component set asked (a game plays with one)."""
    if _last and _last[0].components is components:
        return _last[0]
    table = KindTable(components)
    _last[:] = [table]
    return table


_last: Final[list[KindTable]] = []
