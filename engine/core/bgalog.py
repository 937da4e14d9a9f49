"""Board Game Arena logs in and out of an event history, for any game: the shared part.

Import: a log is a sequence of :class:`LogNote` (one per BGA notification, already
rendered to the text a person saw; the service reads the envelopes). A game with a
mapping of its own (``engine/<game>/bga.py``, listed in :data:`ADAPTERS`) turns notes
into actions by their structure and text; every other game is read back from the
notes our own export writes (``args.ludolog_action``). Every action goes through the
rules' check; the first disagreement stops the import with a :class:`LogMismatchError`
naming the move id, the log line and the rule, and the result keeps the consistent
prefix (for a partial import).

Export: :func:`export_log` writes an event history as BGA-style packets in the archive
envelope (``{"status": 1, "data": {"logs": [...], "players": [...]}}``). Our own
notification ``type`` names (documented per game) are used; BGA's are not public.

Generic notification types written for every game:

``ludologSetup``   silent, first packet: ``args.game``, ``rules_version``, ``options``
``ludologSeat``    private to each player: which seat they play
``ludologAction``  one per event (games without a mapping): ``args.ludolog_action`` (notation),
                   ``args.ludolog_actor`` (seat or ``"chance"``), ``args.description``
``ludologHidden``  on the table, for an event not everyone may see: ``args.description`` (the public
                   sentence), ``args.ludolog_actor``; the event's own notes go on the private channel of
                   each seat that may see it, with ``args.ludolog_seq`` (read once on import)
``gameStateChange`` with ``args.id == 99``: the end of the game and its result (as BGA)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core.errors import EngineError, IllegalActionError, NotationError
from engine.core.events import Event, action_event, game_created
from engine.core.fold import check_action
from engine.core.protocol import CHANCE, Action, Actor, Outcome, Rules, Setup, State
from engine.core.versions import setup_for_version
from engine.core.visibility import viewers_of

#: Games with a log mapping of their own: game name → module (with ``import_notes`` and ``notes_for``).
ADAPTERS: dict[str, str] = {"puerto_rico": "engine.puerto_rico.bga"}
#: Our registered names as BGA names them, and back.
BGA_NAMES: dict[str, str] = {"puerto_rico": "puertorico"}
GAMES_BY_BGA_NAME: dict[str, str] = {v: k for k, v in BGA_NAMES.items()}

#: Report statuses of a notification (or of an event the log does not state).
USED, INFERRED, SKIPPED, REFUSED = "used", "inferred", "skipped", "refused"

PLAYER_ID_BASE = 2_000_001
DEFAULT_TABLE_ID = 1
DEFAULT_START_TIME = 1_700_000_000

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


class LogMismatchError(EngineError, ValueError):
    """The log and the rules disagree: ``move_id``, the log ``line``, the ``rule`` and the reason."""

    def __init__(self, reason: str, *, move_id: int | None, line: str, rule: str | None, seq: int | None = None,
                 action: str | None = None, index: int | None = None) -> None:
        self.reason = reason
        self.move_id = move_id
        self.line = line
        self.rule = rule
        self.seq = seq
        self.action = action
        self.index = index
        where = f"move {move_id}" if move_id is not None else "a line outside any move"
        rule_text = f" [rule: {rule}]" if rule else ""
        super().__init__(f"log and rules disagree at {where}, line {line[:200]!r}: {reason}{rule_text}")

    def to_json(self) -> dict[str, Any]:
        """JSON-safe details for reports and API errors."""
        return {"move_id": self.move_id, "line": self.line[:500], "rule": self.rule, "reason": self.reason, "seq": self.seq,
                "action": self.action, "message": str(self)}


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


class Adapter(Protocol):
    """A game's BGA log mapping (``engine/<game>/bga.py``)."""

    def import_notes(self, rules: Rules, setup: Setup, notes: Sequence[LogNote], seats: Mapping[int, int],
                     progress: Progress | None = None, keep_every: int = 0) -> LogImport:
        """The history the notes describe (keeping the states after every ``keep_every``-th seq)."""

    def notes_for(self, rules: Rules, state: State, event: Event, after: State, names: Sequence[str],
                  ids: Sequence[int]) -> list[dict[str, Any]]:
        """The notifications (``type``, ``log``, ``args``) that tell ``event``, taken in ``state``, leading to ``after``."""


def adapter_for(game: str) -> Adapter | None:
    """The game's own log mapping, or None (the generic notation notes are used)."""
    target = ADAPTERS.get(game)
    if target is None:
        return None
    module: Adapter = importlib.import_module(target)
    return module


def game_for_bga_name(name: str | None, known: Sequence[str]) -> str | None:
    """Our game for a BGA game name (``puertorico`` → ``puerto_rico``), or None."""
    if not name:
        return None
    key = name.strip().lower()
    if key in GAMES_BY_BGA_NAME:
        return GAMES_BY_BGA_NAME[key]
    key = key.replace(" ", "_").replace("-", "_")
    return key if key in known else None


