"""Numbers the search reports: win shares of a finished game and Wilson score intervals."""

from __future__ import annotations

import math

from engine.core.protocol import Outcome

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def win_shares(outcome: Outcome) -> tuple[float, ...]:
    """Each seat's share of the win: 1 for a sole first place, 1/k for each of k seats sharing it, else 0.

    Shares sum to 1, so per-seat win probabilities estimated from them sum to 1 too, and a shared
    first place is worth as much in total as a sole one (a tie is not counted as k wins).
    """
    ranks = outcome.ranks or tuple(1 if seat in outcome.winners else 2 for seat in range(len(outcome.scores)))
    firsts = [seat for seat, rank in enumerate(ranks) if rank == 1]
    return tuple(1.0 / len(firsts) if seat in firsts else 0.0 for seat in range(len(ranks)))


def wilson_interval(wins: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate ``wins / trials`` (Wilson 1927), (0, 1) with no trials.

    Chosen over the normal ("Wald") interval because it stays inside [0, 1] and is honest for
    few trials and rates near 0 or 1, which is what a search with a small budget produces.
    """
    if trials <= 0:
        return 0.0, 1.0
    rate = min(1.0, max(0.0, wins / trials))
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)
