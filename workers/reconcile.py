"""The reconciler: make every branch's snapshots true again.

Runs when a worker starts and as ``ludolog reconcile``. It records a game's result when main's head has ended
the game and the record does not say so (a crash between the append and the result's write), and puts a game
missing from a listing index back (``ludolog reindex`` does that for all games at once). For each branch it drops
snapshots made by another rules version and folds any branch whose snapshots stop
short of its head (a lost job, a worker killed mid-fold, a new rules version).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine import get_rules
from service.store.games import MAIN, GameRecord, GameStore
from service.store.results import GameResult, log_only_result, result_of
from service.store.snapshots import SnapshotStore, StateReader
from service.store.snapshotting import snapshot_seqs
from workers.fold import fold_snapshots

Progress = Callable[[int, int], None]


@dataclass
class ReconcileReport:
    """What the reconciler did."""

    branches: int = 0
    rebuilt: list[tuple[str, str]] = field(default_factory=list)
    dropped_snapshots: int = 0
    log_only: int = 0
    #: Games that were missing from one of their listing indexes (put back).
    reindexed: list[str] = field(default_factory=list)
    #: Games whose main line had ended without the record saying so (result recorded).
    results: list[str] = field(default_factory=list)


def reconcile(games: GameStore, snapshots: SnapshotStore, every: int, progress: Progress | None = None) -> ReconcileReport:
    """Check and repair the snapshots of every branch of every game."""
    report = ReconcileReport()
    gids = games.game_ids(limit=10**9)
    for done, gid in enumerate(gids, start=1):
        record = games.game(gid)
        if record.is_log_only:
            report.log_only += 1
        else:
            _reconcile_snapshots(games, snapshots, gid, get_rules(record.game).version, every, report)
        result = _main_result(games, snapshots, record)
        if result is not None and result != record.result:  # main ended and the record missed it: a crash between
            games.record_result(gid, result)
            report.results.append(gid)
            record = games.game(gid)
        if games.index.missing(record) or games.index.misplaced(record):  # a lost index write, or indexes never built
            games.index_game(gid, again=True)
            report.reindexed.append(gid)
        if progress:
            progress(done, len(gids))
    return report


def _reconcile_snapshots(games: GameStore, snapshots: SnapshotStore, gid: str, version: str, every: int,
                         report: ReconcileReport) -> None:
    for bid, head in games.heads(gid).items():
        report.branches += 1
        report.dropped_snapshots += _drop_other_versions(snapshots, gid, bid, version)
        missing = snapshot_seqs(games.branch(gid, bid).fork_seq, head, every) - set(snapshots.seqs(gid, bid))
        if missing:
            # A gap below the newest snapshot cannot be folded onto it: rebuild the branch's whole set.
            snapshots.delete(gid, bid, snapshots.seqs(gid, bid))
            fold_snapshots(games, snapshots, gid, bid, every)
            report.rebuilt.append((gid, bid))


def _main_result(games: GameStore, snapshots: SnapshotStore, record: GameRecord) -> GameResult | None:
    """The result main's head says the game has (its log's stated result, for a log-only game)."""
    if record.is_log_only:
        return log_only_result(record.extra.get("result"))
    position = StateReader(games, snapshots, cache_size=0).position(record.id, MAIN)  # the head's snapshot: no fold
    return result_of(position.rules, position.state, record.setup.players)


def _drop_other_versions(snapshots: SnapshotStore, gid: str, bid: str, version: str) -> int:
    stale = [s for s in snapshots.seqs(gid, bid) if (snap := snapshots.get(gid, bid, s)) and snap.rules_version != version]
    snapshots.delete(gid, bid, stale)
    return len(stale)
