"""The job seam: the one place that builds RQ queues and queues ludolog's jobs.

Why here, below the API and beside the stores: the web app queues jobs (a fold per branch
update, an import per upload, analysis) and the workers run them, so the code that queues must not
live in ``workers`` (the API would import the package that imports the API's stores and
services: a loop across layers). RQ names a job by the dotted path of its function and
imports it only in the worker process, so the queuing side needs the *name*, not the
function: :data:`FOLD_JOB` and :data:`IMPORT_JOB` name functions of :mod:`workers`, and
``tests/test_layers.py`` checks that each name still resolves. The layers then run one
way: ``service.api`` → ``service.jobs`` ← ``workers``.

Jobs carry only ids, use RQ's JSON serializer, and retry with back-off (the worker runs
RQ's scheduler, which re-queues them).

Three queues, taken in priority order. Imports and folds go to the job queue (``LUDOLOG_QUEUE``,
default ``ludolog``); an engine seat's move (issue 33: :class:`EngineMoveScheduler`) to the engine queue,
:func:`engine_queue_name` (``ludolog-engine``); analysis to its own queue, :func:`analysis_queue_name`
(``ludolog-analysis``). A worker lists them in that order (:func:`worker_queues`) and RQ always takes from
the first queue that has a job, so an upload, a fold or a move someone waits for never waits behind a pile
of analysis; and a running analysis job steps aside between two positions when one of them is waiting
(:func:`step_aside`), so it does not wait for the rest of that job either. ``ludolog worker --analysis-only`` listens to the analysis
queue alone: machines added for analysis take nothing else (``--no-analysis``: the other way round).

Analysis is also shared fairly between users: a request's jobs wait in per-user lists
(:class:`service.store.analysis_turns.AnalysisTurns`) and :func:`feed_analysis` moves them into the
analysis queue in rotation between users, keeping only as many analysis jobs queued or running as
there are workers listening (at least one). Why this rather than a cap per user on the queue: a cap
either idles workers when one user is alone (cap below the worker count) or lets that user's jobs
fill the queue ahead of the next user (cap at the worker count); feeding in rotation is both
work-conserving and fair, and the queue stays short, so a cancelled branch has little in RQ to
remove. The feed runs when a request holds jobs, after every job a worker finishes (whatever its
end), and in the worker's upkeep, so a lost feed only delays, never strands, the waiting jobs.
Feeds are not serialised: two at the same moment may queue a job beyond the capacity, which only
shortens someone's wait a little, where a lock would cost every finished job a round trip more.

Folds: a branch with a fold already queued is not queued again: the fold ledger's pending mark
(:class:`service.store.folds.FoldLedger`) batches a burst of appends into one job (the job clears the
mark when it starts). Each queued fold is also noted as due until a fold that started after it
finishes, so that the worker's upkeep (:mod:`workers.heal`) folds again a branch whose job died for good.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import redis
from rq import Callback, Queue, Retry, Worker
from rq.exceptions import InvalidJobOperation
from rq.job import Job, get_current_job
from rq.serializers import JSONSerializer

from service.games.seating import TableMoves, engine_budget
from service.games.turn_mail import person_to_mail
from service.store.analysis_turns import AnalysisTurns, EngineTurns
from service.store.context import Stores
from service.store.folds import FoldLedger

#: The fold job: :func:`workers.fold.fold_branch` (gid, bid).
FOLD_JOB = "workers.fold.fold_branch"
#: The import job: :func:`workers.imports.import_upload` (uid).
IMPORT_JOB = "workers.imports.import_upload"
#: RQ's failure callback of the import job: :func:`workers.imports.import_failed`.
IMPORT_FAILED_CALLBACK = "workers.imports.import_failed"
#: The analysis job: :func:`workers.analysis.analyse_range` (gid, bid, first, last, rollouts, view).
ANALYSIS_JOB = "workers.analysis.analyse_range"
#: The engine seat's move: :func:`workers.engine_seat.move_engine_seat` (gid, bid, seq).
ENGINE_MOVE_JOB = "workers.engine_seat.move_engine_seat"
#: RQ's failure callback of the engine seat's move (the pages are told): :func:`workers.engine_seat.engine_move_failed`.
ENGINE_MOVE_FAILED_CALLBACK = "workers.engine_seat.engine_move_failed"
#: The check of a turn e-mail: :func:`workers.turn_mail.send_turn_mail` (gid, bid, seq, user).
TURN_MAIL_JOB = "workers.turn_mail.send_turn_mail"
#: The puzzle generator, after an analysis ends: :func:`workers.puzzles.generate_puzzles` (gid, bid, rollouts, view, seed).
PUZZLES_JOB = "workers.puzzles.generate_puzzles"
#: The insights' count of an analysis that has just ended: :func:`workers.insights.count_insights` (gid, rollouts).
INSIGHTS_JOB = "workers.insights.count_insights"
#: Every job function the queues name, for the workers' side to check against.
JOB_FUNCTIONS = (FOLD_JOB, IMPORT_JOB, IMPORT_FAILED_CALLBACK, ANALYSIS_JOB, ENGINE_MOVE_JOB, ENGINE_MOVE_FAILED_CALLBACK,
                 TURN_MAIL_JOB, PUZZLES_JOB, INSIGHTS_JOB)

FOLD_RETRY = Retry(max=3, interval=[1, 5, 15])
IMPORT_RETRY = Retry(max=2, interval=[2, 10])
ANALYSIS_RETRY = Retry(max=3, interval=[1, 5, 15])
#: A failed engine move is retried soon: a person waits for it (a killed worker's move comes back through the upkeep).
ENGINE_MOVE_RETRY = Retry(max=3, interval=[1, 3, 10])
#: A turn e-mail whose send failed (the mail server down, refusing for now) is tried again for about an hour.
TURN_MAIL_RETRY = Retry(max=5, interval=[2, 30, 120, 600, 1800])
#: How many times an import runs before its upload is failed for good.
IMPORT_ATTEMPTS = IMPORT_RETRY.max + 1


def make_queue(queue_redis: redis.Redis, name: str) -> Queue:
    """The ludolog job queue named ``name`` on ``queue_redis``, with the JSON serializer."""
    return Queue(name, connection=queue_redis, serializer=JSONSerializer)


def job_queue(stores: Stores) -> Queue:
    """The process's job queue (imports and folds), as its configuration names it (web app, worker and CLI alike)."""
    return make_queue(stores.queue_redis, stores.config.queue_name)


