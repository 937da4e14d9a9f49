"""Importing uploaded BGA logs: uploads in Redis, the import itself, and storing the game atomically.

An upload is a hash (``keys.upload_for``: status, progress, game id, report) and the file's
bytes (``keys.upload_raw_for``), both in Redis so that any worker can run the import. The
same file (same bytes, same ``partial`` option) maps to one upload through its content
digest, so uploading it again gives back the existing game.

The import: read the envelope (:mod:`service.bga`), decide the game (Puerto Rico when role
notifications with ``rol_type`` appear, or a game the log names that we have rules for,
else a log-only game), map the notifications to checked events in memory (the game's
mapping in ``engine/<game>/bga.py``), and only then store everything (meta, branch, events,
snapshots) in one Redis transaction: a failed import stores nothing. With ``partial`` a
log that disagrees with the rules is stored up to its last consistent move, on a main
branch flagged incomplete.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import redis

from engine import CHANCE, EngineError, Event, Setup, action_event, fold, game_created, get_rules, registered_games
from engine.core.bgalog import DEFAULT_START_TIME, LogImport, LogMismatchError, LogNote, ReportRow, game_for_bga_name, import_notes
from engine.core.visibility import SeatView, events_as_seen
from service import keys
from service.bga import UNKNOWN_GAME, BgaLog, BgaLogError, LogOnlyRecord, import_report, render_notification, to_log_only
from service.reimport import read_upload
from service.store.errors import ConflictError
from service.store.games import MAIN, SOURCE_LOG_ONLY, Branch, new_id
from service.titles import game_title

log = logging.getLogger(__name__)

#: Source of games imported with full rules, and of log-only games (the API refuses to fork those).
SOURCE_RULES = "bga"
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
RAW_TTL_SECONDS = 7 * 24 * 3600
PROGRESS_EVERY = 100

Progress = Callable[[int, int], None]


@dataclass
class ImportOutcome:
    """What an import did: the game stored (or None), what it is, and the per-line report."""

    status: str
    game: str | None = None
    kind: str | None = None  # "rules" or "log-only"
    game_name: str | None = None
    incomplete: bool = False
    events: int = 0
    error: dict[str, Any] | None = None
    report: list[dict[str, Any]] = field(default_factory=list)
    duplicate: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON-safe."""
        return dict(self.__dict__)


# --- reading -----------------------------------------------------------------------------------


def content_digest(raw: bytes, *, partial: bool, owner: str | None = None) -> str:
    """The digest that identifies an upload: who uploaded it, its bytes, and whether a partial import was asked for.

    The owner is part of it: the same file from the same user is the same game, but another
    user's upload of it is their own game (the first one may be private to its uploader).
    """
    return hashlib.sha256((owner or "").encode() + b"\x00" + raw + (b"\x00partial" if partial else b"")).hexdigest()


def notes_of(bga: BgaLog) -> list[LogNote]:
    """Every notification in packet order, rendered, as the engine's importers read them."""
    notes: list[LogNote] = []
    for packet in sorted(bga.packets, key=lambda p: p.packet_id):
        for note in packet.notifications:
            text = " ".join(note.log.split()) if bga.source == "text" else render_notification(note)
            notes.append(LogNote(len(notes), packet.move_id, packet.packet_id, note.uid, note.type, text, note.named_args,
                                 packet.is_private, packet.player_id, packet.time))
    return notes


def detect_game(bga: BgaLog) -> str | None:
    """The game with rules this log is of, or None for a log-only game.

    A game the log names (``puertorico``, or our own export's setup note); Puerto Rico when
    role notifications carry ``rol_type`` (BGA's Puerto Rico role choice).
    """
    known = registered_games()
    named = game_for_bga_name(bga.game_name, known)
    if named:
        return named
    for packet in bga.packets:
        for note in packet.notifications:
            args = note.named_args
            if note.type == "ludologSetup" and isinstance(args.get("game"), str) and args["game"] in known:
                return str(args["game"])
            if "rol_type" in args and "puerto_rico" in known:
                return "puerto_rico"
    return None


