"""The search player's default rollout policy for Die goldene Stadt: cheap, and better than random clicks.

It mostly builds when it can, takes rewards rather than declining them, and passes only when
nothing else is legal. It decides nothing about the rules: it only picks among the legal actions.
"""

from engine.players.picking import verb_preference_player

#: A :data:`engine.core.declaration.Player` for rollouts (see the module docstring).
rollout_player = verb_preference_player(("build", "goods", "bonus"), ("pass", "decline"))
