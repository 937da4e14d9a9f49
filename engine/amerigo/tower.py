"""The cube tower as a chance process (digest § The cube tower; the probability model is (R)).

A throw drops the cubes ``D`` into the tower; chance then decides, colour by colour, how many
cubes of that colour come out into the tray: ``0 ≤ O[c] ≤ inside[c] + D[c]``. Colours are
independent in the model, so one chance event per colour gives exactly the digest's joint
distribution while keeping every event's outcome list short (a single event over the whole
vector would have up to 8^7 outcomes). Colours with no cube that could come out get no event.

Model (R): a thrown cube comes out with ``p = 13/20``; a cube already inside is knocked out with
``q(n) = 1 − (23/25)^n``, ``n = |D|``; at setup every one of the 49 cubes comes out with ``3/5``.
Weights are the exact probabilities scaled to integers (``SCALE``), at least 1, so that every
outcome within the bounds stays possible (an imported log states any such outcome).

A *stray fall* (cubes knocked out of the tower between throws, seed: "Ha a toronyból nem
megfelelő időben esnek ki kockák ... hagyjátok a tálcában a következő fázis kezdetéig. Majd ezeket
a kockákat is dobjátok bele ... a toronyba") can only be recorded at a chance point: at the start
of a throw (the cubes join it) or at a chance point of the preparation between rounds (the cubes
wait in the tray and are thrown with the next phase's cubes, even if its storage space is empty:
Ruling 7). A fall during the players' turns is recorded at the next throw, which is the same for
the game. Live play gives each such outcome the weight 1 against ``SCALE`` for the others (about
10^-11): the digest's probability 0 cannot be used, since the core refuses an outcome listed with
weight 0.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Final

from engine.amerigo import components as c

SCALE: Final = 1 << 40
STRAY_WEIGHT: Final = 1


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    coefficients = [1]
    for _ in range(n):
        coefficients = [a + b for a, b in zip([0, *coefficients], [*coefficients, 0], strict=True)]
    return [coefficients[k] * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _convolve(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _weights(probabilities: list[Fraction]) -> tuple[int, ...]:
    return tuple(max(1, round(p * SCALE)) for p in probabilities)


@lru_cache(maxsize=4096)
def throw_weights(thrown: int, inside: int, n: int) -> tuple[int, ...]:
    """Weights of 0..thrown+inside cubes of one colour coming out: Bin(thrown, p) + Bin(inside, q(n))."""
    p = Fraction(*c.P_PASS)
    q = 1 - Fraction(*c.Q_STAY) ** n
    return _weights(_convolve(_binomial(thrown, p), _binomial(inside, q)))


@lru_cache(maxsize=16)
def setup_weights(cubes: int) -> tuple[int, ...]:
    """Weights of 0..cubes of one colour coming out of the setup throw: Bin(cubes, 3/5)."""
    return _weights(_binomial(cubes, Fraction(*c.P_SETUP)))


def next_colour(tower: tuple[int, ...], start: int) -> int:
    """The first colour from ``start`` on with a cube in the tower (7 when none: the throw is decided)."""
    for colour in range(start, 7):
        if tower[colour]:
            return colour
    return 7
