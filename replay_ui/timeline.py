"""A branch's timeline: every move with the engine's sentence, its round and role, and what
the board caption and the score chart need at every position, from one fold of the branch.

The browser fetches it once per branch (``timeline.json``) so that stepping, the move list,
jumping by round or role and the chart never wait on the server. Built with the rules'
public methods (``parse_action``, ``describe``, ``apply``, ``current_actor``, ``outcome``)
and the game's UI adapter; cached per (game, branch, head, view) since events never change.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from engine import CHANCE, Event, Rules, Setup
from engine.core.visibility import SeatView
from replay_ui.games import adapter_for

_CACHE: OrderedDict[tuple[str, str, int, str, float], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 32
_LOCK = threading.Lock()


def _actor_json(actor: Any) -> Any:
    return "chance" if actor == CHANCE else actor


def build_timeline(rules: Rules, setup: Setup, events: Sequence[Event], viewer: SeatView | None = None) -> dict[str, Any]:
    """Moves (seq 2…), and per position (seq 1…head) the caption facts and scores, as ``viewer`` sees them.

    ``viewer`` (default: the full view) decides which moves' notation is shown
    (:mod:`engine.core.visibility`); the running scores of the other seats are reported as
    None in a seat's or a spectator's view (their VP chips, letters are face down).
    """
    viewer = viewer or SeatView(rules, len(setup.players), None, full=True)
    hidden_scores = () if viewer.full else tuple(s for s in range(len(setup.players)) if s != viewer.seat)
    adapter = adapter_for(rules.name)
    state = rules.initial_state(setup)
    names = tuple(setup.players)
    moves: list[dict[str, Any]] = []
    positions = [_position(rules, adapter, state, names, hidden_scores)]
    for event in events:
        if event.seq == 1 or event.action is None:
            continue
        action = rules.parse_action(event.action)
        move = {"seq": event.seq, "actor": _actor_json(event.actor), "action": event.action,
                "text": rules.describe(state, action)}
        if not viewer.sees(state, action):
            move.update(action=None, hidden=True)
        move.update(adapter.marks(state, action))
        moves.append(move)
        state = rules.apply(state, action)
        positions.append(_position(rules, adapter, state, names, hidden_scores))
    outcome = rules.outcome(state)
    outcome_json = outcome.to_json() if outcome is not None else None
    if outcome_json is not None:
        outcome_json["words"] = adapter.result(outcome_json)
    return {
        "game": rules.name, "players": list(names), "head": events[-1].seq if events else 1, "moves": moves,
        "positions": positions, "outcome": outcome_json,
    }


def _position(rules: Rules, adapter: Any, state: Any, names: tuple[str, ...], hidden: Sequence[int]) -> dict[str, Any]:
    actor = rules.current_actor(state)
    info: dict[str, Any] = {"actor": _actor_json(actor)}
    info.update(adapter.position(state, names))
    scores = adapter.scores(state)
    if scores is not None:
        info["scores"] = [None if seat in hidden else s for seat, s in enumerate(scores)]
    return info


def cached_timeline(key: tuple[str, str, int, str, float], make: Any) -> dict[str, Any]:
    """The timeline for ``key`` (game, branch, head, view, game created), built by ``make()`` once."""
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    timeline: dict[str, Any] = make()
    with _LOCK:
        _CACHE[key] = timeline
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return timeline


def caption_at(timeline: dict[str, Any], seq: int) -> str:
    """The board caption at position ``seq``, worded as the game page's script words it (``captionFor``).

    The page renders it on the server, so the caption shows (and is the largest text painted early)
    before any script or data has arrived; the script then keeps it in step.
    """
    positions = timeline["positions"]
    if not 1 <= seq <= len(positions):
        return ""
    info = positions[seq - 1]
    names = timeline["players"]
    parts = [str(p) for p in info.get("caption", [])]
    actor = info.get("actor")
    outcome = timeline.get("outcome")
    if isinstance(actor, int):
        parts.append(f"{names[actor]} to act")
    elif actor == "chance":
        parts.append("chance to draw")
    elif seq == timeline["head"] and outcome:
        winners = outcome["winners"]
        verb = "share the win" if len(winners) > 1 else "wins"
        parts.append(f"game over: {' and '.join(names[s] for s in winners)} {verb} with {outcome['scores'][winners[0]]}")
    return " · ".join(parts)
