"""Which games have a BGA mapping of their own, found through the game registry.

A game's mapping is the package ``engine.bga.<game>`` (the game's registered name), the way a
game's rules are ``engine.<game>``: no second list of games. A mapping module declares all of
:class:`GameMapping` (nothing is probed for):

``BGA_NAME``              the game's name on Board Game Arena (``puertorico``)
``import_notes(...)``     the history a log's notes describe (see :class:`GameMapping`)
``notes_for(...)``        the notifications that tell one event, for the export
``recognises(args)``      True for a notification only this game's logs carry (False for all: none is its own)
``MARKS``                 the argument names ``recognises`` looks for (for pages that tell the game apart; may be empty)
``seat_order(players, notes)``  the BGA players in seat order (``list(players)``: as BGA lists them)

A game without one is read and written with the generic ``ludologAction`` notes
(:mod:`engine.bga.generic`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from engine.bga.history import LogImport, LogNote, Progress
from engine.core.events import Event
from engine.core.protocol import Rules, Setup, State
from engine.core.registry import registered_games

_PACKAGE = "engine.bga"


class GameMapping(Protocol):
    """A game's BGA log mapping (the module ``engine.bga.<game>``)."""

    BGA_NAME: str
    MARKS: tuple[str, ...]

    def recognises(self, args: Mapping[str, Any]) -> bool:
        """True for a notification only this game's logs carry."""

    def seat_order(self, players: Sequence[tuple[int, str]], notes: Sequence[LogNote]) -> Sequence[tuple[int, str]]:
        """(BGA id, name) of the players in seat order, read from the log's notes."""

    def import_notes(self, rules: Rules, setup: Setup, notes: Sequence[LogNote], seats: Mapping[int, int],
                     progress: Progress | None = None, keep_every: int = 0) -> LogImport:
        """The history the notes describe (keeping the states after every ``keep_every``-th seq)."""

    def notes_for(self, rules: Rules, state: State, event: Event, after: State, names: Sequence[str],
                  ids: Sequence[int]) -> list[dict[str, Any]]:
        """The notifications (``type``, ``log``, ``args``) that tell ``event``, taken in ``state``, leading to ``after``."""


@functools.cache
def mapping_for(game: str) -> GameMapping | None:
    """The game's own log mapping (``engine.bga.<game>``), or None (the generic notation notes are used).

    Cached: whether a module exists does not change while the process runs.
    """
    if not game.isidentifier():
        return None
    name = f"{_PACKAGE}.{game}"
    if importlib.util.find_spec(name) is None:
        return None
    return cast(GameMapping, importlib.import_module(name))


def mapped_games() -> dict[str, GameMapping]:
    """Every registered game with a mapping of its own, by our name."""
    found = {game: mapping_for(game) for game in registered_games()}
    return {game: mapping for game, mapping in found.items() if mapping is not None}


def bga_name(game: str) -> str:
    """The game's name on BGA (``puerto_rico`` → ``puertorico``); our name when it has no mapping."""
    mapping = mapping_for(game)
    return mapping.BGA_NAME if mapping is not None else game


def marks_of(game: str) -> tuple[str, ...]:
    """The argument names only ``game``'s notifications carry (its mapping's ``MARKS``), or () without a mapping."""
    mapping = mapping_for(game)
    return tuple(str(mark) for mark in mapping.MARKS) if mapping is not None else ()


def game_for_bga_name(name: str | None, known: Sequence[str]) -> str | None:
    """Our game for a BGA game name (``puertorico`` → ``puerto_rico``), or None."""
    if not name:
        return None
    key = name.strip().lower()
    for game, mapping in mapped_games().items():
        if mapping.BGA_NAME == key:
            return game
    key = key.replace(" ", "_").replace("-", "_")
    return key if key in known else None


def recognised_game(args: Mapping[str, Any], mappings: Mapping[str, GameMapping] | None = None) -> str | None:
    """The game whose mapping recognises a notification's ``args`` as its own, or None.

    ``mappings``: :func:`mapped_games`, when the caller asks about many notifications.
    """
    for game, mapping in (mapped_games() if mappings is None else mappings).items():
        if mapping.recognises(args):
            return game
    return None


def seat_order(game: str, players: Sequence[tuple[int, str]], notes: Sequence[LogNote]) -> list[tuple[int, str]]:
    """(BGA id, name) of the players in seat order: the game's mapping decides, else the order BGA lists them."""
    mapping = mapping_for(game)
    return list(players) if mapping is None else list(mapping.seat_order(players, notes))
