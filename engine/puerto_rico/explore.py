"""Puerto Rico's main choices for the explorer: the role each seat chose, by round and by its place in the round's
order (1 = the governor), and the first two buildings each seat built (:mod:`engine.core.played`)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.played import Choice, PlayedMove


def choices(moves: Sequence[PlayedMove]) -> list[Choice]:
    """``(seq, seat, stage, choice)`` of each role chosen and of each seat's first two buildings."""
    built: dict[int, int] = {}
    found: list[Choice] = []
    for move in moves:
        verb, _, rest = move.text.split(" without ")[0].partition(" ")
        if verb == "role":
            place = (move.seat - move.before.governor) % len(move.before.players) + 1
            found.append((move.seq, move.seat, f"round {move.before.round} · place {place}", rest.rstrip("2")))
        elif verb == "build" and built.get(move.seat, 0) < 2:
            built[move.seat] = built.get(move.seat, 0) + 1
            found.append((move.seq, move.seat, f"building {built[move.seat]}", rest))
    return found
