"""Analysis jobs waiting for their turn, per user, fed to the analysis queue in rotation (fair share); engine seats'
moves the same way, per owner of the table (:class:`EngineTurns`).

An analysis request is split into many jobs (one per range of decisions). Queued straight into RQ,
one user's request of a long game would sit in front of every later request of anyone else, and a
few requests could hold every worker for an hour. Instead the jobs wait here, in one list per user,
and a *ring* of the users who have jobs waiting says whose turn is next. The feeder
(:func:`service.jobs.feed_analysis`) keeps only as many analysis jobs in RQ as there are workers to
take them, and each time it takes one job from the user at the head of the ring and moves that user
to the tail: round-robin between users (a user who starts asking joins at the end of the current
round, ahead of the user served last, so they wait for one job per worker, not two), as a fair queueing scheduler serves its flows (Nagle,
"On Packet Switches with Infinite Storage", IEEE Trans. Comm. 1987). A user alone gets every
worker; two users with work waiting get every other job each, however many jobs either asked for.

The lists live beside RQ's own keys, on the queue's Redis (a plain server even when the event store
is a cluster, so a script may touch the ring and a user's list together). They are per queue name,
so two deployments (or test runs) sharing a server do not feed each other's queues. A waiting job is
a JSON object ``{"args": [...], "description": str}``: the analysis job's arguments.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import redis

from service.store import keys
from service.store.replies import as_bytes_list, as_optional_bytes, as_text_list

# KEYS: ring, the user's list, the last served user. ARGV: user, then the jobs. A user not in the ring
# joins it at the end of the current round: just before the user served last if that one is at the
# tail (it went there when served), else at the tail (LPOS: Redis 6.0.6). A user never holds two places.
_HOLD = """for i = 2, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if #ARGV > 1 and not redis.call('LPOS', KEYS[1], ARGV[1]) then
  local last = redis.call('GET', KEYS[3])
  if last and last ~= ARGV[1] and redis.call('LINDEX', KEYS[1], -1) == last then
    redis.call('LINSERT', KEYS[1], 'BEFORE', last, ARGV[1])
  else
    redis.call('RPUSH', KEYS[1], ARGV[1])
  end
end
return redis.call('LLEN', KEYS[2])"""

# KEYS: ring, the last served user. ARGV: the prefix of users' list keys. The head user gives one job
# and goes to the tail if more wait; a user whose list is empty leaves the ring. Returns the job or nil.
_NEXT = """while true do
  local user = redis.call('LPOP', KEYS[1])
  if not user then return false end
  local list = ARGV[1] .. user
  local job = redis.call('LPOP', list)
  if job then
    if redis.call('LLEN', list) > 0 then redis.call('RPUSH', KEYS[1], user) end
    redis.call('SET', KEYS[2], user)
    return job
  end
