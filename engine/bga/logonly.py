"""Log-only game records: what we keep of a BGA log for a game we have no rules for.

A record has the players in seat order, the moves with the lines a person saw (public
lines, and private lines tagged with the seat they belong to), the final result and a
guess at the game's name. It can be browsed and annotated but not forked, since no rules
can continue it. It is JSON-safe (:meth:`LogOnlyRecord.to_json` /
:meth:`LogOnlyRecord.from_json`) because the store keeps it as is.

Private lines must never reach another player: every reader should go through
:func:`lines_visible_to` rather than ``record.moves``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any

from engine.bga.model import BgaLog, Notification, Packet
from engine.bga.render import render_notification

#: The ``format`` tag of a record's JSON; bump it when the JSON shape changes.
RECORD_FORMAT = "bga-log-only/1"
#: The game name when nothing in the log or its file name says which game it is.
UNKNOWN_GAME = "unknown BGA game"

# Notification traits of the BGA games we have seen logs of. A guess only: it names the
# game for people browsing the log and is never used to pick rules.
_FINGERPRINTS: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = (
    # (BGA game name, notification types that suffice, argument names that suffice)
    ("puertorico", frozenset(), frozenset({"rol_type", "rol_type_tr"})),
    ("tokaido", frozenset({"travelerChosen", "traveled"}), frozenset()),
    ("gaiaproject", frozenset({"notifyGaiaDone", "notifyFormFederation", "notifyChooseRace"}), frozenset()),
)
# File-name stems that say nothing about the game ("log_123.json", "replay-5.json").
_GENERIC_STEMS = frozenset({"log", "logs", "game", "games", "table", "replay", "replays", "bga", "archive", "export", "upload", "data",
                            "pasted", "paste", "movetext", "moves", "text", "review", "gamereview", "untitled"})


@dataclass(frozen=True)
class LogPlayer:
    """A player of a log-only game: seat (0 = first), BGA id, name, and what the log says of color, score, rank."""

    seat: int
    player_id: int | None
    name: str
    color: str | None = None
    score: int | None = None
    rank: int | None = None


@dataclass(frozen=True)
class LogLine:
    """One line a person saw. ``private`` lines belong to ``player_id`` (at ``seat``, None if not seated).

    ``uid`` and ``packet_id`` name the notification it came from, for import reports.
    """

    text: str
    private: bool = False
    seat: int | None = None
    player_id: int | None = None
    type: str = ""
    uid: str = ""
    packet_id: int | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        """True if a viewer at ``seat`` (None: a spectator) may see this line."""
        return not self.private or (seat is not None and self.seat == seat)


@dataclass(frozen=True)
class LogMove:
    """One move of the log: its BGA move id (None for lines outside any move), time and lines."""

    index: int
    move_id: int | None
    time: int | None
    lines: tuple[LogLine, ...]
    time_text: str | None = None

    @property
    def public_lines(self) -> tuple[str, ...]:
        """The texts every viewer sees."""
        return tuple(line.text for line in self.lines if not line.private)

    @property
    def private_lines(self) -> tuple[LogLine, ...]:
        """The lines meant for one player only."""
        return tuple(line for line in self.lines if line.private)


@dataclass(frozen=True)
class LogResult:
    """One player's final result: seat (None if the result names someone not seated), name, score, rank."""

    seat: int | None
    player_id: int | None
    name: str
    score: int | None
    rank: int | None
    score_aux: int | None = None


