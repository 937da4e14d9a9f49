"""``ludolog reindex`` and the reconciler keep the listing indexes whole, on the real embedded Redis."""

from __future__ import annotations

import subprocess

from engine import Setup
from service.store import keys
from service.store.games import GameStore
from service.store.listing import ListingQuery
from service.store.results import GameResult
from service.store.snapshots import SnapshotStore
from service.upkeep.reindex import reindex
from tests.helpers import PATIENCE_SECONDS, pig_ending_events
from tests.service.serving import LUDOLOG, clean_env
from workers.reconcile import reconcile


def _games(store: GameStore, count: int) -> list[str]:
    return [store.create_game("pig", "1", Setup((f"Player{n}", "Ben")), owner="alice", title=f"Game {n}").id
            for n in range(count)]


def _drop_indexes(client) -> None:
    """Lose every listing index (as after a restore from a dump made before they existed)."""
    for key in list(client.scan_iter(match=f"{keys.PREFIX}:ix:*")):
        client.delete(key)


def _listed(store: GameStore) -> list[str]:
    return store.index.find(ListingQuery(limit=200)).ids


def test_reindex_rebuilds_lost_indexes(redis_client):
    store = GameStore(redis_client)
    made = _games(store, 7)
    _drop_indexes(redis_client)
    assert _listed(store) == []
    report = reindex(store)
    assert report.games == 7
    assert _listed(store) == made[::-1]
    assert store.index.find(ListingQuery(player="player3")).ids == [made[3]]
    assert redis_client.get(keys.reindex_cursor()) is None


def test_a_stopped_reindex_resumes_where_it_was(redis_client):
    store = GameStore(redis_client)
    made = _games(store, 7)
    _drop_indexes(redis_client)
    seen: list[tuple[int, int]] = []
    first = reindex(store, batch=3, stop_after=1, progress=lambda done, total: seen.append((done, total)))
    assert first.games == 3 and seen == [(3, 7)]
    assert _listed(store) == made[:3][::-1]
    second = reindex(store, batch=3, progress=lambda done, total: seen.append((done, total)))
    assert second.games == 4 and second.resumed_after > 0
    assert seen[-1] == (7, 7)
    assert _listed(store) == made[::-1]


def test_the_reconciler_notices_a_game_missing_from_an_index(redis_client):
    store = GameStore(redis_client)
    made = _games(store, 3)
    redis_client.zrem(keys.listing_index_for("player", "player1"), made[1])
    report = reconcile(store, SnapshotStore(redis_client), every=50)
    assert report.reindexed == [made[1]]
    assert store.index.find(ListingQuery(player="player1")).ids == [made[1]]
    assert reconcile(store, SnapshotStore(redis_client), every=50).reindexed == []


def test_ludolog_reindex_command_rebuilds_them(redis_server, redis_client):
    store = GameStore(redis_client)
    made = _games(store, 4)
    _drop_indexes(redis_client)
    done = subprocess.run([LUDOLOG, "reindex"], capture_output=True, text=True, timeout=PATIENCE_SECONDS,
                          env=clean_env(LUDOLOG_REDIS_URL=redis_server.url))
    assert done.returncode == 0, done.stderr
    assert "reindexed 4 games" in done.stdout
    assert _listed(store) == made[::-1]


def _finished_game(store: GameStore, winner: str = "Zoé") -> str:
    gid = store.create_game("pig", "1", Setup((winner, "Ben"), {"target": 1}), owner="alice").id
    store.append(gid, "main", pig_ending_events(), 1, ends=GameResult((winner,)))
    return gid


def test_reindex_rebuilds_the_result_indexes_and_takes_a_game_out_of_the_wrong_one(redis_client):
    store = GameStore(redis_client)
    going_on = _games(store, 2)
    finished = _finished_game(store)
    _drop_indexes(redis_client)
    redis_client.zadd(keys.listing_index_for("result", "unfinished"), {finished: 1})  # a stale entry
    reindex(store)
    assert store.index.find(ListingQuery(result="finished")).ids == [finished]
    assert store.index.find(ListingQuery(result="unfinished")).ids == going_on[::-1]
    assert store.index.find(ListingQuery(winner="zoe")).ids == [finished]


def test_the_reconciler_records_a_result_a_crash_lost(redis_client):
    """The append that ended main was stored, and the process died before the result's write (as an append
    without ``ends``): the reconciler reads main's head state and records it."""
    store = GameStore(redis_client)
    gid = store.create_game("pig", "1", Setup(("Zoé", "Ben"), {"target": 1}), owner="alice").id
    store.append(gid, "main", pig_ending_events(), 1)
    assert store.index.find(ListingQuery(result="finished")).ids == []
    report = reconcile(store, SnapshotStore(redis_client), every=50)
    assert report.results == [gid]
    assert store.game(gid).result == GameResult(("Zoé",))
    assert store.index.find(ListingQuery(result="finished", winner="zo")).ids == [gid]
    assert store.index.find(ListingQuery(result="unfinished")).ids == []
    again = reconcile(store, SnapshotStore(redis_client), every=50)
    assert again.results == [] and again.reindexed == []


def test_the_reconciler_takes_a_finished_game_out_of_the_unfinished_index(redis_client):
    store = GameStore(redis_client)
    gid = _finished_game(store)
    redis_client.zadd(keys.listing_index_for("result", "unfinished"), {gid: 1})
    assert reconcile(store, SnapshotStore(redis_client), every=50).reindexed == [gid]
    assert store.index.find(ListingQuery(result="unfinished")).ids == []
    assert store.index.misplaced(store.game(gid)) == []