def is_our_export(bga: BgaLog) -> bool:
    """True for a log ludolog exported (its first packet states our setup): its table id is no BGA table."""
    return any(note.type == "ludologSetup" for packet in bga.packets[:1] for note in packet.notifications)


def log_time(bga: BgaLog) -> float:
    """When the game was played: its first packet's time; now when the log does not say (pasted text, our
    export of a game whose events carry no time)."""
    times = [p.time for p in bga.packets if p.time is not None]
    first = min(times, default=None)
    if first is None or (is_our_export(bga) and first <= DEFAULT_START_TIME + len(bga.packets)):
        return time.time()
    return float(first)


def _setup_options(notes: Sequence[LogNote]) -> dict[str, Any]:
    for note in notes:
        if note.type == "ludologSetup" and isinstance(note.args.get("options"), Mapping):
            return dict(note.args["options"])
    return {}


def _seat_order(bga: BgaLog, notes: Sequence[LogNote], game: str) -> list[tuple[int, str]]:
    """(BGA id, name) in seat order. Puerto Rico's seat 0 is the first governor: the first to choose a role."""
    players = [(p.id, p.name) for p in bga.players]
    if game == "puerto_rico" and not any(n.type == "ludologSetup" for n in notes):
        first = next((n for n in notes if "rol_type" in n.args and not n.private), None)
        pid = first.args.get("player_id") if first is not None else None
        ids = [p for p, _ in players]
        try:
            at = ids.index(int(pid)) if pid is not None else 0
        except (TypeError, ValueError):
            at = 0
        players = players[at:] + players[:at]
    return players


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


def prepare(bga: BgaLog, *, partial: bool, every: int, filename: str | None = None,
            progress: Progress | None = None) -> tuple[Prepared | None, list[dict[str, Any]], dict[str, Any] | None]:
    """(game to store or None, report rows, error) for a parsed log; stores nothing."""
    game = detect_game(bga)
    if game is None:
        return _prepare_log_only(bga, filename), import_report(bga), None
    notes = notes_of(bga)
    rules = get_rules(game)
    order = _seat_order(bga, notes, game)
    setup = Setup(tuple(name for _, name in order), _setup_options(notes))
    try:
        rules.initial_state(setup)
    except EngineError as exc:
        return None, [], {"status": 422, "code": "bad_setup", "message": f"the log's players do not fit the {game} rules: {exc}"}
    result = import_notes(rules, setup, notes, {pid: seat for seat, (pid, _) in enumerate(order)}, progress, keep_every=every)
    report = _in_log_order([row.to_json() for row in result.report])
    events = result.events
    error: dict[str, Any] | None = None
    if result.error is not None:
        error = {"status": 422, "code": "rules_disagree", **result.error.to_json()}
        if not partial:
            return None, report, error
        events = result.consistent_prefix()
    table_id = None if is_our_export(bga) else bga.table_id
    title = game_title(game, setup.players, when=log_time(bga), table_id=table_id)
    imported: dict[str, Any] = {"format": "bga", "table_id": table_id,
                                "inferred": sum(1 for r in report if r["status"] == "inferred")}
    if error is not None:
        imported["stopped_at"] = error
    extra: dict[str, Any] = {"imported": imported}
    prepared = Prepared(game, rules.version, setup, SOURCE_RULES, events, extra, incomplete=error is not None, title=title)
    prepared.snapshots = _snapshots(rules, setup, events, every, result.kept_states,
                                    result.state if len(events) == len(result.events) else None)
    return prepared, report, error


