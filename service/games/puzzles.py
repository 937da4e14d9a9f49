"""Puzzles cut from real mistakes (issue 49, item 1): which analysed decisions are kept, and how a puzzle is shown.

After an analysis of a branch ends, the generator looks at every decision it judged and keeps one as a puzzle only when

1. **a mistake**: the played move was marked ``?`` or ``??``, i.e. the low end of its paired loss interval reached
   the mark's threshold (:func:`engine.analysis.verdict.mark_for`: the interval is clear of it);
2. **one clear best**: the best move (with the moves the game treats as the same: those that lead to the very same
   state) beats every other evaluated move's win chance by at least :data:`CLEAR_GAP`, and its 95 % interval does not
   overlap theirs;
3. **confirmed**: an independent judgement, run here through the engine's verdict (:func:`engine.analysis.judge`) in
   the *mover's seat view* at another seed and :data:`CONFIRM_FACTOR` times the budget, finds (1) and (2) again with the
   same best move, each **with a replication margin** (:data:`REPLICATION_Z`): far enough past its bound that a third
   judgement of the same kind would find it too with 95 % probability. Only the confirming verdict is shown: it used
   what the mover knew and nothing else, with the larger sample.

Why the margin. A confirmation that only has to pass the criteria keeps the decisions whose second judgement happened
to land just past a bound, and a third judgement lands on either side of it: on bot games, the first generator (version
1, no margin) kept three puzzles of which a third judgement confirmed one (``bench.puzzle_confirm``). The margin is the
normal replication argument (e.g. Killeen 2005, "An alternative to null-hypothesis significance tests", Psychol. Sci.
16: the probability that a replication's estimate falls on the same side): a statistic estimated as ``x`` with
standard error ``se`` is, in a replication of the same size, about ``N(x, 2 se²)``, so it clears a bound ``c`` with
probability 95 % when ``x - c >= 1.645 * sqrt(2) * se``. Each criterion's statistic is taken so: the played move's loss
interval's low end (``se`` read from the interval's width), and for every other move the best move's lead and the gap
between their intervals (``se`` the root of the sum of their squared standard errors, read from their intervals'
widths: the paired samples make the true one smaller, so this errs towards keeping fewer). The margin does not apply to
the first criterion's screening (the analysis as stored) nor to a third judgement that tests the generator.

This follows lichess-puzzler, which keeps a position only when one move is clearly best and checks it again. Every
decision is recorded, kept or rejected with the criterion that failed (:data:`REJECTIONS`), so a rerun judges nothing
twice and the yield can be reported (``ludolog puzzles generate``).

A puzzle is served in the mover's seat view (``rules.view``), with the mover's legal moves as the move picker offers
them, and never with its solution; the answer is checked against the confirmed best move.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from engine.analysis import judge
from engine.analysis.stats import Z95
from engine.analysis.verdict import mark_for
from engine.core.played import stage_of
from engine.core.protocol import Action, Rules, State
from service.games.analysis import Position, decisions, position_seed, said, stored_form, stored_results
from service.store.analysis_results import holder_of
from service.store.games import GameStore
from service.store.puzzles import PuzzleStore
from service.store.snapshots import StateReader

#: The least win-chance margin of the best move over every other evaluated move.
CLEAR_GAP = 0.10
#: The confirming judgement's budget, in budgets of the analysis it confirms.
CONFIRM_FACTOR = 4
#: The confirming judgement's seed: a seed of its own, far from any a user asks for (they are below 2**31).
CONFIRM_SEED = 2**31 + 49
#: How far past each criterion's bound the confirming judgement must be, in standard errors, for a third judgement of the
#: same kind to clear it too with 95 % probability: the one-sided 95 % quantile times the square root of two (the
#: difference of two estimates of one size has twice the variance). See the module docstring.
REPLICATION_Z = 1.6448536269514722 * math.sqrt(2)
#: The generator's method, written beside every benchmark line and every puzzle it keeps: 1 had no replication margin.
GENERATOR_VERSION = 2
#: The marks a puzzle is cut from.
PUZZLE_MARKS = ("?", "??")
#: Why a decision was not kept, by the criterion that failed (the first that did, in this order).
NOT_JUDGED, NO_MISTAKE, NO_CLEAR_BEST, NOT_CONFIRMED = "not_judged", "no_mistake", "no_clear_best", "not_confirmed"
REJECTIONS = (NOT_JUDGED, NO_MISTAKE, NO_CLEAR_BEST, NOT_CONFIRMED)


def rejection(result: dict[str, Any], same_as_best: Callable[[str], bool], margin_z: float = 0.0) -> str | None:
    """The criterion (1 or 2 of the module docstring) a stored verdict fails, or None when it passes both, each
    statistic ``margin_z`` of its standard errors past its bound (0: the bound itself; the confirmation's
    :data:`REPLICATION_Z`).

    ``same_as_best(action)``: True for a move the game treats as the best one (it leads to the same state)."""
    played = next((m for m in result["moves"] if m["action"] == result.get("played")), None)
    if played is None:
        return NOT_JUDGED
    low, high = played["loss_ci"]
    if mark_for(low - margin_z * _standard_error(low, high)) not in PUZZLE_MARKS:
        return NO_MISTAKE
    best = result["moves"][0]
    others = [m for m in result["moves"][1:] if not same_as_best(m["action"])]
    if any(not _clearly_ahead(best, m, margin_z) for m in others):
        return NO_CLEAR_BEST
    return None


def _standard_error(low: float, high: float) -> float:
    """The standard error a 95 % interval from ``low`` to ``high`` stands for (its half-width over z)."""
    return (high - low) / (2 * Z95)


def _clearly_ahead(best: dict[str, Any], other: dict[str, Any], margin_z: float) -> bool:
    """Whether ``best`` beats ``other`` by :data:`CLEAR_GAP` with intervals that do not overlap, both ``margin_z``
    standard errors of their difference past the bound."""
    margin = margin_z * math.hypot(_standard_error(*best["ci"]), _standard_error(*other["ci"]))
    lead: float = best["win"] - other["win"]
    apart: float = best["ci"][0] - other["ci"][1]
    return lead - margin >= CLEAR_GAP and apart - margin > 0


def same_moves(rules: Rules, state: State, action: Action) -> Callable[[str], bool]:
    """A test of whether a move (notation) is one the game treats as ``action``: it leads to the same state."""
    after = rules.dump_state(rules.apply(state, action))

    def same(notation: str) -> bool:
        return bool(rules.dump_state(rules.apply(state, rules.parse_action(notation))) == after)

    return same


def theme_of(rules: Rules, state: State, seat: int) -> str:
    """The decision's phase or role as the game names it in the mover's view (Puerto Rico: the role being played)."""
    view = rules.view(state, seat)
    if isinstance(view, dict):
        for name in ("phase_name", "step_name", "phase"):
            if isinstance(view.get(name), str):
                return str(view[name])
    return "any"


def puzzle_id(gid: str, bid: str, seq: int) -> str:
    """A puzzle's id: short, stable for its position, and naming neither the game nor the seq."""
    return hashlib.blake2b(f"{gid}/{bid}/{seq}".encode(), digest_size=8).hexdigest()


