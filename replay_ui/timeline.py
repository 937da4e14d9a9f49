"""A branch's timeline: every move with the engine's sentence, its round and role, and what
the board caption and the score chart need at every position, from one fold of the branch.

The browser fetches it once per branch (``timeline.json``) so that stepping, the move list,
jumping by round or role and the chart never wait on the server. Built with the rules'
public methods (``parse_action``, ``describe``, ``apply``, ``current_actor``, ``outcome``)
and the game's UI adapter; cached per (game, branch, head, view) since events never change.

A branch only grows (a take-back forks a new line; nothing is rewritten), so the timeline at a new
head is the newest cached one of the same line extended by the events after it: a page following a
game live asks again at every move, and folding only the new events keeps each ask small however
long the game (a whole fold of a 677-move Amerigo game took 74 ms here, and two pages asked at each
of its moves). The extension checks that the line still holds the event it ended on.
"""

from __future__ import annotations

import copy
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import CHANCE, Event, Rules, Setup
from engine.core.visibility import SeatView
from replay_ui.games import adapter_for


@dataclass(frozen=True)
class Line:
    """What a timeline is of, whatever its head: a branch of a game (its ``created`` time tells a game
    deleted and made again under the same id from the first) as one ``view`` sees it."""

    game_id: str
    branch: str
    view: str
    created: float


@dataclass(frozen=True)
class _Fold:
    """A timeline with what extending it needs: the state at its head, the head's own event, and the game's UI adapter
    as the fold left it (adapters keep bookkeeping from move to move: the group a move opens, running tallies)."""

    timeline: dict[str, Any]
    state: Any
    last: Event | None
    adapter: Any

    @property
    def head(self) -> int:
        """The seq of the timeline's last position."""
        return int(self.timeline["head"])


_CACHE: OrderedDict[tuple[Line, int], _Fold] = OrderedDict()
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
    return _fold(rules, setup, viewer or SeatView(rules, len(setup.players), None, full=True), events).timeline


def _fold(rules: Rules, setup: Setup, viewer: SeatView, events: Sequence[Event], start: _Fold | None = None) -> _Fold:
    """The timeline after ``events``: from the game's start, or on from ``start`` (whose lists are copied, never
    changed: a cached timeline may be being sent)."""
    hidden_scores = () if viewer.full else tuple(s for s in range(len(setup.players)) if s != viewer.seat)
    names = tuple(setup.players)
    if start is None:
        adapter = adapter_for(rules.name)
        state = rules.initial_state(setup)
        moves: list[dict[str, Any]] = []
        positions = [_position(rules, adapter, state, names, hidden_scores)]
        last = None
    else:
        # The cached fold's adapter stays as it was: another head may be extended from the same fold.
        state, last, adapter = start.state, start.last, copy.deepcopy(start.adapter)
        moves, positions = list(start.timeline["moves"]), list(start.timeline["positions"])
    for event in events:
        last = event
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
    timeline = {"game": rules.name, "players": list(names), "head": last.seq if last else 1, "moves": moves,
                "positions": positions, "outcome": outcome_json}
    return _Fold(timeline, state, last, adapter)


def _position(rules: Rules, adapter: Any, state: Any, names: tuple[str, ...], hidden: Sequence[int]) -> dict[str, Any]:
    actor = rules.current_actor(state)
    info: dict[str, Any] = {"actor": _actor_json(actor)}
    info.update(adapter.position(state, names))
    scores = adapter.scores(state)
    if scores is not None:
        info["scores"] = [None if seat in hidden else s for seat, s in enumerate(scores)]
    return info


def cached_timeline(line: Line, head: int, rules: Rules, setup: Setup, viewer: SeatView,
                    events_between: Callable[[int, int], Sequence[Event]]) -> dict[str, Any]:
    """The timeline of ``line`` at ``head``, as ``viewer`` (the line's view) sees it.

    Cached; else the line's newest cached timeline (if shorter) extended by the events after it; else one fold
    of the whole branch. ``events_between(after, upto)`` reads the branch's events with ``after`` < seq ≤ ``upto``.
    """
    with _LOCK:
        found = _CACHE.get((line, head))
        if found is not None:
            _CACHE.move_to_end((line, head))
            return found.timeline
        # The line's newest cached timeline: a scan of the few cached ones, not an index to keep in step with them.
        base = max((fold for (cached, _), fold in _CACHE.items() if cached == line), key=lambda fold: fold.head, default=None)
    fold = _extended(base, head, rules, setup, viewer, events_between) if base is not None and base.head < head else None
    if fold is None:
        fold = _fold(rules, setup, viewer, events_between(0, head))
    _keep(line, fold)
    return fold.timeline


def _extended(base: _Fold, head: int, rules: Rules, setup: Setup, viewer: SeatView,
              events_between: Callable[[int, int], Sequence[Event]]) -> _Fold | None:
    """``base`` folded on to ``head``, or None if the branch no longer holds ``base``'s last event at its seq (a branch
    deleted and made again under its id)."""
    events = events_between(base.head - 1, head)
    if not events or events[0] != base.last:
        return None
    return _fold(rules, setup, viewer, events[1:], base)


def _keep(line: Line, fold: _Fold) -> None:
    """Cache ``fold`` (the least recently used timeline goes past :data:`_CACHE_SIZE`)."""
    with _LOCK:
        _CACHE[(line, fold.head)] = fold
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)


def moves_after(timeline: dict[str, Any], after: int) -> dict[str, Any]:
    """``timeline`` with only its moves and positions after position ``after`` (what a page that has the rest needs)."""
    moves = timeline["moves"]
    first = bisect_right(moves, after, key=lambda move: move["seq"])
    return {**timeline, "moves": moves[first:], "positions": timeline["positions"][after:], "after": after}


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
