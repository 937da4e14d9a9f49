"""Engine seats (issue 33 item 1): the engine moves by itself when its seat is to move, through a real ``ludolog
worker`` on the engine queue; a worker SIGKILLed while the engine thinks delays the move but never loses or
doubles it (the worker's upkeep queues it again, and the expected-seq append refuses a second copy)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from engine import CHANCE
from service.games.play import PlayService
from service.jobs import EngineMoveScheduler, FoldScheduler, after_append, engine_queue, job_queue, worker_queues
from service.runtime.config import Config
from service.store import keys
from service.store.context import Stores
from service.store.engine_status import FAILED, THINKING, WORKER_STOPPED
from service.store.games import MAIN
from service.store.seats import Seat
from tests.helpers import kill_with_work_horses, wait_until
from workers.engine_seat import ENGINE_AUTHOR
from workers.heal import heal_engine_moves

#: Pig to this target: an easy engine move searches 16 playouts of a long game (a few seconds: time to kill it).
SLOW_TARGET = 20_000


@pytest.fixture
def stores(redis_server, redis_client) -> Stores:
    return Stores(Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="test-secret", queue_name="ludolog"))


def _play_service(stores: Stores) -> PlayService:
    return PlayService(stores.games, stores.reader, on_append=after_append(
        FoldScheduler(stores.folds, job_queue(stores)), EngineMoveScheduler(stores, engine_queue(stores))))


def _engine_game(stores: Stores, target: int, owner: str = "alice") -> tuple[str, int]:
    """A Pig game of ``owner``'s whose seat 1 is the engine's (easy), once seat 0 has played its turn: the engine is to
    move. Its head."""
    play = _play_service(stores)
    record, head = play.create_game("pig", ["Anna", "Engine"], owner=owner, seed="engine", options={"target": target})
    stores.seats.assign(record.id, MAIN, Seat(1, "engine", level="easy"))
    while _actor(stores, record.id) == 0:
        position = stores.reader.position(record.id, MAIN)
        legal = [position.rules.format_action(a) for a in position.rules.legal_actions(position.state)]
        head = play.play(record.id, MAIN, "hold" if "hold" in legal else legal[0], head, author="alice")[-1].seq
    assert _actor(stores, record.id) == 1
    return record.id, head


def _actor(stores: Stores, gid: str) -> object:
    position = stores.reader.position(gid, MAIN)
    return position.rules.current_actor(position.state)


def test_workers_take_the_engine_queue_after_the_job_queue_and_before_analysis(stores: Stores) -> None:
    names = [queue.name for queue in worker_queues(stores)]
    assert names == ["ludolog", "ludolog-engine", "ludolog-analysis"]
    assert [q.name for q in worker_queues(stores, analysis=False)] == ["ludolog", "ludolog-engine"]
    assert [q.name for q in worker_queues(stores, others=False)] == ["ludolog-analysis"]


def test_the_engine_plays_its_whole_turn_by_itself(stores: Stores, workers) -> None:
    gid, head = _engine_game(stores, target=100)
    assert engine_queue(stores).count == 1, "the append that handed the turn to the engine queued its move"
    workers()
    wait_until(lambda: _actor(stores, gid) == 0 or _actor(stores, gid) is None, "the engine's turn over")
    mine = [e for e in stores.games.events(stores.games.game(gid).id, MAIN, after=head) if e.actor != CHANCE]
    assert mine and all(e.actor == 1 and e.meta.get("author") == ENGINE_AUTHOR for e in mine)
    wait_until(lambda: not stores.seats.engine_moves_overdue(0, time.time() + 1), "no engine move left due")


def test_a_worker_killed_while_the_engine_thinks_delays_the_move_but_never_loses_or_doubles_it(stores: Stores,
                                                                                                   workers) -> None:
    gid, head = _engine_game(stores, target=SLOW_TARGET)
    queue = engine_queue(stores)
    first = workers()
    wait_until(lambda: queue.started_job_registry.count, "the engine's move started")
    time.sleep(0.5)
    kill_with_work_horses(first)
    assert stores.games.head(gid, MAIN) == head, "killed before it could play (else this test tests nothing)"

    second = workers(LUDOLOG_JOB_DEADLINE="2", LUDOLOG_HEAL_EVERY="1")
    wait_until(lambda: stores.games.head(gid, MAIN) > head, "the engine's move, after the upkeep queued it again")
    time.sleep(8)  # leave time for a second copy (the killed job's retry, another upkeep round) to append
    events = stores.games.events(gid, MAIN, after=head)
    assert events[0].seq == head + 1 and events[0].actor == 1 and events[0].meta.get("author") == ENGINE_AUTHOR
    seqs = [e.seq for e in events]
    assert seqs == list(range(head + 1, head + 1 + len(seqs))), "one move per decision: no seq twice"
    assert stores.redis.exists(keys.idempotency_for(gid, MAIN, ENGINE_AUTHOR, f"engine-move-{head}"))
    assert second.poll() is None


def _children(process) -> set[int]:
    return {int(pid) for pid in open(f"/proc/{process.pid}/task/{process.pid}/children").read().split()}


def test_a_work_horse_killed_while_the_engine_thinks_is_said_at_once_and_the_move_retried(stores: Stores,
                                                                                         workers) -> None:
    """Issue 46 item 4: the pages are told the moment the process searching dies (the worker survives it), and the
    move's retry says it thinks again and plays it."""
    gid, head = _engine_game(stores, target=SLOW_TARGET)
    worker = workers()
    wait_until(lambda: (stores.engine_status.status(gid, MAIN) or {}).get("state") == THINKING, "the engine thinks")
    assert stores.engine_status.status(gid, MAIN)["seq"] == head
    wait_until(lambda: len(_children(worker)) >= 2, "the work horse beside the scheduler")
    horse = max(_children(worker))  # the newest child: the scheduler was forked when the worker started
    os.kill(horse, signal.SIGKILL)
    failed = wait_until(lambda: (s := stores.engine_status.status(gid, MAIN)) and s["state"] == FAILED and s,
                        "the move said to have stopped")
    assert (failed["reason"], failed["retried"], failed["seq"]) == (WORKER_STOPPED, True, head)
    assert stores.games.head(gid, MAIN) == head, "killed before it could play (else this test tests nothing)"
    wait_until(lambda: stores.games.head(gid, MAIN) > head, "the engine's move, retried by RQ")
    wait_until(lambda: stores.engine_status.status(gid, MAIN) is None or stores.engine_status.status(gid, MAIN)["seq"] > head,
               "nothing said of the move once it is stored")
    assert worker.poll() is None


