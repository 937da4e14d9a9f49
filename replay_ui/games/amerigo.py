"""Amerigo for the UI: component tables for the board, round and phase marks, running scores.

Everything is read from ``engine.amerigo``: the game's component set (its island tiles, tile kinds
and their rotations, track spaces and VP: the default set, or the one its ``Setup.options
["components"]`` names, through :func:`engine.amerigo.component_set.component_set` as the rules' setup reads
it), the progress tokens, the frame spaces of its player count, the state's fields and the scoring
module. The board renderer (``static/js/boards/amerigo.js``) lays the island tiles out from
the state's layout (each tile turned as chance said), so nothing of the map is copied into JS.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine import Setup
from engine.amerigo import components as c
from engine.amerigo import scoring
from engine.amerigo.board import frame_side, frame_spaces
from engine.amerigo.component_set import ComponentSet, component_set
from engine.amerigo.describe import ACTION_NAMES, PREPARATION_STEPS, caption_message
from engine.amerigo.state import LAYOUT, PHASE_NAMES, State
from engine.amerigo.tokens import TOKEN_IDS, TOKEN_KINDS
from engine.core.messages import Term, message
from replay_ui.games import GenericAdapter, engine_strength, ordinal, said, term, translated, upper_first
from service.i18n import N_, _, current_locale

#: The move picker's groups, by the notation's first word: how a player thinks of the choices.
PICKER_GROUPS = {
    "choose": N_("Choose an action"), "special": N_("White special action (as another colour)"),
    "gold": N_("Instead of an action"), "use": N_("Use a progress token"), "cash": N_("Cash in for gold"),
    "spend": N_("Spend gold for 1 more AP"), "ships": N_("Put both ships on the frame"),
    "sail": N_("Sail a ship (to where)"), "found": N_("Trading post at the anchor"),
    "decline": N_("Trading post at the anchor"), "cannons": N_("Load cannons"),
    "advance": N_("Advance on the progress track"), "take": N_("Take a progress token"),
    "move": N_("Move the order disc"), "plan": N_("Plan a tile into your stock"),
    "build": N_("Build a tile (kind, turn, a square it covers)"), "buy": N_("Buy a production token"),
    "end": N_("Or end the action"),
}


GAME = "amerigo"
#: The line above the board: the default component set's, or a custom set's.
NOTICE_DEFAULT = N_("Board layout reconstructed from the rulebook (island tiles, tile shapes and values, track spaces "
                    "are a documented reconstruction); the rules are the rulebook's.")
NOTICE_CUSTOM = N_("Played with a custom component set from the game's setup (tables it leaves out keep the "
                   "rulebook reconstruction); the rules are the rulebook's.")


#: Where a frame space lies, as :func:`engine.amerigo.board.frame_side` says it: marked for the catalog, said in the
#: reader's language in the frame spaces' titles.
FRAME_SIDES = (N_("top-left corner"), N_("top-right corner"), N_("bottom-left corner"), N_("bottom-right corner"),
               N_("top side"), N_("bottom side"), N_("left side"), N_("right side"))


def phase_name(colour: int) -> str:
    """``blue phase (sailing)``, in the current locale (the caption's template, the glossary's colour and action)."""
    return _phase_name(colour, current_locale())


@cache
def _phase_name(colour: int, locale: str) -> str:
    """:func:`phase_name` in ``locale``, worded once per process (every move of a fold names its phase)."""
    return said(message("amerigo.caption.phase", colour=Term(GAME, "colour", c.COLOURS[colour]),
                        action=Term(GAME, "action", ACTION_NAMES[colour])))


def throw_words(action: Any) -> str:
    """One part of a cube tower throw: ``3 blue``, ``1 red (stray)`` (the count first: the move list leaves out the
    colours of which none came out, ``0 …``)."""
    count, colour = action[2], term(GAME, "colour", c.COLOURS[action[1]])
    if action[0] == "stray":
        return _("%(count)s %(colour)s (stray)", count=count, colour=colour)
    return _("%(count)s %(colour)s", count=count, colour=colour)


def _kinds(catalog: ComponentSet) -> list[dict[str, Any]]:
    return [{"name": k.name, "group": k.group, "shape": k.shape, "size": k.size, "vp": [k.vp_small, k.vp_big],
             "take_cost": k.take_cost, "build_cost": k.build_cost, "copies": k.copies,
             "orientations": {str(rotation): [list(cell) for cell in cells] for rotation, cells in k.orientations}}
            for k in catalog.kinds]


def _order_track(catalog: ComponentSet) -> dict[str, Any]:
    last = catalog.order_last
    colours = [-1] + [(pos - 1) % 6 for pos in range(1, last)] + [-2]  # -1 white start, -2 any colour
    return {"last": last, "vp": [list(p) for p in catalog.order_vp], "colours": colours}


class AmerigoAdapter(GenericAdapter):
    """Marks each move with its round and phase (setup, a colour's phase, the preparation); scores are VP so far."""

    renderer = "amerigo"

    def __init__(self) -> None:
        self._group: tuple[int, str] | None = None

    def components(self, setup: Setup) -> dict[str, Any]:
        """The static tables the board draws with: the game's component set, for its number of players."""
        players = len(setup.players)
        catalog = component_set(setup.options.get("components"))
        rows, cols = c.GRID[players]
        return {
            "colours": list(c.COLOURS), "action_names": [term(GAME, "action", name) for name in ACTION_NAMES], "goods": list(c.GOODS),
            "good_letters": c.GOOD_LETTERS, "island_tiles": {name: list(tile) for name, tile in catalog.island_tiles},
            "grid": [rows, cols], "tile_size": c.TILE_SIZE,
            "frames": [{"name": name, "cells": [list(cell) for cell in cells],
                        "side": _(frame_side(cells, rows * c.TILE_SIZE, cols * c.TILE_SIZE))}
                       for name, cells in frame_spaces(rows, cols, players)],
            "kinds": _kinds(catalog), "neutral_kinds": list(catalog.neutral_kinds), "village_kinds": list(catalog.village_kinds),
            "tokens": [{"id": t, "kind": TOKEN_KINDS[i], "effect": said(message(f"amerigo.token.{t}"))}
                       for i, t in enumerate(TOKEN_IDS)],
            "progress_spaces": list(c.PROGRESS_SPACES), "production_values": list(c.PRODUCTION_VALUES),
            "order_track": _order_track(catalog),
            "progress_track": {"last": catalog.progress_last, "vp": [list(p) for p in catalog.progress_vp]},
            "cannon_max": c.CANNON_MAX, "gold_max": c.GOLD_MAX, "posts": c.POSTS_PER_PLAYER, "time_values": list(c.TIME_VALUES),
            # what the move list calls one throw's events, shown as one line (the marks' ``throw``)
            "throw_label": _("%(tower)s throw", tower=upper_first(term(GAME, "component", "cube tower"))),
            "pirates": list(c.PIRATES), "rounds": c.ROUNDS, "big_island": c.BIG_ISLAND, "step_names": list(PHASE_NAMES),
            "phase_label": _("Phase"), "score_hint": _("VP so far; the final scoring adds gold, goods, tokens and tracks"),
            "picker_groups": translated(PICKER_GROUPS),
            "engine_strength": engine_strength(GAME),
            "notice": _(NOTICE_DEFAULT if catalog.custom is None else NOTICE_CUSTOM),
        }

    def explorer_choice(self, stage: str, choice: str) -> str | None:
        """An action chosen: a colour of the action field with its action ("blue: sailing"), the white special action,
        gold instead of an action, or scoring the cubes with PT21 (:mod:`engine.amerigo.explore`)."""
        if choice in c.COLOURS:
            colour = c.COLOURS.index(choice)
            return _("%(colour)s: %(action)s", colour=term(GAME, "colour", choice),
                     action=term(GAME, "action", ACTION_NAMES[colour]))
        if choice == "special":
            return term(GAME, "action", "special action")
        if choice == "gold":
            return term(GAME, "component", "gold")
        return _("score cubes") if choice == "score cubes" else None

    def _group_of(self, state: State) -> tuple[int, str]:
        if state.round == 0:
            return 1, _("Setup")
        if state.phase in PREPARATION_STEPS:
            return state.round, _("Preparation")
        return state.round, phase_name(state.colour)

    def marks(self, state: State, action: Any) -> dict[str, Any]:
        """The round and the phase the move belongs to; the first move of each opens a group (a jump-to entry)."""
        group = self._group_of(state)
        pick = group != self._group
        self._group = group
        marks: dict[str, Any] = {"round": group[0], "phase": group[1], "pick": pick}
        if action[0] in ("tower", "stray"):
            # One throw of the cube tower is seven (or more) chance events: the move list shows them as one throw.
            marks["throw"] = throw_words(action)
            if action[0] == "tower":
                marks["throw_part"] = action[1]  # a colour seen again starts the next throw
        return marks

    def position(self, state: State, names: tuple[str, ...]) -> dict[str, Any]:
        """Round, phase, AP and the action under way, for the caption above the board."""
        step = state.phase
        info: dict[str, Any] = {"caption": list(caption_message(state)), "round": state.round, "step": PHASE_NAMES[step],
                                "phase": state.colour}
        if state.board is not None or step == LAYOUT:
            info["time"] = scoring.time_value(state)
        return info

    def scores(self, state: State) -> list[int]:
        """VP so far (after the final scoring: the final score)."""
        return [p.vp for p in state.players]

    def result_labels(self) -> dict[str, str]:
        """The breakdown's columns: VP before the final scoring, then each final scoring step."""
        return {"before final scoring": _("VP before the end"), "gold": term(GAME, "component", "gold"),
                "goods": _("goods"), "end tokens": _("end-game tokens"),
                "progress track": term(GAME, "component", "progress track"),
                "special-action track": term(GAME, "component", "special-action track")}

    def tiebreak_words(self, tiebreak: int, n_players: int) -> str:
        """The engine's tie-break counts down the final player order (the first player scores ``n``)."""
        return _("%(place)s in player order", place=ordinal(n_players - tiebreak + 1))


ADAPTER = AmerigoAdapter
