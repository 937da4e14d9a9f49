"""What a viewer may see of an event: the one rule every route, export and timeline goes through.

A viewer is a seat or ``None`` (a spectator). A viewer may see *which* action an event took
unless the rules themselves say it cannot be told apart: the event's sentence
(``rules.describe``) is public, so only the alternatives with the same sentence (the other
legal actions, or chance's other outcomes) could be confused with it; and if the state after
one of those looks exactly the same to the viewer (``rules.view``), the viewer cannot know
which one was taken. Its notation is then hidden while the sentence, the actor and the seq stay
(``deal DE`` is only "Anna draws a landscape card", ``bonus B-DE`` only "Anna looks through the
bonus cards and keeps one face down").

A seat always sees its own decisions. This asks the engine's own ``view`` and ``describe``
instead of a list of secret verbs per game, so a new game's secrets are kept by its ``view``
alone, and a route cannot disagree with the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.events import Event
from engine.core.protocol import CHANCE, Action, Rules, State

#: Who may see an event's action: every viewer (``EVERYONE``) or the seats in the set.
EVERYONE: frozenset[int] | None = None

#: ``meta`` entries a hidden event keeps (its source line or an import's reasoning could name the secret).
PUBLIC_META = ("time", "author", "move_id")


def _alternatives(rules: Rules, state: State) -> Sequence[Action]:
    if rules.current_actor(state) == CHANCE:
        return [outcome for outcome, _ in rules.chance_outcomes(state)]
    return rules.legal_actions(state)


def viewers_of(rules: Rules, state: State, action: Action, seats: int) -> frozenset[int] | None:
    """The seats that may see which ``action`` was taken in ``state`` (:data:`EVERYONE`: all, spectators too)."""
    sentence = rules.describe(state, action)
    twins = [a for a in _alternatives(rules, state) if a != action and rules.describe(state, a) == sentence]
    if not twins:
        return EVERYONE
    after = rules.apply(state, action)
    twin_states = [rules.apply(state, a) for a in twins]

    def tells_apart(seat: int | None) -> bool:
        seen = rules.view(after, seat)
        return all(rules.view(other, seat) != seen for other in twin_states)

    if tells_apart(None):
        return EVERYONE
    actor = rules.current_actor(state)
    return frozenset(seat for seat in range(seats) if seat == actor or tells_apart(seat))


def may_see(viewers: frozenset[int] | None, seat: int | None) -> bool:
    """True if ``seat`` (None: a spectator) is among ``viewers``."""
    return viewers is None or (seat is not None and seat in viewers)  # None is EVERYONE


def redacted_event(event: Event, sentence: str) -> dict[str, Any]:
    """The JSON of an event whose action the viewer may not see: no notation, public meta only."""
    body = event.to_json()
    body["action"] = None
    body["hidden"] = True
    body["text"] = sentence
    body["meta"] = {k: v for k, v in event.meta.items() if k in PUBLIC_META}
    return body


class SeatView:
    """Folds a history and answers, event by event, what one viewer may see of it.

    ``seat``: a seat, ``None`` for a spectator; ``full=True`` sees everything (the full view).
    """

    def __init__(self, rules: Rules, seats: int, seat: int | None, *, full: bool = False) -> None:
        self.rules = rules
        self.seats = seats
        self.seat = seat
        self.full = full

    def sees(self, state: State, action: Action) -> bool:
        """True if this viewer may see ``action`` taken in ``state``."""
        if self.full or (self.seat is not None and self.rules.current_actor(state) == self.seat):
            return True
        return may_see(viewers_of(self.rules, state, action, self.seats), self.seat)

    def state(self, state: State) -> Any:
        """The state as this viewer sees it (the full dump for the full view)."""
        return self.rules.dump_state(state) if self.full else self.rules.view(state, self.seat)

    def event_json(self, state: State, event: Event) -> dict[str, Any]:
        """``event`` (taken in ``state``) as JSON for this viewer: as stored, or redacted."""
        if event.action is None or self.full:
            return event.to_json()
        action = self.rules.parse_action(event.action)
        if self.sees(state, action):
            return event.to_json()
        return redacted_event(event, self.rules.describe(state, action))


def events_as_seen(rules: Rules, initial: State, events: Sequence[Event], viewer: SeatView) -> list[dict[str, Any]]:
    """``events`` (the first taken in ``initial``) as ``viewer`` may see them, folding as it goes."""
    state = initial
    out = []
    for event in events:
        out.append(viewer.event_json(state, event))
        if event.action is not None:
            state = rules.apply(state, rules.parse_action(event.action))
    return out


def viewer_for(rules: Rules, seats: int, view: str) -> SeatView:
    """The viewer named ``full``, ``spectator`` or a seat number (already checked by the caller)."""
    if view == "full":
        return SeatView(rules, seats, None, full=True)
    return SeatView(rules, seats, None if view == "spectator" else int(view))
