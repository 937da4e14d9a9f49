"""A branch's timeline: every move with the engine's sentence, its round and role, and what
the board caption and the score chart need at every position, from one fold of the branch.

The browser fetches it once per branch (``timeline.json``) so that stepping, the move list,
jumping by round or role and the chart never wait on the server. Built from the positions the
store's reader folds in turn (:meth:`service.store.snapshots.StateReader.steps`, the one fold loop
every reader of positions shares), with the rules' public methods (``describe``, ``current_actor``,
``outcome``) and the game's UI adapter; cached per (game, branch, head, view) since events never change.

A branch only grows (a take-back forks a new line; nothing is rewritten), so the timeline at a new
head is the newest cached one of the same line extended by the events after it: a page following a
game live asks again at every move, and folding only the new events keeps each ask small however
long the game (a whole fold of a 677-move Amerigo game took 74 ms here, and two pages asked at each
of its moves). The extension checks that the line still holds the event it ended on.
"""

from __future__ import annotations

import copy
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import CHANCE, Event, Rules, Setup
from engine.core.messages import Message
from engine.core.visibility import SeatView
from replay_ui.games import adapter_for
from service.i18n import DEFAULT_LOCALE, _, format_list, format_number, locale_id, use_locale
from service.i18n.games import move_text, render_message
from service.store.lru import LRU
from service.store.snapshots import Resume, Step, fold_steps

#: A branch's positions to a head, in turn, from its start or on from a :class:`Resume` (None: the branch no longer
#: holds the resumed fold's last event): :meth:`service.store.snapshots.StateReader.steps` for one branch.
StepsTo = Callable[[int, Resume | None], Iterator[Step] | None]


@dataclass(frozen=True)
class Line:
    """What a timeline is of, whatever its head: a branch of a game (its ``created`` time tells a game
    deleted and made again under the same id from the first) as one ``view`` sees it, its sentences in one
    ``language`` (:data:`service.i18n.games.LANGUAGES`)."""

    game_id: str
    branch: str
    view: str
    created: float
    language: str = "en"


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


_CACHE: LRU[tuple[Line, int], _Fold] = LRU(32)


def _actor_json(actor: Any) -> Any:
    return "chance" if actor == CHANCE else actor


def build_timeline(rules: Rules, setup: Setup, events: Sequence[Event], viewer: SeatView | None = None,
                   language: str = "en") -> dict[str, Any]:
    """Moves (seq 2…), and per position (seq 1…head) the caption facts and scores, as ``viewer`` sees them.

    ``viewer`` (default: the full view) decides which moves' notation is shown
    (:mod:`engine.core.visibility`); the running scores of the other seats are reported as
    None in a seat's or a spectator's view (their VP chips, letters are face down).
    """
    viewer = viewer or SeatView(rules, len(setup.players), None, full=True)
    return _fold(rules, setup, viewer, fold_steps(rules, rules.initial_state(setup), events), language=language).timeline


def _fold(rules: Rules, setup: Setup, viewer: SeatView, steps: Iterable[Step], start: _Fold | None = None,
          language: str = "en") -> _Fold:
    """The timeline of ``steps``: from the game's start (the first step), or on from ``start`` (whose lists are copied,
    never changed: a cached timeline may be being sent). The adapter's words (marks, the result) are in ``language``
    too, whatever the locale of the caller."""
    with use_locale(locale_id(language) or DEFAULT_LOCALE):
        return _fold_in(rules, setup, viewer, steps, start, language)


def _fold_in(rules: Rules, setup: Setup, viewer: SeatView, steps: Iterable[Step], start: _Fold | None,
             language: str) -> _Fold:
    """:func:`_fold` in the current locale."""
    hidden_scores = () if viewer.full else tuple(s for s in range(len(setup.players)) if s != viewer.seat)
    names = tuple(setup.players)
    if start is None:
        adapter = adapter_for(rules.name)
        state, last = None, None
        moves: list[dict[str, Any]] = []
        positions: list[dict[str, Any]] = []
    else:
        # The cached fold's adapter stays as it was: another head may be extended from the same fold.
        state, last, adapter = start.state, start.last, copy.deepcopy(start.adapter)
        moves, positions = list(start.timeline["moves"]), list(start.timeline["positions"])
    for step in steps:
        last, state = step.event, step.state
        if step.action is None:  # the game's start: its first position
            positions.append(_position(rules, adapter, state, names, hidden_scores, language))
            continue
        moves.append(_move(rules, adapter, viewer, step, language))
        positions.append(_position(rules, adapter, state, names, hidden_scores, language))
    outcome = rules.outcome(state)
    outcome_json = outcome.to_json() if outcome is not None else None
    if outcome_json is not None:
        outcome_json["words"] = adapter.result(outcome_json)
    timeline = {"game": rules.name, "players": list(names), "head": last.seq if last else 1, "moves": moves,
                "positions": positions, "outcome": outcome_json}
    return _Fold(timeline, state, last, adapter)


