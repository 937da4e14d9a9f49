"""Pig's outcome: the scores, whoever reached the target first."""

from __future__ import annotations

from engine import Outcome
from tests.games.pig.state import PigState


def outcome(state: PigState) -> Outcome:
    """Scores; whoever reached the target wins (the rules object asks only once the game is over)."""
    return Outcome.ranked(state.scores, scores=state.scores)