# --- import --------------------------------------------------------------------------------


def import_notes(rules: Rules, setup: Setup, notes: Sequence[LogNote], seats: Mapping[int, int] | None = None,
                 progress: Progress | None = None, keep_every: int = 0) -> LogImport:
    """The history ``notes`` describe for ``rules``: the game's own mapping, else our generic notes.

    With ``keep_every``, the result also keeps the states after every seq that is a multiple of
    it (``kept_states``), so that the caller can write snapshots without folding again.
    """
    adapter = adapter_for(rules.name)
    if adapter is not None:
        return adapter.import_notes(rules, setup, notes, dict(seats or {}), progress, keep_every)
    return import_generic(rules, setup, notes, progress, keep_every)


def _notation_of(note: LogNote, seq: int) -> Any:
    """The action a note states: a public one's, or a hidden event's from the first private channel that has it.

    A hidden event is written on the channel of every seat that may see it (``ludolog_seq``
    says which event), so only the first copy counts; other private notes have no rules effect.
    """
    if not note.private:
        return note.args.get("ludolog_action")
    hidden_seq = note.args.get("ludolog_seq")
    return note.args.get("ludolog_action") if hidden_seq == seq + 1 else None


def import_generic(rules: Rules, setup: Setup, notes: Sequence[LogNote], progress: Progress | None = None,
                   keep_every: int = 0) -> LogImport:
    """Read back the ``ludologAction`` notes of our own export: one event per note, checked."""
    builder = HistoryBuilder(rules, setup, keep_every=keep_every)
    result = LogImport(rules.name, setup, builder.events, builder.report, kept_states=builder.kept_states)
    total = len(notes)
    for done, note in enumerate(notes, start=1):
        notation = _notation_of(note, len(builder.events))
        if not isinstance(notation, str):
            builder.note_row(note, SKIPPED, "private notification: kept, no rules effect" if note.private else "no action in it")
        else:
            actor = note.args.get("ludolog_actor")
            try:
                try:
                    action = rules.parse_action(notation)
                except NotationError as exc:
                    raise LogMismatchError(str(exc), move_id=note.move_id, line=note.text, rule="notation", index=note.index,
                                           seq=len(builder.events) + 1, action=notation) from None
                event = builder.act(actor, action, note)
            except LogMismatchError as exc:
                builder.note_row(note, REFUSED, exc.reason)
                result.error = exc
                break
            builder.note_row(note, USED, "action", seq=event.seq, action=event.action)
        if progress is not None and (done % 200 == 0 or done == total):
            progress(done, total)
    result.state = builder.state
    return result


# --- export --------------------------------------------------------------------------------


def export_log(events: Sequence[Event], *, table_id: int = DEFAULT_TABLE_ID, start_time: int = DEFAULT_START_TIME,
               rules: Rules | None = None, view: str = "full") -> dict[str, Any]:
    """The history as a BGA archive document: packets on public and private channels, players, result.

    One move per player action (the chance events that follow it join its move; those before
    the first action join the setup move). Packet and move ids count from 1; a packet's time
    is its first event's ``meta.time`` when set, else ``start_time`` plus its move number.

    An event not every viewer may see (:mod:`engine.core.visibility`: a card dealt into a hand,
    a bonus card kept) is written as BGA does: its notes on the private channel of each seat
    that may see it, and a ``ludologHidden`` line with the public sentence on the table.
    ``view`` chooses whose log it is: ``full`` (every channel), ``spectator`` (the table only)
    or a seat number (the table and that seat's channel).
    """
    if not events or events[0].data is None:
        raise ValueError("an export needs a history starting with game_created")
    data = events[0].data
    from engine.core.registry import get_rules

    rules = rules or get_rules(data["game"])
    setup = setup_for_version(rules, data.get("rules_version"), Setup.from_json(data["setup"]))
    writer = _ExportWriter(rules, setup, table_id, start_time, view)
    writer.write(events)
    players = [{"id": str(pid), "name": name} for pid, name in zip(writer.ids, writer.names, strict=True)]
    return {"status": 1, "data": {"game_name": BGA_NAMES.get(rules.name, rules.name), "table_id": str(table_id),
                                  "logs": writer.packets, "players": players}}


