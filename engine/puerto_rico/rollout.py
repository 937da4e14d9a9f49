"""The search player's default rollout policy for Puerto Rico: cheap, and better than random clicks.

Uniform random play passes as often as it builds, ships or sells; this policy mostly takes the
productive option of the phase (build, load, sell, place colonists, plant) and passes only when
nothing else is legal. It decides nothing about the rules: it only picks among the legal actions.
"""

from engine.analysis.policy import verb_preference_player

#: A :data:`engine.core.fold.Player` for rollouts (see the module docstring).
rollout_player = verb_preference_player(("load", "build", "sell", "extra", "place", "quarry", "plant", "hacienda"),
                                        ("pass",))