def _move(rules: Rules, adapter: Any, viewer: SeatView, step: Step, language: str) -> dict[str, Any]:
    """A move of the timeline: its sentence in ``language``, its notation unless ``viewer`` may not see it, the
    adapter's marks."""
    event, action, before = step.event, step.action, step.before
    move = {"seq": event.seq, "actor": _actor_json(event.actor), "action": event.action,
            "text": move_text(rules, before, action, language)}
    if not viewer.sees(before, action):
        move.update(action=None, hidden=True)
    move.update(adapter.marks(before, action))
    return move


def _position(rules: Rules, adapter: Any, state: Any, names: tuple[str, ...], hidden: Sequence[int],
              language: str) -> dict[str, Any]:
    actor = rules.current_actor(state)
    info: dict[str, Any] = {"actor": _actor_json(actor)}
    info.update(adapter.position(state, names))
    if "caption" in info:
        info["caption"] = caption_words(info["caption"], language)
    scores = adapter.scores(state)
    if scores is not None:
        info["scores"] = [None if seat in hidden else s for seat, s in enumerate(scores)]
    return info


def caption_words(parts: Sequence[Any], language: str = "en") -> list[str]:
    """An adapter's caption phrases as words in ``language``: a text as it is, a message rendered."""
    return [render_message(part, language) if isinstance(part, Message) else part for part in parts]


def cached_timeline(line: Line, head: int, rules: Rules, setup: Setup, viewer: SeatView, steps_to: StepsTo) -> dict[str, Any]:
    """The timeline of ``line`` at ``head``, as ``viewer`` (the line's view) sees it.

    Cached; else the line's newest cached timeline (if shorter) extended by the positions after it; else one fold
    of the whole branch. ``steps_to(head, resume)`` folds the branch's positions (the store's reader).
    """
    found = _CACHE.get((line, head))
    if found is not None:
        return found.timeline
    # The line's newest cached timeline: a scan of the few cached ones, not an index to keep in step with them.
    base = max((fold for (cached, _), fold in _CACHE.items() if cached == line), key=lambda fold: fold.head, default=None)
    fold = _extended(base, head, rules, setup, viewer, steps_to, line.language) if base is not None and base.head < head else None
    if fold is None:
        steps = steps_to(head, None)
        assert steps is not None, "a fold from the start always has its steps"
        fold = _fold(rules, setup, viewer, steps, language=line.language)
    _CACHE.put((line, fold.head), fold)
    return fold.timeline


def _extended(base: _Fold, head: int, rules: Rules, setup: Setup, viewer: SeatView, steps_to: StepsTo,
              language: str) -> _Fold | None:
    """``base`` folded on to ``head``, or None if the branch no longer holds ``base``'s last event at its seq (a branch
    deleted and made again under its id)."""
    if base.last is None:
        return None
    steps = steps_to(head, Resume(base.last, base.state))
    return None if steps is None else _fold(rules, setup, viewer, steps, base, language)


def moves_after(timeline: dict[str, Any], after: int) -> dict[str, Any]:
    """``timeline`` with only its moves and positions after position ``after`` (what a page that has the rest needs)."""
    moves = timeline["moves"]
    first = bisect_right(moves, after, key=lambda move: move["seq"])
    return {**timeline, "moves": moves[first:], "positions": timeline["positions"][after:], "after": after}


def caption_at(timeline: dict[str, Any], seq: int) -> str:
    """The board caption at position ``seq``, worded as the game page's script words it (``captionFor``).

    The page renders it on the server, so the caption shows (and is the largest text painted early)
    before any script or data has arrived; the script then keeps it in step (the same messages of the site's catalog,
    in the page's language).
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
        parts.append(_("%(player)s to act", player=names[actor]))
    elif actor == "chance":
        parts.append(_("chance to draw"))
    elif seq == timeline["head"] and outcome:
        winners, score = outcome["winners"], format_number(outcome["scores"][outcome["winners"][0]])
        said = format_list([names[s] for s in winners])
        parts.append(_("game over: %(winners)s share the win with %(score)s", winners=said, score=score) if len(winners) > 1
                     else _("game over: %(winners)s wins with %(score)s", winners=said, score=score))
    return " · ".join(parts)
