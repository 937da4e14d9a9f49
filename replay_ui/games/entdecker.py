"""Entdecker for the UI: the tile faces for the map, round and expedition marks, running scores.

Everything about the game is read from ``engine.entdecker``: the game's compiled component set
(every tile kind with its face in each rotation, the board's size, the units, chips and wheel: the
default set, or the one its ``Setup.options["components"]`` names, compiled by
:func:`engine.entdecker.component_set.component_set` as the rules' setup compiles it), the state's
fields and the geometry module (the cells behind the ship's open passages, highlighted on the map).
The board renderer (``static/js/boards/entdecker.js``) only lays out what it is given.
"""

from __future__ import annotations

from typing import Any

from engine import Setup
from engine.entdecker import geometry
from engine.entdecker.component_set import ComponentSet, component_set
from engine.entdecker.components import EVENT_NAMES, UNIT_NAMES
from engine.entdecker.describe import TOPOLOGY_WORDS, caption_message
from engine.entdecker.scoring import chip_bonus
from engine.entdecker.state import (
    OVER,
    PHASE_NAMES,
    PLACE,
    SCORE_CHIP,
    SETUP_BACK,
    SPIN,
    START,
    State,
)
from engine.entdecker.turn import RUINS, RUINS_VP
from replay_ui.games import GenericAdapter, engine_strength, term, translated, upper_first
from service.i18n import N_, _, ngettext

#: The move picker's groups, by the notation's first word: how a player thinks of the choices.
PICKER_GROUPS = {
    "start": N_("Start the ship (circle, or a tile's water)"), "pass": N_("No start possible"),
    "buy": N_("Buy tiles (1 gold each)"), "draw": N_("Turn over a tile from a stack"),
    "place": N_("Place the tile (x y rotation)"), "build": N_("Build on the new land (unit, land part)"),
    "takeback": N_("Take a scout back"), "end": N_("Or stop"),
    "take": N_("Friendly natives' chip"), "decline": N_("Friendly natives' chip"),
}


GAME = "entdecker"
#: The line above the board: the default component set's, or a custom set's.
NOTICE_DEFAULT = N_("Tile set, stacks, reserve faces and wheel reconstructed from the rulebook (only the totals are "
                    "sourced); coordinates are (x, y) from the top left.")
NOTICE_CUSTOM = N_("Played with a custom component set from the game's setup; coordinates are (x, y) from the top left.")


def tables(cat: ComponentSet) -> dict[str, Any]:
    """A component set's tables for the map: board size, every kind, every face by code."""
    kinds = []
    for kind in cat.kinds:
        kinds.append({"key": kind.key, "topology": kind.topology, "event": EVENT_NAMES[kind.event] if kind.event >= 0 else None,
                      "reserve": kind.reserve, "back": kind.back,
                      "name": term(GAME, "tile", TOPOLOGY_WORDS.get(kind.topology, kind.topology.lower()))})
    faces = [{"land": face.land, "parts": list(face.parts), "regions": list(face.regions)} for face in cat.faces]
    return {"width": cat.width, "height": cat.height, "kinds": kinds, "faces": faces, "draw_kinds": cat.draw_kinds,
            "chip_values": list(cat.chip_values), "gold_max": cat.gold_max, "unit_costs": list(cat.unit_cost),
            "unit_copies": list(cat.unit_copies), "wheel": list(cat.wheel_values),
            "reserve_kinds": list(cat.reserve_kind), "stacks": len(cat.stack_sizes)}


def _scoring_cells(state: State) -> list[int]:
    """The cells of the island being scored (its chips are being drawn), for the map's highlight."""
    if not state.islands:
        return []
    island = state.islands[0]
    for part in range(len(state.components.faces[state.board[island.first]].parts)):
        nodes, _ = geometry.island_of(state.components, state.board, island.first, part)
        cells = sorted({cell for cell, _ in nodes})
        if len(cells) == island.size and set(island.unit_cells) <= set(cells):
            return cells
    return [island.first]


