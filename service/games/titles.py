"""Titles of games as people read them in lists and page headers: game, players, date, BGA table.

Every way a game enters (a live game from the web or the API, an import of a BGA log, of our own
export, of pasted text) names it here, so that no game is called by its id, "BGA table 1" or
"movetext". A title is a label, never parsed: the fields it shows are stored on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from engine import get_rules, registered_games
from engine.bga.mapping import game_for_bga_name

#: How the short names of BGA games we have no rules for read, where capitalising is not enough (a game of ours
#: is read by its rules' ``title``). Anything else: underscores to spaces, capitalised.
_BGA_ONLY_LABELS = {"gaiaproject": "Gaia Project"}
_MAX_PLAYERS_SHOWN = 5
MAX_TITLE = 200


def game_label(game: str) -> str:
    """``Puerto Rico`` for ``puerto_rico`` or ``puertorico`` (the rules' ``title``); ``Some game`` for ``some_game``."""
    ours = game_for_bga_name(game, registered_games())
    known = get_rules(ours).title if ours is not None else _BGA_ONLY_LABELS.get(game)  # every game declares its title
    if known:
        return known
    words = game.replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else "Unknown game"


def game_title(game: str, players: Sequence[str], *, when: float | None = None, table_id: int | None = None) -> str:
    """``Puerto Rico · Anna, Ben, Cleo · 2026-11-24 · BGA table 123`` (the parts that are known)."""
    parts = [game_label(game)]
    names = [p for p in players if p]
    if names:
        shown = ", ".join(names[:_MAX_PLAYERS_SHOWN])
        parts.append(shown + (f" +{len(names) - _MAX_PLAYERS_SHOWN}" if len(names) > _MAX_PLAYERS_SHOWN else ""))
    if when is not None and when > 0:
        parts.append(datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d"))
    if table_id is not None:
        parts.append(f"BGA table {table_id}")
    return " · ".join(parts)[:MAX_TITLE]
