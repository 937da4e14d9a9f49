"""Issue 19: games stored in the old encoding (version 1, made by the code of before) read exactly as that code
read them, before and after ``ludolog migrate``; the migration is resumable after a SIGKILL, idempotent, and loses
no append that races it; the reconciler rebuilds old games' snapshots. All on the real embedded Redis."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from engine import Event, Setup, action_event, game_created
from engine.core.protocol import CHANCE
from service.store import keys
from service.store.compaction import Compactor, StreamPlan
from service.store.encoding import PACK_EVENTS, decode_entry, entry_version, pack, packed_entries
from service.store.games import MAIN, GameStore
from service.store.snapshots import SnapshotStore
from service.store.snapshotting import snapshot_version
from service.upkeep.migrate import migrate
from tests.helpers import PATIENCE_SECONDS, ROOT, assert_snapshots_equal_full_folds, ludolog_env, make_pig_game, pig_events
from tests.service.fixtures.v1store import EXPECTED, FIXTURE, expected_readings, load_keys
from workers.reconcile import reconcile

EXPECTED_READINGS = json.loads(EXPECTED.read_text())


def _entry_versions(client) -> set[int]:
    return {entry_version(fields[b"e"]) for key in client.scan_iter(match="ll:g:*:events")
            for _, fields in client.xrange(key)}


def _snapshot_versions(client) -> set[int]:
    return {snapshot_version(raw) for key in client.scan_iter(match="ll:g:*:snaps") for raw in client.hvals(key)}


def _game_keys(client) -> dict:
    """Every key of every game as Redis serialises it (DUMP): equal only if nothing in them changed."""
    return {key: client.dump(key) for key in client.scan_iter(match="ll:g:*")}


# -- the encoding itself --------------------------------------------------------------------------------------

def test_every_kind_of_event_survives_the_compact_encoding():
    setup = Setup(("Anna", "Béla"), {"x": [1, 2]})
    events = [game_created("pig", "1", setup, author="anna", time=1.5),
              action_event(2, 0, "roll", author="anna", time=2.25),
              action_event(3, CHANCE, "die 3", author="server", time=2.5),
              action_event(4, CHANCE, "die 5", author="server", time=2.5),  # the same meta as the one before
              action_event(5, 1, "hold"),
              action_event(6, 1, "hold", time=3.0, author="béla"),  # live play's names in another order
              action_event(7, None, "move 7", move_id=7, lines=["Anna — \"hi\"\nthere"]),
              Event(8, "action_taken", "chance", "odd: chance's actor, another type"),
              Event(9, "chance_drawn", 0, "odd: a seat drawing chance"),
              Event(10, "action_taken", 1, None, v=2, meta={"0": 0})]
    for count in (1, 2, 3, len(events)):  # however the events are cut into appends
        decoded = [event for i in range(0, len(events), count) for entry_id, value in packed_entries(events[i:i + count])
                   for event in decode_entry(entry_id.encode(), {b"e": value.encode()})]
        assert decoded == events, count
        assert [list(e.meta) for e in decoded] == [list(e.meta) for e in events], "meta keys keep their order"
    assert len(pack([action_event(n, 0, "x") for n in range(2, 2 + 3 * PACK_EVENTS)])) == 3


def test_reads_by_seq_find_events_inside_packed_entries(redis_client):
    games = GameStore(redis_client)
    gid = make_pig_game(games, 100)  # one append: packed entries of up to PACK_EVENTS events
    stream = keys.events_for(gid, MAIN)
    assert redis_client.xlen(stream) < 10
    every = games.events(gid, MAIN)
    assert [e.seq for e in every] == list(range(1, 102))
    for after, upto in ((0, 1), (1, 2), (5, 6), (5, 40), (31, 33), (32, 64), (99, 101), (100, 101)):
        assert [e.seq for e in games.events_between(gid, MAIN, after, upto)] == list(range(after + 1, upto + 1))
    for after, limit in ((0, 1), (3, 5), (30, 40), (90, 50)):
        assert [e.seq for e in games.events(gid, MAIN, after=after, limit=limit)] == list(range(after + 1, min(101, after + limit) + 1))
    assert [e.seq for e in games.iter_events(gid, MAIN, after=10, upto=80, page=1)] == list(range(11, 81))
    fork = games.fork(gid, MAIN, 45, owner="ann")  # a fork point inside an entry of its parent
    games.append(gid, fork.id, [action_event(46, 0, "hold")], 45)
    forked = games.events(gid, fork.id)
    assert [e.seq for e in forked] == list(range(1, 47)) and forked[:45] == every[:45] and forked[45].action == "hold"
    assert games.first_event(gid).type == "game_created"


# -- the version-1 fixture ------------------------------------------------------------------------------------

def test_games_stored_in_version_1_read_as_the_old_code_read_them(redis_client):
    gids = load_keys(redis_client)
    assert _entry_versions(redis_client) == {1} and _snapshot_versions(redis_client) == {1}
    assert expected_readings(redis_client, gids) == EXPECTED_READINGS


def test_after_migrate_they_read_the_same_from_compact_entries_and_a_second_run_changes_nothing(redis_client):
    gids = load_keys(redis_client)
    before = sum(redis_client.memory_usage(k, samples=0) for k in redis_client.scan_iter(match="ll:g:*"))
    dry = migrate(GameStore(redis_client), dry_run=True)
    assert _entry_versions(redis_client) == {1}, "a dry run writes nothing"
    report = migrate(GameStore(redis_client))
    assert report.streams_rewritten == dry.streams_rewritten == 6 and report.old_entries == dry.old_entries == 174
    assert report.bytes_saved == dry.bytes_saved > 0 and report.snapshots_rewritten == dry.snapshots_rewritten > 0
    assert _entry_versions(redis_client) == {2} and _snapshot_versions(redis_client) == {2}
    after = sum(redis_client.memory_usage(k, samples=0) for k in redis_client.scan_iter(match="ll:g:*"))
    assert after < before * 0.7
    assert expected_readings(redis_client, gids) == EXPECTED_READINGS
    stored = _game_keys(redis_client)
    again = migrate(GameStore(redis_client))
    assert (again.streams_rewritten, again.snapshots_rewritten, again.bytes_saved) == (0, 0, 0)
    assert _game_keys(redis_client) == stored
    assert redis_client.get(keys.migrate_cursor()) is None


@pytest.mark.parametrize("migrated", [False, True])
def test_the_reconciler_rebuilds_the_snapshots_of_old_games(redis_client, migrated):
    gids = load_keys(redis_client)
    games, snapshots = GameStore(redis_client), SnapshotStore(redis_client)
    if migrated:
        migrate(games)
    for key in list(redis_client.scan_iter(match="ll:g:*:snap*")):
        redis_client.delete(key)
    report = reconcile(games, snapshots, 20)
    assert len(report.rebuilt) == 5  # every branch of a game with rules (the log-only game has no states)
    for gid in gids:
        for bid in games.heads(gid):
            if games.game(gid).is_log_only:
                continue
            assert assert_snapshots_equal_full_folds(games, snapshots, gid, bid) > 0
    assert _snapshot_versions(redis_client) == {2}
    assert expected_readings(redis_client, gids) == EXPECTED_READINGS


# -- migrate under faults and races ---------------------------------------------------------------------------

def _many_old_games(client, copies: int) -> dict[str, str]:
    """The fixture's games under ``copies`` more ids each (as stored, version 1); returns copy id → original id."""
    data = json.loads(FIXTURE.read_text())
    originals = [m for m, _ in data["ll:games"]["value"]]
    load_keys(client)
    copied: dict[str, str] = {}
    with client.pipeline(transaction=False) as pipe:
        for n in range(copies):
            for gid in originals:
                new = f"c{n}x{gid}"
                copied[new] = gid
                for key, item in data.items():
                    if not key.startswith(f"ll:g:{{{gid}}}:"):
                        continue
                    target = key.replace(f"{{{gid}}}", f"{{{new}}}")
                    if item["type"] == "stream":
                        for entry_id, fields in item["value"]:
                            pipe.xadd(target, dict(fields), id=entry_id)
                    elif item["type"] == "hash":
                        pipe.hset(target, mapping=item["value"] if not key.endswith(":meta") else {**item["value"], "id": new})
                    elif item["type"] == "zset":
                        pipe.zadd(target, dict(item["value"]))
                    else:
                        pipe.set(target, item["value"])
                pipe.zadd(keys.games_index(), {new: 1000 + len(copied)})
        pipe.execute()
    return copied


