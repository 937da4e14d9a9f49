"""The engine seat's move: when an engine seat is to move on a branch, search and play its move.

Queued by :class:`service.jobs.EngineMoveScheduler` after every append that leaves an engine seat to move (and
when the owner hands the seat to move to the engine). The job takes only ids and the seq it moves after, and
appends with that seq as the expected one, so it is idempotent: a second copy (RQ's retry, the upkeep's
re-queue after a killed worker: :func:`workers.heal.heal_engine_moves`) finds the head moved on and stops, or,
racing the first to the append, gets the 409 of the append script and stops. Its search is seeded by the
position as the seat sees it (:func:`service.games.seating.engine_seed`), so every copy would choose the same move.

The table's owner pays for its engine seats' thinking (:func:`owner_pays`), and engine moves wait for their owner's
turn before they reach the queue (:class:`service.store.analysis_turns.EngineTurns`), as analysis does.

While it searches, the pages at the table say so (:class:`service.store.engine_status.EngineStatus`: thinking under a
lease it renews between two playouts, :class:`LeaseKept`); a job that raises says it failed (:func:`engine_move_failed`,
RQ's failure callback; a lent move, :class:`Lender`, says it itself), and so does the worker whose work horse was killed
running it (:func:`engine_move_killed`).
"""

from __future__ import annotations

import logging
import time
from contextlib import AbstractContextManager
from typing import Any

from redis.exceptions import RedisError
from rq.job import Job, get_current_job

from service.games.play import PlayService
from service.games.seating import choose_engine_move, engine_budget, engine_seed
from service.jobs import (
    ENGINE_MOVE_JOB,
    after_table_append,
    engine_move_for_another,
    engine_payer,
    engine_queue,
    hand_back_engine_move,
    put_off_engine_move,
)
from service.store.context import Stores, current_stores
from service.store.engine_status import ERROR, RENEW_EVERY, WORKER_STOPPED, EngineStatus
from service.store.errors import ConflictError, NotFoundError
from workers.playouts import between_playouts

log = logging.getLogger(__name__)
#: The author the engine's events carry in their meta.
ENGINE_AUTHOR = "~engine"


def move_engine_seat(gid: str, bid: str, seq: int) -> str | None:
    """RQ job: play the engine seat's move after ``seq`` on the branch; the move played, or None (nothing to do).

    While it searches, it lends its process to another owner's waiting move between two playouts (:class:`Lender`)."""
    stores = current_stores()
    job = get_current_job()
    meta = job.meta if job is not None else {}
    with Lender(stores, meta.get("owner"), int(meta.get("work") or 0)).installed():
        return run_engine_move(stores, gid, bid, seq)


#: Seconds between two looks, while an engine move searches, for another owner's move waiting with none running.
LEND_EVERY = 0.25


class Lender:
    """Between two playouts of an engine move's search, runs the move of another owner who has a move waiting and none
    running, then lets the search go on where it was.

    Without it a strong move (tens of seconds of search at a long game's start on the pure engine) was one slice that
    another owner's easy seat waited out whenever every worker was busy with strong moves; now it waits for one
    playout and a look (every :data:`LEND_EVERY` s). The search loses nothing: its state and random numbers are left
    alone, so the move it plays is the same. Two rules keep it fair: a move lends only to a move of no more playouts
    than its own (an easy move is not held up by a strong one it would lend to), and after lending for some time it
    searches as long again before it lends again (its own owner keeps a share of the process). While lending, the
    job's meta names the owner it works for (``lent_to``), so that no second process lends to that owner at once
    (:func:`service.jobs.engine_moves_running`).
    """

    def __init__(self, stores: Stores, owner: str | None, work: int) -> None:
        self.stores = stores
        self.owner = owner
        self.work = work
        self.next_look = time.monotonic() + LEND_EVERY
        self.lending = False

    def installed(self) -> AbstractContextManager[None]:
        """Called before every playout while the block runs (:data:`engine.analysis.search.BETWEEN_PLAYOUTS`)."""
        return between_playouts(self)

    def __call__(self) -> None:
        if self.lending or time.monotonic() < self.next_look:
            return
        self.lending = True  # the lent move searches too: it must not lend in turn
        started = time.monotonic()
        try:
            self._lend()
        finally:
            self.lending = False
            # As long again for this move's own search before it lends again: it gets its share of the process too.
            self.next_look = time.monotonic() + max(LEND_EVERY, time.monotonic() - started)

    def _lend(self) -> None:
        queue = engine_queue(self.stores)
        try:
            waiting = engine_move_for_another(queue, self.owner, self.work)
        except RedisError as exc:  # a look that fails costs this move nothing: it goes on searching
            log.warning("engine seat: no look at the waiting moves: %s", exc)
            return
        if waiting is None:
            return
        job = get_current_job()
        _work_for(job, waiting.get("user"))
        try:
            gid, bid, seq = waiting["args"]
            run_engine_move(self.stores, str(gid), str(bid), int(seq))
        except Exception:  # noqa: BLE001 - the lent move's failure must not fail this one; its own job runs it again
            log.exception("engine seat: a lent move failed; it goes back to its owner's turn")
            hand_back_engine_move(queue, waiting)
            _lent_move_failed(self.stores, waiting["args"])
        finally:
            _work_for(job, None)


