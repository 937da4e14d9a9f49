"""Engine seats metered and fair (issue 45, item 5), through real ``ludolog worker`` processes on the real Redis.

* The table's owner pays for its engine seats' thinking, from the work quota analysis is charged to: the person whose
  move handed the turn to the engine pays nothing; beyond the quota the seat waits, and the seats view says why and for
  how long (``retry_after``), while the move waits in RQ's scheduled registry for that time.
* Engine moves wait for their owner's turn: one owner's many tables take every other move when another owner's seat
  waits, not every move before it (in arrival order the other owner's first move came after all of the first's); and
  a long move lends its worker, between two playouts, to another owner's shorter move waiting with none running.
"""

from __future__ import annotations

import time

import pytest

from engine import CHANCE
from ludolog.app import create_app
from service.games.play import PlayService
from service.jobs import EngineMoveScheduler, FoldScheduler, after_append, engine_queue, job_queue
from service.runtime.config import Config
from service.store.context import Stores
from service.store.games import MAIN
from service.store.seats import Seat
from service.store.users import UserStore
from tests.helpers import wait_until
from workers.engine_seat import ENGINE_AUTHOR

#: Work one easy engine move costs (its playouts: service.games.seating.LEVELS).
EASY = 16
#: Pig to this target: a normal engine move searches 64 long playouts (tens of seconds).
SLOW_TARGET = 20_000


@pytest.fixture
def config(redis_server) -> Config:
    return Config(redis_url=redis_server.url, queue_redis_url=None, secret_key="test-secret", queue_name="ludolog")


@pytest.fixture
def stores(config, redis_client) -> Stores:
    return Stores(config)


def _play(stores: Stores) -> PlayService:
    return PlayService(stores.games, stores.reader, on_append=after_append(
        FoldScheduler(stores.folds, job_queue(stores)), EngineMoveScheduler(stores, engine_queue(stores))))


def _actor(stores: Stores, gid: str, seq: int | None = None) -> object:
    position = stores.reader.position(gid, MAIN, seq)
    return position.rules.current_actor(position.state)


def _table(stores: Stores, owner: str, mover: str | None = None, *, level: str = "easy", target: int = 100) -> str:
    """A Pig game of ``owner``'s whose seat 1 is the engine's (at ``level``) and seat 0 ``mover``'s (the owner's if None);
    seat 0 plays its turn, so that the engine is to move (its move is handed to the engine queue's turns).

    Seat 0's turn is followed at the seq of its own last move, never at the branch's head: with a worker running, the
    engine may answer at once and hand the turn back before the next look (the head then is the engine's, and a move
    at it would be seat 0's second turn, or a stale write racing the engine's)."""
    play = _play(stores)
    record, head = play.create_game("pig", ["Anna", "Engine"], owner=owner, seed=f"turns-{owner}-{time.time_ns()}",
                                    options={"target": target})
    if mover is not None:
        _, token = stores.seats.invite(record.id, MAIN, 0)
        stores.seats.redeem(token, mover, owner=owner)
    stores.seats.assign(record.id, MAIN, Seat(1, "engine", level=level))
    while _actor(stores, record.id, head) == 0:
        position = stores.reader.position(record.id, MAIN, head)
        legal = [position.rules.format_action(a) for a in position.rules.legal_actions(position.state)]
        head = play.play(record.id, MAIN, "hold" if "hold" in legal else legal[0], head, author=mover or owner)[-1].seq
    assert _actor(stores, record.id, head) == 1
    return record.id


def _first_engine_move_time(stores: Stores, gid: str) -> float | None:
    mine = [e for e in stores.games.events(gid, MAIN) if e.actor != CHANCE and e.meta.get("author") == ENGINE_AUTHOR]
    return float(mine[0].meta["time"]) if mine else None


def test_two_owners_engine_moves_take_turns_rather_than_arrival_order(stores: Stores, workers) -> None:
    """Alice's three tables ask first, Bob's one after: Bob's first move comes second, not fourth."""
    alices = [_table(stores, "alice") for _ in range(3)]
    bobs = _table(stores, "bob")
    queue = engine_queue(stores)
    assert queue.count == 1, "one move in RQ (as many as workers listen, at least one); the others wait their turn"
    workers()
    wait_until(lambda: all(_first_engine_move_time(stores, gid) for gid in [*alices, bobs]), "every table's engine move")
    order = sorted([*alices, bobs], key=lambda gid: _first_engine_move_time(stores, gid))
    assert order.index(bobs) == 1, f"bob's first engine move came {order.index(bobs) + 1}th of 4"


def test_the_tables_owner_pays_for_its_engine_and_beyond_the_quota_the_seat_waits_saying_why(
        config: Config, stores: Stores, workers) -> None:
    UserStore(stores.redis).add("bob")
    paid = _table(stores, "alice", mover="bob")  # bob's move hands the turn to alice's engine: alice pays
    workers(LUDOLOG_ANALYSIS_WORK_PER_HOUR=str(EASY + EASY // 2))
    wait_until(lambda: _first_engine_move_time(stores, paid), "the engine's first move, paid by alice")
    assert stores.analysis_quota.used("alice") >= EASY and stores.analysis_quota.used("bob") == 0
    used = stores.analysis_quota.used("alice")

    waiting = _table(stores, "alice")  # her quota cannot pay for another move this hour
    note = wait_until(lambda: stores.seats.engine_quota_wait(waiting, MAIN), "the refusal noted on the table")
    assert note["owner"] == "alice" and note["asked"] == EASY
    assert _first_engine_move_time(stores, waiting) is None, "the seat waits: no move without the quota"
    assert stores.analysis_quota.used("alice") == used, "a refused move costs nothing"
    queue = engine_queue(stores)

    def put_off() -> list[str]:
        scheduled = [queue.fetch_job(job_id) for job_id in queue.scheduled_job_registry.get_job_ids()]
        return [job.args[0] for job in scheduled if job is not None and job.args[0] == waiting]

    assert wait_until(put_off, "the move put off until enough frees up") == [waiting]

    app = create_app(config)
    seats = app.test_client().get(f"/api/games/{waiting}/branches/{MAIN}/seats").get_json()["seats"]
    wait = seats[1]["waits_for_quota"]
    assert wait["reason"] == "work_quota_used" and 3000 < wait["retry_after"] <= 3600, wait
    assert "the engine waits" in wait["message"] and "waits_for_quota" not in seats[0]
    page = app.test_client().get(f"/games/{waiting}/b/{MAIN}").get_data(as_text=True)
    assert "the engine waits: the table&#39;s owner has used their hour" in page, "the branch page says why too"

    others = _table(stores, "carol")  # another owner's engine is not held back by alice's quota
    wait_until(lambda: _first_engine_move_time(stores, others), "carol's engine move")


def test_a_long_engine_move_lends_its_worker_to_another_owners_shorter_move(stores: Stores, workers) -> None:
    """One worker, busy with alice's normal move (64 long playouts): bob's easy move is played before that move ends."""
    slow = _table(stores, "alice", level="normal", target=SLOW_TARGET)
    queue = engine_queue(stores)
    workers()
    wait_until(lambda: queue.started_job_registry.count, "alice's long move started")
    quick = _table(stores, "bob")
    wait_until(lambda: _first_engine_move_time(stores, quick), "bob's easy move")
    assert _first_engine_move_time(stores, slow) is None, "played while alice's long move was still searching"
    assert queue.started_job_registry.count == 1
    wait_until(lambda: _first_engine_move_time(stores, slow), "alice's long move, after all")