class EntdeckerAdapter(GenericAdapter):
    """Marks each move with its round and the expedition it belongs to; scores are the score track."""

    renderer = "entdecker"

    def __init__(self) -> None:
        self._turn: tuple[int, int] | None = None
        # The score track's sources, counted along the fold (the state keeps only each total): the points of each
        # island scoring per seat, in order, and the ruins' points; the most-chips bonus is the outcome's own.
        self._score: tuple[int, ...] | None = None
        self._islands: list[list[int]] = []
        self._ruins: list[int] = []
        self._ruins_due: int | None = None  # the seat that finds ruins with the move being folded

    def explorer_choice(self, stage: str, choice: str) -> str | None:
        """Tiles bought for an expedition ("buy 2 tiles") or a piece built ("build fort"), the glossary's words
        (:mod:`engine.entdecker.explore`)."""
        verb, _space, what = choice.partition(" ")
        if verb == "buy" and what.split(" ")[0].isdigit():
            return ngettext("buy %(num)d %(tile)s", "buy %(num)d %(tile)ss", int(what.split(" ")[0]),
                            tile=term(GAME, "component", "tile"))
        return _("build %(unit)s", unit=term(GAME, "unit", what)) if verb == "build" else None

    def components(self, setup: Setup) -> dict[str, Any]:
        """The game's component set's tables, the unit and event names, and the picker's and jump-to's words."""
        cat = component_set((setup.options or {}).get("components"))
        return {
            **tables(cat),
            "units": list(UNIT_NAMES),
            "events": list(EVENT_NAMES),
            "phases": list(PHASE_NAMES),
            "phase_label": _("Turn"),
            "score_hint": _("the score track: islands, ruins, and at the end the most-chips bonus"),
            "picker_groups": translated(PICKER_GROUPS),
            "engine_strength": engine_strength(GAME),
            "notice": _(NOTICE_DEFAULT if cat.is_default else NOTICE_CUSTOM),
        }

    def marks(self, state: State, action: Any) -> dict[str, Any]:
        """Setup before round 1; the spin opens a round; a player's first move opens his expedition."""
        phase = state.phase
        if phase == PLACE and state.tile >= 0 and state.components.kinds[state.tile].event == RUINS:
            self._ruins_due = state.turn
        if phase == SETUP_BACK:
            return {}
        if phase == SPIN:
            return {"round": state.round, "phase": upper_first(term(GAME, "phase", "income")), "pick": True}
        if phase == SCORE_CHIP:
            return {"round": state.round, "phase": _("Island scored")}
        expedition = upper_first(term(GAME, "component", "expedition"))
        if phase == START and self._turn != (state.round, state.turn):
            self._turn = (state.round, state.turn)
            return {"round": state.round, "phase": expedition, "pick": True}
        return {"round": state.round, "phase": expedition}

    def position(self, state: State, names: tuple[str, ...]) -> dict[str, Any]:
        """Round and what the position waits for; the cells the ship could sail into (highlighted)."""
        self._count_points(state)
        phase = state.phase
        return {"caption": list(caption_message(state)), "round": state.round, "turn": state.turn,
                "passages": [] if phase == OVER else [c for c, _ in geometry.passages(state.components, state.board, state.ship)],
                "scoring_cells": _scoring_cells(state)}

    def _count_points(self, state: State) -> None:
        """What the move just folded scored, by source: ruins (3 to the finder), at the end the most-chips bonus,
        and the rest island scorings (a chip's island, a complete one without chips, the end's incomplete ones)."""
        score = tuple(state.score)
        if self._score is None or len(self._score) != len(score):
            self._score, self._islands, self._ruins = score, [[] for _ in score], [0] * len(score)
            return
        gained = [now - before for now, before in zip(score, self._score, strict=True)]
        if self._ruins_due is not None:
            gained[self._ruins_due] -= RUINS_VP
            self._ruins[self._ruins_due] += RUINS_VP
            self._ruins_due = None
        if state.phase == OVER:
            gained = [points - bonus for points, bonus in zip(gained, chip_bonus(state), strict=True)]
        for seat, points in enumerate(gained):
            if points > 0:
                self._islands[seat].append(points)
        self._score = score

    def result(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """The breakdown in words, led by what makes up each total: the island points, scoring by scoring
        ("4 + 6 + 3 = 13"), and the ruins' points (the most-chips bonus is the engine's own column)."""
        words = super().result(outcome)
        if len(self._islands) != len(words["cells"]):
            return words  # not folded here (no history seen): the engine's breakdown alone
        words["columns"] = [{"key": "islands", "label": _("island points")},
                            {"key": "ruins", "label": term(GAME, "event", "ruins")}, *words["columns"]]
        for seat, cells in enumerate(words["cells"]):
            islands = self._islands[seat]
            cells["islands"] = " + ".join(map(str, islands)) + (f" = {sum(islands)}" if len(islands) > 1 else "") or "0"
            cells["ruins"] = str(self._ruins[seat])
        return words

    def scores(self, state: State) -> list[int]:
        """The score track so far (public: points are never hidden in this game)."""
        return list(state.score)

    def result_labels(self) -> dict[str, str]:
        """The breakdown's columns in words."""
        return {"chips": _("chips held"), "chip bonus": _("most-chips bonus"), "gold left": _("gold left")}

    def tiebreak_words(self, tiebreak: int, n_players: int) -> str:
        """The rules have no tie-break: equal scores share the place."""
        return _("none (ties share)")


ADAPTER = EntdeckerAdapter
