"""ludolog's pure rules engine: stdlib only, deterministic, no I/O, no clock, no randomness.

Use :func:`get_rules` to find a game's rules, :func:`replay` to fold a history.
"""

# first: importing engine._build makes LUDOLOG_PURE=1 load the pure-Python engine (see its docstring)
from engine._build import is_compiled
from engine.core.errors import (
    EngineError,
    EventMismatchError,
    EventSequenceError,
    IllegalActionError,
    NotationError,
    SetupError,
    StateFormatError,
    UnknownGameError,
)
from engine.core.events import ACTION_TAKEN, CHANCE_DRAWN, GAME_CREATED, Event, action_event, game_created
from engine.core.fold import apply_event, check_action, draw_chance, fold, random_playout, replay, start
from engine.core.protocol import CHANCE, GameRules, Outcome, Rules, Setup
from engine.core.registry import get_rules, listed_games, register, registered_games, unregister

__all__ = [
    "ACTION_TAKEN", "CHANCE", "CHANCE_DRAWN", "GAME_CREATED", "EngineError", "Event", "EventMismatchError",
    "EventSequenceError", "GameRules", "IllegalActionError", "NotationError", "Outcome", "Rules", "Setup", "SetupError",
    "StateFormatError", "UnknownGameError", "action_event", "apply_event", "check_action", "draw_chance", "fold",
    "game_created", "get_rules", "is_compiled", "listed_games", "random_playout", "register", "registered_games", "replay", "start",
    "unregister",
]
