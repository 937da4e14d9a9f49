"""Glicko-2 ratings (issue 49 item 2), written from Mark E. Glickman's "Example of the Glicko-2 system" (Boston
University, 2013 edition: http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with its worked example as a test
(``tests/service/test_glicko.py``).

Why written here rather than taken from a library: the algorithm is some sixty lines of arithmetic whose one subtle
step (the new volatility, step 5) the paper gives as an exact procedure (the Illinois variant of regula falsi), the
paper's example pins every number, and the maintained Python packages either copy an older draft of the volatility
step (Newton's method, which the paper replaced because it can fail to converge) or bring dependencies for nothing.

A puzzle attempt is one game of one rating period between the solver and the puzzle (as lichess rates puzzles): the
solver scores 1 for a right answer and 0 for a wrong one, the puzzle the opposite, each updated against the other's
rating before the attempt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The system constant τ, which bounds how fast the volatility changes (the paper: "between 0.3 and 1.2").
TAU = 0.5
#: Glicko's scale factor between the Glicko and the Glicko-2 scales (step 2).
SCALE = 173.7178
#: A newcomer: rating 1500, deviation 350, volatility 0.06 (step 1).
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06
#: The convergence tolerance ε of the volatility's iteration (step 5).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` r, deviation RD and volatility σ."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        """μ, the rating on the Glicko-2 scale (step 2)."""
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        """φ, the deviation on the Glicko-2 scale (step 2)."""
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """σ′ by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def updated(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with ``games`` (opponent, score 1, 0.5 or 0); without games only
    the deviation grows (step 6's note)."""
    mu, phi = player.mu, player.phi
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.volatility ** 2), player.volatility)
    terms = [(_g(o.phi), _expected(mu, o.mu, o.phi), score) for o, score in games]
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)  # step 3
    improvement = sum(g * (score - e) for g, e, score in terms)
    delta = v * improvement  # step 4
    sigma = _new_volatility(phi, player.volatility, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(SCALE * new_mu + START_RATING, SCALE * new_phi, sigma)  # step 8


def after_attempt(solver: Rating, puzzle: Rating, correct: bool) -> tuple[Rating, Rating]:
    """The solver's and the puzzle's ratings after one attempt (a right answer is the solver's win)."""
    score = 1.0 if correct else 0.0
    return updated(solver, [(puzzle, score)]), updated(puzzle, [(solver, 1.0 - score)])


def rate_triples(solver: tuple[float, float, float], puzzle: tuple[float, float, float],
                 correct: bool) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    """:func:`after_attempt` on (rating, deviation, volatility) triples, as :mod:`service.store.ratings` keeps them."""
    new_solver, new_puzzle = after_attempt(Rating(*solver), Rating(*puzzle), correct)
    return ((new_solver.rating, new_solver.deviation, new_solver.volatility),
            (new_puzzle.rating, new_puzzle.deviation, new_puzzle.volatility))
