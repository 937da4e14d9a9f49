"""Limits checked and counted in one step: counts per fixed window, and slots held at once.

Every limit of the service is one of these two, and each check is one Redis script that compares and counts
together. Reading a count, then incrementing it, is two steps: requests arriving together all read the same count
below the limit and all pass (40 sign-ups at once from one address made 14 accounts where 10 an hour were allowed).

* :class:`FixedWindow`: at most ``limit`` units per key in a window that starts at the first unit counted (sign-ins,
  sign-ups). A unit is counted only when it fits; the key's expiry is set by the same script, so a window always
  ends, even when a process dies between two commands.
* :class:`Slots`: at most ``limit`` holders of a key at once (open live streams per address). A holder has a lease
  that it renews while it holds the slot and gives back when it ends; a holder that dies without giving it back
  frees its slot when the lease runs out.

The analysis work quota (:mod:`service.store.quota`) is the third kind, a sliding hour of weighted grants that can
say when a refused request would fit; it is one script too.

Each limit is one key (built in :mod:`service.store.keys`) and each script touches only that key, so a Redis
Cluster may put the keys anywhere. A check of two limits (a sign-in counts against its account and its address)
takes each in turn and gives the first back when the second refuses: between the two steps a count may stand one
too high for a moment, which can only refuse, never let one more through.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import redis

# KEYS: the count. ARGV: limit, window (s), cost. Counts ``cost`` if it fits, sets the window's end when there is
# none (the first unit, or a key left without one). Returns {counted 0/1, count after, milliseconds left}.
_TAKE = """local limit, window, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count + cost > limit then
  local left = redis.call('PTTL', KEYS[1])
  if left < 0 then left = window * 1000 end
  return {0, count, left}
end
count = redis.call('INCRBY', KEYS[1], cost)
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  left = window * 1000
  redis.call('PEXPIRE', KEYS[1], left)
end
return {1, count, left}"""

# KEYS: the count. ARGV: cost. Lowers an existing count, never below zero and never creating a key (which would
# have no expiry).
_GIVE_BACK = """local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 0 then return 0 end
return redis.call('DECRBY', KEYS[1], math.min(count, tonumber(ARGV[1])))"""

# KEYS: the holders (sorted set: holder -> end of its lease). ARGV: now, limit, lease (s), holder. Drops ended leases,
# then adds the holder if a slot is free. Returns {held 0/1, holders after, seconds until the first lease ends}.
_ACQUIRE = """local now, limit, lease = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= limit and not redis.call('ZSCORE', KEYS[1], ARGV[4]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, held, tostring(tonumber(first[2]) - now)}
end
redis.call('ZADD', KEYS[1], now + lease, ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(lease))
return {1, redis.call('ZCARD', KEYS[1]), '0'}"""


@dataclass(frozen=True)
class Verdict:
    """What a limit said to one attempt."""

    granted: bool
    count: int  # the count (or holders) after a granted attempt; as it stands when refused
    limit: int
    retry_after: int  # seconds until the attempt may fit (the window's end, the first lease's end); 0 when granted

    @property
    def refused(self) -> bool:
        """True when the attempt was not counted."""
        return not self.granted


def _seconds(milliseconds: float) -> int:
    """Whole seconds to wait, at least one (``Retry-After`` has no fractions, and 0 would invite a retry at once)."""
    return max(1, math.ceil(milliseconds / 1000))


class _Limit:
    """A limit of ``limit`` on the keys it is handed, on ``client``."""

    def __init__(self, client: redis.Redis, limit: int) -> None:
        self.redis = client
        self.limit = limit


class FixedWindow(_Limit):
    """At most ``limit`` units per key in a window of ``window`` seconds from the first unit counted."""

    def __init__(self, client: redis.Redis, limit: int, window: int) -> None:
        super().__init__(client, limit)
        self.window = window
        self._take = client.register_script(_TAKE)
        self._give_back = client.register_script(_GIVE_BACK)

    def take(self, key: str, cost: int = 1) -> Verdict:
        """Count ``cost`` units against ``key`` if they fit in its window, else count nothing; one atomic step."""
        counted, count, left = self._take(keys=[key], args=[self.limit, self.window, cost])
        return Verdict(bool(counted), int(count), self.limit, 0 if counted else _seconds(int(left)))

    def give_back(self, key: str, cost: int = 1) -> None:
        """Uncount ``cost`` units taken in the current window (the attempt turned out not to count)."""
        self._give_back(keys=[key], args=[cost])

    def clear(self, key: str) -> None:
        """Forget the key's window: its count starts again from zero."""
        self.redis.delete(key)


class Slots(_Limit):
    """At most ``limit`` holders of a key at once, each holding its slot on a lease of ``lease`` seconds."""

    def __init__(self, client: redis.Redis, limit: int, lease: float) -> None:
        super().__init__(client, limit)
        self.lease = lease
        self._acquire = client.register_script(_ACQUIRE)

    def acquire(self, key: str, holder: str, now: float | None = None) -> Verdict:
        """Give ``holder`` a slot of ``key`` if one is free (or renew the one it holds); one atomic step."""
        now = time.time() if now is None else now
        held, count, wait = self._acquire(keys=[key], args=[repr(now), self.limit, self.lease, holder])
        return Verdict(bool(held), int(count), self.limit, 0 if held else _seconds(float(wait) * 1000))

    def renew(self, key: str, holder: str, now: float | None = None) -> None:
        """Extend the lease of a slot ``holder`` holds (a holder whose lease ran out is not brought back)."""
        now = time.time() if now is None else now
        self.redis.zadd(key, {holder: now + self.lease}, xx=True)
        self.redis.expire(key, math.ceil(self.lease))

    def release(self, key: str, holder: str) -> None:
        """Give the slot back."""
        self.redis.zrem(key, holder)