@dataclass
class Yield:
    """What a run of the generator decided: positions looked at, kept, and rejected by criterion."""

    analysed: int = 0
    kept: int = 0
    skipped: int = 0
    rejected: dict[str, int] | None = None

    def reject(self, reason: str) -> None:
        """Count one rejection by ``reason``."""
        self.rejected = self.rejected or {}
        self.rejected[reason] = self.rejected.get(reason, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """The counts as a job's result and the CLI print them."""
        return {"analysed": self.analysed, "kept": self.kept, "skipped": self.skipped,
                "rejected": dict(self.rejected or {})}


@dataclass(frozen=True)
class Analysed:
    """Which stored analysis the generator reads: its budget, view and seed."""

    rollouts: int
    view: str
    seed: int = 0


class Generator:
    """Cuts puzzles from one branch's stored analysis (see the module docstring)."""

    def __init__(self, games: GameStore, reader: StateReader, client: redis.Redis, puzzles: PuzzleStore) -> None:
        self.games, self.reader, self.redis, self.puzzles = games, reader, client, puzzles

    def run(self, gid: str, bid: str, analysed: Analysed,
            progress: Callable[[int, int], None] | None = None) -> Yield:
        """Decide on every judged, undecided decision of the branch; ``progress(done, total)`` after each."""
        record = self.games.game(gid)
        branches = self.games.branches(gid)
        _, positions = decisions(self.games, gid, bid)
        results = stored_results(self.redis, record, analysed.rollouts, analysed.view, analysed.seed)
        stored = results.get_many(branches, bid, positions)
        head = self.games.head(gid, bid)
        counts = Yield()
        for done, position in enumerate(positions, start=1):
            if position.seq in stored and position.played is not None:
                self._decide(gid, bid, position, stored[position.seq], head, analysed, counts)
            if progress is not None:
                progress(done, len(positions))
        return counts

    def _decide(self, gid: str, bid: str, position: Position, result: dict[str, Any], head: int, analysed: Analysed,
                counts: Yield) -> None:
        field = f"{holder_of(self.games.branches(gid), bid, position.seq)} {position.field}"
        if self.puzzles.decided(gid, field):
            counts.skipped += 1
            return
        counts.analysed += 1
        at = self.reader.position(gid, bid, position.seq)
        rules, state = at.rules, at.state
        reason = rejection(result, same_moves(rules, state, rules.parse_action(result["moves"][0]["action"])))
        confirmed: dict[str, Any] | None = None
        if reason is None:
            confirmed = self._confirm(rules, state, position, analysed.rollouts)
            reason = self._confirmation_fails(rules, state, result, confirmed)
        if reason is not None or confirmed is None:
            self.puzzles.reject(gid, field, reason or NOT_CONFIRMED)
            counts.reject(reason or NOT_CONFIRMED)
            return
        puzzle = self._puzzle(gid, bid, position, rules, state, confirmed, head, analysed)
        if self.puzzles.keep(gid, field, puzzle):
            counts.kept += 1

    @staticmethod
    def _confirm(rules: Rules, state: State, position: Position, rollouts: int, seed: int = CONFIRM_SEED) -> dict[str, Any]:
        """The independent judgement: the mover's own view, another seed (``seed``: the confirmation's own, unless a
        bench judges a third time), :data:`CONFIRM_FACTOR` budgets."""
        verdict = judge(rules, state, seat=position.actor, rollouts=CONFIRM_FACTOR * rollouts,
                        seed=position_seed(position.seq, seed), played=rules.parse_action(position.played or ""),
                        screen_seed=position_seed(position.seq, seed))
        return stored_form(rules, state, verdict)

    @staticmethod
    def _confirmation_fails(rules: Rules, state: State, first: dict[str, Any], confirmed: dict[str, Any],
                            margin_z: float = REPLICATION_Z) -> str | None:
        """None when the confirming verdict passes criteria 1 and 2, ``margin_z`` standard errors past their bounds
        (the replication margin; a bench's third judgement asks none), with a best move the game treats as the
        first's."""
        best = confirmed["moves"][0]["action"] if confirmed["moves"] else None
        if best is None:
            return NOT_CONFIRMED
        same = same_moves(rules, state, rules.parse_action(best))
        if rejection(confirmed, same, margin_z) is not None or not same(first["moves"][0]["action"]):
            return NOT_CONFIRMED
        return None

    def _puzzle(self, gid: str, bid: str, position: Position, rules: Rules, state: State, confirmed: dict[str, Any],
                head: int, analysed: Analysed) -> dict[str, Any]:
        """The stored puzzle: where it is, its theme, and the confirmed verdict (no state)."""
        best = confirmed["moves"][0]
        same = same_moves(rules, state, rules.parse_action(best["action"]))
        played = next(m for m in confirmed["moves"] if m["action"] == confirmed["played"])
        record = self.games.game(gid)
        return {
            "id": puzzle_id(gid, bid, position.seq), "gid": gid, "bid": bid, "seq": position.seq,
            "game": record.game, "seat": position.actor, "players": len(record.setup.players),
            "theme": theme_of(rules, state, position.actor), "stage": stage_of(position.seq, head),
            "best": [m["action"] for m in confirmed["moves"] if same(m["action"])],
            "best_move": _shown(best), "played": _shown(played) | {"loss": played["loss"], "loss_ci": played["loss_ci"],
                                                                  "mark": mark_for(played["loss_ci"][0])},
            "judged": {"rollouts": CONFIRM_FACTOR * analysed.rollouts, "view": str(position.actor),
                       "generator": GENERATOR_VERSION,
                       "from": {"rollouts": analysed.rollouts, "view": analysed.view, "seed": analysed.seed}},
        }


def _shown(move: dict[str, Any]) -> dict[str, Any]:
    """A judged move as the puzzle keeps it: its sentence as stored (a message, rendered when the puzzle is answered)."""
    sentence = {"message": move["message"]} if "message" in move else {"text": move["text"]}
    return {"action": move["action"], **sentence, "win": move["win"], "ci": move["ci"]}


def _answered_move(move: dict[str, Any]) -> dict[str, Any]:
    """A kept move as an answer says it: its sentence in the current locale."""
    return {key: value for key, value in move.items() if key != "message"} | {"text": said(move)}


def shown_puzzle(rules: Rules, state: State, puzzle: dict[str, Any],
                 describe: Callable[[Rules, State, Action], str]) -> dict[str, Any]:
    """A puzzle as it is asked: the position in the mover's seat view and the mover's legal moves, no solution.

    ``describe``: the sentence of a move in the reader's language (the move picker's)."""
    seat = int(puzzle["seat"])
    return {"id": puzzle["id"], "game": puzzle["game"], "theme": puzzle["theme"], "stage": puzzle["stage"],
            "seat": seat, "players": puzzle["players"], "state": rules.view(state, seat),
            "actions": [{"action": rules.format_action(a), "text": describe(rules, state, a)}
                        for a in rules.legal_actions(state)]}


def answered(rules: Rules, state: State, puzzle: dict[str, Any], notation: str) -> dict[str, Any]:
    """The verdict on an answer: right when the game treats it as the confirmed best move (ValueError, from the rules,
    for a move that is not legal here)."""
    action = rules.parse_action(notation)
    rules.check(state, action)
    same = same_moves(rules, state, rules.parse_action(puzzle["best"][0]))
    return {"correct": same(rules.format_action(action)), "answer": rules.format_action(action),
            "best": _answered_move(puzzle["best_move"]) | {"same": puzzle["best"]},
            "played": _answered_move(puzzle["played"])}