def analysis_queue_name(queue_name: str) -> str:
    """The analysis queue that goes with the job queue ``queue_name``: ``ludolog`` → ``ludolog-analysis``."""
    return f"{queue_name}-analysis"


def analysis_queue(stores: Stores) -> Queue:
    """The process's analysis queue (see the module docstring)."""
    return make_queue(stores.queue_redis, analysis_queue_name(stores.config.queue_name))


def engine_queue_name(queue_name: str) -> str:
    """The engine seats' queue that goes with the job queue ``queue_name``: ``ludolog`` → ``ludolog-engine``."""
    return f"{queue_name}-engine"


def engine_queue(stores: Stores) -> Queue:
    """The process's queue of engine seats' moves (see :class:`EngineMoveScheduler`)."""
    return make_queue(stores.queue_redis, engine_queue_name(stores.config.queue_name))


def worker_queues(stores: Stores, *, analysis: bool = True, others: bool = True) -> list[Queue]:
    """The queues a worker listens to, in the order RQ takes them: imports and folds, engine seats' moves, analysis.

    An engine seat's move comes after imports and folds (each a short job: a fold is milliseconds, and a person
    waits for an upload as much as for a move) and before analysis (batch work nobody is waiting on move by move;
    a running analysis job steps aside for a waiting move as for an import: :func:`step_aside`).
    ``others=False``: analysis only (a machine added for analysis); ``analysis=False``: no analysis.
    """
    if not (analysis or others):
        raise ValueError("a worker must listen to at least one queue")
    wanted = ((job_queue(stores), others), (engine_queue(stores), others), (analysis_queue(stores), analysis))
    return [queue for queue, listens in wanted if listens]


class FoldScheduler:
    """Queues fold jobs for branches that received events, one pending job per branch (the ledger's claim)."""

    def __init__(self, ledger: FoldLedger, queue: Queue) -> None:
        self.ledger = ledger
        self.queue = queue

    def __call__(self, gid: str, bid: str) -> bool:
        """Queue a fold of the branch unless one is already pending; True if queued."""
        if not self.ledger.claim(gid, bid):
            return False
        self.queue.enqueue(FOLD_JOB, gid, bid, retry=FOLD_RETRY, result_ttl=60, failure_ttl=24 * 3600,
                           description=f"fold {gid}/{bid}")
        return True


