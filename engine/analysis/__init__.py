"""Analysis: a search player over the Rules protocol that estimates win chances and ranks moves.

Pure like the rest of :mod:`engine`: stdlib only, no I/O; its randomness comes from the seed it is
given, so an analysis is reproducible. See :mod:`engine.analysis.search` for the tree search and how hidden
information is respected, :mod:`engine.analysis.verdict` for how moves are judged on paired playouts, and
:mod:`engine.analysis.player` for the search player. The players a game offers it (rollout policies, strategy bots,
determinisers) lie below it, in :mod:`engine.players`.
"""

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
    "default_rollouts", "judge", "paired_interval", "search", "search_version", "wilson_interval", "win_shares",
]
