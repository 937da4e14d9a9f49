"""``ludolog migrate``: rewrite stored games in the newest, compact encoding, resumably.

Nothing needs it: every reader upcasts older entries (``service/store/encoding.py``). It only gives memory back
(docs/PERFORMANCE.md, issue 19). It walks the game listing (``keys.games_index``) in creation order and has
``service/store/compaction.Compactor`` rewrite each branch's stream and snapshots, each branch atomically against
appends. After each game the creation-order score reached is stored (``service.store.walks.ListingWalk``), so a stopped run
resumes there; a game rewritten already is found compact and left alone, so running it again changes nothing.
A dry run reads everything, writes nothing, and says how many bytes it would save.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.store.compaction import Compactor
from service.store.games import GameStore
from service.store.walks import ListingWalk

#: Called after each game with (games done, games in all).
Progress = Callable[[int, int], None]
BATCH = 200


@dataclass
class MigrateReport:
    """What a migration did (or, in a dry run, would do)."""

    games: int = 0
    branches: int = 0
    streams_rewritten: int = 0
    old_entries: int = 0
    entries_before: int = 0
    entries_after: int = 0
    snapshots_rewritten: int = 0
    bytes_saved: int = 0
    appended_meanwhile: int = 0
    resumed_after: float = 0.0


def migrate(games: GameStore, *, dry_run: bool = False, restart: bool = False, progress: Progress | None = None,
            batch: int = BATCH) -> MigrateReport:
    """Rewrite every listed game's branches in the current encoding, from where the last run stopped (``restart``:
    from the first game; ``dry_run``: write nothing, cursor included, and count what it would save)."""
    walk, compactor = ListingWalk.migrate(games.redis), Compactor(games.redis)
    if restart and not dry_run:
        walk.forget()
    start = 0.0 if dry_run or restart else walk.resume_from()
    report = MigrateReport(resumed_after=start)
    total, done = walk.total(), walk.done_before(start)
    while rows := walk.batch_after(start, batch):
        for gid, order in rows:
            _migrate_game(games, compactor, gid, dry_run, report)
            if not dry_run:
                walk.reached(order)
            done += 1
            if progress:
                progress(done, total)
        start = rows[-1][1]
    if not dry_run:
        walk.forget()
    return report


def _migrate_game(games: GameStore, compactor: Compactor, gid: str, dry_run: bool, report: MigrateReport) -> None:
    heads = games.heads(gid)
    if not heads:
        return  # listed but gone
    report.games += 1
    for bid in sorted(heads):
        done = compactor.compact(gid, bid, dry_run=dry_run)
        report.branches += 1
        report.streams_rewritten += done.stream_rewritten
        report.old_entries += done.old_entries
        report.entries_before += done.entries_before
        report.entries_after += done.entries_after
        report.snapshots_rewritten += done.snapshots_rewritten
        report.bytes_saved += done.bytes_saved
        report.appended_meanwhile += done.appended_meanwhile
