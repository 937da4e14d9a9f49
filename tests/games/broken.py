"""A game whose setup always fails: registered by tests that need a start-up step (the demo loader) to fail.

``LUDOLOG_GAME_PLUGINS=tests.games.broken:BROKEN`` makes ``ludolog demo`` crash on it, as a buggy game
plugin would in production; the rest of the service must not notice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.games.pig import PigRules
from tests.games.pig.rules import DECLARATION


class BrokenRules(PigRules):
    """Pig under another name, whose ``initial_state`` raises."""

    declaration = replace(DECLARATION, name="broken_demo")
    name = declaration.name

    def initial_state(self, setup: Any) -> Any:
        """Always fails (on purpose)."""
        raise RuntimeError("broken_demo cannot set up a game (on purpose, for the tests)")


BROKEN = BrokenRules()