class EngineMoveScheduler:
    """After an append: queue the engine's move when the seat now to move is an engine seat.

    The job (:data:`ENGINE_MOVE_JOB`) takes the branch and the seq it moves after; it appends with that seq as the
    expected one, so two copies of it (a retry, the upkeep's re-queue of a job it thought lost) never play two
    moves: the second gets a conflict and stops. The seat store notes the branch as due until the move is played,
    so that the worker's upkeep (:func:`workers.heal.heal_engine_moves`) queues it again when its job died.
    """

    def __init__(self, stores: Stores, queue: Queue) -> None:
        self.stores = stores
        self.queue = queue

    def __call__(self, gid: str, bid: str) -> bool:
        """Queue the engine seat's move if one is to move at the branch's head; True if queued."""
        found = self.engine_seat_to_move(gid, bid)
        if found is None:
            return False
        self.enqueue(gid, bid, *found)
        return True

    def engine_to_move(self, gid: str, bid: str) -> int | None:
        """The head seq when an engine seat is to move there, else None (a branch with no seats costs one HLEN)."""
        found = self.engine_seat_to_move(gid, bid)
        return None if found is None else found[0]

    def engine_seat_to_move(self, gid: str, bid: str) -> tuple[int, int] | None:
        """(the head seq, the move's work: its level's playouts) when an engine seat is to move there, else None."""
        if not self.stores.seats.has_assignments(gid, bid):
            return None
        position = self.stores.reader.position(gid, bid)
        actor = position.rules.current_actor(position.state)
        if not isinstance(actor, int) or actor < 0:
            return None
        seat = self.stores.seats.seat(gid, bid, actor)
        if seat.holder != "engine" or seat.level is None:
            return None
        return position.seq, engine_budget(position.rules, seat.level)

    def enqueue(self, gid: str, bid: str, seq: int, work: int | None = None) -> None:
        """Let the move after ``seq`` (of ``work`` playouts, None: not known) wait for its owner's turn, note the branch
        as due (for the upkeep), then feed."""
        self.stores.seats.engine_move_due(gid, bid, time.time())
        turns = EngineTurns(self.queue.connection, self.queue.name)
        turns.hold(engine_payer(self.stores, gid, bid), [{"args": [gid, bid, seq], "work": work}])
        feed_engine_moves(self.queue)


def engine_payer(stores: Stores, gid: str, bid: str) -> str:
    """Who pays for the engine seats' moves on a branch, and whose turn they wait for: the branch's owner (else the
    game's; a game of the command line's, :data:`OPERATOR`)."""
    owner = stores.games.branch(gid, bid).owner or stores.games.game(gid).owner
    return owner or OPERATOR


def feed_engine_moves(queue: Queue) -> int:
    """Move waiting engine moves into the engine queue ``queue``, in turn between the tables' owners, up to one per
    worker listening (at least one); how many moved. A move put off by its owner's quota
    (:func:`put_off_engine_move`) waits in RQ's scheduled registry and takes no room."""
    turns = EngineTurns(queue.connection, queue.name)
    if not turns.anyone_waiting():
        return 0
    room = analysis_capacity(queue) - (queue.count + queue.started_job_registry.count)
    fed = 0
    while fed < room and (job := turns.next_turn()) is not None:
        _enqueue_engine_move(queue, job["args"], owner=job.get("user"), work=job.get("work"))
        fed += 1
    return fed


def engine_move_for_another(queue: Queue, owner: str | None, most: int) -> dict[str, Any] | None:
    """For a running engine move of ``owner``'s of ``most`` playouts, between two playouts of its search: the next
    waiting move, of no more playouts, of the first other owner in the ring who has no engine move running (nor one
    run in a process lent to them), taken off their list; else None. The caller runs it at once
    (:class:`workers.engine_seat.Lender`), so an owner with a move waiting need not wait for a longer move's end."""
    turns = EngineTurns(queue.connection, queue.name)
    others = [user for user in turns.users() if user != owner]
    if not others:
        return None
    running = engine_moves_running(queue)
    for user in others:
        upcoming = turns.peek(user)
        if running[user] or upcoming is None or upcoming.get("work") is None or int(upcoming["work"]) > most:
            continue
        return turns.take_of(user)
    return None


