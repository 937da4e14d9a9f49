"""Analysis of a branch: the search player's win chances and best moves at every decision.

This module is the side the API and the CLI use (which decisions a branch has, where results are
stored, queuing the jobs by name through :mod:`service.jobs`, the report with its marks); the RQ job
that runs the searches is :func:`workers.analysis.analyse_range`.

A *position* is the state after seq ``s`` where a seat is to decide among two or more legal actions
(forced moves are not decisions and are skipped); the move then played is event ``s + 1`` (none at
the head). The positions of a branch are split into ranges of :data:`POSITIONS_PER_JOB`, one job
each, so every worker takes a share. Each result is stored in a Redis hash per (branch holding the
seq, rules version, search version, budget, view) under the game's hash tag
(:func:`service.keys.analysis_for`), so a fork reads its parent's results up to the fork point.

Jobs are idempotent and resumable: a job skips positions already stored and writes with ``HSETNX``;
the search is seeded by the seq alone, so a position analysed again (a job re-run after its worker
was killed) gives the identical result, and the first stored one stays. A request queues only the
ranges that still miss results.

Marks of the played move, from ``loss`` = the best move's estimated win chance minus the played
move's (both for the mover, in [0, 1]): ``??`` (blunder) from :data:`BLUNDER` (0.20), ``?`` (mistake)
from :data:`MISTAKE` (0.10), ``?!`` (inaccuracy) from :data:`INACCURACY` (0.05). These are lichess's
steps scaled to win probability: a 5-point drop is noticeable, 20 points usually decides a game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis
from rq import Queue

from engine import CHANCE, apply_event, start
from engine.analysis import SEARCH_VERSION, search
from engine.core.protocol import Rules, State
from service import keys
from service.jobs import OPERATOR, analysis_args, hold_analysis, pending_analysis, waiting_analysis
from service.store.games import Branch, GameStore

POSITIONS_PER_JOB = 12
REQUEST_TTL_SECONDS = 24 * 3600
#: Loss thresholds of the marks (see the module docstring).
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
#: Best moves listed per position.
BEST_SHOWN = 5


@dataclass(frozen=True)
class Position:
    """A decision of a branch: the state after ``seq``, ``actor`` to move, ``played`` (notation, None at the head)."""

    seq: int
    actor: int
    played: str | None


def view_seat(view: str) -> int | None:
    """The seat a view searches for: None for ``full`` (everything may be used), else the seat number."""
    return None if view == "full" else int(view)


def decisions(games: GameStore, gid: str, bid: str) -> tuple[Rules, list[Position]]:
    """The rules and every decision of the branch, in seq order (a full fold from the first event)."""
    events = games.events(gid, bid)
    rules, state = start(events[0])
    positions: list[Position] = []
    for event in events[1:]:
        _note(rules, state, event.seq - 1, rules.format_action(rules.parse_action(event.action or "")), positions)
        state = apply_event(rules, state, event, check=False)
    _note(rules, state, events[-1].seq, None, positions)
    return rules, positions


def _note(rules: Rules, state: State, seq: int, played: str | None, positions: list[Position]) -> None:
    actor = rules.current_actor(state)
    if actor is not None and actor != CHANCE and len(rules.legal_actions(state)) > 1:
        positions.append(Position(seq, int(actor), played))


def holder_of(branches: dict[str, Branch], bid: str, seq: int) -> str:
    """The branch whose own stream holds ``seq`` (an ancestor at or below the fork points)."""
    branch = branches[bid]
    while branch.parent is not None and seq <= branch.fork_seq:
        branch = branches[branch.parent]
    return branch.id


class AnalysisResults:
    """The stored results of one (budget, view) for the branches of a game."""

    def __init__(self, client: redis.Redis, gid: str, rules_version: str, rollouts: int, view: str) -> None:
        self.redis, self.gid, self.rules_version, self.rollouts, self.view = client, gid, rules_version, rollouts, view

    def key(self, holder: str) -> str:
        """The hash holding the results of positions in ``holder``'s own stream."""
        return keys.analysis_for(self.gid, holder, self.rules_version, SEARCH_VERSION, self.rollouts, self.view)

    def get_many(self, branches: dict[str, Branch], bid: str, seqs: list[int]) -> dict[int, dict[str, Any]]:
        """The stored results among ``seqs`` (one HMGET per holding branch)."""
        by_holder: dict[str, list[int]] = {}
        for seq in seqs:
            by_holder.setdefault(holder_of(branches, bid, seq), []).append(seq)
        found: dict[int, dict[str, Any]] = {}
        for holder, wanted in by_holder.items():
            for seq, raw in zip(wanted, self.redis.hmget(self.key(holder), [str(s) for s in wanted]), strict=True):
                if raw is not None:
                    found[seq] = json.loads(raw)
        return found

    def put(self, holder: str, seq: int, result: dict[str, Any]) -> bool:
        """Store a result unless one is there already (the first stays); True if stored."""
        return bool(self.redis.hsetnx(self.key(holder), str(seq), json.dumps(result, separators=(",", ":"))))


