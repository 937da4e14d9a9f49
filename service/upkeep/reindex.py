"""``ludolog reindex``: rebuild the listing indexes from the games, resumably.

Walks the game listing (``keys.games_index``) in creation order a batch at a time and puts every game in its
indexes again (ZADD is idempotent, so a game already indexed costs nothing but the call). After each batch the
creation-order score reached is stored (``service.store.walks.ListingWalk``): a reindex that is stopped resumes there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.store.errors import NotFoundError
from service.store.games import GameStore
from service.store.walks import ListingWalk

#: Called after each batch with (games done, games in all).
Progress = Callable[[int, int], None]
BATCH = 500


@dataclass
class ReindexReport:
    """What a reindex did."""

    games: int = 0
    resumed_after: float = 0.0


def reindex(games: GameStore, *, restart: bool = False, progress: Progress | None = None,
            batch: int = BATCH, stop_after: int | None = None) -> ReindexReport:
    """Put every listed game in its indexes, from where the last run stopped (``restart``: from the first game).

    ``stop_after`` stops after that many batches (a test's way to stop a run half way, as a crash would).
    """
    walk = ListingWalk.reindex(games.redis)
    if restart:
        walk.forget()
    start = walk.resume_from()
    report = ReindexReport(resumed_after=start)
    total, done = walk.total(), walk.done_before(start)
    batches = 0
    while rows := walk.batch_after(start, batch):
        for gid, order in rows:
            try:
                games.index.add(games.game(gid), order)
            except NotFoundError:  # listed but gone: nothing to index
                continue
            report.games += 1
        start = rows[-1][1]
        walk.reached(start)
        done += len(rows)
        if progress:
            progress(done, total)
        batches += 1
        if stop_after is not None and batches >= stop_after:
            return report
    walk.forget()
    return report
