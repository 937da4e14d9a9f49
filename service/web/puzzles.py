"""Who may see a puzzle (issue 49): the one check every route that serves one goes through, API and page alike.

A puzzle of a public game is anyone's; of a private or unlisted game, its owner's only (everyone else gets the 404 of
an unknown puzzle): :func:`service.web.auth.is_listed_for`, the rule of the game listings, applied when the puzzle is
served, so a game made private later takes its puzzles with it.
"""

from __future__ import annotations

from typing import Any

from service.store.errors import NotFoundError
from service.store.puzzles import PuzzleStore
from service.web.auth import current_user, is_listed_for
from service.web.context import api


def puzzle_store() -> PuzzleStore:
    """The puzzles of this app's store."""
    return PuzzleStore(api().stores.redis)


def may_see_puzzle(puzzle: dict[str, Any], user: str | None) -> bool:
    """True if ``user`` (None: anonymous) may see ``puzzle``: its game exists and is listed for them."""
    games = api().games
    return games.exists(puzzle["gid"]) and is_listed_for(games.game(puzzle["gid"]), user)


def visible_puzzle(pid: str) -> dict[str, Any]:
    """The puzzle if the caller may see it; else NotFoundError, as for an unknown puzzle."""
    puzzle = puzzle_store().get(pid)
    if puzzle is None or not may_see_puzzle(puzzle, current_user()):
        raise NotFoundError(f"no puzzle {pid!r}", puzzle=pid)
    return puzzle
