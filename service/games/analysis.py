"""Analysis of a branch: the search player's win chances and best moves at every decision.

This module is the side the API and the CLI use (which decisions a branch has, where results are
stored, queuing the jobs by name through :mod:`service.jobs`, the report with its marks); the RQ job
that runs the searches is :func:`workers.analysis.analyse_range`.

A *position* is the state after seq ``s`` where a seat is to decide among two or more legal actions
(forced moves are not decisions and are skipped); the move then played is event ``s + 1`` (none at
the head). The positions of a branch are split into ranges of :data:`POSITIONS_PER_JOB`, one job
each, so every worker takes a share. Each result is a verdict (:func:`engine.analysis.judge`: the
best candidates and the played move compared on paired playouts) stored in a Redis hash per (branch
holding the seq, rules version, search version, budget, view, seed) under the game's hash tag
(:func:`service.store.keys.analysis_for`), its field ``"<seq> <played>"``: a fork reads its parent's results
up to the fork point, and at the fork point itself (where the fork played another move) gets a
verdict of its own move.

Jobs are idempotent and resumable: a job skips positions already stored and writes with ``HSETNX``;
the search is seeded by the request's seed and the seq alone, so a position analysed again (a job
re-run after its worker was killed) gives the identical result, and the first stored one stays. A
request queues only the ranges that still miss results; another seed is a second opinion.

The decisions the requests queue make up the analysis's *run* (:class:`service.store.analysis_runs.AnalysisRun`):
who asked (they, and the game's owner, may cancel it), the quota grants it was charged from, and its pace, from which
:func:`report` estimates the time left. :func:`cancel_run` stops it: the jobs not started are cancelled, a running
one stops before its next playout (:mod:`workers.analysis`), the verdicts stored so far stay, and the work of the
decisions left undone goes back to the grants that paid for them.

Marks of the played move come from the 95 % interval of its *loss* (the best move's win chance minus
the played move's, for the mover, over their paired playouts): a mark is given only when the
interval's *low* end reaches it (:func:`engine.analysis.verdict.mark_for`), ``??`` (blunder) from 0.20, ``?``
(mistake) from 0.10, ``?!`` (inaccuracy) from 0.05; a duel leaning past one of them is played on until it is
decided (the verdict's step 4). These are lichess's steps scaled to win probability: a 5-point drop is
noticeable, 20 points usually decides a game. The best move
shown is the played move wherever its loss interval reaches 0: two moves the samples cannot tell apart are
both "best", and naming the better-looking one would be a coin flip that a second opinion flips again.

For a seat view every field goes through the one viewer rule (:class:`engine.core.visibility.SeatView`):
the searches use only what the seat saw, another seat's decisions are not judged, and a move another
seat made in secret shows as the events route shows it (no notation, its public sentence, ``hidden``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import redis
from rq import Queue

from engine import CHANCE, apply_event, get_rules, start
from engine.analysis import Verdict, default_rollouts, judge, search_version
from engine.analysis.verdict import MARK_THRESHOLDS, mark_for
from engine.core.protocol import Action, Rules, State
from engine.core.visibility import SeatView
from service.i18n import current_locale
from service.i18n.games import move_text
from service.i18n.games.stored import message_json, stored_text
from service.jobs import OPERATOR, analysis_args, cancel_analysis, hold_analysis, pending_analysis, waiting_analysis
from service.store.analysis_results import AnalysisRequests, AnalysisResults
from service.store.analysis_runs import AnalysisRun, Cancelled, RunState
from service.store.games import GameStore
from service.store.quota import AnalysisQuota
from service.store.records import GameRecord

POSITIONS_PER_JOB = 12
REQUEST_TTL_SECONDS = 24 * 3600
#: Best moves listed per position.
BEST_SHOWN = 5
#: The largest seed a request may give (seeds are 0 to this).
MAX_SEED = 2**31 - 1


def analysis_budget(game: str, asked: int | None = None) -> int:
    """The budget (rollouts per decision) ``asked`` for, else the game's default (:func:`engine.analysis.default_rollouts`:
    200, or more where a game's marks need more samples to repeat under a second seed)."""
    return asked if asked is not None else default_rollouts(get_rules(game))


