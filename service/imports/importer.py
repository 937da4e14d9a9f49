"""Importing uploaded BGA logs: the orchestration (read the upload, run the BGA import, hand the game to the store).

The upload's record and bytes are kept by :class:`~service.store.uploads.UploadStore`; the
import itself is :mod:`engine.bga` (decide the game, map the notifications to checked events in
memory, or keep a log of a game without rules as log lines); the game is stored by
:meth:`~service.store.games.GameStore.create_imported` in one Redis transaction: a failed import
stores nothing. With ``partial`` a log that disagrees with the rules is stored up to its last
consistent move, on a main branch flagged incomplete. Every failure is an exception turned into
the upload record's JSON error by :func:`error_record`.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import redis

from engine import CHANCE, Event, Setup, action_event, fold, game_created, get_rules
from engine.bga import (
    DEFAULT_START_TIME,
    UNKNOWN_GAME,
    BgaLog,
    BgaLogError,
    BgaPlayersError,
    BgaSyntaxError,
    LogOnlyRecord,
    detect_game,
    exported_source,
    exported_title,
    import_log,
    import_report,
    in_log_order,
    is_our_export,
    to_log_only,
)
from engine.core.errors import LogMismatchError
from engine.core.visibility import SeatView, events_as_seen
from service.games.titles import game_title
from service.imports.reimport import read_upload
from service.store.errors import NotFoundError
from service.store.games import MAIN, SOURCE_LOG_ONLY, GameStore
from service.store.results import GameResult, log_only_result, result_of
from service.store.snapshotting import snapshot_seqs
from service.store.uploads import DONE, FAILED, QUEUED, RUNNING, UploadStore, content_digest, game_id_for

log = logging.getLogger(__name__)

#: Source of games imported with full rules (log-only games: ``SOURCE_LOG_ONLY``, which the API refuses to fork).
SOURCE_RULES = "bga"

Progress = Callable[[int, int], None]


class UploadExpiredError(LookupError):
    """The uploaded file's bytes are gone (kept a week): there is nothing left to import."""


@dataclass
class ImportOutcome:
    """What an import did: the game stored (or None), what it is, and the per-line report."""

    status: str
    game: str | None = None
    kind: str | None = None  # "rules" or "log-only"
    game_name: str | None = None
    incomplete: bool = False
    #: Events stored: the setup (``game_created``), the players' moves and the chance draws (``draws`` of them).
    events: int = 0
    draws: int = 0
    error: dict[str, Any] | None = None
    report: list[dict[str, Any]] = field(default_factory=list)
    duplicate: bool = False
    #: The game's title (the existing game's, for an upload linked to it).
    title: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-safe."""
        return dict(self.__dict__)


def error_record(exc: Exception) -> dict[str, Any]:
    """The upload record's JSON error for what stopped an import: a ``code``, the ``status`` the uploader's
    client is shown, a ``message`` and what the error knows (for a rules disagreement: move, line, rule)."""
    if isinstance(exc, LogMismatchError):
        return {"status": 422, "code": "rules_disagree", **exc.to_json()}
    if isinstance(exc, BgaPlayersError):
        return {"status": 422, "code": "bad_setup", "message": exc.message}
    if isinstance(exc, BgaLogError):
        return {"status": 400 if isinstance(exc, BgaSyntaxError) else 422, "code": "bad_log", "message": exc.message,
                "details": exc.details}
    if isinstance(exc, UploadExpiredError):
        return {"status": 410, "code": "gone", "message": str(exc)}
    raise TypeError(f"not an import error: {exc!r}") from exc


# --- uploads (kept by service.store.uploads) -------------------------------------------------------


def submit_upload(uploads: UploadStore, raw: bytes, *, owner: str | None, partial: bool = False, filename: str | None = None,
                  visibility: str = "public") -> tuple[str, bool]:
    """Store an upload to import (:meth:`UploadStore.submit`); returns (upload id, True if it was uploaded before).

    Our own export is known by what it says (:func:`export_identity`), not by its bytes, so the same game's export
    uploaded again, in another format or downloaded again, answers the game its first upload made.
    """
    return uploads.submit(raw, owner=owner, partial=partial, filename=filename, visibility=visibility,
                                      identity=export_identity(raw))


def export_identity(raw: bytes) -> bytes | None:
    """What identifies our own export, whatever its format: the game, its setup and title, and each note of each
    packet (times and ids left out: they are the same moves). None for anything else (a BGA log is known by its
    bytes) and for bytes that do not read as a log (the import will say why)."""
    try:
        bga = read_upload(raw)
    except (BgaLogError, ValueError):
        return None
    if not is_our_export(bga):
        return None
    notes = [[n.type, n.log, n.args, n.private] for packet in bga.packets for n in packet.notifications]
    players = [[p.id, p.name] for p in bga.players]
    return json.dumps(["ludolog export", bga.game_name, players, notes], sort_keys=True, default=str).encode()


def log_record(games: GameStore, gid: str) -> LogOnlyRecord | None:
    """A log-only game's record, or None."""
    data = games.log_record(gid)
    return None if data is None else LogOnlyRecord.from_json(data)


