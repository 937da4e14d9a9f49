"""What an engine seat's move is doing, for the pages at its table, and how long each level thinks (issue 46 item 4).

The engine seat's job (``workers/engine_seat.py``) says when it starts searching (:meth:`EngineStatus.thinking`), renews
a short lease while it searches (:meth:`EngineStatus.renew`, between two playouts), and says when its move is stored
(:meth:`EngineStatus.moved`, which also adds the search's time to the level's running mean) or failed
(:meth:`EngineStatus.failed`: the job raised, during its search or before it, or the process running it was
killed). Each change but a renewal adds a notice ``{branch, change: "engine"}`` to the game's seat-changes stream,
which the table's pages follow (the seats stream, ``service/api/seats.py``): so every open page says "the engine is
thinking" while it does, and stops saying it when the move is stored or the job fails.

A process killed with its worker (a machine lost) says nothing: its lease is then not renewed, and a lapsed lease is
read as a move that stopped (:meth:`EngineStatus.shown`); the worker's upkeep queues such a move again at once
(:meth:`EngineStatus.lapsed`, ``workers/heal.heal_engine_moves``).
"""

from __future__ import annotations

import json
import time
from typing import Any

import redis

from service.store import keys
from service.store.replies import as_optional_bytes, as_scored

#: Seconds a search's lease lasts unless renewed: a few playouts of a long game on the pure engine at the most.
LEASE_SECONDS = 15.0
#: A lease is renewed at most this often (a renewal is one Redis round trip, between two playouts).
RENEW_EVERY = 3.0
#: How long a status is kept (a failed move that nobody retries is not said for ever either).
STATUS_KEPT = 3600
#: The think times' running mean: the first moves are averaged alike, then each new one weighs this much.
MEAN_WEIGHT = 0.2
MEAN_FIRST = 5
THINKING, FAILED = "thinking", "failed"
#: Why a move failed: its process stopped (killed, lost), or its search or append raised.
WORKER_STOPPED, ERROR = "worker_stopped", "error"
#: The notice's change (beside the seat store's ``seats`` and ``deleted``).
ENGINE_CHANGED = "engine"
SEAT_CHANGES_KEPT = 200


def _member(gid: str, bid: str) -> str:
    return f"{gid}/{bid}"