def engine_moves_running(queue: Queue) -> Counter[str]:
    """Engine moves running per owner: RQ's started jobs of ``queue``, each counted for the owner it is working for
    (``meta["lent_to"]`` while it lends its process, else ``meta["owner"]``)."""
    ids = queue.started_job_registry.get_job_ids()
    jobs = Job.fetch_many(ids, connection=queue.connection, serializer=JSONSerializer)
    return Counter(str(job.meta.get("lent_to") or job.meta.get("owner")) for job in jobs if job is not None)


def hand_back_engine_move(queue: Queue, job: dict[str, Any]) -> None:
    """A waiting move taken by :func:`engine_move_for_another` that could not run goes back to the front of its list."""
    EngineTurns(queue.connection, queue.name).hand_back(str(job.get("user")), {"args": job["args"], "work": job.get("work")})
    feed_engine_moves(queue)


def _enqueue_engine_move(queue: Queue, args: list[Any], *, owner: str | None, work: int | None,
                         after: float = 0) -> None:
    gid, bid, seq = args
    options: dict[str, Any] = {"retry": ENGINE_MOVE_RETRY, "result_ttl": 60, "failure_ttl": 24 * 3600,
                               "description": f"engine move {gid}/{bid} after {seq}",
                               "meta": {"owner": owner, "work": work},
                               "on_failure": Callback(ENGINE_MOVE_FAILED_CALLBACK)}
    if after > 0:
        queue.enqueue_in(timedelta(seconds=after), ENGINE_MOVE_JOB, gid, bid, seq, **options)
    else:
        queue.enqueue(ENGINE_MOVE_JOB, gid, bid, seq, **options)


def put_off_engine_move(queue: Queue, gid: str, bid: str, seq: int, owner: str, work: int, seconds: int) -> None:
    """Queue the engine's move after ``seq`` (``work`` playouts) again in ``seconds`` (its owner's work quota refused it
    for now)."""
    _enqueue_engine_move(queue, [gid, bid, seq], owner=owner, work=work, after=seconds)


class TurnMailScheduler:
    """After an append: when the move made it the turn of a person who wants turn e-mails (and this server sends mail),
    queue the check of their mail (:data:`TURN_MAIL_JOB`) ``LUDOLOG_TURN_MAIL_DELAY`` seconds later, on the job queue.

    The check decides for itself (:func:`service.games.turn_mail.deliver_turn_mail`): still their turn, still wanted,
    no page of the table open, and the turn's claim its own; so a check queued twice for one turn sends one mail.
    """

    def __init__(self, stores: Stores, queue: Queue) -> None:
        self.stores = stores
        self.queue = queue

    def __call__(self, gid: str, bid: str) -> bool:
        """Queue the check of the turn now at the branch's head if it may need a mail; True if queued."""
        found = person_to_mail(self.stores, gid, bid)
        if found is None:
            return False
        enqueue_turn_mail(self.queue, gid, bid, *found, after=self.stores.config.turn_mail_delay)
        return True


def enqueue_turn_mail(queue: Queue, gid: str, bid: str, seq: int, user: str, *, after: float) -> None:
    """Queue the check of ``user``'s turn e-mail for the turn at ``seq`` to run in ``after`` seconds (RQ's scheduler)."""
    options: dict[str, Any] = {"retry": TURN_MAIL_RETRY, "result_ttl": 3600, "failure_ttl": 7 * 24 * 3600,
                               "description": f"turn mail {gid}/{bid} at {seq} to {user}"}
    if after > 0:
        queue.enqueue_in(timedelta(seconds=after), TURN_MAIL_JOB, gid, bid, seq, user, **options)
    else:
        queue.enqueue(TURN_MAIL_JOB, gid, bid, seq, user, **options)


def after_table_append(stores: Stores) -> Callable[[str, str], None]:
    """The append listener of every process that plays moves (the web app, the engine seat's job): queue the branch's
    fold, the engine seat's move if one is next, the check of a turn e-mail if a person is next, and tell the home
    pages' lists of tables."""
    return after_append(FoldScheduler(stores.folds, job_queue(stores)), EngineMoveScheduler(stores, engine_queue(stores)),
                        TurnMailScheduler(stores, job_queue(stores)), TableMoves(stores.seats, stores.games, stores.reader))


def after_append(*listeners: Callable[[str, str], object]) -> Callable[[str, str], None]:
    """One append listener calling each of ``listeners`` in turn (the fold, then the engine seat's move)."""
    def notify(gid: str, bid: str) -> None:
        for listener in listeners:
            listener(gid, bid)
    return notify


