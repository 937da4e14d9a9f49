"""The run of an analysis: who asked for it, what it still has to do, how fast it goes, and its cancellation.

An analysis (a branch at one budget, view and seed) is asked for by one request or more; the decisions they queue
make up its *run* (a hash, :func:`service.store.keys.analysis_run_for`, and the set of the seqs still to analyse,
:func:`~service.store.keys.analysis_run_todo_for`, both under the game's hash tag beside the verdicts). The run
knows:

* its **generation**, which every job of the run carries: a cancel moves it on, so that a job of the cancelled run
  (running, or held anywhere) stops at its next look and stores nothing more, while a request made after the cancel
  starts a run of the new generation whose jobs are not taken for the old one's;
* its **state** (``running`` or ``cancelled``), who asked (each requester, and the game's owner, may cancel it) and
  the quota grants it was charged from, with the seqs each paid for, so that a cancel gives back what did not run;
* its **pace**: when its first decision started and how many it has stored, from which the time left is estimated.

Each step that must not interleave with another is one script: a request's :meth:`AnalysisRun.begin` (refused when
a cancel moved the generation on since the request read it: the request then asks again under the new one), a
verdict's :meth:`~AnalysisRun.store` (refused for a job of an older generation) and :meth:`~AnalysisRun.cancel`. So a
request racing a cancel ends either before it (and is cancelled with the rest) or after it (a new run), never half.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import redis

from service.store import keys
from service.store.analysis_results import PROGRESS_NOTICES_KEPT, AnalysisResults, Judged
from service.store.replies import as_bytes, as_bytes_hash, as_text_list

# KEYS: run, todo, the "requested" mark. ARGV: the generation the request read, ttl, user, the grant's field ("" for
# none), the grant (JSON), then the seqs queued. A run that is not running, or has nothing left to do, starts afresh
# (its pace and requesters forgotten, its generation kept). 0 when the generation moved on meanwhile.
_BEGIN = """local gen = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
if gen ~= tonumber(ARGV[1]) then return 0 end
if redis.call('HGET', KEYS[1], 'state') ~= 'running' or redis.call('SCARD', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2])
  redis.call('HSET', KEYS[1], 'generation', gen, 'state', 'running')
end
redis.call('HSET', KEYS[1], 'user:' .. ARGV[3], '1')
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], ARGV[4], ARGV[5]) end
for i = 6, #ARGV do redis.call('SADD', KEYS[2], ARGV[i]) end
redis.call('SET', KEYS[3], '1', 'EX', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 1"""

# KEYS: run. ARGV: generation, now. The run's first decision started now (kept if one started before).
_STARTED = """if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'generation') or '0') ~= tonumber(ARGV[1]) then return -1 end
return redis.call('HSETNX', KEYS[1], 'first_at', ARGV[2])"""

# KEYS: run, todo, the results hash, the progress stream. ARGV: generation, field, verdict, seq, now, holder, rollouts,
# view, notices kept, seed. -1: the job's generation is not the run's (cancelled); 0: a verdict was there; 1: stored, and
# the pages that follow the analysis are told, with the seconds left at the pace so far.
_STORE = """if tonumber(redis.call('HGET', KEYS[1], 'generation') or '0') ~= tonumber(ARGV[1]) then return -1 end
redis.call('SREM', KEYS[2], ARGV[4])
if redis.call('HSETNX', KEYS[3], ARGV[2], ARGV[3]) == 0 then return 0 end
local notice = {'holder', ARGV[6], 'seq', ARGV[4], 'rollouts', ARGV[7], 'view', ARGV[8], 'seed', ARGV[10]}
if redis.call('EXISTS', KEYS[1]) == 1 then
  local count = redis.call('HINCRBY', KEYS[1], 'stored', 1)
  redis.call('HSET', KEYS[1], 'last_at', ARGV[5])
  local first = redis.call('HGET', KEYS[1], 'first_at')
  if first then
    local left = (tonumber(ARGV[5]) - tonumber(first)) / count * redis.call('SCARD', KEYS[2])
    table.insert(notice, 'left')
    table.insert(notice, string.format('%.1f', left))
  end
