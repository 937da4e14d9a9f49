"""When a branch gets snapshots, and how one is stored: said once for the fold job, the
reconciler, the healer and imports.
"""

from __future__ import annotations

import json
from typing import Any


def snapshot_seqs(fork_seq: int, head: int, every: int) -> set[int]:
    """The seqs at which a branch forked at ``fork_seq`` with ``head`` has snapshots: every
    ``every``-th seq after the fork, and the head.

    Never seq 1: the state after ``game_created`` is the initial state, cheaper to make than to load.
    """
    base = max(fork_seq, 1)
    if head <= base:
        return set()
    first = (base // every + 1) * every
    return set(range(first, head + 1, every)) | {head}


def encode_snapshot(rules_version: str, dumped: Any) -> str:
    """A snapshot's stored JSON: the rules version that dumped the state, and the state."""
    return json.dumps({"v": rules_version, "state": dumped}, separators=(",", ":"))