def import_job_id(uid: str) -> str:
    """The RQ job id of upload ``uid``'s import (one job per upload, found again by the upkeep)."""
    return f"import-{uid}"


def enqueue_import(queue: Queue, uid: str) -> None:
    """Queue the import of upload ``uid``; after its last failed attempt the upload is marked failed."""
    queue.enqueue(IMPORT_JOB, uid, retry=IMPORT_RETRY, result_ttl=600, failure_ttl=24 * 3600, description=f"import {uid}",
                  job_id=import_job_id(uid), on_failure=Callback(IMPORT_FAILED_CALLBACK))


#: The user the command line's analysis requests are held for (no account name can hold a ``~``).
OPERATOR = "~operator"


def analysis_args(gid: str, bid: str, first: int, last: int, rollouts: int, view: str, seed: int = 0,
                  generation: int = 0) -> list[Any]:
    """:data:`ANALYSIS_JOB`'s arguments in the order it takes them (the one place that knows the order); ``generation``
    is the run's the job belongs to (:class:`service.store.analysis_runs.AnalysisRun`: a cancel moves it on)."""
    return [gid, bid, first, last, rollouts, view, seed, generation]


def _analysis_of(args: list[Any]) -> tuple[list[Any], int]:
    """An analysis job's (gid, bid, rollouts, view, seed) and its run's generation (0 for a job queued before jobs
    carried one)."""
    return args[:2] + args[4:7], int(args[7]) if len(args) > 7 else 0


def _range_of(args: list[Any], like: list[Any]) -> tuple[int, int] | None:
    """The [first, last] range of an analysis job with ``args`` if every argument but the range is ``like``'s."""
    if len(args) == len(like) and args[:2] + args[4:] == like[:2] + like[4:]:
        return int(args[2]), int(args[3])
    return None


def pending_analysis(queue: Queue, gid: str, bid: str, rollouts: int, view: str,
                     seed: int = 0, generation: int = 0) -> list[tuple[int, int]]:
    """The ranges of this analysis already on their way: waiting for a turn, queued, or due for a retry, in the run's
    ``generation`` (the jobs of a cancelled run stop when they run: they are on their way to nothing).

    A request queues (and is charged for) only decisions outside them, so asking twice, or while
    the analysis runs, costs little more. Running jobs do not count: one may have died with its
    worker, which RQ notices only when its heartbeat expires, and asking again must resume it at
    once (a job skips the positions already stored, so a live one's range costs only the asking).
    """
    waiting = AnalysisTurns(queue.connection, queue.name).waiting_args()
    ids = queue.get_job_ids() + queue.scheduled_job_registry.get_job_ids()
    jobs = Job.fetch_many(ids, connection=queue.connection, serializer=JSONSerializer)
    queued = [list(job.args) for job in jobs if job is not None and job.func_name == ANALYSIS_JOB]
    like = analysis_args(gid, bid, 0, 0, rollouts, view, seed, generation)
    return [span for args in waiting + queued if (span := _range_of(args, like)) is not None]


def waiting_analysis(args: list[Any], description: str) -> dict[str, Any]:
    """An analysis job as it waits for its turn: :data:`ANALYSIS_JOB`'s arguments and a description."""
    return {"args": args, "description": description}


def hold_analysis(queue: Queue, user: str, jobs: list[dict[str, Any]]) -> None:
    """Let ``user``'s analysis jobs (:func:`waiting_analysis`) wait for their turns, then feed the queue."""
    if jobs:
        AnalysisTurns(queue.connection, queue.name).hold(user, jobs)
    feed_analysis(queue)


def analysis_capacity(queue: Queue) -> int:
    """How many analysis jobs may be queued or running at once: one per worker listening, at least one."""
    return max(1, Worker.count(connection=queue.connection, queue=queue))


def analysis_in_flight(queue: Queue) -> int:
    """Jobs of ``queue`` queued, running, or waiting for a retry."""
    return int(queue.count + queue.started_job_registry.count + queue.scheduled_job_registry.count)


def feed_analysis(queue: Queue) -> int:
    """Move waiting analysis jobs into ``queue``, in turn between users, up to its capacity; how many moved."""
    turns = AnalysisTurns(queue.connection, queue.name)
    if not turns.anyone_waiting():
        return 0
    room = analysis_capacity(queue) - analysis_in_flight(queue)
    fed = 0
    while fed < room and (job := turns.next_turn()) is not None:
        if job.get("func") == PUZZLES_JOB:
            _enqueue_puzzles(queue, job["args"], user=job.get("user"))
        else:
            _enqueue_analysis(queue, job["args"], job["description"], user=job.get("user"))
        fed += 1
    return fed