def log_time(bga: BgaLog) -> float:
    """When the game was played: its first packet's time; now when the log does not say (pasted text, our
    export of a game whose events carry no time)."""
    times = [p.time for p in bga.packets if p.time is not None]
    first = min(times, default=None)
    if first is None or (is_our_export(bga) and first <= DEFAULT_START_TIME + len(bga.packets)):
        return time.time()
    return float(first)


# --- importing in memory -----------------------------------------------------------------------


@dataclass
class Prepared:
    """A game ready to store: its record fields, events, snapshots and log record."""

    game: str
    rules_version: str
    setup: Setup
    source: str
    events: list[Event]
    extra: dict[str, Any]
    incomplete: bool = False
    snapshots: list[tuple[int, str, Any]] = field(default_factory=list)
    log_record: dict[str, Any] | None = None
    title: str = ""
    #: The result when the log ends the game (None for a log that stops before the end, or a partial import).
    result: GameResult | None = None


def prepare(bga: BgaLog, *, partial: bool, every: int, filename: str | None = None,
            progress: Progress | None = None) -> tuple[Prepared | None, list[dict[str, Any]], dict[str, Any] | None]:
    """(game to store or None, report rows, error record) for a parsed log; stores nothing."""
    game = detect_game(bga)
    if game is None:
        return _prepare_log_only(bga, filename), import_report(bga), None
    try:
        result = import_log(bga, game, keep_every=every, progress=progress)
    except BgaPlayersError as exc:
        return None, [], error_record(exc)
    report = in_log_order([row.to_json() for row in result.report])
    events = result.events
    error: dict[str, Any] | None = None
    if result.error is not None:
        error = error_record(result.error)
        if not partial:
            return None, report, error
        events = result.consistent_prefix()
    rules, setup = get_rules(game), result.setup
    table_id = None if is_our_export(bga) else bga.table_id
    title = exported_title(bga) or game_title(game, setup.players, when=log_time(bga), table_id=table_id)
    imported: dict[str, Any] = {"format": "bga", "table_id": table_id,
                                "inferred": sum(1 for r in report if r["status"] == "inferred")}
    if error is not None:
        imported["stopped_at"] = error
    extra: dict[str, Any] = {"imported": imported}
    prepared = Prepared(game, rules.version, setup, SOURCE_RULES, events, extra, incomplete=error is not None, title=title)
    prepared.snapshots = _snapshots(rules, setup, events, every, result.kept_states,
                                    result.state if len(events) == len(result.events) else None)
    if error is None:
        prepared.result = result_of(rules, result.state, setup.players)
    return prepared, report, error


def _snapshots(rules: Any, setup: Setup, events: Sequence[Event], every: int, kept: Mapping[int, Any],
               head_state: Any) -> list[tuple[int, str, Any]]:
    """The snapshots the fold job would write (:func:`snapshot_seqs`), from the states the import kept;
    the head of a partial import (its events cut back) is folded from the nearest one."""
    head = events[-1].seq
    out = []
    for seq in sorted(snapshot_seqs(0, head, every)):
        if seq in kept:
            state = kept[seq]
        elif head_state is not None:
            state = head_state
        else:
            base = max((s for s in kept if s < head), default=1)
            start = kept[base] if base > 1 else rules.initial_state(setup)
            state = fold(rules, start, events[base:], check=False)
        out.append((seq, rules.version, rules.dump_state(state)))
    return out


