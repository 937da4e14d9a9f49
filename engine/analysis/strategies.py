"""Strategy bots: players that follow a strategy strong players describe, as opponents and as rollout policies.

A game offers its bots as ``strategy_players`` on its rules object (a mapping from a strategy's name,
e.g. ``"shipping"``, to a :data:`engine.core.fold.Player`), the way it offers ``rollout_player``
(:mod:`engine.analysis.policy`); each game's bots live in its ``strategy`` module. This module is the
one way the rest of the code reaches them, so that a game without bots needs no special case.
"""

from __future__ import annotations

from engine.analysis.policy import policy_for
from engine.core.fold import Player
from engine.core.protocol import Rules


def strategy_players(rules: Rules) -> dict[str, Player]:
    """The game's strategy bots by name, strongest first (empty when the game has none)."""
    offered: dict[str, Player] | None = getattr(rules, "strategy_players", None)
    return dict(offered) if offered else {}


def strongest_player(rules: Rules) -> Player:
    """The game's strongest bot (the first of :func:`strategy_players`), else its rollout policy."""
    bots = strategy_players(rules)
    return next(iter(bots.values())) if bots else policy_for(rules)