def test_a_lent_move_that_raises_is_said_failed_at_once_while_its_lender_still_searches(stores: Stores,
                                                                                        workers) -> None:
    """One worker searches alice's slow move and lends its process, between two playouts, to carol's waiting move
    (``workers.engine_seat.Lender``), whose append meets a real fault (its stored idempotency record unreadable): no RQ
    callback runs for a lent move, so the lender itself says it failed, at once, rather than leave it "thinking" until
    its lease lapses or its own job comes."""
    slow, slow_head = _engine_game(stores, target=SLOW_TARGET)
    lent, lent_head = _engine_game(stores, target=100, owner="carol")
    assert engine_queue(stores).count == 1, "carol's move waits for a process (her turn), not in RQ's queue"
    stores.redis.set(keys.idempotency_for(lent, MAIN, ENGINE_AUTHOR, f"engine-move-{lent_head}"), "unreadable")
    workers()
    failed = wait_until(lambda: (s := stores.engine_status.status(lent, MAIN)) and s["state"] == FAILED and s,
                        "carol's move said to have failed")
    assert (stores.engine_status.status(slow, MAIN) or {}).get("state") == THINKING, "while alice's move searches"
    assert stores.games.head(slow, MAIN) == slow_head, "alice's move not played yet: her job is still running"
    assert (failed["reason"], failed["retried"], failed["seq"], failed["seat"]) == ("error", True, lent_head, 1)
    assert not stores.redis.zscore(keys.engine_thinking(), f"{lent}/{MAIN}"), "no lease left to lapse"
    assert stores.games.head(lent, MAIN) == lent_head


def test_the_upkeep_queues_again_a_lost_engine_move_and_forgets_a_branch_with_none_to_play(stores: Stores) -> None:
    gid, head = _engine_game(stores, target=100)
    queue = engine_queue(stores)
    queue.empty()  # the job is lost (its queue emptied, as with a lost queue Redis)
    assert heal_engine_moves(stores, deadline=60, now=time.time()) == [], "not overdue yet"
    assert heal_engine_moves(stores, deadline=0, now=time.time() + 1) == [(gid, MAIN)]
    assert queue.count == 1
    stores.seats.assign(gid, MAIN, Seat(1))  # the owner takes the seat back: nothing for the engine to play
    assert heal_engine_moves(stores, deadline=0, now=time.time() + 1) == []
    assert stores.seats.engine_moves_overdue(0, time.time() + 1) == []
