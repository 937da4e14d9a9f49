"""The puzzle generator's yield on the demo games (issue 49): decisions judged, kept, and rejected by which criterion.

Runs the generator's own criteria (:func:`service.games.puzzles.rejection` and its confirming judgement) in this
process over every decision of a demo game, each analysed as the analysis job does (:func:`analyse_position`, the full
view, seed 0) at the budget given: the same decisions a worker would make, without a store.

    python -m bench.puzzle_yield [--rollouts 50] [--games golden_city,puerto_rico]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import CHANCE, Event, apply_event, start
from engine.core.protocol import Rules, State
from service.games.analysis import Position, analyse_position
from service.games.demo import demo_playout
from service.games.puzzles import Generator, rejection, same_moves

GAMES = ("golden_city", "puerto_rico", "amerigo", "entdecker")


def decisions(events: Sequence[Event]) -> Iterator[tuple[Rules, State, Position]]:
    """Each player's decision in a played game's events (a move with more than one legal choice): the rules, the state
    before it and where it is (its seq, mover and the move played), as the analysis job finds them."""
    rules, state = start(events[0])
    for event in events[1:]:
        actor = rules.current_actor(state)
        if actor is not None and actor != CHANCE and len(rules.legal_actions(state)) > 1:
            yield rules, state, Position(event.seq - 1, int(actor), event.action)
        state = apply_event(rules, state, event, check=False)


@dataclass(frozen=True)
class Decided:
    """The generator's decision on one position, and what it cost."""

    #: None when the position is kept as a puzzle, else the criterion that rejected it.
    reason: str | None
    #: The analysis's verdict (the stored form), which the confirming judgements are held against.
    first: dict[str, Any]
    analysis_cpu: float
    generation_cpu: float
    #: The generator's confirming judgement (the stored form), where the first passed the criteria.
    confirming: dict[str, Any] | None = None


def decide(rules: Rules, state: State, position: Position, rollouts: int) -> Decided:
    """Judge ``position`` as the analysis job does (the full view, seed 0), then apply the generator's criteria and
    its confirming judgement; the CPU of the analysis and of the generator on top of it, apart."""
    started = time.process_time()
    first = analyse_position(rules, state, position.seq, rollouts, "full", position.played)
    judged = time.process_time()
    reason = rejection(first, same_moves(rules, state, rules.parse_action(first["moves"][0]["action"])))
    confirming = None
    if reason is None:
        confirming = Generator._confirm(rules, state, position, rollouts)
        reason = Generator._confirmation_fails(rules, state, first, confirming)
    return Decided(reason, first, judged - started, time.process_time() - judged, confirming)


def game_yield(game: str, rollouts: int, most: int | None = None) -> tuple[Counter[str], float, float]:
    """The generator's decisions on demo game 1 of ``game`` (its first ``most`` decisions, or all): ``kept`` and each
    rejection's count; and the CPU seconds of the analysis (each decision judged as the analysis job judges it) and of
    the generator on top of it (its criteria and the confirming judgements)."""
    counts: Counter[str] = Counter()
    analysis_cpu = generation_cpu = 0.0
    for rules, state, position in itertools.islice(decisions(demo_playout(game, 1).events), most):
        decided = decide(rules, state, position, rollouts)
        counts[decided.reason or "kept"] += 1
        analysis_cpu, generation_cpu = analysis_cpu + decided.analysis_cpu, generation_cpu + decided.generation_cpu
    return counts, analysis_cpu, generation_cpu


def main() -> None:
    """Print one line per game: decisions, kept, rejected by criterion, CPU seconds."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rollouts", type=int, default=50)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    for game in args.games.split(","):
        counts, analysis_cpu, generation_cpu = game_yield(game, args.rollouts)
        rejected = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "kept")
        print(f"{game}: {sum(counts.values())} decisions, {counts['kept']} kept; rejected: {rejected}; "
              f"{analysis_cpu + generation_cpu:.0f} CPU-s (the analysis {analysis_cpu:.0f}, the generator "
              f"{generation_cpu:.0f})", flush=True)


if __name__ == "__main__":
    main()