def analyse_position(rules: Rules, state: State, seq: int, rollouts: int, view: str) -> dict[str, Any]:
    """The stored form of one position's search: seeded by ``seq`` so that forks and re-runs agree."""
    analysis = search(rules, state, seat=view_seat(view), rollouts=rollouts, seed=seq)
    return {
        "actor": analysis.actor, "win": [round(p, 4) for p in analysis.win],
        "actions": [{"action": rules.format_action(a.action), "text": rules.describe(state, a.action),
                     "win": round(a.win, 4), "n": a.visits} for a in analysis.actions if a.visits],
    }


def missing_ranges(games: GameStore, client: redis.Redis, queue: Queue, gid: str, bid: str, rollouts: int,
                   view: str) -> list[list[int]]:
    """The seqs of the decisions still missing results and not already on their way, one range per job."""
    record = games.game(gid)
    branches = games.branches(gid)
    _, positions = decisions(games, gid, bid)
    results = AnalysisResults(client, gid, record.rules_version, rollouts, view)
    stored = results.get_many(branches, bid, [p.seq for p in positions])
    pending = pending_analysis(queue, gid, bid, rollouts, view)
    missing = [p.seq for p in positions if p.seq not in stored and not any(a <= p.seq <= b for a, b in pending)]
    return [missing[i:i + POSITIONS_PER_JOB] for i in range(0, len(missing), POSITIONS_PER_JOB)]


def enqueue_analysis(games: GameStore, client: redis.Redis, queue: Queue, gid: str, bid: str, rollouts: int,
                     view: str, *, user: str = OPERATOR, ranges: list[list[int]] | None = None) -> int:
    """Queue one job per range of decisions still missing results (``ranges`` when already known); the number of jobs.

    The jobs wait for ``user``'s turns on the analysis queue (see :mod:`service.jobs`).
    """
    if ranges is None:
        ranges = missing_ranges(games, client, queue, gid, bid, rollouts, view)
    if ranges:
        client.set(keys.analysis_requested_for(gid, bid, rollouts, view), 1, ex=REQUEST_TTL_SECONDS)
    hold_analysis(queue, user, [waiting_analysis(analysis_args(gid, bid, seqs[0], seqs[-1], rollouts, view),
                                                 f"analyse {gid}/{bid} {seqs[0]}-{seqs[-1]}") for seqs in ranges])
    return len(ranges)


def mark_for(loss: float | None) -> str | None:
    """``??``, ``?``, ``?!`` or None for a played move's loss (see the thresholds above)."""
    if loss is None:
        return None
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    return "?!" if loss >= INACCURACY else None


def report(games: GameStore, client: redis.Redis, gid: str, bid: str, rollouts: int, view: str) -> dict[str, Any]:
    """The branch's analysis as the API answers it: status, progress and one entry per analysed decision."""
    record = games.game(gid)
    branches = games.branches(gid)
    _, positions = decisions(games, gid, bid)
    results = AnalysisResults(client, gid, record.rules_version, rollouts, view)
    stored = results.get_many(branches, bid, [p.seq for p in positions])
    entries = [_entry(p, stored[p.seq]) for p in positions if p.seq in stored]
    if len(stored) == len(positions):
        status = "done"
    elif client.exists(keys.analysis_requested_for(gid, bid, rollouts, view)):
        status = "running"
    else:
        status = "none"
    return {"status": status, "done": len(stored), "total": len(positions), "rollouts": rollouts, "view": view,
            "search_version": SEARCH_VERSION, "positions": entries}


def _entry(position: Position, result: dict[str, Any]) -> dict[str, Any]:
    """One position of the report: chances, best moves, and the played move with its loss and mark."""
    actions = result["actions"]
    best = actions[:BEST_SHOWN]
    played: dict[str, Any] | None = None
    if position.played is not None:
        match = next((a for a in actions if a["action"] == position.played), None)
        win = match["win"] if match is not None else None
        loss = round(max(0.0, actions[0]["win"] - win), 4) if win is not None and actions else None
        played = {"action": position.played, "win": win, "loss": loss, "mark": mark_for(loss)}
    return {"seq": position.seq, "actor": position.actor, "win": result["win"], "best": best, "played": played}
