"""Find a game's rules by name: the game registry, the one list of the built-in games.

A built-in game is its package under ``engine/`` plus its one line in :data:`BUILTIN_GAMES`; everything
else that concerns every game reads this list (the compile, ``tools/compile_engine.py``, reads it as text;
the titles come from the rules' ``title``; the all-games tests walk :func:`registered_games`).
Built-in games are imported lazily on first use, so that importing ``engine`` stays
cheap and a broken game cannot break the others. Tests may register extra games.
"""

from __future__ import annotations

import importlib

from engine.core.errors import UnknownGameError
from engine.core.protocol import Rules

#: name → the game's package, whose ``RULES`` is its rules object: one line per game. A literal, read as text by
#: the compile (tools/compile_engine.py compiles each package listed here).
BUILTIN_GAMES: dict[str, str] = {
    "amerigo": "engine.amerigo",
    "entdecker": "engine.entdecker",
    "golden_city": "engine.golden_city",
    "puerto_rico": "engine.puerto_rico",
}

_registered: dict[str, Rules] = {}
#: Games registered with ``listed=False``: playable by name, but offered to no one.
_unlisted: set[str] = set()


def register(rules: Rules, *, listed: bool = True) -> Rules:
    """Make ``rules`` findable under ``rules.name``; returns it.

    ``listed=False`` keeps the game out of :func:`listed_games` (a test fixture game, say):
    the pages and the demo offer only listed games, without having to know the others' names.
    """
    _registered[rules.name] = rules
    if not listed:
        _unlisted.add(rules.name)
    return rules


def unregister(name: str) -> None:
    """Forget a game registered with :func:`register` (used by tests)."""
    _registered.pop(name, None)
    _unlisted.discard(name)


def registered_games() -> list[str]:
    """Names of every game with rules, sorted."""
    return sorted(set(BUILTIN_GAMES) | set(_registered))


def listed_games() -> list[str]:
    """Names of the games to offer people (new-game forms, the demo), sorted: every game not registered unlisted."""
    return [name for name in registered_games() if name not in _unlisted]


def get_rules(name: str) -> Rules:
    """The rules object of game ``name``; raises UnknownGameError."""
    if name in _registered:
        return _registered[name]
    package = BUILTIN_GAMES.get(name)
    if package is None:
        raise UnknownGameError(name, registered_games())
    rules: Rules = importlib.import_module(package).RULES
    return register(rules)
