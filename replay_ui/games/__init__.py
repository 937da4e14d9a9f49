"""Per-game glue for the UI: what the board renderer needs to know, read from the engine.

An adapter never decides anything about the rules: it reads the engine's static component
tables (so the JS does not copy them), the state's own fields (round, phase, who is to act)
and the engine's scoring functions. Games without an adapter get :class:`GenericAdapter`,
which the generic JSON renderer in the browser uses.
"""

from __future__ import annotations

from typing import Any


class GenericAdapter:
    """What every game has: no board renderer, no round marks, scores only at the end."""

    renderer = "generic"

    def components(self, players: int) -> dict[str, Any]:
        """Static data for the board renderer (none for a generic game)."""
        return {}

    def marks(self, state: Any, action: Any) -> dict[str, Any]:
        """Grouping marks of ``action`` (as parsed by the rules) taken in ``state``: none for a generic game."""
        return {}

    def position(self, state: Any, names: tuple[str, ...]) -> dict[str, Any]:
        """Facts about a position for its caption: none for a generic game."""
        return {}

    def scores(self, state: Any) -> list[int] | None:
        """Every seat's score so far, or None when the game has no running score."""
        return None

    def start_round(self, state: Any) -> None:
        """Called before each move; adapters that track the round reset their per-round data."""


def adapter_for(game: str) -> GenericAdapter:
    """A fresh adapter for ``game`` (adapters may keep per-fold bookkeeping)."""
    if game == "puerto_rico":
        from replay_ui.games.puerto_rico import PuertoRicoAdapter

        return PuertoRicoAdapter()
    return GenericAdapter()
