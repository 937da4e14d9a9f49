"""The engine seat's move: when an engine seat is to move on a branch, search and play its move.

Queued by :class:`service.jobs.EngineMoveScheduler` after every append that leaves an engine seat to move (and
when the owner hands the seat to move to the engine). The job takes only ids and the seq it moves after, and
appends with that seq as the expected one, so it is idempotent: a second copy (RQ's retry, the upkeep's
re-queue after a killed worker: :func:`workers.heal.heal_engine_moves`) finds the head moved on and stops, or,
racing the first to the append, gets the 409 of the append script and stops. Its search is seeded by the
position as the seat sees it (:func:`service.games.seating.engine_seed`), so every copy would choose the same move.

The table's owner pays for its engine seats' thinking (:func:`owner_pays`), and engine moves wait for their owner's
turn before they reach the queue (:class:`service.store.analysis_turns.EngineTurns`), as analysis does.
"""

from __future__ import annotations

import time

from service.games.play import PlayService
from service.games.seating import choose_engine_move, engine_budget, engine_seed
from service.jobs import EngineMoveScheduler, FoldScheduler, after_append, engine_payer, engine_queue, job_queue, put_off_engine_move
from service.store.context import Stores, current_stores
from service.store.errors import ConflictError, NotFoundError

#: The author the engine's events carry in their meta.
ENGINE_AUTHOR = "~engine"


def move_engine_seat(gid: str, bid: str, seq: int) -> str | None:
    """RQ job: play the engine seat's move after ``seq`` on the branch; the move played, or None (nothing to do)."""
    stores = current_stores()
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
    put_off_engine_move(engine_queue(stores), gid, bid, seq, owner, wait)
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
    action = choose_engine_move(rules, position.state, actor, seat.level, engine_seed(rules, position.state, actor))
    notation = rules.format_action(action)
    scheduler = EngineMoveScheduler(stores, engine_queue(stores))
    play = PlayService(stores.games, stores.reader,
                       on_append=after_append(FoldScheduler(stores.folds, job_queue(stores)), scheduler,
                                              stores.seats.table_moved))
    try:
        play.play(gid, bid, notation, seq, author=ENGINE_AUTHOR, idempotency_key=f"engine-move-{seq}")
    except ConflictError:
        return None  # another copy of this job played it first
    return notation
