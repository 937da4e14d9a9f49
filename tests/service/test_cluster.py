"""The stores on a real Redis Cluster (3 masters of the embedded redis-server, built with redis-cli).

Every key of a game carries its hash tag, so the append script, the transactions and the
WATCHed annotation changes all run on one node. The listing indexes share one fixed tag of their own.
"""

from __future__ import annotations

import random
import socket
import subprocess
import time

import pytest
import redis

from engine import Setup, action_event
from service.runtime.redis_server import EmbeddedRedis, redis_server_binary
from service.store import keys
from service.store.annotations import AnnotationStore
from service.store.games import MAIN, GameStore, IdempotencyKey
from service.store.listing import ListingQuery
from service.store.quota import AnalysisQuota
from service.store.results import GameResult
from service.store.snapshots import SnapshotStore, StateReader
from service.upkeep.reindex import reindex
from tests.helpers import PATIENCE_SECONDS, pig_ending_events, pig_events
from workers.fold import fold_snapshots
from workers.reconcile import reconcile

#: The slow tier (`make test` runs it, `make check` leaves it out): a three-node Redis Cluster started for the module.
pytestmark = pytest.mark.slow


def cluster_port(taken: set[int]) -> int:
    """A free port whose cluster bus port (+10000) is free and valid too."""
    for port in random.Random().sample(range(20000, 45000), 200):
        if port not in taken and not _in_use(port) and not _in_use(port + 10000):
            taken.add(port)
            return port
    raise RuntimeError("no free port pair for a cluster node")