def _prepare_log_only(bga: BgaLog, filename: str | None) -> Prepared:
    """A log-only game: one event per move (its public lines in meta), the record with private lines aside."""
    record: LogOnlyRecord = to_log_only(bga, filename=filename)
    names = _distinct([p.name for p in record.players] or ["(unknown players)"])
    setup = Setup(tuple(names))
    events: list[Event] = [game_created(record.game_name, "", setup, source=SOURCE_LOG_ONLY)]
    for move in record.moves:
        lines = list(move.public_lines)
        if not lines:
            continue  # a move of private lines only: an event would tell everyone that someone got a message
        meta: dict[str, Any] = {"move_id": move.move_id, "lines": lines}
        if move.time is not None:
            meta["time"] = move.time
        if move.time_text:
            meta["time_text"] = move.time_text
        label = f"move {move.move_id}" if move.move_id is not None else f"lines {move.index + 1}"
        events.append(action_event(len(events) + 1, None, label, **meta))
    result = None if record.result is None else [r.__dict__ for r in record.result]
    extra = {
        "log_only": True, "forkable": False,
        "notice": f"log-only game: a BGA log of {record.game_name}, a game without rules here. Browse it move by move "
                  "and annotate it; it cannot be forked or played on.",
        "bga_game": record.game_name, "table_id": record.table_id, "moves": len(events) - 1, "result": result,
    }
    label = record.game_name if record.game_name != UNKNOWN_GAME else "BGA log"
    title = game_title(label, [p.name for p in record.players], when=log_time(bga), table_id=record.table_id)
    return Prepared(record.game_name, "", setup, SOURCE_LOG_ONLY, events, extra, log_record=record.to_json(), title=title,
                    result=log_only_result(result))


def _distinct(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        count = seen.get(name, 0)
        seen[name] = count + 1
        out.append(name if count == 0 else f"{name} ({count + 1})")
    return out


def import_bytes(client: redis.Redis, raw: bytes, *, gid: str, owner: str | None, partial: bool = False, filename: str | None = None,
                 visibility: str = "public", every: int = 50, progress: Progress | None = None) -> ImportOutcome:
    """Parse, import and store one file as game ``gid``; every failure is an outcome, and stores nothing."""
    # An import allocates hundreds of thousands of small objects and frees them all at the end:
    # the cycle collector's passes over them in between find nothing and cost about a sixth of the time in bulk imports.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _import_bytes(client, raw, gid=gid, owner=owner, partial=partial, filename=filename, visibility=visibility,
                             every=every, progress=progress)
    finally:
        if collecting:
            gc.enable()


def _import_bytes(client: redis.Redis, raw: bytes, *, gid: str, owner: str | None, partial: bool, filename: str | None,
                  visibility: str, every: int, progress: Progress | None) -> ImportOutcome:
    try:
        bga = read_upload(raw)
    except BgaLogError as exc:
        return ImportOutcome(FAILED, error=error_record(exc))
    uploads, games = UploadStore(client), GameStore(client)
    table_id = public_table_of(bga) if visibility == "public" else None
    linked = uploads.public_game_of_table(table_id) if table_id is not None else None
    if linked is not None:
        return _linked_outcome(games, linked)
    prepared, report, error = prepare(bga, partial=partial, every=every, filename=filename, progress=progress)
    if prepared is None:
        return ImportOutcome(FAILED, error=error, report=report)
    if (here := exported_game_here(games, bga, prepared)) is not None:
        return _linked_outcome(games, here, "this game is here already (the file is its export, unchanged): the upload "
                                            "links to it")
    if table_id is not None and (winner := uploads.claim_table(table_id, gid)) is not None:
        return _linked_outcome(games, winner)  # another upload of the table won meanwhile
    try:
        games.create_imported(gid, prepared.game, prepared.rules_version, prepared.setup, prepared.events, owner=owner,
                              visibility=visibility, source=prepared.source, title=prepared.title, extra=prepared.extra,
                              incomplete=prepared.incomplete, snapshots=prepared.snapshots, log_record=prepared.log_record,
                              result=prepared.result, original=raw if prepared.source == SOURCE_LOG_ONLY else None)
    except BaseException:
        if table_id is not None:
            uploads.release_table(table_id, gid)  # nothing stored: the table is free for the next upload of it
        raise
    if table_id is not None:
        uploads.settle_table(table_id, gid)
    kind = "log-only" if prepared.source == SOURCE_LOG_ONLY else "rules"
    name = prepared.extra.get("bga_game") if kind == "log-only" else prepared.game
    if progress is not None and kind == "log-only":  # read in one go: every log entry (notification) at once
        entries = sum(len(packet.notifications) for packet in bga.packets)
        progress(entries, entries)
    draws = sum(1 for event in prepared.events if event.actor == CHANCE)
    return ImportOutcome(DONE, game=gid, kind=kind, game_name=name, incomplete=prepared.incomplete, events=len(prepared.events),
                         draws=draws, title=prepared.title,
                         error=error, report=report)


