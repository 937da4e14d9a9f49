"""The limit primitives of :mod:`service.store.limits` on the real Redis: each checked and counted in one step."""

from __future__ import annotations

import redis

from service.store.limits import FixedWindow, Slots
from tests.service.api.test_throttle_races import at_once

THREADS = 40


def test_a_fixed_window_counts_only_what_fits_and_says_when_it_ends(redis_client: redis.Redis) -> None:
    window = FixedWindow(redis_client, limit=3, window=600)
    verdicts = [window.take("k") for _ in range(4)]
    assert [v.granted for v in verdicts] == [True, True, True, False]
    assert verdicts[-1].count == 3 and 590 <= verdicts[-1].retry_after <= 600
    assert 590 <= redis_client.ttl("k") <= 600, "the window's end is set with the first unit"
    assert int(redis_client.get("k")) == 3, "a refused attempt is not counted"
    window.give_back("k")
    assert window.take("k").granted and window.take("k").refused
    assert window.take("k", cost=0).granted
    assert not window.take("other", cost=4).granted and redis_client.get("other") is None


def test_giving_back_never_goes_below_zero_nor_makes_a_key(redis_client: redis.Redis) -> None:
    window = FixedWindow(redis_client, limit=3, window=600)
    window.give_back("k")
    assert redis_client.get("k") is None
    window.take("k")
    window.give_back("k", cost=5)
    assert int(redis_client.get("k")) == 0


def test_a_key_left_without_an_expiry_gets_one(redis_client: redis.Redis) -> None:
    redis_client.set("k", 1)
    assert FixedWindow(redis_client, limit=3, window=600).take("k").granted
    assert 590 <= redis_client.ttl("k") <= 600


def test_forty_takes_at_once_count_exactly_the_limit(redis_client: redis.Redis) -> None:
    window = FixedWindow(redis.Redis(connection_pool=redis_client.connection_pool), limit=10, window=600)
    verdicts = at_once(THREADS, lambda i: None, lambda i, _: window.take("burst"))
    assert sum(v.granted for v in verdicts) == 10 and int(redis_client.get("burst")) == 10


def test_slots_hold_at_most_the_limit_at_once_and_free_on_release_or_lease_end(redis_client: redis.Redis) -> None:
    slots = Slots(redis_client, limit=5, lease=30)
    verdicts = at_once(THREADS, lambda i: None, lambda i, _: slots.acquire("streams", f"h{i}", now=1000.0))
    held = [i for i, v in enumerate(verdicts) if v.granted]
    assert len(held) == 5
    refused = next(v for v in verdicts if v.refused)
    assert refused.retry_after == 30 and refused.count == 5
    assert slots.acquire("streams", f"h{held[0]}", now=1001.0).granted, "a holder renews its own slot"
    slots.release("streams", f"h{held[1]}")
    assert slots.acquire("streams", "late", now=1002.0).granted
    assert slots.acquire("streams", "later", now=1002.0).refused
    assert slots.acquire("streams", "after-the-leases", now=1032.0).granted, "leases not renewed ran out"
    slots.renew("streams", "after-the-leases", now=1040.0)
    assert redis_client.zscore("streams", "after-the-leases") == 1070.0