def analysis_version(game: str) -> str:
    """The search version ``game``'s verdicts are stored and reported under (:func:`engine.analysis.search_version`)."""
    return search_version(get_rules(game))


def stored_results(client: redis.Redis, record: GameRecord, rollouts: int, view: str, seed: int = 0) -> AnalysisResults:
    """The stored verdicts of ``record``'s branches at one budget, view and seed, under its game's own search
    version: the one way the API, the pages and the workers reach them."""
    return AnalysisResults(client, record.id, record.rules_version, rollouts, view, seed,
                           search_version=analysis_version(record.game))


@dataclass(frozen=True)
class Position:
    """A decision of a branch: the state after ``seq``, ``actor`` to move, ``played`` (notation, None at the head).

    ``text`` is the played move's sentence (in the current locale) and ``hidden`` True when the viewer the positions
    were listed for may not see which move it was (:class:`~engine.core.visibility.SeatView`).
    """

    seq: int
    actor: int
    played: str | None
    text: str | None = None
    hidden: bool = False

    @property
    def field(self) -> str:
        """The field of the results hash holding this position's verdict: the seq and the move judged."""
        return f"{self.seq} {self.played or ''}"


def view_seat(view: str) -> int | None:
    """The seat a view searches for: None for ``full`` (everything may be used), else the seat number."""
    return None if view == "full" else int(view)


def position_seed(seq: int, seed: int) -> int:
    """The search's seed at the position after ``seq`` for a request's ``seed`` (seed 0: the seq itself)."""
    return seed * 1_000_000_007 + seq


def decisions(games: GameStore, gid: str, bid: str, view: str | None = None) -> tuple[Rules, list[Position]]:
    """The rules and every decision of the branch, in seq order (a full fold from the first event).

    With a ``view`` (``full`` or a seat), each played move's sentence and whether that viewer may see it
    (:class:`~engine.core.visibility.SeatView`) are noted too.
    """
    events = games.events(gid, bid)
    rules, state = start(events[0])
    viewer = None
    if view is not None:
        viewer = SeatView(rules, len(games.game(gid).setup.players), view_seat(view), full=view == "full")
    positions: list[Position] = []
    for event in events[1:]:
        action = rules.parse_action(event.action or "")
        _note(rules, state, event.seq - 1, action, viewer, positions)
        state = apply_event(rules, state, event, check=False)
    _note(rules, state, events[-1].seq, None, viewer, positions)
    return rules, positions


def _note(rules: Rules, state: State, seq: int, played: Action | None, viewer: SeatView | None,
          positions: list[Position]) -> None:
    actor = rules.current_actor(state)
    if actor is None or actor == CHANCE or len(rules.legal_actions(state)) < 2:
        return
    if played is None:
        positions.append(Position(seq, int(actor), None))
        return
    text = move_text(rules, state, played, current_locale()) if viewer is not None else None
    hidden = viewer is not None and not viewer.sees(state, played)
    positions.append(Position(seq, int(actor), rules.format_action(played), text, hidden))


def _interval(low: float, high: float) -> list[float]:
    return [round(low, 4), round(high, 4)]


def analyse_position(rules: Rules, state: State, seq: int, rollouts: int, view: str, played: str | None = None,
                     seed: int = 0) -> dict[str, Any]:
    """The stored form of one position's verdict, the ``played`` move (notation) judged: seeded by ``seed`` and
    ``seq`` so that forks and re-runs agree (a game that shares its screening seeds the tree by ``seq`` alone,
    seed 0's)."""
    verdict = judge(rules, state, seat=view_seat(view), rollouts=rollouts, seed=position_seed(seq, seed),
                    played=rules.parse_action(played) if played is not None else None,
                    screen_seed=position_seed(seq, 0))
    return stored_form(rules, state, verdict)