end"""


# KEYS: ring, the last served user. ARGV: the prefix of users' list keys, the user. The user's next job out of turn:
# they leave their place in the ring, and go to its tail if more of theirs wait (as one just served). Nil: none waits.
_TAKE_OF = """local list = ARGV[1] .. ARGV[2]
local job = redis.call('LPOP', list)
redis.call('LREM', KEYS[1], 0, ARGV[2])
if not job then return false end
if redis.call('LLEN', list) > 0 then redis.call('RPUSH', KEYS[1], ARGV[2]) end
redis.call('SET', KEYS[2], ARGV[2])
return job"""

# KEYS: ring, the user's list. ARGV: user, the job. The job goes back to the front of the user's list;
# a user not in the ring joins it at the tail, as one just served.
_HAND_BACK = """redis.call('LPUSH', KEYS[2], ARGV[2])
if not redis.call('LPOS', KEYS[1], ARGV[1]) then redis.call('RPUSH', KEYS[1], ARGV[1]) end
return redis.call('LLEN', KEYS[2])"""


class AnalysisTurns:
    """The analysis jobs of one analysis queue waiting for their turn, per user, and the ring of users."""

    #: Which turns: the kind in the keys' names (``ll:analysis-turns:…``).
    kind = "analysis"

    def __init__(self, client: redis.Redis, queue_name: str) -> None:
        self.redis = client
        self.queue_name = queue_name
        self.ring = keys.turns_ring_for(self.kind, queue_name)
        self.last_served = keys.turns_last_served_for(self.kind, queue_name)
        self._hold = client.register_script(_HOLD)
        self._next = client.register_script(_NEXT)
        self._hand_back = client.register_script(_HAND_BACK)
        self._take_of = client.register_script(_TAKE_OF)

    def _list(self, user: str) -> str:
        return keys.turns_waiting_for(self.kind, self.queue_name, user)

    def hold(self, user: str, jobs: list[dict[str, Any]]) -> int:
        """Put ``user``'s jobs at the end of their list (the user joins the ring); how many of theirs wait now.

        Each job is stored with its user (``"user"``), which :meth:`next_turn` hands on with it.
        """
        encoded = [json.dumps(job | {"user": user}, separators=(",", ":")) for job in jobs]
        return int(self._hold(keys=[self.ring, self._list(user), self.last_served], args=[user, *encoded]))

    def hand_back(self, user: str, job: dict[str, Any]) -> int:
        """A job of ``user``'s that stepped aside goes back to the front of their list; how many of theirs wait."""
        encoded = json.dumps(job | {"user": user}, separators=(",", ":"))
        return int(self._hand_back(keys=[self.ring, self._list(user)], args=[user, encoded]))

    def next_turn(self) -> dict[str, Any] | None:
        """The next job in rotation, taken off its list; None when nobody's job is waiting."""
        raw = as_optional_bytes(self._next(keys=[self.ring, self.last_served], args=[self._list("")]))
        return None if raw is None else dict(json.loads(raw))

    def take_of(self, user: str) -> dict[str, Any] | None:
        """``user``'s next waiting job, out of turn (they go to the ring's tail if more wait); None when none waits."""
        raw = as_optional_bytes(self._take_of(keys=[self.ring, self.last_served], args=[self._list(""), user]))
        return None if raw is None else dict(json.loads(raw))

    def peek(self, user: str) -> dict[str, Any] | None:
        """``user``'s next waiting job, left where it is; None when none waits."""
        raw = as_optional_bytes(self.redis.lindex(self._list(user), 0))
        return None if raw is None else dict(json.loads(raw))

    def anyone_waiting(self) -> bool:
        """True while some user has a job waiting (one LLEN: the feeder's cheap first look)."""
        return bool(self.redis.llen(self.ring))

    def users(self) -> list[str]:
        """The users with jobs waiting, whose turn is next first."""
        return as_text_list(self.redis.lrange(self.ring, 0, -1))

    def waiting(self, user: str) -> list[dict[str, Any]]:
        """``user``'s waiting jobs, next first."""
        return [dict(json.loads(raw)) for raw in as_bytes_list(self.redis.lrange(self._list(user), 0, -1))]

    def waiting_args(self) -> list[list[Any]]:
        """The arguments of every waiting job, whoever's."""
        return [list(json.loads(raw)["args"]) for _, raw in self._each_waiting()]

    def drop(self, matches: Callable[[dict[str, Any]], bool]) -> int:
        """Remove every waiting job for which ``matches(job)`` is true; how many were removed.

        A user left with nothing waiting stays in the ring until their next turn, where the rotation
        drops them: that keeps this a list edit per job, with no script over the whole ring.
        """
        dropped = 0
        for user, raw in self._each_waiting():
            if matches(json.loads(raw)):
                dropped += int(self.redis.lrem(self._list(user), 1, raw.decode()))
        return dropped

    def _each_waiting(self) -> Iterator[tuple[str, bytes]]:
        for user in dict.fromkeys(self.users()):
            for raw in as_bytes_list(self.redis.lrange(self._list(user), 0, -1)):
                yield user, raw


class EngineTurns(AnalysisTurns):
    """The engine seats' moves of one engine queue waiting for their turn, per owner of the table, and the ring of
    owners: the same rotation as analysis (:func:`service.jobs.feed_engine_moves`), so one owner's many engine seats
    take every other move when another owner's seat waits, not every move before it."""

    kind = "engine"
