"""Find a game's rules by name.

Built-in games are imported lazily on first use, so that importing ``engine`` stays
cheap and a broken game cannot break the others. Tests may register extra games.
"""

from __future__ import annotations

import importlib

from engine.core.errors import UnknownGameError
from engine.core.protocol import Rules

#: name → "module:attribute" of the game's rules object.
BUILTIN_GAMES: dict[str, str] = {
    "amerigo": "engine.amerigo:RULES",
    "entdecker": "engine.entdecker:RULES",
    "golden_city": "engine.golden_city:RULES",
    "puerto_rico": "engine.puerto_rico:RULES",
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
    target = BUILTIN_GAMES.get(name)
    if target is None:
        raise UnknownGameError(name, registered_games())
    module_name, attribute = target.split(":")
    rules: Rules = getattr(importlib.import_module(module_name), attribute)
    return register(rules)