def stored_form(rules: Rules, state: State, verdict: Verdict) -> dict[str, Any]:
    """A verdict as stored: chances with intervals, and the evaluated moves (best first) in the game's notation, each
    with its sentence as a message (:mod:`service.i18n.games.stored`: rendered in the reader's language when read)."""
    return {
        "actor": verdict.actor, "win": [round(p, 4) for p in verdict.win],
        "win_ci": [_interval(lo, hi) for lo, hi in zip(verdict.win_low, verdict.win_high, strict=True)],
        "moves": [{"action": rules.format_action(m.action), "message": message_json(rules.describe_message(state, m.action)),
                   "win": round(m.win, 4), "ci": _interval(m.low, m.high), "n": m.samples,
                   "loss": round(m.loss, 4), "loss_ci": _interval(m.loss_low, m.loss_high)} for m in verdict.moves],
        "played": rules.format_action(verdict.played.action) if verdict.played is not None else None,
    }


def missing_ranges(games: GameStore, client: redis.Redis, queue: Queue, gid: str, bid: str, rollouts: int,
                   view: str, seed: int = 0, generation: int = 0) -> list[list[int]]:
    """The seqs of the decisions still missing results and not already on their way in the run's ``generation``, one
    range per job."""
    record = games.game(gid)
    branches = games.branches(gid)
    _, positions = decisions(games, gid, bid)
    stored = stored_results(client, record, rollouts, view, seed).get_many(branches, bid, positions)
    pending = pending_analysis(queue, gid, bid, rollouts, view, seed, generation)
    missing = [p.seq for p in positions if p.seq not in stored and not any(a <= p.seq <= b for a, b in pending)]
    return [missing[i:i + POSITIONS_PER_JOB] for i in range(0, len(missing), POSITIONS_PER_JOB)]


def analysis_run(client: redis.Redis, gid: str, bid: str, rollouts: int, view: str, seed: int = 0) -> AnalysisRun:
    """The run of the analysis of the branch at this budget, view and seed."""
    return AnalysisRun(client, gid, bid, rollouts, view, seed)


def queue_ranges(client: redis.Redis, queue: Queue, gid: str, bid: str, rollouts: int, view: str, seed: int, *,
                 user: str, generation: int, ranges: list[list[int]], grant: str | None = None) -> int | None:
    """Note ``ranges`` in the run of ``generation`` as asked for by ``user`` (paid by quota ``grant``) and queue one
    job per range, waiting for ``user``'s turns on the analysis queue (see :mod:`service.jobs`); the number of jobs,
    or None, with nothing queued, when a cancel moved the run on since ``generation`` was read (ask again)."""
    seqs = [seq for span in ranges for seq in span]
    if ranges and not analysis_run(client, gid, bid, rollouts, view, seed).begin(generation, user, seqs,
                                                                                  REQUEST_TTL_SECONDS, grant):
        return None
    hold_analysis(queue, user, [waiting_analysis(analysis_args(gid, bid, span[0], span[-1], rollouts, view, seed,
                                                               generation),
                                                 f"analyse {gid}/{bid} {span[0]}-{span[-1]} seed {seed}")
                                for span in ranges])
    return len(ranges)


def enqueue_analysis(games: GameStore, client: redis.Redis, queue: Queue, gid: str, bid: str, rollouts: int,
                     view: str, seed: int = 0, *, user: str = OPERATOR) -> int:
    """Queue one job per range of decisions still missing results, charged to no quota (the command line's way:
    the API charges the user first, :func:`queue_ranges`); the number of jobs."""
    while True:  # a cancel between reading the generation and noting the run: read it again
        generation = analysis_run(client, gid, bid, rollouts, view, seed).generation()
        ranges = missing_ranges(games, client, queue, gid, bid, rollouts, view, seed, generation)
        jobs = queue_ranges(client, queue, gid, bid, rollouts, view, seed, user=user, generation=generation,
                            ranges=ranges)
        if jobs is not None:
            return jobs


def cancel_run(client: redis.Redis, queue: Queue, quota: AnalysisQuota, gid: str, bid: str, rollouts: int, view: str,
               seed: int, *, user: str, now: float) -> Cancelled:
    """Cancel the running analysis of the branch at this budget, view and seed for ``user`` (who may: the caller
    checks): its run moves to the next generation, its jobs not started are cancelled (a running one stops before its
    next playout), and each quota grant gets back the work of its decisions left undone."""
    run = analysis_run(client, gid, bid, rollouts, view, seed)
    generation = run.generation()
    cancelled = run.cancel(generation, user, now)
    if cancelled.outcome == "cancelled":
        cancel_analysis(queue, gid, bid, rollouts, view, seed, before=generation + 1)
        for grant in cancelled.grants:
            quota.give_back(grant.user, grant.grant, rollouts * cancelled.unused(grant))
    return cancelled


