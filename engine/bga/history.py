"""An imported history as it is built: the log's notes, the checked events, and the report.

A log is a sequence of :class:`LogNote` (one per BGA notification, already rendered to the
text a person saw). A game's mapping (:mod:`engine.bga.mapping`) turns notes into actions
and hands each one to a :class:`HistoryBuilder`, which puts it through the rules' check:
the first disagreement stops the import with a
:class:`~engine.core.errors.LogMismatchError` naming the move id, the log line and the
rule, and the :class:`LogImport` keeps the consistent prefix (for a partial import).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalActionError, LogMismatchError
from engine.core.events import Event, action_event, game_created
from engine.core.fold import check_action
from engine.core.protocol import Action, Actor, Rules, Setup, State

#: Report statuses of a notification (or of an event the log does not state).
USED, INFERRED, SKIPPED, REFUSED = "used", "inferred", "skipped", "refused"

#: Told ``(done, total)`` notes as an import goes.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class LogNote:
    """One notification of a log, as the importer needs it.

    ``index`` is its position among all notifications (file order after sorting by
    packet id); ``text`` the rendered line (empty for a silent one); ``player_id`` the
    owner of a private channel.
    """

    index: int
    move_id: int | None
    packet_id: int
    uid: str
    type: str
    text: str
    args: Mapping[str, Any]
    private: bool = False
    player_id: int | None = None
    time: int | None = None


@dataclass(slots=True)
class ReportRow:
    """What the import did with one notification, or with an event the log does not state."""

    status: str
    reason: str
    move_id: int | None = None
    packet_id: int | None = None
    uid: str = ""
    type: str = ""
    index: int | None = None
    seq: int | None = None
    action: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-safe (empty fields left out, to keep big reports small)."""
        out: dict[str, Any] = {"status": self.status, "reason": self.reason}
        for name in ("move_id", "packet_id", "index", "seq", "action"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.uid:
            out["uid"] = self.uid
        if self.type:
            out["type"] = self.type
        return out



@dataclass
class LogImport:
    """An import's result: the events (game_created first), the report, and the error that stopped it, if any.

    When ``error`` is set, ``events`` hold the consistent prefix: every event up to the last
    move that imported whole (see :meth:`consistent_prefix`).
    """

    game: str
    setup: Setup
    events: list[Event]
    report: list[ReportRow]
    error: LogMismatchError | None = None
    state: State = None
    stats: dict[str, int] = field(default_factory=dict)
    #: States after the seqs that are multiples of the builder's ``keep_every`` (for snapshots).
    kept_states: dict[int, State] = field(default_factory=dict)

    def consistent_prefix(self) -> list[Event]:
        """The events before the move that failed (all of them when nothing failed)."""
        if self.error is None or self.error.move_id is None:
            return list(self.events)
        bad = self.error.move_id
        events = list(self.events)
        while len(events) > 1 and events[-1].meta.get("move_id") == bad:
            events.pop()
        return events


class HistoryBuilder:
    """Appends checked events to a history being imported, with their source in ``meta``."""

    def __init__(self, rules: Rules, setup: Setup, *, source: str = "bga", keep_every: int = 0) -> None:
        self.rules = rules
        self.setup = setup
        self.state = rules.initial_state(setup)
        self.events: list[Event] = [game_created(rules.name, rules.version, setup, source=source)]
        self.report: list[ReportRow] = []
        self.keep_every = keep_every
        self.kept_states: dict[int, State] = {}

    @property
    def actor(self) -> Actor:
        """Who is to act now."""
        return self.rules.current_actor(self.state)

    def act(self, actor: Actor, action: Action, note: LogNote | None, *, inferred: str | None = None,
            move_id: int | None = None, legal: Container[Action] | None = None) -> Event:
        """Check and apply ``action`` by ``actor``; raise :class:`LogMismatchError` if the rules refuse it.

        ``legal``: the rules' legal actions in this state, when the caller has just listed them; an
        action among them by the seat to act passes the check without listing them again.
        """
        seq = len(self.events) + 1
        notation = self.rules.format_action(action)
        move = note.move_id if note is not None else move_id
        try:
            if legal is None or action not in legal or actor != self.rules.current_actor(self.state):
                check_action(self.rules, self.state, actor, action)
        except IllegalActionError as exc:
            raise LogMismatchError(exc.reason, move_id=move, line=note.text if note else "(not in the log)", rule=exc.rule,
                                   seq=seq, action=notation, index=note.index if note else None) from None
        meta: dict[str, Any] = {"move_id": move}
        if note is not None:
            meta.update(packet_id=note.packet_id, uid=note.uid)
            if note.time is not None:
                meta["time"] = note.time
        if inferred:
            meta["inferred"] = inferred
            self.report.append(ReportRow(INFERRED, inferred, move_id=move, seq=seq, action=notation))
        event = action_event(seq, actor, notation, **meta)
        self.state = self.rules.apply(self.state, action)
        self.events.append(event)
        if self.keep_every and seq % self.keep_every == 0:
            self.kept_states[seq] = self.state
        return event

    def note_row(self, note: LogNote, status: str, reason: str, seq: int | None = None, action: str | None = None) -> None:
        """Report what was done with ``note``."""
        self.report.append(ReportRow(status, reason, move_id=note.move_id, packet_id=note.packet_id, uid=note.uid,
                                     type=note.type, index=note.index, seq=seq, action=action))
