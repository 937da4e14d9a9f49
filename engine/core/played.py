"""A finished game's moves as the tools that read its main choices see them (the explorer), and the staging most
games use: each game reads its own choices from its own notation (its package's ``explore`` module, offered by its
:class:`~engine.core.declaration.Declaration`), so the tools that serve every game name none."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

#: The stages of a game that is staged by thirds of its moves.
STAGES = ("early", "middle", "late")
#: One choice read from a game: ``(seq, seat, stage, choice)``.
Choice: TypeAlias = tuple[int, int, str, str]


@dataclass(frozen=True)
class PlayedMove:
    """One action of a seat in a finished game: its seq, the state before it, the seat and the action's notation."""

    seq: int
    before: Any
    seat: int
    text: str


def stage_of(index: int, total: int) -> str:
    """``early``, ``middle`` or ``late``: the third of a game of ``total`` moves (or events) that ``index`` falls in."""
    return STAGES[min(2, 3 * index // max(1, total))]


def by_thirds(read: Callable[[str], str | None]) -> Callable[[Sequence[PlayedMove]], list[Choice]]:
    """A reader of the choices ``read`` finds in a move's notation, staged by the third of the game's moves they
    fall in (early, middle, late)."""
    def choices(moves: Sequence[PlayedMove]) -> list[Choice]:
        found: list[Choice] = []
        for index, move in enumerate(moves):
            choice = read(move.text)
            if choice is not None:
                found.append((move.seq, move.seat, stage_of(index, len(moves)), choice))
        return found
    return choices