def public_table_of(bga: BgaLog) -> int | None:
    """The BGA table this log is of, when it names one (our own export's table id is no BGA table)."""
    if bga.table_id is None or is_our_export(bga):
        return None
    return bga.table_id


def exported_game_here(games: GameStore, bga: BgaLog, prepared: Prepared) -> str | None:
    """The public game an export of ours was made from (its setup note's ``from``), when its main line is still
    exactly what the file holds: re-importing it would only copy it (a demo game's export, say). None otherwise: a
    private or unlisted game is never named in an export, and one that moved on since is imported as a new game."""
    source = exported_source(bga)
    if source is None or source[1] != MAIN or prepared.incomplete:
        return None
    gid = source[0]
    try:
        record = games.game(gid)
        stored = games.events(gid, MAIN)
    except NotFoundError:
        return None
    if record.visibility != "public" or record.game != prepared.game or record.setup.players != prepared.setup.players:
        return None
    moves = [(event.actor, event.action) for event in stored[1:]]
    return gid if moves == [(event.actor, event.action) for event in prepared.events[1:]] else None


def _linked_outcome(games: GameStore, gid: str,
                    reason: str = "this BGA table is public here already: the upload links to its game") -> ImportOutcome:
    """The outcome of an upload whose game is here already (a public BGA table's, an export of a public game):
    the existing game, nothing stored."""
    try:
        record = games.game(gid)
        kind, name, events = "log-only" if record.is_log_only else "rules", record.game, games.head(gid, MAIN)
        title: str | None = record.title
    except NotFoundError:  # the upload that won the table is storing its game right now
        kind, name, events, title = "rules", None, 0, None
    return ImportOutcome(DONE, game=gid, kind=kind, game_name=name, events=events, duplicate=True, title=title,
                         report=[{"status": "linked", "reason": reason}])


#: A log entry's status when several report rows are about it (a hacienda's decision and its draw): the strongest.
_ENTRY_STATUS_RANK = {"skipped": 0, "used": 1, "refused": 2}


def report_summary(outcome: ImportOutcome) -> dict[str, int]:
    """What an import did, in counts: the players' moves and the chance draws stored (the events after the setup,
    split by who made them); the log entries (BGA notifications) read, each once, as used, skipped or refused, so that
    they add up to the entries the progress counted; and the moves inferred (events no entry states, not entries).

    A report has a row per entry and a row per event an entry does not state, and one entry may have two rows (a
    hacienda's decision and the draw it states): counting rows said "479 lines used" of 447 entries read."""
    entries: dict[object, str] = {}
    inferred = 0
    for n, row in enumerate(outcome.report):
        status = row.get("status")
        if status == "inferred":
            inferred += 1
        elif status in _ENTRY_STATUS_RANK:
            entry = (row["packet_id"], row.get("uid")) if row.get("packet_id") is not None else n
            if _ENTRY_STATUS_RANK[status] >= _ENTRY_STATUS_RANK[entries.get(entry, "skipped")]:
                entries[entry] = str(status)
    counts = {status: sum(1 for s in entries.values() if s == status) for status in _ENTRY_STATUS_RANK}
    return {"moves": max(0, outcome.events - 1 - outcome.draws), "draws": outcome.draws, "entries": len(entries),
            "used": counts["used"], "inferred": inferred, "refused": counts["refused"], "skipped": counts["skipped"]}


def run_import(client: redis.Redis, uid: str, *, every: int = 50, progress: Progress | None = None) -> dict[str, Any]:
    """Import upload ``uid`` (idempotent: a finished upload is left as it is); returns its status record."""
    uploads = UploadStore(client)
    fields = uploads.fields(uid)
    if not fields:
        raise LookupError(f"no upload {uid!r}")
    if fields.get("status") in (DONE, FAILED):
        return uploads.status(uid) or {}
    uploads.start(uid)
    raw = uploads.raw(uid)
    gid = game_id_for(fields["digest"])

    def report_progress(done: int, total: int) -> None:
        uploads.progress(uid, done, total)
        if progress is not None:
            progress(done, total)

    games = GameStore(client)
    if games.exists(gid):  # a previous run stored it and died before saying so
        games.index_game(gid)
        uploads.finish_stored(uid, gid)
        return uploads.status(uid) or {}
    if raw is None:
        outcome = ImportOutcome(FAILED, error=error_record(UploadExpiredError("the uploaded file has expired")))
    else:
        outcome = import_bytes(client, raw, gid=gid, owner=fields.get("owner") or None, partial=fields.get("partial") == "1",
                               filename=fields.get("filename") or None, visibility=fields.get("visibility") or "public",
                               every=every, progress=report_progress)
    uploads.finish(uid, _outcome_fields(outcome))
    return uploads.status(uid) or {}