end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[9], '*', unpack(notice))
return 1"""

# KEYS: run, todo. ARGV: generation, seq. A decision found analysed already is no longer to do.
_SKIP = """if tonumber(redis.call('HGET', KEYS[1], 'generation') or '0') ~= tonumber(ARGV[1]) then return -1 end
return redis.call('SREM', KEYS[2], ARGV[2])"""

# KEYS: run, todo, the "requested" mark. ARGV: the generation the caller read, user, now. {"cancelled", todo seqs,
# grants} after moving the generation on; {"moved"} when it moved on already; {"not_running"} when nothing is to do.
_CANCEL = """local gen = tonumber(redis.call('HGET', KEYS[1], 'generation') or '0')
if gen ~= tonumber(ARGV[1]) then return {'moved'} end
if redis.call('HGET', KEYS[1], 'state') ~= 'running' or redis.call('SCARD', KEYS[2]) == 0 then
  return {'not_running'}
end
local todo = redis.call('SMEMBERS', KEYS[2])
local fields = redis.call('HGETALL', KEYS[1])
local grants = {}
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 6) == 'grant:' then
    table.insert(grants, fields[i + 1])
    redis.call('HDEL', KEYS[1], fields[i])
  end
end
redis.call('HSET', KEYS[1], 'generation', gen + 1, 'state', 'cancelled', 'cancelled_by', ARGV[2],
           'cancelled_at', ARGV[3])
redis.call('DEL', KEYS[2], KEYS[3])
return {'cancelled', todo, grants}"""


@dataclass(frozen=True)
class Grant:
    """Work a request was charged: the quota grant's id, its user, and the seqs it paid for."""

    user: str
    grant: str
    seqs: tuple[int, ...]


@dataclass(frozen=True)
class RunState:
    """What the run's hash and to-do set say (``state`` None: no run is known)."""

    generation: int = 0
    state: str | None = None
    users: frozenset[str] = frozenset()
    todo: int = 0
    stored: int = 0
    first_at: float | None = None
    last_at: float | None = None
    cancelled_by: str | None = None

    @property
    def running(self) -> bool:
        """True while the run has decisions to analyse and was not cancelled."""
        return self.state == "running" and self.todo > 0

    @property
    def seconds_per_decision(self) -> float | None:
        """The run's pace so far: seconds from its first decision's start to its last stored, per decision stored;
        None before its first decision is stored."""
        if not self.stored or self.first_at is None or self.last_at is None:
            return None
        return max(0.0, self.last_at - self.first_at) / self.stored

    def seconds_left(self, now: float | None = None) -> float | None:
        """The decisions still to do at the pace so far, less the time since the last one was stored when ``now`` is
        given (None before the first is stored, or once not running)."""
        pace = self.seconds_per_decision
        if pace is None or not self.running:
            return None
        since = max(0.0, now - self.last_at) if now is not None and self.last_at is not None else 0.0
        return max(0.0, pace * self.todo - since)


@dataclass(frozen=True)
class Cancelled:
    """What a cancel found: ``outcome`` (``cancelled``, ``moved``: cancelled by another meanwhile, ``not_running``),
    and for a cancel done, the seqs left undone and the grants the run was charged from."""

    outcome: str
    todo: frozenset[int] = frozenset()
    grants: tuple[Grant, ...] = field(default=())

    def unused(self, grant: Grant) -> int:
        """How many of the decisions ``grant`` paid for were left undone."""
        return sum(seq in self.todo for seq in grant.seqs)