def _lent_move_failed(stores: Stores, args: list[Any]) -> None:
    """A lent move raised: no RQ callback runs for it (it ran inside another job), so the pages are told here, at once,
    and that it is tried again (it went back to its owner's turn), rather than left thinking until its lease lapses."""
    gid, bid, seq = str(args[0]), str(args[1]), int(args[2])
    try:
        stores.engine_status.failed(gid, bid, reason=ERROR, retried=True, move=_failed_move(stores, gid, bid, seq))
    except RedisError as exc:  # not said: its lease lapses instead, and the upkeep says it stopped
        log.warning("engine seat: a lent move's failure not said: %s", exc)


def _work_for(job: Job | None, owner: str | None) -> None:
    """Note in the running job's meta the owner it lends its process to (None: its own again)."""
    if job is None:
        return
    if owner is None:
        job.meta.pop("lent_to", None)
    else:
        job.meta["lent_to"] = owner
    job.save_meta()  # type: ignore[no-untyped-call]  # rq leaves it unannotated


class LeaseKept:
    """Renews a search's lease between two of its playouts (at most every :data:`RENEW_EVERY` s), so that the pages
    keep saying the engine thinks while it does, and stop once its process is gone."""

    def __init__(self, status: EngineStatus, gid: str, bid: str) -> None:
        self.status = status
        self.gid, self.bid = gid, bid
        self.record = status.status(gid, bid)
        self.next_renewal = time.monotonic() + RENEW_EVERY

    def installed(self) -> AbstractContextManager[None]:
        """Renew while the block searches (:data:`engine.analysis.search.BETWEEN_PLAYOUTS`)."""
        return between_playouts(self)

    def __call__(self) -> None:
        if self.record is None or time.monotonic() < self.next_renewal:
            return
        self.next_renewal = time.monotonic() + RENEW_EVERY
        try:
            self.status.renew(self.gid, self.bid, self.record)
        except RedisError as exc:  # a renewal that fails costs the search nothing; the next one tries again
            log.warning("engine seat: lease not renewed: %s", exc)


def engine_move_failed(job: Job, connection: object, *exc_info: object) -> None:
    """RQ's failure callback of the engine seat's job: the pages at the table are told that the move failed (its
    search, or what came before it), and whether RQ tries it again (else the upkeep does, after
    ``LUDOLOG_JOB_DEADLINE``). Nothing of the error is said: it stays in RQ's failed job, for the operator."""
    gid, bid, seq = str(job.args[0]), str(job.args[1]), int(job.args[2])
    stores = current_stores()
    stores.engine_status.failed(gid, bid, reason=ERROR, retried=bool(job.retries_left),
                                move=_failed_move(stores, gid, bid, seq))


