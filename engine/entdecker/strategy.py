"""Entdecker strategy bots: a settler and a fort builder, usable as opponents and as rollout policies.

The rules score an island for the players with units on it, the greatest explorer (highest rank:
settlement, then fort, then scout) taking its size plus a chip, the next ones half as much; the gold
that buys tiles to explore is the gold that pays for the units. So each bot decides one thing that
random play does not: how much of its gold goes into tiles and how much stays for a unit, and which
unit it builds once its ship stands on new land (building ends the turn).

* **settler**: buys only the tiles that leave it the price of a settlement (6), and builds the
  highest-ranked unit it can (a settlement or a fort wins an island against any number of scouts);
* **fort**: keeps the price of a fort (3), buys the rest in tiles, and builds a fort where it can,
  else a scout (cheap, and it can be taken back), a settlement last.

The reserves were chosen by a sweep against random players (a bot that spends all its gold on tiles
wins under 10 % of its games, one that keeps 3 or 6 around 90 %).

Otherwise both play as a sensible beginner: they draw while draws are left, place the tile drawn,
take the friendly natives' chip, end an expedition only when nothing else is left, and never take a
scout back. They pick among the legal actions they are given, with the randomness they are given.
"""

from __future__ import annotations

import random
from typing import Any, Final, final

from engine.entdecker.state import State
from engine.players.picking import forced_or_explored, pick

SCOUT, FORT, SETTLEMENT = 0, 1, 2
#: A start, a draw, a placement: the verbs that keep an expedition going, best first.
GOING_ON: Final = ("take_chip", "place", "start_tile", "start_edge", "draw")


@final
class Style:
    """A strategy: the gold it keeps back when buying tiles, and the units it builds, preferred first."""

    def __init__(self, name: str, keep_gold: int, units: tuple[int, ...]) -> None:
        self.name = name
        self.keep_gold = keep_gold
        self.units = units


SETTLER: Final = Style("settler", keep_gold=6, units=(SETTLEMENT, FORT, SCOUT))
FORT_STYLE: Final = Style("fort", keep_gold=3, units=(FORT, SCOUT, SETTLEMENT))


@final
class StrategyBot:
    """A :data:`engine.core.declaration.Player` playing one :class:`Style` (see the module docstring)."""

    def __init__(self, style: Style, explore: float = 0.0) -> None:
        self.style = style
        self.explore = explore

    def __call__(self, state: State, actions: list[Any], rng: random.Random) -> Any:
        """The action the strategy prefers (ties broken by ``rng``)."""
        chosen = forced_or_explored(actions, rng, self.explore)
        if chosen is not None:
            return chosen
        builds = [a for a in actions if a[0] == "build"]
        if builds:
            return self._build(state, builds, rng)
        buys = [a for a in actions if a[0] == "buy"]
        if buys:
            return self._buy(state, buys)
        for verb in GOING_ON:
            matching = [a for a in actions if a[0] == verb]
            if matching:
                return pick(matching, rng)
        kept = [a for a in actions if a[0] not in ("takeback", "decline_chip", "end")]
        return pick(kept or actions, rng)

    def _build(self, state: State, builds: list[Any], rng: random.Random) -> Any:
        """A unit of the first kind in the style's order that is legal here."""
        for unit in self.style.units:
            matching = [a for a in builds if a[1] == unit]
            if matching:
                return pick(matching, rng)
        return pick(builds, rng)

    def _buy(self, state: State, buys: list[Any]) -> Any:
        """As many tiles as leave the style's reserve of gold, at least one."""
        gold = state.gold[state.turn]
        wanted = max(1, gold - self.style.keep_gold)
        return min(buys, key=lambda a: abs(int(a[1]) - wanted))


#: The settler strategy bot.
settler_bot = StrategyBot(SETTLER)
#: The fort strategy bot.
fort_bot = StrategyBot(FORT_STYLE)
#: The game's strategy bots by name, strongest first (:mod:`engine.players.offered`).
STRATEGIES: Final = {"settler": settler_bot, "fort": fort_bot}
