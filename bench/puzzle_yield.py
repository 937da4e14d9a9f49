"""The puzzle generator's yield on the demo games (issue 49): decisions judged, kept, and rejected by which criterion.

Runs the generator's own criteria (:func:`service.games.puzzles.rejection` and its confirming judgement) in this
process over every decision of a demo game, each analysed as the analysis job does (:func:`analyse_position`, the full
view, seed 0) at the budget given: the same decisions a worker would make, without a store.

    python -m bench.puzzle_yield [--rollouts 50] [--games golden_city,puerto_rico]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from engine import CHANCE, apply_event, start
from service.games.analysis import Position, analyse_position
from service.games.demo import demo_playout
from service.games.puzzles import Generator, rejection, same_moves

GAMES = ("golden_city", "puerto_rico", "amerigo", "entdecker")


def game_yield(game: str, rollouts: int) -> Counter[str]:
    """The generator's decisions on demo game 1 of ``game``: ``kept`` and each rejection's count."""
    events = demo_playout(game, 1).events
    rules, state = start(events[0])
    counts: Counter[str] = Counter()
    for event in events[1:]:
        actor = rules.current_actor(state)
        if actor is not None and actor != CHANCE and len(rules.legal_actions(state)) > 1:
            position = Position(event.seq - 1, int(actor), event.action)
            result = analyse_position(rules, state, position.seq, rollouts, "full", event.action)
            reason = rejection(result, same_moves(rules, state, rules.parse_action(result["moves"][0]["action"])))
            if reason is None:
                confirmed = Generator._confirm(rules, state, position, rollouts)
                reason = Generator._confirmation_fails(rules, state, result, confirmed)
            counts[reason or "kept"] += 1
        state = apply_event(rules, state, event, check=False)
    return counts


def main() -> None:
    """Print one line per game: decisions, kept, rejected by criterion, CPU seconds."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rollouts", type=int, default=50)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    for game in args.games.split(","):
        started = time.process_time()
        counts = game_yield(game, args.rollouts)
        rejected = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "kept")
        print(f"{game}: {sum(counts.values())} decisions, {counts['kept']} kept; rejected: {rejected}; "
              f"{time.process_time() - started:.0f} CPU-s", flush=True)


if __name__ == "__main__":
    main()
