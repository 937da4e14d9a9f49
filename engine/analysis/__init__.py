"""Analysis: a search player over the Rules protocol that estimates win chances and ranks moves.

Pure like the rest of :mod:`engine`: stdlib only, no I/O; its randomness comes from the seed it is
given, so an analysis is reproducible. See :mod:`engine.analysis.search` for the tree search,
:mod:`engine.analysis.verdict` for how moves are judged on paired playouts,
:mod:`engine.analysis.hidden` for how hidden information is respected, and
:mod:`engine.analysis.policy` for the rollout policies.
"""

from engine.analysis.policy import pick, policy_for, verb_preference_player
from engine.analysis.search import (
    DEFAULT_ROLLOUTS,
    PLAYER_VERSION,
    SEARCH_VERSION,
    ActionStats,
    Analysis,
    default_rollouts,
    search,
)
from engine.analysis.stats import wilson_interval, win_shares
from engine.analysis.verdict import MoveStats, Verdict, judge, paired_interval, search_version

__all__ = [
    "DEFAULT_ROLLOUTS", "PLAYER_VERSION", "SEARCH_VERSION", "ActionStats", "Analysis", "MoveStats", "Verdict",
    "default_rollouts", "judge", "paired_interval", "pick", "policy_for", "search", "search_version",
    "verb_preference_player", "wilson_interval", "win_shares",
]