def _enqueue_analysis(queue: Queue, args: list[Any], description: str, *, user: str | None = None,
                      at_front: bool = False) -> None:
    """Put one analysis job into RQ (only the feed and a job stepping aside do: requests hold theirs)."""
    queue.enqueue(ANALYSIS_JOB, *args, retry=ANALYSIS_RETRY, result_ttl=60, failure_ttl=24 * 3600, job_timeout=3600,
                  description=description, at_front=at_front, meta={"user": user} if user else None)


def enqueue_puzzles(queue: Queue, gid: str, bid: str, rollouts: int, view: str, seed: int, *,
                    user: str | None = None) -> None:
    """Queue the puzzle generator over an analysis that has just ended. Its confirming judgements are analysis work
    (four times the budget, on the positions kept), so it waits for ``user``'s turn as the analysis's own jobs did
    (:func:`feed_analysis`): the user who asked for the analysis, or, for an analysis nobody asked for (the command
    line's), straight into the queue."""
    args = [gid, bid, rollouts, view, seed]
    if user is None:
        _enqueue_puzzles(queue, args)
        return
    AnalysisTurns(queue.connection, queue.name).hold(user, [{"func": PUZZLES_JOB, "args": args,
                                                              "description": _puzzles_description(args)}])
    feed_analysis(queue)


def _puzzles_description(args: list[Any]) -> str:
    gid, bid, rollouts, view, seed = args
    return f"puzzles from {gid}/{bid} (analysis {rollouts} {view} seed {seed})"


def _enqueue_puzzles(queue: Queue, args: list[Any], *, user: str | None = None) -> None:
    """Put the puzzle generator's job into RQ: one job id per analysis (the last two range jobs ending at once queue it
    once; a second run would only skip every decision the first made)."""
    gid, bid, rollouts, view, seed = args
    queue.enqueue(PUZZLES_JOB, *args, job_id=f"puzzles-{gid}-{bid}-{rollouts}-{view}-{seed}", retry=ANALYSIS_RETRY,
                  result_ttl=24 * 3600, failure_ttl=24 * 3600, job_timeout=3600,
                  description=_puzzles_description(args), meta={"user": user} if user else None)


def enqueue_insights(queue: Queue, gid: str, rollouts: int) -> None:
    """Queue the insights' count of a game whose main line's analysis (full view, seed 0) has just ended, on the job
    queue: it folds the game once and runs a few scripts, so it need not wait behind the analyses (one job id per
    analysis; a second run changes nothing)."""
    queue.enqueue(INSIGHTS_JOB, gid, rollouts, job_id=f"insights-{gid}-{rollouts}", retry=ANALYSIS_RETRY,
                  result_ttl=24 * 3600, failure_ttl=24 * 3600, job_timeout=600,
                  description=f"insights from {gid} (analysis {rollouts})")


def step_aside(stores: Stores) -> bool:
    """Inside an analysis job, before each position: True when the job handed itself back and must stop.

    A job is a range of decisions, at the default budget of a long game a minute of work; were the
    worker's priorities and the users' turns kept only between jobs, an upload or another user would
    wait that long. So before each position the job steps aside (it is idempotent: when it runs
    again it skips the positions already stored) in two cases:

    * an import or fold waits on the job queue, and this job's worker takes that queue: the job
      queues itself again at the front of the analysis queue (it keeps its turn and the count of
      jobs in flight), and the worker takes the waiting job next (one LLEN per position to look);
    * it has run ``LUDOLOG_ANALYSIS_TURN_SECONDS`` (and one position at least), and a user with
      analysis waiting has no job running at all (or two fewer than this job's user): the job goes
      back to the front of its user's list, and the worker's next feed gives the turn to the
      rotation's next user. A time slice rather than a whole job: fair between users within
      seconds, at the cost of a switch (a fork and a state read) per slice while users compete.

    A job outside RQ, on another queue, or on an analysis-only worker (for imports) never steps aside.
    """
    job = get_current_job()
    if job is None or job.origin != analysis_queue_name(stores.config.queue_name):
        return False
    started, positions = _SEEN.get(job.id, (time.monotonic(), -1))
    _SEEN[job.id] = (started, positions + 1)
    if _imports_waiting(stores, job):
        _enqueue_analysis(make_queue(stores.queue_redis, job.origin), list(job.args), job.description or "",
                          user=job.meta.get("user"), at_front=True)
        return True
    user = job.meta.get("user")
    # At least one position per turn: two jobs handing the turn to each other at once would both stand still.
    if user is None or positions < 1 or time.monotonic() - started < stores.config.analysis_turn_seconds:
        return False
    turns = AnalysisTurns(stores.queue_redis, job.origin)
    if not _starved_besides(turns, make_queue(stores.queue_redis, job.origin), str(user)):
        return False
    turns.hand_back(str(user), waiting_analysis(list(job.args), job.description or ""))
    return True


