"""Glicko-2 (issue 49 item 2) against the worked example of Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import pytest

from service.games.glicko import Rating, after_attempt, updated


def test_the_papers_worked_example():
    """A player rated 1500 (RD 200, σ 0.06) beats a 1400 (RD 30), loses to a 1550 (RD 100) and a 1700 (RD 300), τ 0.5:
    the paper finds r′ = 1464.06, RD′ = 151.52, σ′ = 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = updated(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    after = updated(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_right_answer_raises_the_solver_and_lowers_the_puzzle_and_a_wrong_one_the_opposite():
    solver, puzzle = Rating(), Rating()
    won_solver, won_puzzle = after_attempt(solver, puzzle, True)
    assert won_solver.rating > 1500 > won_puzzle.rating
    lost_solver, lost_puzzle = after_attempt(solver, puzzle, False)
    assert lost_solver.rating < 1500 < lost_puzzle.rating
    assert won_solver.deviation < 350 and won_puzzle.deviation < 350
