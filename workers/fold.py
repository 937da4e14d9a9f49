"""The fold job: bring a branch's snapshots up to its head.

Snapshots are written every K events (``LUDOLOG_SNAPSHOT_EVERY``) and at the head,
tagged with the rules version. The job takes only ids, reads everything else from
the store, and is idempotent: running it twice, or after a crash half way, writes the
same snapshots (a snapshot is a pure function of the events before it).
"""

from __future__ import annotations

import time

from engine.core.protocol import Rules, State
from service.games.explorer import count_game
from service.store.compaction import Compactor, StreamChangedError
from service.store.context import current_stores
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore, StateReader, fold_steps
from service.store.snapshotting import snapshot_seqs


def fold_branch(gid: str, bid: str) -> dict[str, int]:
    """RQ job: fold branch ``bid`` of game ``gid`` into snapshots up to its head."""
    stores = current_stores()
    started = time.time()
    # Clear the pending mark before reading the head: an append that lands while we fold
    # then schedules a new job instead of being missed.
    stores.folds.start(gid, bid)
    result = fold_snapshots(stores.games, stores.snapshots, gid, bid, stores.config.snapshot_every)
    stores.folds.finish(gid, bid, started)
    if bid == MAIN:  # a public game that has just ended joins the explorer's counts (once: the counter knows)
        count_game(stores.games, stores.explorer, gid)
    return result


def fold_snapshots(games: GameStore, snapshots: SnapshotStore, gid: str, bid: str, every: int) -> dict[str, int]:
    """Write the branch's missing snapshots (every ``every`` seqs and at the head)."""
    head = games.head(gid, bid)
    branch = games.branch(gid, bid)
    reader = StateReader(games, snapshots, cache_size=0)
    rules = reader.position(gid, bid, branch.fork_seq or 1).rules
    existing = [s for s in snapshots.seqs(gid, bid) if (snap := snapshots.get(gid, bid, s)) and snap.rules_version == rules.version]
    start = max([s for s in existing if s <= head] or [max(branch.fork_seq, 1)])
    if start == head and head in existing:
        return {"head": head, "written": 0}
    state = reader.position(gid, bid, start).state
    wanted = snapshot_seqs(branch.fork_seq, head, every)
    written, state = _fold_and_write(games, snapshots, rules, state, gid, bid, start, head, wanted)
    stale_heads = [s for s in existing if s not in wanted and s < head]
    snapshots.delete(gid, bid, stale_heads)
    if rules.current_actor(state) is None:
        _pack_finished(games, gid, bid)
    return {"head": head, "written": written}


def _pack_finished(games: GameStore, gid: str, bid: str) -> None:
    """Pack a finished branch's events into few entries, once (issue 19): live play stores a move and the chance
    it causes as one stream entry, and Redis spends about 20 bytes on every entry. Nothing is appended after the
    end; were it, the rewrite keeps it (it is atomic against appends). A branch packed already is left alone."""
    try:
        Compactor(games.redis).compact(gid, bid)
    except StreamChangedError:
        pass  # appends kept coming (not a finished game after all): it stays readable as it is


def _fold_and_write(games: GameStore, snapshots: SnapshotStore, rules: Rules, state: State, gid: str, bid: str,
                    start: int, head: int, wanted: set[int]) -> tuple[int, State]:
    written = 0
    for step in fold_steps(rules, state, games.iter_events(gid, bid, after=start, upto=head)):
        state = step.state
        if step.event.seq in wanted:
            snapshots.put(gid, bid, step.event.seq, rules.version, rules.dump_state(state))
            written += 1
    return written, state
