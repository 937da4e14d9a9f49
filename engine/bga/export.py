"""Export: an event history as a Board Game Arena archive document.

:func:`export_log` writes BGA-style packets in the archive envelope
(``{"status": 1, "data": {"logs": [...], "players": [...]}}``). A game's mapping
(:mod:`engine.bga.mapping`) writes its own notification ``type`` names (documented per game;
BGA's are not public); other games get the generic ``ludologAction`` notes. Notes written for
every game:

``ludologSetup``   silent, first packet: ``args.game``, ``rules_version``, ``options``; ``title`` when the
                   ``game_created`` event's meta has one (the game's title, kept through a re-import); ``from``
                   (``{"game", "branch"}``) when its meta names the public game it was exported from, so that a
                   re-import of it unchanged answers that game
``ludologSeat``    private to each player: which seat they play
``ludologAction``  one per event (games without a mapping, :mod:`engine.bga.generic`)
``ludologHidden``  on the table, for an event not everyone may see: ``args.description`` (the public
                   sentence), ``args.ludolog_actor``; the event's own notes go on the private channel of
                   each seat that may see it, with ``args.ludolog_seq`` (read once on import)
``gameStateChange`` with ``args.id == 99``: the end of the game and its result (as BGA)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.bga.generic import generic_note
from engine.bga.mapping import bga_name, mapping_for
from engine.core.events import Event
from engine.core.protocol import CHANCE, Action, Outcome, Rules, Setup, State
from engine.core.registry import get_rules
from engine.core.versions import setup_for_version
from engine.core.visibility import viewers_of

PLAYER_ID_BASE = 2_000_001
DEFAULT_TABLE_ID = 1
#: The time of an exported packet whose event has none: this plus its move number.
DEFAULT_START_TIME = 1_700_000_000


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
    rules = rules or get_rules(data["game"])
    setup = setup_for_version(rules, data.get("rules_version"), Setup.from_json(data["setup"]))
    writer = _ExportWriter(rules, setup, table_id, start_time, view)
    writer.write(events)
    players = [{"id": str(pid), "name": name} for pid, name in zip(writer.ids, writer.names, strict=True)]
    return {"status": 1, "data": {"game_name": bga_name(rules.name), "table_id": str(table_id),
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
        mapping = mapping_for(rules.name)
        first_time = _time_of(events[0], self.start_time)
        setup_args: dict[str, Any] = {"game": rules.name, "rules_version": rules.version, "options": dict(self.setup.options)}
        title = events[0].meta.get("title")
        if isinstance(title, str) and title:
            setup_args["title"] = title
        source = events[0].meta.get("from")
        if isinstance(source, Mapping):
            setup_args["from"] = {"game": str(source.get("game")), "branch": str(source.get("branch"))}
        setup_note = {"type": "ludologSetup", "log": "", "args": setup_args}
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
            if mapping is not None:
                notes = mapping.notes_for(rules, state, event, after, names, ids)
            else:
                notes = [generic_note(rules, state, event, action, names, ids)]
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
