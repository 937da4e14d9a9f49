"""The search player's default rollout policy for Entdecker: cheap, and better than random clicks.

It mostly places the drawn tile, builds and takes chips, and ends a turn, declines or takes back
only when nothing else is legal. It decides nothing about the rules: it only picks among the legal
actions.
"""

from engine.analysis.policy import verb_preference_player

#: A :data:`engine.core.fold.Player` for rollouts (see the module docstring).
rollout_player = verb_preference_player(("place", "build", "take_chip", "start_tile", "draw"),
                                        ("end", "decline_chip", "takeback"))