def report(games: GameStore, client: redis.Redis, gid: str, bid: str, rollouts: int, view: str,
           seed: int = 0) -> dict[str, Any]:
    """The branch's analysis as the API answers it: status, progress, the time left while it runs (``estimate``, from
    the pace of the decisions done so far: null before the first is done), and one entry per analysed decision."""
    record = games.game(gid)
    branches = games.branches(gid)
    _, positions = decisions(games, gid, bid, view)
    results = stored_results(client, record, rollouts, view, seed)
    stored = results.get_many(branches, bid, positions)
    entries = [_entry(p, stored[p.seq]) for p in positions if p.seq in stored]
    run = analysis_run(client, gid, bid, rollouts, view, seed).state()
    status = _status(client, gid, bid, rollouts, view, seed, run, done=len(stored) == len(positions))
    return {"status": status, "done": len(stored), "total": len(positions), "rollouts": rollouts, "seed": seed,
            "view": view, "search_version": results.search_version, "thresholds": dict(MARK_THRESHOLDS),
            "estimate": _estimate(run) if status == "running" else None, "positions": entries}


def _status(client: redis.Redis, gid: str, bid: str, rollouts: int, view: str, seed: int, run: RunState, *,
            done: bool) -> str:
    """done (every decision has its verdict), cancelled, running (asked for, with decisions still to do), or none."""
    if done:
        return "done"
    if run.state == "cancelled":
        return "cancelled"
    marked = AnalysisRequests(client).is_marked(gid, bid, rollouts, view, seed)
    # A mark without a run is one set before runs were kept: it still says the analysis runs.
    return "running" if marked and (run.state is None or run.running) else "none"


def _estimate(run: RunState) -> dict[str, Any] | None:
    """The time left now at the run's pace so far (the decisions left, less the time since the last one was done), or
    None before its first decision is done."""
    left, pace = run.seconds_left(time.time()), run.seconds_per_decision
    if left is None or pace is None:
        return None
    return {"seconds_left": round(left), "seconds_per_decision": round(pace, 2), "decisions_left": run.todo}


def _move(move: dict[str, Any]) -> dict[str, Any]:
    return {"action": move["action"], "text": said(move), "win": move["win"], "ci": move["ci"], "n": move["n"]}


def said(move: dict[str, Any]) -> str:
    """A stored move's sentence in the current locale (a result stored before messages were: its English text)."""
    return stored_text(move, current_locale())


def _entry(position: Position, result: dict[str, Any]) -> dict[str, Any]:
    """One position of the report: chances, best moves, every evaluated move, and the played move's verdict (each
    move's sentence rendered once: the best moves and the played one are among the options)."""
    moves = result["moves"]
    shown = [_move(m) for m in moves]
    return {"seq": position.seq, "actor": position.actor, "win": result["win"], "win_ci": result["win_ci"],
            "best": [dict(m) for m in shown[:BEST_SHOWN]],
            "options": sorted(shown, key=lambda m: -m["win"]),
            "played": _played(position, moves, {m["action"]: m["text"] for m in shown})}


def _played(position: Position, moves: list[dict[str, Any]], texts: dict[str, str]) -> dict[str, Any] | None:
    """The played move as the viewer may see it, with its loss and mark when it was judged (``texts``: each judged
    move's sentence, by notation)."""
    if position.played is None:
        return None
    if position.hidden:
        return {"action": None, "text": position.text, "hidden": True, "win": None, "ci": None, "loss": None,
                "loss_ci": None, "mark": None}
    judged = next((m for m in moves if m["action"] == position.played), None)
    if judged is None:  # another seat's decision in a seat's view: not judged, only shown
        return {"action": position.played, "text": position.text, "win": None, "ci": None, "loss": None,
                "loss_ci": None, "mark": None}
    return {"action": judged["action"], "text": texts[judged["action"]], "win": judged["win"], "ci": judged["ci"],
            "loss": judged["loss"], "loss_ci": judged["loss_ci"], "mark": mark_for(judged["loss_ci"][0])}
