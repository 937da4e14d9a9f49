"""Pig's state as JSON (snapshots) and each seat's view of it (other seats' bluffs hidden)."""

from __future__ import annotations

from typing import Any

from engine import StateFormatError
from tests.games.pig.state import PigState


def dump_state(state: PigState) -> dict[str, Any]:
    """JSON-safe state."""
    return state._asdict() | {"scores": list(state.scores), "bluffs": list(state.bluffs)}


def load_state(data: dict[str, Any]) -> PigState:
    """The state from :func:`dump_state` data."""
    try:
        return PigState(tuple(data["scores"]), tuple(data["bluffs"]), int(data["seat"]), int(data["turn_total"]),
                        bool(data["rolling"]), int(data["target"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise StateFormatError(f"not a pig state: {exc}") from exc


def view(state: PigState, seat: int | None) -> dict[str, Any]:
    """Everything, except other seats' bluffs."""
    data = dump_state(state)
    data["bluffs"] = [b if i == seat else None for i, b in enumerate(state.bluffs)]
    return data