#: Per job: when this process first saw it in :func:`step_aside`, and how many positions it has analysed
#: since (the calls before this one). A work horse runs one job: the dict stays tiny.
_SEEN: dict[str, tuple[float, int]] = {}


def _imports_waiting(stores: Stores, job: Job) -> bool:
    """True when the job queue or the engine seats' queue has a job waiting and ``job``'s worker takes that queue."""
    names = (stores.config.queue_name, engine_queue_name(stores.config.queue_name))
    return any(make_queue(stores.queue_redis, name).count and _worker_takes(job, name) for name in names)


def _starved_besides(turns: AnalysisTurns, queue: Queue, user: str) -> bool:
    """True when another user has analysis waiting and no job running, or two fewer running than ``user``."""
    others = [name for name in turns.users() if name != user]
    if not others:
        return False
    ids = queue.started_job_registry.get_job_ids()
    running = Counter(str(job.meta.get("user")) for job in Job.fetch_many(ids, connection=queue.connection,
                                                                          serializer=JSONSerializer) if job is not None)
    mine = max(1, running[user])
    return any(running[name] == 0 or running[name] + 1 < mine for name in others)


def _worker_takes(job: Job, queue_name: str) -> bool:
    """True when the worker running ``job`` listens to ``queue_name`` (from RQ's worker registry)."""
    if not job.worker_name:
        return False
    worker = Worker.find_by_key(Worker.redis_worker_namespace_prefix + job.worker_name, connection=job.connection,
                                serializer=JSONSerializer)
    return worker is not None and queue_name in worker.queue_names()


def cancel_branch_analysis(queue: Queue, gid: str, bid: str) -> int:
    """Cancel every analysis job of branch ``bid`` that has not started: waiting, queued, or due for a retry.

    Cancelled jobs go to RQ's cancelled registry, never the failed one. A job already running finds its
    branch gone and stops (:func:`workers.analysis.analyse_range`). Returns how many were cancelled.
    """
    ours = [gid, bid]  # the first two of analysis_args
    return _cancel_analysis_jobs(queue, lambda args: list(args[:2]) == ours)


def cancel_analysis(queue: Queue, gid: str, bid: str, rollouts: int, view: str, seed: int, before: int) -> int:
    """Cancel the jobs of one analysis (the branch at this budget, view and seed) of a run's generation below
    ``before`` that have not started, as :func:`cancel_branch_analysis` does; a job of a newer run (asked for after
    the cancel) stays. A running one finds its run cancelled and stops (:func:`workers.analysis.analyse_range`)."""
    ours, _ = _analysis_of(analysis_args(gid, bid, 0, 0, rollouts, view, seed))

    def matches(args: list[Any]) -> bool:
        analysis, generation = _analysis_of(args)
        return analysis == ours and generation < before

    return _cancel_analysis_jobs(queue, matches)


def _cancel_analysis_jobs(queue: Queue, matches: Callable[[list[Any]], bool]) -> int:
    """Cancel the analysis jobs whose arguments ``matches``, waiting, queued or due for a retry; how many."""
    cancelled = AnalysisTurns(queue.connection, queue.name).drop(lambda job: matches(list(job["args"])))
    ids = queue.get_job_ids() + queue.scheduled_job_registry.get_job_ids()
    for job in Job.fetch_many(ids, connection=queue.connection, serializer=JSONSerializer):
        if job is not None and job.func_name == ANALYSIS_JOB and matches(list(job.args)):
            try:
                job.cancel()
            except InvalidJobOperation:  # cancelled meanwhile by another deletion
                continue
            cancelled += 1
    feed_analysis(queue)
    return cancelled
