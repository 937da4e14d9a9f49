"""The analysis job: run the search player over a range of a branch's decisions (see :mod:`service.games.analysis`).

Before each position the job may step aside (:func:`service.jobs.step_aside`: it hands itself back
and stops) for a waiting import or fold, or, after a time slice, for another user's waiting analysis:
so an upload waits for one position, not one job.
A job whose branch was deleted (before it started or while it runs) stops quietly, storing nothing
more (deleting a branch cancels its queued jobs: :func:`service.jobs.cancel_branch_analysis`).

A job belongs to one generation of its analysis's run (:class:`service.store.analysis_runs.AnalysisRun`). When the
run is cancelled (its generation moves on), the job stops: before its next position, and during a position's search
before its next playout (:class:`CancelWatch`, a hook the search calls between two playouts,
:data:`engine.analysis.search.BETWEEN_PLAYOUTS`; the engine knows nothing of runs or Redis). The position it was
searching is dropped, the verdicts it stored stay, and a verdict of the old generation is never stored.

Idempotent and resumable: positions already stored are skipped and results are written with
``HSETNX`` (the first stays); the search is seeded by the seq, so a re-run gives the same result.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager

from rq import get_current_job

from engine import CHANCE, apply_event
from engine.core.protocol import Rules, State
from service.games.analysis import Position, analyse_position, analysis_run, decisions, stored_results
from service.games.insights import counts_for_insights
from service.jobs import analysis_queue, enqueue_insights, enqueue_puzzles, job_queue, step_aside
from service.store.analysis_results import AnalysisResults, holder_of
from service.store.analysis_runs import AnalysisRun
from service.store.context import current_stores
from service.store.games import GameStore
from service.store.records import Branch
from service.store.snapshots import StateReader
from workers.playouts import between_playouts

#: Seconds between two looks, while a position is searched, at whether the run was cancelled (one HGET a look).
CANCEL_LOOK_EVERY = 0.2


class RunCancelled(Exception):
    """Raised between two playouts when the job's run was cancelled: the search is abandoned."""


class CancelWatch:
    """Between two playouts, looks (every :data:`CANCEL_LOOK_EVERY` s) whether the job's run has moved past its
    generation, and abandons the search if so (:class:`RunCancelled`); it touches nothing of the search's own."""

    def __init__(self, run: AnalysisRun, generation: int) -> None:
        self.run = run
        self.generation = generation
        self.next_look = time.monotonic() + CANCEL_LOOK_EVERY

    def cancelled(self) -> bool:
        """True when the run is no longer of this job's generation (one look, now)."""
        return self.run.generation() != self.generation

    def __call__(self) -> None:
        if time.monotonic() < self.next_look:
            return
        self.next_look = time.monotonic() + CANCEL_LOOK_EVERY
        if self.cancelled():
            raise RunCancelled

    def installed(self) -> AbstractContextManager[None]:
        """Looked at before every playout while the block runs."""
        return between_playouts(self)


def analyse_range(gid: str, bid: str, first: int, last: int, rollouts: int, view: str, seed: int = 0,
                  generation: int = 0) -> dict[str, int]:
    """RQ job: analyse the branch's decisions with seq in [first, last] that have no stored result yet, for the run of
    ``generation``; ``{"analysed": n}``, with ``"cancelled": 1`` when the run was cancelled meanwhile."""
    stores = current_stores()
    record = stores.games.game(gid)
    branches = stores.games.branches(gid)
    if bid not in branches:  # deleted after this job was queued: nothing to do, nothing to fail
        return {"analysed": 0}
    results = stored_results(stores.redis, record, rollouts, view, seed)
    watch = CancelWatch(analysis_run(stores.redis, gid, bid, rollouts, view, seed), generation)
    reader = StateReader(stores.games, stores.snapshots, cache_size=0)
    done = 0
    for seq, rules, state, played in _states(reader, stores.games, gid, bid, first, last):
        actor = rules.current_actor(state)
        if actor is None or actor == CHANCE or len(rules.legal_actions(state)) < 2:
            continue
        holder, position = holder_of(branches, bid, seq), Position(seq, int(actor), played)
        if watch.cancelled():
            return {"analysed": done, "cancelled": 1}
        if results.has(holder, position):
            watch.run.skip(generation, seq)
            continue
        if not stores.games.has_branch(gid, bid):  # deleted while this ran: write no result it would leave behind
            break
        if step_aside(stores):  # an upload, a fold or another user goes first; this job resumes after
            break
        watch.run.started(generation, time.time())
        try:
            with watch.installed():
                verdict = analyse_position(rules, state, seq, rollouts, view, played, seed)
        except RunCancelled:
            return {"analysed": done, "cancelled": 1}
        if watch.run.store(results, holder, position, verdict, generation, time.time()) < 0:
            return {"analysed": done, "cancelled": 1}
        done += 1
    else:  # this range is done: if it was the analysis's last, the puzzle generator looks at it
        if done and _analysis_ended(stores.games, results, branches, gid, bid):
            enqueue_puzzles(analysis_queue(stores), gid, bid, rollouts, view, seed, user=_requester())
            if counts_for_insights(bid, view, seed):
                enqueue_insights(job_queue(stores), gid, rollouts)
    return {"analysed": done}


def _requester() -> str | None:
    """The user whose turn this analysis job ran in (its RQ job's ``meta``), None outside RQ or for nobody's."""
    job = get_current_job()
    user = job.meta.get("user") if job is not None else None
    return user if isinstance(user, str) else None


def _analysis_ended(games: GameStore, results: AnalysisResults, branches: dict[str, Branch], gid: str,
                    bid: str) -> bool:
    """True when every decision of the branch has its verdict stored."""
    _, positions = decisions(games, gid, bid)
    return len(results.get_many(branches, bid, positions)) == len(positions)


def _states(reader: StateReader, games: GameStore, gid: str, bid: str, first: int,
            last: int) -> Iterator[tuple[int, Rules, State, str | None]]:
    """(seq, rules, state after seq, the move then played in notation or None) for seq from ``first`` to ``last``,
    folding forward from one read."""
    position = reader.position(gid, bid, first)
    rules, state, seq = position.rules, position.state, first
    for event in games.iter_events(gid, bid, after=first, upto=last + 1):
        yield seq, rules, state, rules.format_action(rules.parse_action(event.action or ""))
        state = apply_event(rules, state, event, check=False)
        seq = event.seq
    if seq <= last:  # the head: no move played after it yet
        yield seq, rules, state, None
