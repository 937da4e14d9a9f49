"""The one normalisation every game's notation is read through: parsing tolerates case and spacing.

Stored events carry each action's canonical spelling (what ``format_action`` writes), and every game
looks that up first. People typing a move, and logs from elsewhere, write ``Role  Settler`` or
`` build village L3 r0 at 1,2``: before reading words, every game's ``parse_action`` passes the text
through :func:`normal_notation`, so the same sloppiness is forgiven in every game, and an error
quotes the normalised text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, TypeVar

from engine.core.errors import NotationError

A = TypeVar("A")
K = TypeVar("K")
V = TypeVar("V")

#: The most entries :func:`remembered` keeps in one memo by default, so that a stream of distinct texts or
#: actions cannot grow it without end.
REMEMBERED_MAX: Final = 65536


def normal_notation(text: object, *, names: bool = False) -> str:
    """``text`` with surrounding white space dropped, words separated by single spaces, in lower case.

    A notation with case-sensitive names in it (Amerigo's map spaces ``F3`` and shapes ``L3``, Die
    goldene Stadt's site and card ids) passes ``names=True``: then only the verb, the first word, is
    lowered and the game compares its other keywords without case itself. Raises NotationError
    unless ``text`` is a string.
    """
    if not isinstance(text, str):
        raise NotationError(repr(text), "a string")
    words = text.split()
    if names and words:
        return " ".join([words[0].lower(), *words[1:]])
    return " ".join(words).lower()


def parse_notation(text: object, spellings: Mapping[str, A], parse_normal: Callable[[str], A], *, names: bool = False) -> A:
    """The action ``text`` names: a canonical spelling is looked up in ``spellings`` (how stored events
    read, so the common case is one lookup); anything else is normalised (:func:`normal_notation`),
    looked up again, and else read by ``parse_normal``, which raises NotationError quoting the
    normal form."""
    action = spellings.get(text) if isinstance(text, str) else None
    if action is not None:
        return action
    normal = normal_notation(text, names=names)
    action = spellings.get(normal)
    return action if action is not None else parse_normal(normal)


def remembered(memo: dict[K, V], key: K, make: Callable[[K], V], limit: int = REMEMBERED_MAX) -> V:
    """``make(key)``, remembered in ``memo`` (at most ``limit`` entries): a remembered value costs a dictionary
    lookup, where an ``lru_cache`` would add a Python-level call, the one cost compiled code cannot shed."""
    value = memo.get(key)
    if value is None:
        value = make(key)
        if len(memo) < limit:
            memo[key] = value
    return value


def parse_remembered(text: object, memo: dict[str, A], parse: Callable[[object], A], limit: int = REMEMBERED_MAX) -> A:
    """``parse(text)``, remembered in ``memo`` by the exact text (:func:`remembered`): folding a log reads the
    same few texts again and again. Only strings are remembered; anything else goes to ``parse``."""
    if type(text) is not str:
        return parse(text)
    return remembered(memo, text, parse, limit)