@dataclass(frozen=True)
class LogOnlyRecord:
    """A log-only game, as the store keeps it.

    ``game_name_from`` says where ``game_name`` came from: ``"log"`` (stated in the
    upload), ``"notifications"`` (recognised from them), ``"filename"``, or ``"none"``.
    ``result`` is None when the log has no end of game. ``stats`` counts what was read.
    """

    source: str
    table_id: int | None
    game_name: str
    game_name_from: str
    players: tuple[LogPlayer, ...]
    moves: tuple[LogMove, ...]
    result: tuple[LogResult, ...] | None
    stats: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-safe dict (tagged with :data:`RECORD_FORMAT`)."""
        return {
            "format": RECORD_FORMAT,
            "source": self.source,
            "table_id": self.table_id,
            "game_name": self.game_name,
            "game_name_from": self.game_name_from,
            "players": [_fields(p) for p in self.players],
            "moves": [
                {"index": m.index, "move_id": m.move_id, "time": m.time, "time_text": m.time_text, "lines": [_fields(li) for li in m.lines]}
                for m in self.moves
            ],
            "result": None if self.result is None else [_fields(r) for r in self.result],
            "stats": dict(self.stats),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | str | bytes) -> LogOnlyRecord:
        """A record from :meth:`to_json`'s dict (or its JSON text); ValueError if it is not one."""
        doc = json.loads(data) if isinstance(data, (str, bytes)) else data
        if not isinstance(doc, Mapping) or doc.get("format") != RECORD_FORMAT:
            found = doc.get("format") if isinstance(doc, Mapping) else type(doc).__name__
            raise ValueError(f"not a log-only record: format {found!r}, expected {RECORD_FORMAT!r}")
        try:
            return cls(
                source=str(doc["source"]),
                table_id=doc["table_id"],
                game_name=str(doc["game_name"]),
                game_name_from=str(doc["game_name_from"]),
                players=tuple(LogPlayer(**p) for p in doc["players"]),
                moves=tuple(
                    LogMove(
                        index=m["index"],
                        move_id=m["move_id"],
                        time=m["time"],
                        time_text=m.get("time_text"),
                        lines=tuple(LogLine(**li) for li in m["lines"]),
                    )
                    for m in doc["moves"]
                ),
                result=None if doc["result"] is None else tuple(LogResult(**r) for r in doc["result"]),
                stats=dict(doc["stats"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed log-only record: {exc}") from None


def _fields(obj: Any) -> dict[str, Any]:
    """A flat dataclass's fields as a dict (values are already JSON-safe)."""
    return dict(obj.__dict__)


# --- building a record ---------------------------------------------------------------------


def to_log_only(log: BgaLog, *, filename: str | None = None) -> LogOnlyRecord:
    """The log-only record of ``log``; ``filename`` (the upload's name) helps guess the game."""
    seats = {p.id: seat for seat, p in enumerate(log.players)}
    players = tuple(
        LogPlayer(seat=seat, player_id=p.id, name=p.name, color=p.color, score=p.score, rank=p.rank) for seat, p in enumerate(log.players)
    )
    moves, stats = _moves(log, seats)
    result = None
    if log.result is not None:
        result = tuple(
            LogResult(
                seat=seats.get(e.player_id) if e.player_id is not None else None,
                player_id=e.player_id,
                name=e.name,
                score=e.score,
                rank=e.rank,
                score_aux=e.score_aux,
            )
            for e in log.result
        )
    name, name_from = guess_game_name(log, filename)
    return LogOnlyRecord(
        source=log.source,
        table_id=log.table_id,
        game_name=name,
        game_name_from=name_from,
        players=players,
        moves=moves,
        result=result,
        stats=stats,
    )


def _moves(log: BgaLog, seats: Mapping[int, int]) -> tuple[tuple[LogMove, ...], dict[str, int]]:
    """The moves of ``log`` in packet order, with rendered lines, and counts of what was read."""
    # packet_id grows across all channels, so sorting by it restores BGA's order even if
    # the file's packets were reordered. A packet with no move id (BGA's wake-up pings)
    # belongs to the move in progress.
    ordered = sorted(log.packets, key=lambda p: p.packet_id)
    groups: dict[int | None, list[Packet]] = {}
    current: int | None = None
    for packet in ordered:
        if packet.move_id is not None:
            current = packet.move_id
        groups.setdefault(current, []).append(packet)
    stats = {
        "packets": len(log.packets),
        "private_packets": len(log.private_packets),
        "notifications": 0,
        "lines": 0,
        "private_lines": 0,
        "silent": 0,
    }
    moves: list[LogMove] = []
    for move_id, packets in groups.items():
        lines: list[LogLine] = []
        for packet in packets:
            for note in packet.notifications:
                stats["notifications"] += 1
                line = _line(note, packet, seats, text_source=log.source == "text")
                if line is None:
                    stats["silent"] += 1
                    continue
                lines.append(line)
                stats["private_lines" if line.private else "lines"] += 1
        if lines:
            first = packets[0]
            moves.append(LogMove(index=len(moves), move_id=move_id, time=first.time, time_text=first.time_text, lines=tuple(lines)))
    return tuple(moves), stats


def _line(note: Notification, packet: Packet, seats: Mapping[int, int], *, text_source: bool) -> LogLine | None:
    """The line a person saw for ``note``, or None for a silent notification."""
    # Pasted text is already what the person saw; rendering it again could eat a literal "<".
    text = " ".join(note.log.split()) if text_source else render_notification(note)
    if not text:
        return None
    owner = packet.player_id if packet.is_private else None
    return LogLine(
        text=text,
        private=packet.is_private,
        seat=seats.get(owner) if owner is not None else None,
        player_id=owner,
        type=note.type,
        uid=note.uid,
        packet_id=packet.packet_id,
    )


def import_report(log: BgaLog) -> list[dict[str, Any]]:
    """One JSON-safe entry per notification, in packet order, saying what the log-only import did with it.

    ``status`` is ``"used"`` (it became a line) or ``"skipped"`` (it shows no text: a
    state change or other housekeeping); ``reason`` says which, and for a private line
    whose it is. Entries carry ``move_id``, ``packet_id``, ``uid`` and ``type``.
    """
    report = []
    text_source = log.source == "text"
    for packet in sorted(log.packets, key=lambda p: p.packet_id):
        for note in packet.notifications:
            line = _line(note, packet, {}, text_source=text_source)
            if line is None:
                status, reason = "skipped", "no text: a state change or other silent notification"
            elif line.private:
                status, reason = "used", f"private line for player {line.player_id}"
            else:
                status, reason = "used", "public line"
            report.append(
                {
                    "move_id": packet.move_id,
                    "packet_id": packet.packet_id,
                    "uid": note.uid,
                    "type": note.type,
                    "status": status,
                    "reason": reason,
                }
            )
    return report


# --- viewing -----------------------------------------------------------------------------------


def lines_visible_to(record: LogOnlyRecord, seat: int | None) -> tuple[LogMove, ...]:
    """The record's moves as a viewer at ``seat`` sees them (None: a spectator).

    Other players' private lines are removed, and so is a move left with no line, so a
    viewer cannot even tell that someone else received a private message there.
    """
    visible = []
    for move in record.moves:
        lines = tuple(line for line in move.lines if line.is_visible_to(seat))
        if lines:
            visible.append(move if len(lines) == len(move.lines) else replace(move, lines=lines))
    return tuple(visible)


# --- the game's name ------------------------------------------------------------------------------


def guess_game_name(log: BgaLog, filename: str | None = None) -> tuple[str, str]:
    """(game name, where it came from): the log's own statement, its notifications, the file name, or nothing.

    Names are BGA's short names (``tokaido``, ``gaiaproject``); :data:`UNKNOWN_GAME` when
    nothing says, with ``"none"`` as the source.
    """
    if log.game_name:
        return log.game_name, "log"
    recognised = _fingerprint(n for p in log.packets for n in p.notifications)
    if recognised:
        return recognised, "notifications"
    from_file = _name_from_filename(filename) if filename else None
    if from_file:
        return from_file, "filename"
    return UNKNOWN_GAME, "none"


def _fingerprint(notes: Iterable[Notification]) -> str | None:
    """The BGA game whose telltale notification types or argument names appear, if any."""
    types: set[str] = set()
    arg_names: set[str] = set()
    for note in notes:
        types.add(note.type)
        arg_names.update(k for k in note.named_args if isinstance(k, str))
    for name, by_type, by_arg in _FINGERPRINTS:
        if types & by_type or arg_names & by_arg:
            return name
    return None


def _name_from_filename(filename: str) -> str | None:
    """``tokaido`` from ``tokaido_100004927.json``: the leading word of the stem, unless it is generic."""
    stem = PurePath(filename.replace("\\", "/")).stem
    match = re.match(r"([A-Za-z][A-Za-z]{2,39})(?=$|[_\-\s.\d])", stem)
    if not match or match.group(1).lower() in _GENERIC_STEMS:
        return None
    return match.group(1).lower()
