"""The per-user analysis quota: work (rollouts × positions) granted in the last hour, a sliding window.

A request costs what it makes the workers do: the budget (rollouts per decision) times the decisions
still missing results, so asking again for a finished analysis costs nothing and a 5,000-rollout
request of a long game costs what it takes. Counting requests instead let a few requests hold every
worker for an hour.

Each grant is one member of a sorted set per user, scored by the time it was granted; grants older
than the window drop out, so the allowance frees up piece by piece as old grants age, and the store
can say exactly when a refused request would fit (the grants that must age out first, oldest first).
One script checks and grants at once, so two requests at the same moment cannot both squeeze into
the last of the allowance. The set is one key of its own (no hash tag): fine on a cluster.

A grant keeps its id (:attr:`QuotaAnswer.grant`), so that work granted and then not done (an analysis cancelled
before it ran every decision it was charged for) is given back from that grant (:meth:`AnalysisQuota.give_back`):
the grant shrinks where it stands in the window, and what is given back frees up at once.
"""

from __future__ import annotations

import math
import secrets
import time
from dataclasses import dataclass

import redis

from service.store import keys
from service.store.replies import as_bytes_list

#: The window the quota counts over, in seconds.
WINDOW_SECONDS = 3600

# KEYS: the user's grants. ARGV: now, window, limit, work, grant id. Members are "<id>:<work>".
# Returns {granted (0/1), work used in the window before this request, when it would fit (0 if granted,
# -1 if never: the work alone exceeds the limit)}; the time as a string, since Redis truncates Lua numbers.
_TAKE = """local now, window, limit, work = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local grants = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local used = 0
for i = 1, #grants, 2 do used = used + tonumber(string.match(grants[i], ':(%d+)$')) end
if used + work <= limit then
  redis.call('ZADD', KEYS[1], now, ARGV[5] .. ':' .. ARGV[4])
  redis.call('EXPIRE', KEYS[1], window)
  return {1, used, '0'}
end
if work > limit then return {0, used, '-1'} end
local still = used
for i = 1, #grants, 2 do
  still = still - tonumber(string.match(grants[i], ':(%d+)$'))
  if still + work <= limit then return {0, used, tostring(tonumber(grants[i + 1]) + window)} end
end
return {0, used, '-1'}"""

# KEYS: the user's grants. ARGV: the grant's id, the work to give back. The grant shrinks in place (its score, when it
# was granted, stays); a grant that has aged out is gone and nothing is given back. Returns the work given back.
_GIVE_BACK = """local grants = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #grants, 2 do
  local id, work = string.match(grants[i], '^(.*):(%d+)$')
  if id == ARGV[1] then
    local back = math.min(tonumber(work), tonumber(ARGV[2]))
    redis.call('ZREM', KEYS[1], grants[i])
    if back < tonumber(work) then redis.call('ZADD', KEYS[1], grants[i + 1], id .. ':' .. string.format('%d', tonumber(work) - back)) end
    return back
  end
end
return 0"""


@dataclass(frozen=True)
class QuotaAnswer:
    """What the quota said to a request of ``asked`` work."""

    granted: bool
    asked: int
    used: int  # work granted in the window before this request
    limit: int
    retry_after: int | None  # seconds until the request would fit (None: granted, or it never fits)
    grant: str | None = None  # the grant's id when work was granted (for :meth:`AnalysisQuota.give_back`)

    @property
    def left(self) -> int:
        """Work the user may still ask for now (before this request, if it was granted)."""
        return max(0, self.limit - self.used)

    @property
    def never_fits(self) -> bool:
        """True when the request alone asks more than the whole allowance."""
        return not self.granted and self.retry_after is None


class AnalysisQuota:
    """Work (rollouts × positions) each user may have analysed per hour."""

    def __init__(self, client: redis.Redis, limit: int, window: int = WINDOW_SECONDS) -> None:
        self.redis = client
        self.limit = limit
        self.window = window
        self._take = client.register_script(_TAKE)
        self._give_back = client.register_script(_GIVE_BACK)

    def take(self, user: str, work: int, now: float | None = None) -> QuotaAnswer:
        """Grant ``work`` to ``user`` if it fits in the window's allowance, else say when it would."""
        now = time.time() if now is None else now
        if work <= 0:
            return QuotaAnswer(True, 0, 0, self.limit, None)
        grant = secrets.token_hex(6)
        granted, used, fits_at = self._take(keys=[keys.analysis_quota_for(user)],
                                            args=[repr(now), self.window, self.limit, work, grant])
        fits = float(fits_at)
        retry_after = None if granted or fits < 0 else max(1, math.ceil(fits - now))
        return QuotaAnswer(bool(granted), work, int(used), self.limit, retry_after, grant if granted else None)

    def give_back(self, user: str, grant: str, work: int) -> int:
        """Give ``work`` of ``user``'s grant ``grant`` back (work granted and not done); the work given back, which is
        less where the grant is smaller or has aged out of the window."""
        if work <= 0:
            return 0
        return int(self._give_back(keys=[keys.analysis_quota_for(user)], args=[grant, work]))

    def used(self, user: str, now: float | None = None) -> int:
        """Work granted to ``user`` in the window ending ``now``."""
        now = time.time() if now is None else now
        members = as_bytes_list(self.redis.zrangebyscore(keys.analysis_quota_for(user), now - self.window, "+inf"))
        return sum(int(member.rsplit(b":", 1)[1]) for member in members)
