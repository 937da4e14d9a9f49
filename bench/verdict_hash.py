"""A fingerprint of the verdicts (``python -m bench.verdict_hash``): proof that a speed-up changed no verdict.

A change to the engine's hot paths (the rules, a rollout policy, the search) that is meant to make the analysis
cheaper without changing what it says must leave every verdict exactly as it was: the same candidates, the same
sample counts, the same win chances to the last bit. This command plays a seeded game with the game's rollout
policy, judges every decision among its first ``--events`` events as the analysis jobs do (the played move judged,
seeded by the position), and prints the CPU time with a SHA-256 over every verdict's chances, intervals and moves.
Run it before and after the change, on the same engine build (compiled or pure): the hashes must be equal, and the
CPU times, side by side, are the speed-up.

Puerto Rico at 200 rollouts, compiled engine: under search version 9 (2026-11-29, before and after issue 49's
hot-path work, 853182e and its successors) ``--events 60`` → ``b32c099ca4107d2e`` (42 decisions), ``--events 150`` →
``a5f2abcdd2ce22c1`` (100 decisions); under its own ``9+win_half_width=0.05`` since (chances less precise, nothing
else changed) ``b38c5a3ef4d0c612`` and ``bb6b81c28b053073``. The import is run as a module (``python -m``): run as a
file from ``bench/``, its ``engine.py`` would hide the engine package.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bench.played import opening
from engine import get_rules, is_compiled
from engine.analysis import DEFAULT_ROLLOUTS, Verdict, judge


@dataclass(frozen=True)
class Fingerprint:
    """What one run measured: the decisions judged, their CPU seconds, and the hash of their verdicts."""

    game: str
    decisions: int
    cpu_seconds: float
    sha256: str
    compiled: bool


def seeded_decisions(game: str, events: int) -> Iterator[tuple[int, Any, Any]]:
    """(seq, state, the move played) at every decision (two or more legal moves) among the first ``events`` events
    of the seeded game, its moves by the game's rollout policy."""
    for seq, state, action, actions in opening(get_rules(game), events):
        if actions is not None and len(actions) > 1:
            yield seq, state, action


def verdict_bytes(verdict: Verdict) -> bytes:
    """Everything a verdict says, as bytes to hash (floats by ``repr``: every bit counts)."""
    moves = [(m.action, m.samples, m.win, m.low, m.high, m.loss, m.loss_low, m.loss_high) for m in verdict.moves]
    return repr((verdict.actor, verdict.win, verdict.win_low, verdict.win_high, moves)).encode()


def fingerprint(game: str = "puerto_rico", events: int = 60, rollouts: int = DEFAULT_ROLLOUTS) -> Fingerprint:
    """Judge the seeded game's decisions (see the module docstring); the CPU counts the judging only."""
    rules = get_rules(game)
    digest, count, cpu = hashlib.sha256(), 0, 0.0
    for seq, state, played in seeded_decisions(game, events):
        begin = time.process_time()
        verdict = judge(rules, state, seat=None, rollouts=rollouts, seed=seq, played=played)
        cpu += time.process_time() - begin
        digest.update(verdict_bytes(verdict))
        count += 1
    return Fingerprint(game, count, cpu, digest.hexdigest()[:16], is_compiled())


def main() -> None:
    """``python -m bench.verdict_hash [--game G] [--events N] [--rollouts R]``: one line, the hash and the CPU."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="puerto_rico")
    parser.add_argument("--events", type=int, default=60, help="the seeded game's first events to judge (60)")
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS)
    args = parser.parse_args()
    found = fingerprint(args.game, args.events, args.rollouts)
    build = "compiled" if found.compiled else "pure"
    print(f"{found.game}: {found.decisions} decisions judged at {args.rollouts} rollouts, {build} engine, "
          f"{found.cpu_seconds:.2f} CPU s, verdicts sha256 {found.sha256}")


if __name__ == "__main__":
    main()