def test_a_migrate_killed_midway_resumes_and_ends_as_an_unbroken_one(redis_server, redis_client):
    copied = _many_old_games(redis_client, 60)
    env = ludolog_env(redis_server.url)
    child = subprocess.Popen([sys.executable, "-m", "ludolog.cli", "migrate"], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + PATIENCE_SECONDS
    while redis_client.get(keys.migrate_cursor()) is None and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    cursor = redis_client.get(keys.migrate_cursor())
    assert cursor is not None, "killed before or after its run: the test proves nothing"
    assert 1 in _entry_versions(redis_client) and 2 in _entry_versions(redis_client), "killed half way"
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "migrate"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=PATIENCE_SECONDS)
    assert done.returncode == 0, done.stderr
    assert "resumed after game" in done.stdout and "migrating games" in done.stderr
    assert _entry_versions(redis_client) == {2} and _snapshot_versions(redis_client) == {2}
    readings = expected_readings(redis_client, list(copied) + list(set(copied.values())))
    for name, reading in readings.items():
        gid, bid = name.split("/")
        assert reading == EXPECTED_READINGS[f"{copied.get(gid, gid)}/{bid}"], name
    dry = subprocess.run([sys.executable, "-m", "ludolog.cli", "migrate", "--dry-run"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=PATIENCE_SECONDS)
    assert dry.returncode == 0 and "would rewrite 0 event streams" in dry.stdout, dry.stdout


class _RacedCompactor(Compactor):
    """A compactor with a second writer that appends between its read of a stream and its rewrite."""

    def __init__(self, client, games: GameStore, gid: str) -> None:
        super().__init__(client)
        self.games, self.gid, self.appended = games, gid, []

    def plan(self, gid: str, bid: str) -> StreamPlan | None:
        plan = super().plan(gid, bid)
        if gid == self.gid and bid == MAIN and not self.appended:
            head = self.games.head(gid, MAIN)
            self.appended = [action_event(head + 1, 0, "roll"), action_event(head + 2, CHANCE, "die 4")]
            self.games.append(gid, MAIN, self.appended, head)
        return plan


def test_an_append_racing_the_rewrite_of_its_stream_is_kept(redis_client):
    games = GameStore(redis_client)
    gid = make_pig_game(games, 40)
    _as_version_1(redis_client, games, gid)
    before = games.events(gid, MAIN)
    compactor = _RacedCompactor(redis_client, games, gid)
    result = compactor.compact(gid, MAIN)
    assert result.stream_rewritten and result.appended_meanwhile == 1
    after = games.events(gid, MAIN)
    assert [e.seq for e in after] == list(range(1, 44)) and after[:41] == before and after[41:] == compactor.appended
    assert games.head(gid, MAIN) == 43
    games.append(gid, MAIN, [action_event(44, 1, "hold")], 43)  # appends go on after the swap
    assert games.events(gid, MAIN)[-1].seq == 44 and games.events(gid, MAIN)[:43] == after


def _as_version_1(client, games: GameStore, gid: str) -> None:
    """Store a branch's events again as the old code did: one JSON object an entry, id ``<seq>-1``."""
    key, events = keys.events_for(gid, MAIN), games.events(gid, MAIN)
    client.delete(key)
    for event in events:
        client.xadd(key, {"e": json.dumps(event.to_json(), separators=(",", ":"))}, id=f"{event.seq}-1")


def test_a_second_writer_racing_a_whole_migration_loses_nothing(redis_client):
    gids = load_keys(redis_client)
    games = GameStore(redis_client)
    gid = make_pig_game(games, 300)
    _as_version_1(redis_client, games, gid)
    more = pig_events(3000)[300:]  # the same game played on
    stop, written = threading.Event(), []

    def writer() -> None:  # appends one event at a time to the stream being migrated, as fast as it can
        head = 301
        for event in more:
            if stop.is_set() and len(written) >= 20:
                return
            head = games.append(gid, MAIN, [event], head).last_seq
            written.append(event)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while len(written) < 5:
            time.sleep(0.001)
        for _ in range(3):
            migrate(games, restart=True)
    finally:
        stop.set()
        thread.join(60)
    stored = games.events(gid, MAIN)
    assert stored[301:] == written and len(stored) == 301 + len(written) == games.head(gid, MAIN)
    assert [e.action for e in stored[1:301]] == [e.action for e in pig_events(300)]
    assert expected_readings(redis_client, gids) == EXPECTED_READINGS
    migrate(games)
    assert games.events(gid, MAIN) == stored and _entry_versions(redis_client) == {2}


def test_the_fold_job_packs_a_finished_game_played_move_by_move(redis_client):
    import random

    from engine import get_rules, random_playout
    from workers.fold import fold_snapshots

    games, snapshots = GameStore(redis_client), SnapshotStore(redis_client)
    setup = Setup(("P0", "P1"), {"target": 30})
    events = random_playout(get_rules("pig"), setup, random.Random(3)).events
    gid = games.create_game("pig", "1", setup, owner="ann").id
    for event in events[1:-1]:  # one append a move, as live play does: an entry each
        games.append(gid, MAIN, [event.with_meta(author="ann", time=1.5)], event.seq - 1)
    fold_snapshots(games, snapshots, gid, MAIN, 20)
    assert redis_client.xlen(keys.events_for(gid, MAIN)) == len(events) - 1, "not finished: left as appended"
    games.append(gid, MAIN, [events[-1]], events[-1].seq - 1)
    before = games.events(gid, MAIN)
    fold_snapshots(games, snapshots, gid, MAIN, 20)
    assert redis_client.xlen(keys.events_for(gid, MAIN)) <= 1 + len(events) // PACK_EVENTS + 1
    assert games.events(gid, MAIN) == before
    assert_snapshots_equal_full_folds(games, snapshots, gid)


class _OvertakenCompactor(Compactor):
    """A compactor overtaken once: between its read and its rewrite, an event is appended and another migration
    packs the stream, so that an entry now straddles the last seq it read."""

    def __init__(self, client, games: GameStore, gid: str) -> None:
        super().__init__(client)
        self.games, self.gid, self.plans = games, gid, 0

    def plan(self, gid: str, bid: str) -> StreamPlan | None:
        plan = super().plan(gid, bid)
        self.plans += 1
        if self.plans == 1:
            head = self.games.head(gid, MAIN)
            self.games.append(gid, MAIN, [action_event(head + 1, 0, "roll")], head)
            assert Compactor(self.redis).compact(gid, MAIN).stream_rewritten
        return plan


def test_a_rewrite_overtaken_by_another_reads_again_and_loses_nothing(redis_client):
    games = GameStore(redis_client)
    gid = make_pig_game(games, 40)
    _as_version_1(redis_client, games, gid)
    before = games.events(gid, MAIN)
    compactor = _OvertakenCompactor(redis_client, games, gid)
    result = compactor.compact(gid, MAIN)
    assert compactor.plans == 2, "the first rewrite was refused (CHANGED) and the stream read again"
    assert not result.stream_rewritten, "the second read found it compact already"
    after = games.events(gid, MAIN)
    assert after[:41] == before and [e.seq for e in after] == list(range(1, 43)) and after[-1].action == "roll"