def _failed_move(stores: Stores, gid: str, bid: str, seq: int) -> dict[str, Any]:
    """The move a failed job was to play, as the pages name it: its seq, and the seat to move there with its level
    where they can be read (reading them may be what failed the job: then the pages name no seat)."""
    move: dict[str, Any] = {"seq": seq}
    try:
        position = stores.reader.position(gid, bid)
        actor = position.rules.current_actor(position.state)
        if position.seq == seq and isinstance(actor, int) and actor >= 0:
            move |= {"seat": actor, "level": stores.seats.seat(gid, bid, actor).level}
    except Exception as exc:  # noqa: BLE001 - the job's own fault, met again: the move is said without its seat
        log.warning("engine seat: the failed move's seat on %s/%s is not known: %s", gid, bid, exc)
    return move


def engine_move_killed(stores: Stores, job: Job) -> bool:
    """The work horse running an engine seat's job died (SIGKILL, out of memory): the pages are told the move stopped;
    RQ tries it again (its retries), and past them the upkeep. True if ``job`` was an engine move."""
    if job.func_name != ENGINE_MOVE_JOB:
        return False
    gid, bid, _ = job.args
    stores.engine_status.failed(str(gid), str(bid), reason=WORKER_STOPPED, retried=True)
    return True


def run_engine_move(stores: Stores, gid: str, bid: str, seq: int) -> str | None:
    """Play the engine seat's move after ``seq`` (if still to play) and note the branch's move as done."""
    started = time.time()
    try:
        played = play_engine_move(stores, gid, bid, seq)
    except NotFoundError:  # the branch or game was deleted meanwhile
        played = None
    stores.seats.engine_move_done(gid, bid, started)
    return played


def owner_pays(stores: Stores, gid: str, bid: str, seq: int, work: int) -> bool:
    """Charge the table's owner ``work`` (the move's playouts) from their work quota, the one analysis is charged to
    (:mod:`service.store.quota`); True when paid.

    Refused, the seat waits: the branch notes why and until when (``GET …/seats`` shows it with ``retry_after``), the
    move is queued again for then (RQ's scheduler, outside the owners' turns: it takes no turn while it waits), and the
    upkeep leaves the branch alone until its deadline after that.
    """
    owner = engine_payer(stores, gid, bid)
    answer = stores.analysis_quota.take(owner, work)
    if answer.granted:
        stores.seats.engine_quota_wait_over(gid, bid)
        return True
    wait = answer.retry_after or stores.analysis_quota.window  # more than the whole allowance: look again in a window
    until = time.time() + wait
    note = {"owner": owner, "asked": work, "left": answer.left, "limit": answer.limit, "until": until,
            "never_fits": answer.never_fits}
    stores.seats.engine_waits_for_quota(gid, bid, note, wait)
    stores.seats.engine_move_due(gid, bid, until)
    put_off_engine_move(engine_queue(stores), gid, bid, seq, owner, work, wait)
    return False


def play_engine_move(stores: Stores, gid: str, bid: str, seq: int) -> str | None:
    """Search and append the engine seat's move after ``seq``, if the engine is still to move there."""
    position = stores.reader.position(gid, bid)
    actor = position.rules.current_actor(position.state)
    if position.seq != seq or not isinstance(actor, int) or actor < 0:
        return None  # somebody moved meanwhile (another copy of this job), or chance / the end is next
    seat = stores.seats.seat(gid, bid, actor)
    if seat.holder != "engine" or seat.level is None:
        return None  # the owner took the seat back
    rules = position.rules
    if not owner_pays(stores, gid, bid, seq, engine_budget(rules, seat.level)):
        return None  # its owner's work quota is used up: the move comes back when enough frees up
    status = stores.engine_status
    status.thinking(gid, bid, seat=actor, level=seat.level, seq=seq)
    started = time.monotonic()
    with LeaseKept(status, gid, bid).installed():
        action = choose_engine_move(rules, position.state, actor, seat.level, engine_seed(rules, position.state, actor))
    seconds = time.monotonic() - started
    notation = rules.format_action(action)
    play = PlayService(stores.games, stores.reader, on_append=after_table_append(stores))
    try:
        play.play(gid, bid, notation, seq, author=ENGINE_AUTHOR, idempotency_key=f"engine-move-{seq}")
    except ConflictError:
        status.moved(gid, bid, game=rules.name, level=seat.level, seconds=None)
        return None  # another copy of this job played it first
    status.moved(gid, bid, game=rules.name, level=seat.level, seconds=seconds)
    return notation