class EngineStatus:
    """The engine seats' moves as the pages see them: thinking (since when, under a lease) or failed (why)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def thinking(self, gid: str, bid: str, *, seat: int, level: str, seq: int, now: float | None = None) -> None:
        """The engine starts searching seat ``seat``'s move after ``seq`` at ``level``."""
        now = time.time() if now is None else now
        record = {"state": THINKING, "seat": seat, "level": level, "seq": seq, "since": now,
                  "lease_until": now + LEASE_SECONDS}
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(keys.engine_status_for(gid, bid), json.dumps(record), ex=STATUS_KEPT)
        pipe.zadd(keys.engine_thinking(), {_member(gid, bid): now + LEASE_SECONDS})
        self._notify(pipe, gid, bid)
        pipe.execute()

    def renew(self, gid: str, bid: str, record: dict[str, Any], now: float | None = None) -> None:
        """The search of ``record`` (as :meth:`status` read it) goes on: its lease is extended (no notice). A status
        changed meanwhile (the move stored, failed) is left alone."""
        now = time.time() if now is None else now
        renewed = record | {"lease_until": now + LEASE_SECONDS}
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(keys.engine_status_for(gid, bid), json.dumps(renewed), ex=STATUS_KEPT, xx=True)
        pipe.zadd(keys.engine_thinking(), {_member(gid, bid): now + LEASE_SECONDS}, xx=True)
        pipe.execute()

    def moved(self, gid: str, bid: str, *, game: str, level: str, seconds: float | None) -> None:
        """The engine's move is stored (or another copy's was: ``seconds`` None, nothing to time): nothing to say any
        more; the search's ``seconds`` join the level's running mean."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(keys.engine_status_for(gid, bid))
        pipe.zrem(keys.engine_thinking(), _member(gid, bid))
        self._notify(pipe, gid, bid)
        pipe.execute()
        if seconds is not None:
            self._time(game, level, seconds)

    def failed(self, gid: str, bid: str, *, reason: str, retried: bool, move: dict[str, Any] | None = None,
               now: float | None = None) -> None:
        """The engine's move on the branch failed (``reason``: :data:`WORKER_STOPPED` or :data:`ERROR`) and is tried
        again (``retried``) or not. Said of the search the status names; when it names no search of the move after
        ``move["seq"]`` (the job raised before it searched), of ``move`` (``seq``, and ``seat`` and ``level`` where
        known), so that the pages are told of a move that keeps failing; with neither, nothing is said (a job killed
        before it searched: the pages never said it was thinking, and it is tried again)."""
        record = self.status(gid, bid)
        now = time.time() if now is None else now
        if move is not None and (record is None or record.get("seq") != move["seq"]):
            record = {"seat": None, "level": None, "since": now} | move
        if record is None:
            return
        failed = {k: record[k] for k in ("seat", "level", "seq", "since")} | {
            "state": FAILED, "reason": reason, "retried": retried, "at": now}
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(keys.engine_status_for(gid, bid), json.dumps(failed), ex=STATUS_KEPT)
        pipe.zrem(keys.engine_thinking(), _member(gid, bid))
        self._notify(pipe, gid, bid)
        pipe.execute()

    def status(self, gid: str, bid: str) -> dict[str, Any] | None:
        """The branch's engine status as stored, or None."""
        raw = as_optional_bytes(self.redis.get(keys.engine_status_for(gid, bid)))
        return None if raw is None else dict(json.loads(raw))

    def shown(self, gid: str, bid: str, now: float | None = None) -> dict[str, Any] | None:
        """The status as the pages show it: a search whose lease lapsed is a move that stopped with its worker (tried
        again by the upkeep)."""
        record = self.status(gid, bid)
        now = time.time() if now is None else now
        if record is not None and record["state"] == THINKING and float(record["lease_until"]) < now:
            return {k: v for k, v in record.items() if k != "lease_until"} | {
                "state": FAILED, "reason": WORKER_STOPPED, "retried": True, "at": float(record["lease_until"])}
        return record

    def lapsed(self, now: float | None = None) -> list[tuple[str, str]]:
        """Branches (gid, bid) whose search's lease lapsed: the process searching died without a word."""
        now = time.time() if now is None else now
        rows = as_scored(self.redis.zrangebyscore(keys.engine_thinking(), 0, now, withscores=True))
        return [(gid, bid) for gid, _, bid in (member.decode().partition("/") for member, _ in rows)]

    def think_time(self, game: str, level: str) -> tuple[float, int] | None:
        """The running mean of the engine's think time per move of ``game`` at ``level`` here, and how many moves
        it has seen; None before the first."""
        raw = as_optional_bytes(self.redis.hget(keys.engine_think_times(), f"{game}/{level}"))
        if raw is None:
            return None
        measured = json.loads(raw)
        return float(measured["mean"]), int(measured["n"])

    def _time(self, game: str, level: str, seconds: float) -> None:
        """Add one move's think time to the level's running mean (two moves at once may lose one sample: a mean)."""
        known = self.think_time(game, level)
        mean, n = known if known is not None else (0.0, 0)
        weight = 1 / (n + 1) if n < MEAN_FIRST else MEAN_WEIGHT
        new = {"mean": mean + (seconds - mean) * weight, "n": n + 1}
        self.redis.hset(keys.engine_think_times(), f"{game}/{level}", json.dumps(new))

    @staticmethod
    def _notify(pipe: Any, gid: str, bid: str) -> None:
        """The notice the table's pages hear (the seats stream): the engine's status on branch ``bid`` changed."""
        pipe.xadd(keys.seat_changes_for(gid), {"branch": bid, "change": ENGINE_CHANGED}, maxlen=SEAT_CHANGES_KEPT,
                  approximate=True)