class AnalysisRun:
    """The run of the analysis of branch ``bid`` at one budget, view and seed (see the module docstring)."""

    def __init__(self, client: redis.Redis, gid: str, bid: str, rollouts: int, view: str, seed: int = 0) -> None:
        self.redis, self.gid, self.bid = client, gid, bid
        self.rollouts, self.view, self.seed = rollouts, view, seed
        self.key = keys.analysis_run_for(gid, bid, rollouts, view, seed)
        self.todo_key = keys.analysis_run_todo_for(gid, bid, rollouts, view, seed)
        self.mark_key = keys.analysis_requested_for(gid, bid, rollouts, view, seed)
        self._begin = client.register_script(_BEGIN)
        self._started = client.register_script(_STARTED)
        self._store = client.register_script(_STORE)
        self._skip = client.register_script(_SKIP)
        self._cancel = client.register_script(_CANCEL)

    def generation(self) -> int:
        """The run's generation (0 before any cancel)."""
        raw = self.redis.hget(self.key, "generation")
        return int(raw) if raw is not None else 0

    def begin(self, generation: int, user: str, seqs: list[int], ttl: int, grant: str | None = None) -> bool:
        """A request of ``user`` queues ``seqs`` under ``generation`` (paid by quota ``grant``, if any); False, and
        nothing noted, when a cancel moved the generation on since the request read it."""
        grant_field = f"grant:{grant}" if grant else ""
        grant_json = json.dumps({"user": user, "grant": grant, "seqs": seqs}) if grant else ""
        return bool(self._begin(keys=[self.key, self.todo_key, self.mark_key],
                                args=[generation, ttl, user, grant_field, grant_json, *seqs]))

    def started(self, generation: int, now: float) -> None:
        """A job of ``generation`` starts a decision at ``now``: the run's pace counts from its first."""
        self._started(keys=[self.key], args=[generation, repr(now)])

    def store(self, results: AnalysisResults, holder: str, position: Judged, verdict: dict[str, Any], generation: int,
              now: float) -> int:
        """Store a verdict of a job of ``generation`` unless one is there (the first stays), and tell the pages that
        follow the analysis: 1 stored, 0 one was there, -1 refused (the run was cancelled: nothing stored)."""
        return int(self._store(
            keys=[self.key, self.todo_key, results.key(holder), keys.analysis_progress_for(self.gid)],
            args=[generation, position.field, json.dumps(verdict, separators=(",", ":")), position.seq, repr(now),
                  holder, self.rollouts, self.view, PROGRESS_NOTICES_KEPT, self.seed]))

    def skip(self, generation: int, seq: int) -> None:
        """The decision after ``seq`` has a verdict already: no longer to do."""
        self._skip(keys=[self.key, self.todo_key], args=[generation, seq])

    def state(self) -> RunState:
        """The run as stored now."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.key)
        pipe.scard(self.todo_key)
        raw, todo = pipe.execute()
        fields = {k.decode(): v.decode() for k, v in as_bytes_hash(raw).items()}
        if not fields:
            return RunState(todo=int(todo))
        return RunState(int(fields.get("generation", 0)), fields.get("state"),
                        frozenset(name[5:] for name in fields if name.startswith("user:")), int(todo),
                        int(fields.get("stored", 0)), _number(fields, "first_at"), _number(fields, "last_at"),
                        fields.get("cancelled_by"))

    def cancel(self, generation: int, user: str, now: float) -> Cancelled:
        """Cancel the run of ``generation`` for ``user`` (see :class:`Cancelled` for the outcomes)."""
        reply = self._cancel(keys=[self.key, self.todo_key, self.mark_key], args=[generation, user, repr(now)])
        outcome = as_bytes(reply[0]).decode()
        if outcome != "cancelled":
            return Cancelled(outcome)
        grants = tuple(_grant(json.loads(raw)) for raw in as_text_list(reply[2]))
        return Cancelled(outcome, frozenset(int(seq) for seq in as_text_list(reply[1])), grants)


def _number(fields: dict[str, str], name: str) -> float | None:
    return float(fields[name]) if name in fields else None


def _grant(data: dict[str, Any]) -> Grant:
    return Grant(str(data["user"]), str(data["grant"]), tuple(int(seq) for seq in data["seqs"]))
