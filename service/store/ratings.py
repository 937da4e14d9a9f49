"""Puzzle and solver ratings (issue 49 item 2): read them, and record an attempt, which updates the solver's and the
puzzle's Glicko-2 ratings, the index of puzzles by rating and the solver's history in one optimistic transaction.

Two answers racing (two solvers on one puzzle, or one solver on two tabs) must not lose an update: the attempt WATCHes
both ratings and the solver's set of answered puzzles, computes the new ratings from what it read, and writes them
in MULTI/EXEC; if another attempt wrote any of them in between, EXEC fails and the attempt is computed again from the
new values. Only a solver's first answer to a puzzle is rated. Every key carries the ``{ratings}`` hash tag
(:mod:`service.store.keys`), so a Redis Cluster runs the transaction on one node. The arithmetic is the caller's
(:mod:`service.games.glicko`): this module sees ratings as (rating, deviation, volatility) triples.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import redis

from service.store import keys

#: (rating, deviation, volatility) on the Glicko scale.
Triple = tuple[float, float, float]
#: The newcomer's triple (Glicko-2's step 1).
START: Triple = (1500.0, 350.0, 0.06)
#: The update of one attempt: (solver, puzzle, correct) → (solver, puzzle) after it.
Rate = Callable[[Triple, Triple, bool], tuple[Triple, Triple]]
#: Attempts kept in a solver's history (the curve and the list show the latest).
HISTORY_KEPT = 1000


def _triple(raw: dict[Any, Any]) -> tuple[Triple, int]:
    values = {(k.decode() if isinstance(k, bytes) else k): float(v) for k, v in raw.items()}
    if "rating" not in values:
        return START, 0
    return (values["rating"], values["deviation"], values["volatility"]), int(values.get("attempts", 0))


def _mapping(triple: Triple, attempts: int) -> dict[str, float]:
    return {"rating": triple[0], "deviation": triple[1], "volatility": triple[2], "attempts": attempts}


class RatingStore:
    """Solvers' and puzzles' Glicko-2 ratings and the solvers' histories."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def solver(self, user: str) -> tuple[Triple, int]:
        """The solver's rating triple and rated attempts (a newcomer's when none)."""
        return _triple(self.redis.hgetall(keys.solver_rating_for(user)))

    def puzzle(self, pid: str) -> tuple[Triple, int]:
        """The puzzle's rating triple and rated attempts."""
        return _triple(self.redis.hgetall(keys.puzzle_rating_for(pid)))

    def history(self, user: str) -> list[dict[str, Any]]:
        """The solver's rated attempts, oldest first."""
        return [json.loads(raw) for raw in self.redis.lrange(keys.solver_history_for(user), 0, -1)]

    def attempt(self, user: str, pid: str, correct: bool, rate: Rate, now: float) -> dict[str, Any] | None:
        """Rate ``user``'s answer to ``pid`` (see the module docstring); the history entry it wrote, or None when the
        user had answered that puzzle before (not rated again)."""
        solver_key, puzzle_key = keys.solver_rating_for(user), keys.puzzle_rating_for(pid)
        attempted = keys.solver_attempted_for(user)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(solver_key, puzzle_key, attempted)  # type: ignore[no-untyped-call]  # redis-py: unannotated
                    if pipe.sismember(attempted, pid):
                        pipe.unwatch()
                        return None
                    (solver, solved), (puzzle, tried) = _triple(pipe.hgetall(solver_key)), _triple(pipe.hgetall(puzzle_key))
                    new_solver, new_puzzle = rate(solver, puzzle, correct)
                    entry = {"puzzle": pid, "correct": correct, "at": round(now, 3),
                             "rating": round(new_solver[0], 2), "deviation": round(new_solver[1], 2),
                             "before": round(solver[0], 2), "puzzle_before": puzzle[0], "puzzle_after": new_puzzle[0],
                             "puzzle_attempt": tried + 1}
                    pipe.multi()
                    pipe.hset(solver_key, mapping=_mapping(new_solver, solved + 1))  # type: ignore[arg-type]
                    pipe.hset(puzzle_key, mapping=_mapping(new_puzzle, tried + 1))  # type: ignore[arg-type]
                    pipe.zadd(keys.puzzles_by_rating(), {pid: new_puzzle[0]})
                    pipe.sadd(attempted, pid)
                    pipe.rpush(keys.solver_history_for(user), json.dumps(entry, separators=(",", ":")))
                    pipe.ltrim(keys.solver_history_for(user), -HISTORY_KEPT, -1)
                    pipe.execute()
                    return entry
                except redis.WatchError:
                    continue  # another attempt wrote one of them first: compute again from what it wrote
