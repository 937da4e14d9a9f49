"""Puerto Rico's Board Game Arena mapping (found by :mod:`engine.bga.mapping` under the game's name).

By job: :mod:`.lines` reads one log line, :mod:`.infer` turns a log into checked actions
(inferring what the log leaves unsaid), :mod:`.draws` plans the plantation draws a log does
not state, :mod:`.export` writes each event as notifications.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.bga.history import LogNote
from engine.bga.puerto_rico.export import notes_for
from engine.bga.puerto_rico.infer import import_notes

#: The game's name on Board Game Arena.
BGA_NAME = "puertorico"
#: The arguments only Puerto Rico's notifications carry (a role choice's ``rol_type``), named so that a page
#: can tell the game without running Python (the bookmarklet's receiving tab).
MARKS: tuple[str, ...] = ("rol_type",)


def recognises(args: Mapping[str, Any]) -> bool:
    """True for a notification only Puerto Rico logs carry: a role choice with BGA's ``rol_type``."""
    return any(mark in args for mark in MARKS)


def seat_order(players: Sequence[tuple[int, str]], notes: Sequence[LogNote]) -> list[tuple[int, str]]:
    """(BGA id, name) in seat order. Seat 0 is the first governor: the first to choose a role."""
    first = next((n for n in notes if "rol_type" in n.args and not n.private), None)
    pid = first.args.get("player_id") if first is not None else None
    ids = [p for p, _ in players]
    try:
        at = ids.index(int(pid)) if pid is not None else 0
    except (TypeError, ValueError):
        at = 0
    return list(players[at:]) + list(players[:at])


__all__ = ["BGA_NAME", "MARKS", "import_notes", "notes_for", "recognises", "seat_order"]
