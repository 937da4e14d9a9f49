"""The puzzle generator's job: cut puzzles from an analysis that has just ended (see :mod:`service.games.puzzles`).

Idempotent: every decision the generator makes is recorded, so a rerun (a retry after its worker was killed, or the job
queued again by a later analysis job) skips what it decided and goes on where it stopped.
"""

from __future__ import annotations

from service.games.puzzles import Analysed, Generator
from service.store.context import current_stores
from service.store.puzzles import PuzzleStore


def generate_puzzles(gid: str, bid: str, rollouts: int, view: str, seed: int = 0) -> dict[str, object]:
    """RQ job: decide on every judged decision of the branch's analysis at this budget, view and seed."""
    stores = current_stores()
    if not stores.games.has_branch(gid, bid):  # deleted after the analysis ended: nothing to cut from
        return {"analysed": 0}
    generator = Generator(stores.games, stores.reader, stores.redis, PuzzleStore(stores.redis))
    return generator.run(gid, bid, Analysed(rollouts, view, seed)).to_json()
