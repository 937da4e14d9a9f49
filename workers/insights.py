"""The insights' job: count an analysis that has just ended in the insights (see :mod:`service.games.insights`).

Idempotent: a game's summary is written once and every claim on it settles to the same counts however often it runs.
"""

from __future__ import annotations

from service.games.insights import count_analysis
from service.store.context import current_stores


def count_insights(gid: str, rollouts: int) -> dict[str, object]:
    """RQ job: summarise game ``gid``'s main line analysed at ``rollouts`` (full view, seed 0) and settle its claims."""
    stores = current_stores()
    if not stores.games.exists(gid):
        return {"recorded": False}
    recorded = count_analysis(stores.games, stores.redis, stores.insights, stores.claims, gid, rollouts)
    return {"recorded": recorded}
