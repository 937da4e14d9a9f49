"""Pig, a tiny dice game that exists only to exercise the engine core and the service.

Players take turns; on a turn a player rolls a die (a chance event) as often as they
like, adding the pips to the turn total; a 1 loses the turn total and ends the turn;
holding banks the turn total. The first to reach the target (option ``target``,
default 20) wins. A player's turn total is shown to everyone, but each player also
holds a secret "bluff" number chosen by chance at the start, which ``view`` hides
from the other seats, so that the conformance suite has hidden information to check.
It is not shipped in ``engine/``: it is a test fixture.

It is also the proof that a game is its own package plus one registry line: it has the modules of the
game-package skeleton (docs/ARCHITECTURE.md) that a game this small needs, and ``tests/conftest.py``
registers it in one line (``engine.register(PIG, listed=False)``); nothing else names it to make it a game.

Modules: :mod:`state` (the state, ``initial_state``), :mod:`notation`, :mod:`turn` (roll or hold),
:mod:`chance` (the bluffs and the die), :mod:`scoring`, :mod:`describe`, :mod:`serialize`, :mod:`rules`.
"""

from tests.games.pig.rules import RULES, PigRules
from tests.games.pig.state import PigState

#: The rules object under the name the tests import.
PIG = RULES

__all__ = ["PIG", "RULES", "PigRules", "PigState"]
