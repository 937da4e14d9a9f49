"""A job's hook into the searches it runs: called between two playouts (:data:`engine.analysis.search.BETWEEN_PLAYOUTS`).

The engine stays pure: it only calls the hooks. A job installs one for as long as its search runs: the engine seat's
move lends its process to another owner's waiting move (:class:`workers.engine_seat.Lender`), an analysis job looks
whether its run was cancelled (:class:`workers.analysis.CancelWatch`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from engine.analysis.search import BETWEEN_PLAYOUTS


@contextmanager
def between_playouts(hook: Callable[[], None]) -> Iterator[None]:
    """Call ``hook`` before every playout of any search while the block runs."""
    BETWEEN_PLAYOUTS.append(hook)
    try:
        yield
    finally:
        BETWEEN_PLAYOUTS.remove(hook)
