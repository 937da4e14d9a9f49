"""A game whose setup always fails: registered by tests that need a start-up step (the demo loader) to fail.

``LUDOLOG_GAME_PLUGINS=tests.games.broken:BROKEN`` makes ``ludolog demo`` crash on it, as a buggy game
plugin would in production; the rest of the service must not notice.
"""

from __future__ import annotations

from typing import Any

from tests.games.pig import PigRules


class BrokenRules(PigRules):
    """Pig under another name, whose ``initial_state`` raises."""

    name = "broken_demo"

    def initial_state(self, setup: Any) -> Any:
        """Always fails (on purpose)."""
        raise RuntimeError("broken_demo cannot set up a game (on purpose, for the tests)")


BROKEN = BrokenRules()