def _outcome_fields(outcome: ImportOutcome) -> dict[str, Any]:
    """The upload record's fields for a final outcome."""
    mapping: dict[str, Any] = {"status": outcome.status, "report": json.dumps(outcome.report, separators=(",", ":")),
                               "incomplete": "1" if outcome.incomplete else "0", "events": outcome.events,
                               "summary": json.dumps(report_summary(outcome)), "linked": "1" if outcome.duplicate else "0"}
    if outcome.game:
        mapping.update(game=outcome.game)
    if outcome.kind:
        mapping.update(kind=outcome.kind)
    if outcome.game_name:
        mapping.update(game_name=outcome.game_name)
    if outcome.title:
        mapping.update(title=outcome.title)
    if outcome.error:
        mapping.update(error=json.dumps(outcome.error))
    return mapping


# --- export ---------------------------------------------------------------------------------------

EXPORT_FORMATS = ("bga", "jsonl", "text")


def titled(events: Sequence[Event], title: str, source: tuple[str, str] | None = None) -> list[Event]:
    """``events`` with the game's title in the meta of ``game_created``, where every export format writes it
    (the BGA export's setup note, the jsonl's first line, the text's ``title:`` line), so that a re-import
    of the export keeps the title; and ``source``, the (game, branch) exported, when it is public: a re-import of
    the export unchanged is that game, already here (:func:`exported_game_here`)."""
    if not events or (not title and source is None):
        return list(events)
    meta: dict[str, Any] = {"title": title} if title else {}
    if source is not None:
        meta["from"] = {"game": source[0], "branch": source[1]}
    return [events[0].with_meta(**meta), *events[1:]]


def export_text(events: Sequence[Event], viewer: SeatView | None = None) -> str:
    """The history as plain text: one line per event, with its sentence (hidden events: the sentence only)."""
    from engine import replay

    rules, state = replay(events[:1], check=False)
    lines = [f"{rules.name} (rules version {rules.version}): {', '.join(f'seat {i} {n}' for i, n in enumerate(state_players(events)))}"]
    options = (events[0].data or {})["setup"].get("options") or {}
    if options:  # a game set up otherwise than by default: reading the text back needs them (service.imports.reimport)
        lines.append("options: " + json.dumps(options, separators=(",", ":"), sort_keys=True))
    title = events[0].meta.get("title")
    if isinstance(title, str) and title:
        lines.append("title: " + " ".join(title.split()))
    source = events[0].meta.get("from")
    if isinstance(source, dict):
        lines.append(f"from: {source.get('game')}/{source.get('branch')}")
    for event in events[1:]:
        if event.action is None:
            continue
        action = rules.parse_action(event.action)
        who = "chance" if event.actor == CHANCE else f"seat {event.actor}"
        notation = event.action if viewer is None or viewer.sees(state, action) else "(hidden)"
        lines.append(f"{event.seq}. [{who}] {notation} — {rules.describe(state, action)}")
        state = rules.apply(state, action)
    outcome = rules.outcome(state)
    if outcome is not None:
        # The places are the game's own (a blocked Golden City player is last whatever the score).
        lines.append("result: " + ", ".join(f"{n} {s} (place {r})" for n, s, r
                                            in zip(state_players(events), outcome.scores, outcome.ranks, strict=True)))
    return "\n".join(lines) + "\n"


def state_players(events: Sequence[Event]) -> list[str]:
    """The player names of a history's setup."""
    data = events[0].data or {}
    return list(Setup.from_json(data["setup"]).players)


def export_jsonl(events: Sequence[Event], viewer: SeatView | None = None) -> str:
    """One JSON event per line (as ``viewer`` may see them, when given)."""
    if viewer is None or viewer.full or not events:
        rows = [e.to_json() for e in events]
    else:
        rows = events_as_seen(viewer.rules, viewer.rules.initial_state(Setup.from_json((events[0].data or {})["setup"])), events, viewer)
    return "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)


__all__ = [
    "DONE", "FAILED", "QUEUED", "RUNNING", "SOURCE_LOG_ONLY", "SOURCE_RULES", "ImportOutcome", "Prepared", "UploadExpiredError",
    "content_digest", "error_record", "export_jsonl", "export_text", "game_id_for", "import_bytes", "log_record",
    "prepare", "run_import", "submit_upload", "titled",
]
