"""The search player's default rollout policy for Entdecker: the settler strategy bot, a tenth of its moves random.

The bot (:mod:`engine.entdecker.strategy`) keeps the price of a settlement when it buys tiles and
builds the highest-ranked unit it can; it wins about nine games in ten against random players and
most against the verb-preference policy the rollouts used before (search version 2), at about the
same cost per step. The random tenth keeps the rollouts varied, which a Monte Carlo estimate needs.
It decides nothing about the rules: it only picks among the legal actions.
"""

from typing import Final

from engine.entdecker.strategy import SETTLER, StrategyBot

#: How often a rollout plays a random legal action instead of the bot's.
ROLLOUT_EXPLORE: Final = 0.1
#: A :data:`engine.core.declaration.Player` for rollouts (see the module docstring).
rollout_player = StrategyBot(SETTLER, ROLLOUT_EXPLORE)