def _in_log_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Report rows in log order; a row of an event the log does not state goes after the line it was inferred at."""
    keyed = []
    last = -1
    for n, row in enumerate(rows):
        index = row.get("index")
        if index is None:
            keyed.append(((last, 1, n), row))
        else:
            keyed.append(((index, 0, n), row))
            last = max(last, index)
    return [row for _, row in sorted(keyed, key=lambda pair: pair[0])]


def _snapshots(rules: Any, setup: Setup, events: Sequence[Event], every: int, kept: Mapping[int, Any],
               head_state: Any) -> list[tuple[int, str, Any]]:
    """Snapshots every ``every`` seqs and at the head (as the fold job writes them), from the states the
    import kept; the head of a partial import (its events cut back) is folded from the nearest one."""
    head = events[-1].seq
    if head == 1:
        return []
    seqs = [s for s in range(every, head + 1, every)]
    out = [(s, rules.version, rules.dump_state(kept[s])) for s in seqs]
    if head % every:
        if head_state is None:
            base = max((s for s in seqs if s < head), default=1)
            state = kept[base] if base > 1 else rules.initial_state(setup)
            head_state = fold(rules, state, events[base:], check=False)
        out.append((head, rules.version, rules.dump_state(head_state)))
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
    return Prepared(record.game_name, "", setup, SOURCE_LOG_ONLY, events, extra, log_record=record.to_json(), title=title)


def _distinct(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        count = seen.get(name, 0)
        seen[name] = count + 1
        out.append(name if count == 0 else f"{name} ({count + 1})")
    return out


# --- storing ----------------------------------------------------------------------------------


_XADD_ALL = "for i = 1, #ARGV, 2 do redis.call('XADD', KEYS[1], ARGV[i], 'e', ARGV[i + 1]) end return #ARGV / 2"


def _encoded(event: Event) -> str:
    return json.dumps(event.to_json(), separators=(",", ":"))


def store_prepared(client: redis.Redis, gid: str, prepared: Prepared, *, owner: str | None, visibility: str = "public") -> None:
    """Store the whole game in one transaction (meta, main branch, events, snapshots, log record), then index it."""
    now = time.time()
    meta_key = keys.game_meta_for(gid)
    head = prepared.events[-1].seq
    meta = {"id": gid, "game": prepared.game, "rules_version": prepared.rules_version, "setup": json.dumps(prepared.setup.to_json()),
            "owner": owner or "", "visibility": visibility, "source": prepared.source, "created": str(now),
            "title": prepared.title, "extra": json.dumps(prepared.extra)}
    branch = Branch(MAIN, MAIN, owner, new_id(8), created=now, incomplete=prepared.incomplete)
    with client.pipeline(transaction=True) as pipe:
        pipe.watch(meta_key)  # type: ignore[no-untyped-call]
        if pipe.exists(meta_key):
            raise ConflictError(f"game {gid!r} exists already", game=gid)
        pipe.multi()
        pipe.hset(meta_key, mapping=meta)  # type: ignore[arg-type]
        pipe.hset(keys.branches_for(gid), MAIN, json.dumps(branch.to_json()))
        pipe.hset(keys.branch_head_for(gid), MAIN, head)
        # One script call adds every entry: a command per event costs more to pack than to run.
        entries = [part for event in prepared.events for part in (f"{event.seq}-1", _encoded(event))]
        pipe.eval(_XADD_ALL, 1, keys.events_for(gid, MAIN), *entries)
        if prepared.snapshots:
            pipe.hset(keys.snapshots_for(gid, MAIN), mapping={
                str(seq): json.dumps({"v": version, "state": state}, separators=(",", ":")) for seq, version, state in prepared.snapshots})
            pipe.zadd(keys.snapshot_seqs_for(gid, MAIN), {str(seq): seq for seq, _, _ in prepared.snapshots})
        if prepared.log_record is not None:
            pipe.set(keys.log_record_for(gid), json.dumps(prepared.log_record, separators=(",", ":")))
        try:
            pipe.execute()
        except redis.WatchError:
            raise ConflictError(f"game {gid!r} was created meanwhile", game=gid) from None
    index_game(client, gid)


def index_game(client: redis.Redis, gid: str) -> None:
    """Put the game in the listing (a separate key: it spans games, so it cannot join the game's transaction)."""
    if client.zscore(keys.games_index(), gid) is None:
        client.zadd(keys.games_index(), {gid: client.incr(keys.games_counter())}, nx=True)


def game_id_for(digest: str) -> str:
    """The id of the game imported from a file: fixed by its digest, so a re-run job finds what it stored."""
    return "b" + digest[:15]


# --- uploads -------------------------------------------------------------------------------------


def _text(value: bytes | None) -> str | None:
    return value.decode() if value is not None else None


def upload_status(client: redis.Redis, uid: str) -> dict[str, Any] | None:
    """The upload's public record, or None for an unknown upload."""
    raw = client.hgetall(keys.upload_for(uid))
    if not raw:
        return None
    data = {k.decode(): v.decode() for k, v in raw.items()}  # type: ignore[union-attr]
    return {
        "id": uid, "status": data.get("status", QUEUED), "filename": data.get("filename") or None,
        "size": int(data.get("size", 0)), "partial": data.get("partial") == "1", "owner": data.get("owner") or None,
        "created": float(data.get("created", 0)),
        "progress": {"done": int(data.get("done", 0)), "total": int(data.get("total", 0))},
        "game": data.get("game") or None, "kind": data.get("kind") or None, "game_name": data.get("game_name") or None,
        "incomplete": data.get("incomplete") == "1", "events": int(data.get("events", 0)),
        "error": json.loads(data["error"]) if data.get("error") else None,
        "report": json.loads(data["report"]) if data.get("report") else [],
        "summary": json.loads(data["summary"]) if data.get("summary") else None,
        "linked": data.get("linked") == "1",
    }


def report_summary(outcome: ImportOutcome) -> dict[str, int]:
    """What an import did, in counts: moves imported, and the log's lines used, inferred, refused and skipped."""
    counts = {"used": 0, "inferred": 0, "refused": 0, "skipped": 0}
    for row in outcome.report:
        status = row.get("status")
        if status in counts:
            counts[status] += 1
    return {"moves": max(0, outcome.events - 1), **counts}


def submit_upload(client: redis.Redis, raw: bytes, *, owner: str | None, partial: bool = False, filename: str | None = None,
                  visibility: str = "public") -> tuple[str, bool]:
    """Store an upload to import; returns (upload id, True if the same file was uploaded before and not failed)."""
    digest = content_digest(raw, partial=partial, owner=owner)
    digest_key = keys.upload_by_digest_for(digest)
    earlier = _text(client.get(digest_key))  # type: ignore[arg-type]
    if earlier is not None:
        status = _text(client.hget(keys.upload_for(earlier), "status"))  # type: ignore[arg-type]
        if status is not None and status != FAILED:
            return earlier, True
    uid = new_id(9)
    record = {"status": QUEUED, "filename": (filename or "")[:200], "size": len(raw), "partial": "1" if partial else "0",
              "owner": owner or "", "visibility": visibility, "created": str(time.time()), "digest": digest, "done": 0, "total": 0}
    with client.pipeline(transaction=True) as pipe:
        pipe.hset(keys.upload_for(uid), mapping=record)  # type: ignore[arg-type]
        pipe.set(keys.upload_raw_for(uid), raw, ex=RAW_TTL_SECONDS)
        pipe.set(digest_key, uid)
        pipe.execute()
    beat(client, uid)
    return uid, False


def beat(client: redis.Redis, uid: str) -> None:
    """The upload is alive (queued, started, progressing): the reconciler fails only those silent past a deadline."""
    client.zadd(keys.uploads_in_flight(), {uid: time.time()})


def fail_upload(client: redis.Redis, uid: str, error: dict[str, Any]) -> bool:
    """Mark an unfinished upload failed with ``error`` (why); False, changing nothing, if it had finished.

    For imports that died or hung: the reason is told to the uploader, and the same file
    uploaded again is imported afresh (:func:`submit_upload` skips failed uploads).
    """
    key = keys.upload_for(uid)
    with client.pipeline(transaction=True) as pipe:
        pipe.watch(key)  # type: ignore[no-untyped-call]
        status = _text(pipe.hget(key, "status"))  # type: ignore[arg-type]
        if status is None or status in (DONE, FAILED):
            pipe.unwatch()
            client.zrem(keys.uploads_in_flight(), uid)
            return False
        pipe.multi()
        pipe.hset(key, mapping={"status": FAILED, "error": json.dumps(error)})
        pipe.delete(keys.upload_raw_for(uid))
        try:
            pipe.execute()
        except redis.WatchError:  # it finished (or failed) meanwhile: that outcome stands
            return False
    client.zrem(keys.uploads_in_flight(), uid)
    return True


def run_import(client: redis.Redis, uid: str, *, every: int = 50, progress: Progress | None = None) -> dict[str, Any]:
    """Import upload ``uid`` (idempotent: a finished upload is left as it is); returns its status record."""
    key = keys.upload_for(uid)
    fields = {k.decode(): v.decode() for k, v in client.hgetall(key).items()}  # type: ignore[union-attr]
    if not fields:
        raise LookupError(f"no upload {uid!r}")
    if fields.get("status") in (DONE, FAILED):
        return upload_status(client, uid) or {}
    client.hset(key, "status", RUNNING)
    beat(client, uid)
    raw = client.get(keys.upload_raw_for(uid))
    digest = fields["digest"]
    gid = game_id_for(digest)

    def report_progress(done: int, total: int) -> None:
        client.hset(key, mapping={"done": done, "total": total})
        beat(client, uid)
        if progress is not None:
            progress(done, total)

    if client.exists(keys.game_meta_for(gid)):  # a previous run stored it and died before saying so
        index_game(client, gid)
        client.hset(key, mapping={"status": DONE, "game": gid})
        client.zrem(keys.uploads_in_flight(), uid)
        return upload_status(client, uid) or {}
    if raw is None:
        outcome = ImportOutcome(FAILED, error={"status": 410, "code": "gone", "message": "the uploaded file has expired"})
    else:
        data = raw if isinstance(raw, bytes) else str(raw).encode()
        outcome = import_bytes(client, data, gid=gid, owner=fields.get("owner") or None, partial=fields.get("partial") == "1",
                               filename=fields.get("filename") or None, visibility=fields.get("visibility") or "public",
                               every=every, progress=report_progress)
    _finish(client, uid, outcome)
    return upload_status(client, uid) or {}


def _finish(client: redis.Redis, uid: str, outcome: ImportOutcome) -> None:
    mapping: dict[str, Any] = {"status": outcome.status, "report": json.dumps(outcome.report, separators=(",", ":")),
                               "incomplete": "1" if outcome.incomplete else "0", "events": outcome.events,
                               "summary": json.dumps(report_summary(outcome)), "linked": "1" if outcome.duplicate else "0"}
    if outcome.game:
        mapping.update(game=outcome.game)
    if outcome.kind:
        mapping.update(kind=outcome.kind)
    if outcome.game_name:
        mapping.update(game_name=outcome.game_name)
    if outcome.error:
        mapping.update(error=json.dumps(outcome.error))
    with client.pipeline(transaction=True) as pipe:
        pipe.hset(keys.upload_for(uid), mapping=mapping)  # type: ignore[arg-type]
        # The bytes are needed no more: the outcome is final (the same file again finds it by its digest).
        pipe.delete(keys.upload_raw_for(uid))
        pipe.zrem(keys.uploads_in_flight(), uid)
        pipe.execute()


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
        return ImportOutcome(FAILED, error={"status": exc.status, "code": "bad_log", "message": exc.message, "details": exc.details})
    table_key = public_table_key(bga) if visibility == "public" else None
    linked = _public_game_of_table(client, table_key) if table_key else None
    if linked is not None:
        return _linked_outcome(client, linked)
    prepared, report, error = prepare(bga, partial=partial, every=every, filename=filename, progress=progress)
    if prepared is None:
        return ImportOutcome(FAILED, error=error, report=report)
    if table_key is not None and not client.set(table_key, gid, nx=True):
        winner = _text(client.get(table_key))  # type: ignore[arg-type]
        return _linked_outcome(client, winner or gid)  # another upload of the table won meanwhile
    try:
        store_prepared(client, gid, prepared, owner=owner, visibility=visibility)
    except BaseException:
        if table_key is not None and _text(client.get(table_key)) == gid:  # type: ignore[arg-type]
            client.delete(table_key)  # nothing stored: the table is free for the next upload of it
        raise
    if prepared.source == SOURCE_LOG_ONLY:
        client.sadd(keys.log_only_games(), prepared.game)
    kind = "log-only" if prepared.source == SOURCE_LOG_ONLY else "rules"
    name = prepared.extra.get("bga_game") if kind == "log-only" else prepared.game
    if progress is not None and kind == "log-only":
        progress(len(prepared.events) - 1, len(prepared.events) - 1)
    return ImportOutcome(DONE, game=gid, kind=kind, game_name=name, incomplete=prepared.incomplete, events=len(prepared.events),
                         error=error, report=report)


def public_table_key(bga: BgaLog) -> str | None:
    """The key naming the public game of this log's BGA table, or None (no table id, or our own export's)."""
    if bga.table_id is None or is_our_export(bga):
        return None
    return keys.public_table_for(bga.table_id)


def _public_game_of_table(client: redis.Redis, table_key: str) -> str | None:
    """The public game already imported from this table, if it is still there and still public."""
    gid = _text(client.get(table_key))  # type: ignore[arg-type]
    if gid is None:
        return None
    visibility = _text(client.hget(keys.game_meta_for(gid), "visibility"))  # type: ignore[arg-type]
    if visibility != "public":  # removed, or its owner has made it private since: the table is free again
        client.delete(table_key)
        return None
    return gid


def _linked_outcome(client: redis.Redis, gid: str) -> ImportOutcome:
    """The outcome of a public upload of a table that is public already: the existing game, nothing stored."""
    meta = {k.decode(): v.decode() for k, v in client.hgetall(keys.game_meta_for(gid)).items()}  # type: ignore[union-attr]
    kind = "log-only" if meta.get("source") == SOURCE_LOG_ONLY else "rules"
    head = _text(client.hget(keys.branch_head_for(gid), MAIN))  # type: ignore[arg-type]
    return ImportOutcome(DONE, game=gid, kind=kind, game_name=meta.get("game"), events=int(head or 0), duplicate=True,
                         report=[{"status": "linked", "reason": "this BGA table is public here already: the upload links to its game"}])


def log_record(client: redis.Redis, gid: str) -> LogOnlyRecord | None:
    """A log-only game's record, or None."""
    raw = client.get(keys.log_record_for(gid))
    return None if raw is None else LogOnlyRecord.from_json(raw)


# --- export ---------------------------------------------------------------------------------------

EXPORT_FORMATS = ("bga", "jsonl", "text")


def export_text(events: Sequence[Event], viewer: SeatView | None = None) -> str:
    """The history as plain text: one line per event, with its sentence (hidden events: the sentence only)."""
    from engine import replay

    rules, state = replay(events[:1], check=False)
    lines = [f"{rules.name} (rules version {rules.version}): {', '.join(f'seat {i} {n}' for i, n in enumerate(state_players(events)))}"]
    options = (events[0].data or {})["setup"].get("options") or {}
    if options:  # a game set up otherwise than by default: reading the text back needs them (service.reimport)
        lines.append("options: " + json.dumps(options, separators=(",", ":"), sort_keys=True))
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
    "DONE", "FAILED", "QUEUED", "RUNNING", "SOURCE_LOG_ONLY", "SOURCE_RULES", "ImportOutcome", "LogImport", "LogMismatchError",
    "Prepared", "ReportRow", "beat", "content_digest", "detect_game", "export_jsonl", "export_text", "fail_upload", "game_id_for",
    "import_bytes", "log_record", "notes_of", "prepare", "run_import", "store_prepared", "submit_upload", "upload_status",
]