def _in_use(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def start_node(data_dir, taken: set[int]) -> EmbeddedRedis:
    """A cluster-enabled node; a port taken by another process meanwhile is retried with a new one."""
    for _ in range(5):
        node = EmbeddedRedis(data_dir, cluster_port(taken), extra={"cluster-enabled": "yes",
                             "cluster-config-file": "nodes.conf", "cluster-node-timeout": "2000"})
        try:
            return node.start()
        except RuntimeError:
            node.stop()
    raise RuntimeError("could not start a cluster node on any of 5 ports")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    taken: set[int] = set()
    nodes = [start_node(tmp_path_factory.mktemp(f"node{i}"), taken) for i in range(3)]
    cli = redis_server_binary().parent / "redis-cli"
    subprocess.run([str(cli), "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in nodes), "--cluster-replicas", "0",
                    "--cluster-yes"], check=True, capture_output=True, timeout=PATIENCE_SECONDS)
    client = redis.RedisCluster(host="127.0.0.1", port=nodes[0].port)
    deadline = time.monotonic() + PATIENCE_SECONDS
    while client.cluster_info().get("cluster_state") != "ok" and time.monotonic() < deadline:
        time.sleep(0.1)
    yield client
    client.close()
    for node in nodes:
        node.stop()


def test_games_spread_over_nodes_and_each_stays_on_one(cluster):
    games = GameStore(cluster)
    ids = [games.create_game("pig", "1", Setup(("A", "B")), owner="ann").id for _ in range(12)]
    slots = {cluster.keyslot(f"{{{gid}}}") for gid in ids}
    assert len(slots) > 1
    for gid in ids:
        games.append(gid, MAIN, [action_event(0, "chance", "b1")], 1)
        assert {cluster.keyslot(k) for k in cluster.keys(f"*{{{gid}}}*", target_nodes=redis.RedisCluster.ALL_NODES)} \
            == {cluster.keyslot(f"{{{gid}}}")}


def test_append_fork_snapshots_and_reads_work_on_the_cluster(cluster):
    games, snapshots = GameStore(cluster), SnapshotStore(cluster)
    gid = games.create_game("pig", "1", Setup(("P0", "P1"), {"target": 10**9}), owner="ann").id
    events = pig_events(120)
    games.append(gid, MAIN, events, 1)
    with pytest.raises(Exception, match="stale expected_seq"):
        games.append(gid, MAIN, events[:1], 1)
    assert games.append(gid, MAIN, pig_events(121)[120:], 121, idempotency_key=IdempotencyKey("ann", "k")).last_seq == 122
    fork = games.fork(gid, MAIN, 60, owner="bob")
    assert [e.seq for e in games.events(gid, fork.id)] == list(range(1, 61))
    fold_snapshots(games, snapshots, gid, MAIN, 50)
    reader = StateReader(games, snapshots, cache_size=0)
    assert reader.position(gid, MAIN, 110).seq == 110
    with pytest.raises(Exception, match="exists already"):
        games.create_game("pig", "1", Setup(("A", "B")), owner="eve", gid=gid)


def test_deleting_a_branch_removes_its_analysis_keys_on_every_node_and_the_quota_works(cluster):
    games = GameStore(cluster)
    gid = games.create_game("pig", "1", Setup(("P0", "P1"), {"target": 10**9}), owner="ann").id
    games.append(gid, MAIN, pig_events(20), 1)
    fork = games.fork(gid, MAIN, 10, owner="ann")
    theirs = [keys.analysis_for(gid, fork.id, "1", "s1", rollouts, "full") for rollouts in (20, 200)]
    kept = keys.analysis_for(gid, MAIN, "1", "s1", 20, "full")
    for key in [*theirs, kept]:
        cluster.hset(key, "5", "{}")
    cluster.set(keys.analysis_requested_for(gid, fork.id, 20, "full"), 1)
    games.delete_branch(gid, fork.id)
    left = cluster.keys(f"*{{{gid}}}*analysis*", target_nodes=redis.RedisCluster.ALL_NODES)
    assert [key.decode() for key in left] == [kept], "main's results stay, every key of the fork's is gone"
    quota = AnalysisQuota(cluster, limit=100)
    assert quota.take("ann", 60, now=0.0).granted and quota.take("ann", 60, now=1.0).retry_after == 3599


def test_annotation_changes_are_watched_transactions_on_the_cluster(cluster):
    gid = GameStore(cluster).create_game("pig", "1", Setup(("A", "B")), owner="ann").id
    notes = AnnotationStore(cluster)
    note = notes.add(gid, MAIN, 1, "bob", "hello")
    assert notes.edit(gid, note.id, "bob", text="hi", expected_version=1).version == 2
    assert notes.undo(gid, note.id, "bob").text == "hello"


def test_listing_indexes_share_one_slot_and_answer_on_the_cluster(cluster):
    """The indexes carry one fixed hash tag ({ix}): one slot, so the walk script reads several at once; the game's
    own keys stay on the game's slot, and the index writes follow the game's transaction as a second one."""
    games = GameStore(cluster)
    owner = f"ix{random.randrange(10**9)}"
    ids = [games.create_game("pig", "1", Setup((f"Zoé{n % 2}", "Bén")), owner=owner,
                             visibility="private" if n == 3 else "public", title=f"night {n}").id for n in range(6)]
    index_slots = {cluster.keyslot(k) for k in cluster.keys(f"{keys.PREFIX}:ix:*", target_nodes=redis.RedisCluster.ALL_NODES)}
    assert index_slots == {cluster.keyslot(keys.INDEX_TAG)}
    assert games.index.find(ListingQuery(owner=owner, player="ZOE1", limit=10)).ids == [ids[5], ids[1]]
    assert games.index.find(ListingQuery(owner=owner, user=owner, player="zoe1", limit=10)).ids == [ids[5], ids[3], ids[1]]
    first = games.index.find(ListingQuery(owner=owner, words=("night",), limit=2))
    assert first.ids == [ids[5], ids[4]]
    assert games.index.find(ListingQuery(owner=owner, words=("night",), limit=10, after=first.next)).ids == [ids[2], ids[1], ids[0]]
    games.set_game_fields(ids[5], visibility="private")
    assert games.index.find(ListingQuery(owner=owner, player="zoe1", limit=10)).ids == [ids[1]]


def test_result_filters_on_the_cluster(cluster):
    """A game's end is recorded on its own slot, then moved between the result indexes on the {ix} slot."""
    games = GameStore(cluster)
    owner = f"rs{random.randrange(10**9)}"
    ended = games.create_game("pig", "1", Setup(("Zoé", "Bén"), {"target": 1}), owner=owner).id
    going_on = games.create_game("pig", "1", Setup(("Zoé", "Bén"), {"target": 1}), owner=owner).id
    games.append(ended, MAIN, pig_ending_events(), 1, ends=GameResult(("Zoé",)))
    assert games.index.find(ListingQuery(owner=owner, result="finished")).ids == [ended]
    assert games.index.find(ListingQuery(owner=owner, result="unfinished")).ids == [going_on]
    assert games.index.find(ListingQuery(owner=owner, winner="ZOE", player="ben")).ids == [ended]
    assert games.index.find(ListingQuery(owner=owner, winner="ben")).ids == []
    cluster.zadd(keys.listing_index_for("result", "unfinished"), {ended: 1})  # as a crash between the two steps leaves it
    assert ended in reconcile(games, SnapshotStore(cluster), every=50).reindexed
    assert games.index.find(ListingQuery(owner=owner, result="unfinished")).ids == [going_on]


def test_reconciler_and_reindex_repair_the_indexes_on_the_cluster(cluster):
    games = GameStore(cluster)
    owner = f"rx{random.randrange(10**9)}"
    gid = games.create_game("pig", "1", Setup(("A", "B")), owner=owner).id
    cluster.zrem(keys.listing_index_for("owner", owner), gid)
    assert reconcile(games, SnapshotStore(cluster), every=50).reindexed == [gid]
    cluster.zrem(keys.listing_index_for("owner", owner), gid)
    reindex(games, restart=True)
    assert games.index.find(ListingQuery(owner=owner)).ids == [gid]
