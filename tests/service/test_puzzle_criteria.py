"""The generator's criteria on a stored verdict (issue 49 item 1), and the replication margin its confirmation asks:
"the played move was marked ? or ?? with the mark's interval clear of its threshold", "one move is clearly best: its
win chance beats every other candidate's by at least 0.10 with intervals that do not overlap", and the confirming
judgement far enough past both that a third judgement of the same kind finds them too (service/games/puzzles.py)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from service.games.puzzles import CLEAR_GAP, NO_CLEAR_BEST, NO_MISTAKE, NOT_JUDGED, REPLICATION_Z, rejection

Z95 = 1.959963984540054


def _verdict(best_win: float, other_win: float, loss: float, se: float) -> dict[str, Any]:
    """A stored verdict of two moves, the other one played: each win chance and the paired loss with standard error
    ``se`` (95 % intervals of +-1.96 se)."""
    half = Z95 * se
    return {"played": "b", "moves": [
        {"action": "a", "win": best_win, "ci": [best_win - half, best_win + half], "loss_ci": [0.0, 0.0]},
        {"action": "b", "win": other_win, "ci": [other_win - half, other_win + half],
         "loss_ci": [loss - half, loss + half]}]}


def _different(_action: str) -> bool:
    return False


def test_a_mistake_with_one_clearly_best_move_passes_at_the_bounds() -> None:
    verdict = _verdict(0.55, 0.30, 0.25, 0.02)
    assert rejection(verdict, _different) is None
    assert rejection(verdict, _different, REPLICATION_Z) is None, "far past every bound: a third judgement agrees"


def test_a_loss_interval_just_past_the_mistake_threshold_is_kept_only_without_the_margin() -> None:
    """The low end at 0.11 clears "?" (0.10), but by half a standard error: a replication falls short as often as not."""
    se = 0.02
    verdict = _verdict(0.70, 0.40, 0.11 + Z95 * se, se)
    assert rejection(verdict, _different) is None
    assert rejection(verdict, _different, REPLICATION_Z) == NO_MISTAKE


def test_a_lead_just_over_the_clear_gap_is_kept_only_without_the_margin() -> None:
    se = 0.01
    verdict = _verdict(0.50, 0.50 - CLEAR_GAP - 0.005, 0.30, se)
    assert rejection(verdict, _different) is None
    assert rejection(verdict, _different, REPLICATION_Z) == NO_CLEAR_BEST


def test_the_margin_is_the_one_sided_95_percent_quantile_of_a_difference_of_two_estimates() -> None:
    assert REPLICATION_Z == pytest.approx(1.6449 * math.sqrt(2), abs=1e-3)
    se = 0.02
    needed = 0.10 + (Z95 + REPLICATION_Z) * se  # the loss whose low end is the margin past "?"
    assert rejection(_verdict(0.9, 0.2, needed + 1e-6, se), _different, REPLICATION_Z) is None
    assert rejection(_verdict(0.9, 0.2, needed - 1e-3, se), _different, REPLICATION_Z) == NO_MISTAKE


def test_a_verdict_without_the_played_move_is_not_judged() -> None:
    verdict = _verdict(0.55, 0.30, 0.25, 0.02) | {"played": "c"}
    assert rejection(verdict, _different, REPLICATION_Z) == NOT_JUDGED


def test_a_move_the_game_treats_as_the_best_is_no_rival() -> None:
    """Two moves to one state are one choice: the best's lead is over the moves that differ."""
    verdict = _verdict(0.55, 0.54, 0.25, 0.02)
    verdict["moves"].insert(1, {"action": "a2", "win": 0.545, "ci": [0.5, 0.59]})
    assert rejection(verdict, lambda action: action == "a2") == NO_CLEAR_BEST, "b trails by 0.01 only"
    assert rejection(_verdict(0.55, 0.30, 0.25, 0.02) | {"moves": [
        {"action": "a", "win": 0.55, "ci": [0.51, 0.59]}, {"action": "a2", "win": 0.545, "ci": [0.5, 0.59]},
        {"action": "b", "win": 0.30, "ci": [0.26, 0.34], "loss_ci": [0.21, 0.29]}]},
        lambda action: action == "a2") is None