class _ExportWriter:
    """Builds the packets of one export, keeping only the channels ``view`` may read."""

    def __init__(self, rules: Rules, setup: Setup, table_id: int, start_time: int, view: str) -> None:
        self.rules, self.setup, self.table_id, self.start_time = rules, setup, table_id, start_time
        self.names = list(setup.players)
        self.ids = [PLAYER_ID_BASE + seat for seat in range(len(self.names))]
        self.public = f"/table/t{table_id}"
        self.full = view == "full"
        self.seat = None if view in ("full", "spectator") else int(view)
        self.packets: list[dict[str, Any]] = []
        self.move_id = 1
        self.current: dict[str, Any] | None = None

    def readable(self, seat: int | None) -> bool:
        """True if the export's reader may read ``seat``'s channel (None: the table)."""
        return seat is None or self.full or seat == self.seat

    def packet(self, channel: str, time: int) -> dict[str, Any]:
        """A new packet on ``channel`` in the current move; it becomes the one notes are added to."""
        out = {"channel": channel, "table_id": str(self.table_id), "packet_id": str(len(self.packets) + 1),
               "packet_type": "history", "move_id": str(self.move_id), "time": str(time), "data": []}
        self.packets.append(out)
        self.current = out
        return out

    def add(self, seat: int | None, notes: Sequence[Mapping[str, Any]], time: int) -> None:
        """Append ``notes`` to ``seat``'s channel (None: the table), in a new packet if the channel changes."""
        if not self.readable(seat):
            return
        channel = self.public if seat is None else f"/player/p{self.ids[seat]}"
        current = self.current
        if current is None or current["channel"] != channel or current["move_id"] != str(self.move_id):
            current = self.packet(channel, time)
        base = len(current["data"])
        current["data"].extend({"uid": f"{current['packet_id']}-{base + i}", **n} for i, n in enumerate(notes))

    def write(self, events: Sequence[Event]) -> None:
        """Every packet: setup, seats, one move per player action, the end."""
        rules, names, ids = self.rules, self.names, self.ids
        adapter = adapter_for(rules.name)
        first_time = _time_of(events[0], self.start_time)
        setup_note = {"type": "ludologSetup", "log": "",
                      "args": {"game": rules.name, "rules_version": rules.version, "options": dict(self.setup.options)}}
        self.add(None, [setup_note], first_time)
        for seat, (name, pid) in enumerate(zip(names, ids, strict=True)):
            self.add(seat, [{"type": "ludologSeat", "log": "You play seat ${seat} as ${player_name}",
                             "args": {"seat": seat, "player_name": name, "player_id": pid}}], first_time)
        state = rules.initial_state(self.setup)
        for event in events[1:]:
            if event.action is None:
                continue
            action = rules.parse_action(event.action)
            after = rules.apply(state, action)
            if adapter is not None:
                notes = adapter.notes_for(rules, state, event, after, names, ids)
            else:
                notes = [_generic_note(rules, state, event, action, names, ids)]
            time = _time_of(event, self.start_time + self.move_id + (event.actor != CHANCE))
            if event.actor != CHANCE:
                self.move_id += 1
                self.packet(self.public, time)
            self.add_event(state, event, action, notes, time)
            state = after
        outcome = rules.outcome(state)
        if outcome is not None:
            self.move_id += 1
            self.add(None, [_game_end_note(outcome, names, ids)],
                     _time_of(events[-1], self.start_time + self.move_id))

    def add_event(self, state: State, event: Event, action: Action, notes: list[dict[str, Any]], time: int) -> None:
        """An event's notes on the table, or (a hidden one) on its viewers' channels with a public line."""
        viewers = viewers_of(self.rules, state, action, len(self.names))
        if viewers is None:  # visibility.EVERYONE: a public event
            self.add(None, notes, time)
            return
        args: dict[str, Any] = {"ludolog_actor": event.actor, "description": self.rules.describe(state, action)}
        if isinstance(event.actor, int):
            args.update(player_name=self.names[event.actor], player_id=self.ids[event.actor])
        self.add(None, [{"type": "ludologHidden", "log": "${description}", "args": args}], time)
        for seat in sorted(viewers):
            self.add(seat, [{**n, "args": {**n.get("args", {}), "ludolog_seq": event.seq}} for n in notes], time)


def _time_of(event: Event, default: int) -> int:
    value = event.meta.get("time")
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _generic_note(rules: Rules, state: State, event: Event, action: Action, names: Sequence[str],
                  ids: Sequence[int]) -> dict[str, Any]:
    args: dict[str, Any] = {"ludolog_action": event.action, "ludolog_actor": event.actor,
                            "description": rules.describe(state, action)}
    if isinstance(event.actor, int):
        args.update(player_name=names[event.actor], player_id=ids[event.actor])
    return {"type": "ludologAction", "log": "${description}", "args": args}


def _game_end_note(outcome: Outcome, names: Sequence[str], ids: Sequence[int]) -> dict[str, Any]:
    """BGA's end of game: ``gameStateChange`` id 99 with the result table.

    The ranks are the game's final places as its rules decide them (1 = best), never re-derived
    from the scores: in Die goldene Stadt a blocked player is last whatever their letters.
    """
    result = []
    for seat, name in enumerate(names):
        entry: dict[str, Any] = {"player": str(ids[seat]), "name": name, "score": str(outcome.scores[seat]),
                                 "rank": outcome.ranks[seat]}
        if outcome.tiebreaks:
            entry["score_aux"] = outcome.tiebreaks[seat]
        result.append(entry)
    return {"type": "gameStateChange", "log": "", "args": {"id": 99, "name": "gameEnd", "args": {"result": result}}}
