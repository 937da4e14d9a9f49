"""The live hub (service/store/live.py) on the real embedded Redis: one reader hands each new entry of a followed
stream to every follower once, a follower that falls behind is told so (its queue stays bounded), a stream nobody
follows is dropped and the loop ends, and a closed hub ends every subscription."""

from __future__ import annotations

import time

import redis

from engine import Event
from service.store.games import MAIN, GameStore
from service.store.live import LiveHub
from tests.games.pig import PIG
from tests.helpers import PATIENCE_SECONDS, wait_until


def _pig(store: GameStore) -> str:
    from engine.core.protocol import Setup

    return store.create_game("pig", PIG.version, Setup(("Anna", "Ben"), {"target": 30}), owner="alice").id


def _rolls(head: int, count: int) -> list[Event]:
    """``count`` roll/draw events after ``head`` (their checks are the rules', not the hub's: stored as given)."""
    events = []
    for seq in range(head + 1, head + count + 1):
        events.append(Event(seq=seq, type="action_taken", actor=0, action="roll") if seq % 2 == 0 else
                      Event(seq=seq, type="chance_drawn", actor="chance", action="3"))
    return events


def _close(hub: LiveHub) -> None:
    """Close ``hub`` and wait until its loop has ended (before the test's client is closed under it)."""
    hub.close()
    wait_until(lambda: hub._thread is None, "the closed hub's loop to end")


def _take_all(subscription, until_seq: int, timeout: float = PATIENCE_SECONDS) -> list[int]:
    seqs: list[int] = []
    deadline = time.monotonic() + timeout
    while (not seqs or seqs[-1] < until_seq) and time.monotonic() < deadline:
        batches, lagged = subscription.take(0.5)
        assert not lagged
        seqs += [e.seq for batch in batches for e in batch.events]
    return seqs


def test_every_follower_gets_each_new_event_once_and_only_what_came_after_it_subscribed(redis_client: redis.Redis) -> None:
    store = GameStore(redis_client)
    gid = _pig(store)
    store.append(gid, MAIN, _rolls(1, 2), 1)  # before anyone follows: not handed out
    hub = LiveHub(redis_client, block_ms=100)
    followers = [hub.subscribe(hub.branch_stream(gid, MAIN)) for _ in range(3)]
    store.append(gid, MAIN, _rolls(3, 2), 3)
    store.append(gid, MAIN, _rolls(5, 3), 5)
    for follower in followers:
        assert _take_all(follower, 8) == [4, 5, 6, 7, 8]
    assert hub.follower_count() == 3
    for follower in followers:
        hub.unsubscribe(follower)
    assert hub.follower_count() == 0
    wait_until(lambda: hub._thread is None, "the hub's loop to end once nobody follows anything")


def test_a_follower_that_falls_behind_is_told_and_its_queue_stays_bounded(redis_client: redis.Redis) -> None:
    store = GameStore(redis_client)
    gid = _pig(store)
    hub = LiveHub(redis_client, block_ms=100)
    slow = hub.subscribe(hub.branch_stream(gid, MAIN), limit=4)
    head = 1
    for _ in range(4):
        store.append(gid, MAIN, _rolls(head, 2), head)
        head += 2
    wait_until(lambda: slow.lagged, "the follower that fell behind to be told")
    assert slow.lagged and slow.waiting <= 4
    batches, lagged = slow.take(0.1)
    assert lagged, "the follower learns that it must catch up from the store"
    _close(hub)


def test_a_closed_hub_ends_every_subscription_and_refuses_new_ones(redis_client: redis.Redis) -> None:
    store = GameStore(redis_client)
    gid = _pig(store)
    hub = LiveHub(redis_client, block_ms=100)
    open_one = hub.subscribe(hub.branch_stream(gid, MAIN))
    _close(hub)
    assert open_one.ended
    assert hub.subscribe(hub.branch_stream(gid, MAIN)).ended
