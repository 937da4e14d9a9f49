"""Downloads of a log-only game: the file as it was uploaded (its owner's), and its lines as a viewer sees them.

A game with rules downloads through ``GET …/branches/<bid>/export`` (BGA, JSONL or text, with the view applied).
A log-only game has no rules to export with; what it has is the log itself. Its original file holds every line
the uploader's BGA account could read, private ones included, so only the game's owner may download it; anyone
who can read the game may download its lines as the log page shows them (a seat's private lines: the owner only,
as ``GET /api/games/<gid>/log``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response
from flask.typing import ResponseReturnValue
from marshmallow import fields, validate

from engine.bga import LogMove, LogOnlyRecord, lines_visible_to, readable_tokens
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_query
from service.api.schemas import Strict
from service.imports.importer import log_record
from service.store.games import GameRecord
from service.web.auth import current_user, readable_game
from service.web.context import api

bp = Blueprint("downloads", __name__)

LOG_FORMATS = ("text", "jsonl")

#: Characters a download's file name keeps (any other becomes ``_``: a header carries Latin-1 only).
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]")


class LogExportQuery(Strict):
    """Which download of a log-only game's lines."""

    format = fields.String(load_default="text", validate=validate.OneOf(LOG_FORMATS),
                           metadata={"description": "text (one line per log line, under its move) or jsonl (one move per line)"})
    view = fields.String(load_default="spectator", validate=validate.Regexp(r"^(spectator|[0-9]{1,2})$"),
                         metadata={"description": "spectator, or a seat (the game's owner only): its private lines too"})


def attachment(body: str | bytes, mimetype: str, name: str) -> Response:
    """``body`` as a download named ``name`` (made safe for the header)."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{_UNSAFE_IN_NAME.sub("_", name)}"'
    return response


def _stored_log(record: GameRecord) -> LogOnlyRecord:
    """The log-only game's record of lines; 422 for a game with rules (it has exports instead)."""
    stored = log_record(api().games, record.id) if record.is_log_only else None
    if stored is None:
        raise ApiError(422, "not_log_only", "this game has rules: download it from /api/games/<gid>/branches/<bid>/export",
                       game=record.id)
    return stored


def _require_owner(record: GameRecord, what: str) -> None:
    """403 unless the caller owns the game."""
    user = current_user()
    if user is None or user != record.owner:
        raise ApiError(403, "forbidden", f"only the game's owner may download {what}", game=record.id)


@bp.get("/api/games/<gid>/log/original")
@documented("A log-only game's file as it was uploaded (the game's owner only: it holds the uploader's private lines)",
            response=None, errors=(403, 404, 422), tag="uploads",
            description="The bytes as uploaded, as JSON or text. 422 for a game with rules (use its export); 404 when the "
                        "game was imported before the original was kept.")
def original_log(gid: str) -> ResponseReturnValue:
    """The uploaded file, as a download."""
    record = readable_game(gid)
    _stored_log(record)
    _require_owner(record, "the log as uploaded")
    raw = api().games.original_log(gid)
    if raw is None:
        raise ApiError(404, "not_found", f"game {gid!r} was imported before its uploaded file was kept; its lines are at "
                                         f"/api/games/{gid}/log/export", game=gid)
    is_json = raw.lstrip()[:1] in (b"{", b"[")
    return attachment(raw, "application/json" if is_json else "text/plain",
                      f"{gid}-bga-log.{'json' if is_json else 'txt'}")


@bp.get("/api/games/<gid>/log/export")
@documented("A log-only game's lines for download, as a viewer sees them: text or JSON lines",
            response=None, query=LogExportQuery, errors=(400, 403, 404, 422), tag="uploads",
            description="view=spectator (default) has the public lines only; a seat's view adds that seat's private lines "
                        "and is the game's owner's only (403 otherwise).")
def export_log_lines(gid: str) -> ResponseReturnValue:
    """The lines as a download."""
    record = readable_game(gid)
    query = load_query(LogExportQuery)
    stored = _stored_log(record)
    seat = _seat_of(record, query["view"])
    moves = lines_visible_to(stored, seat)
    game = str((record.extra or {}).get("bga_game") or record.game)
    stem = f"{gid}-log" + ("" if seat is None else f"-{seat}")
    if query["format"] == "jsonl":
        return attachment(_log_jsonl(stored, moves), "application/x-ndjson", f"{stem}.jsonl")
    return attachment(_log_text(record, stored, moves, game), "text/plain", f"{stem}.txt")


def _seat_of(record: GameRecord, view: str) -> int | None:
    """None for the spectator view; a seat's number for its view (the owner's only; 400 for a seat not in the game)."""
    if view == "spectator":
        return None
    seats = len(record.setup.players)
    if int(view) >= seats:
        raise ApiError(400, "invalid", f"invalid query string: view {view!r}: expected spectator or a seat 0 to {seats - 1}",
                       fields={"view": [f"no such seat in a game of {seats} seats"]}, location="query")
    _require_owner(record, "a seat's private lines")
    return int(view)


def _log_text(record: GameRecord, stored: LogOnlyRecord, moves: tuple[LogMove, ...], game: str) -> str:
    """The players, then each move's heading (BGA's move number and time) and its lines, then the result."""
    out = [record.title or record.id, "players: " + ", ".join(p.name for p in stored.players)]
    for move in moves:
        number = f"move {move.move_id}" if move.move_id is not None else f"lines {move.index + 1}"
        out.append(number + (f" ({move.time_text})" if move.time_text else ""))
        out.extend(f"  {'(private) ' if line.private else ''}{readable_tokens(line.text, game)}" for line in move.lines)
    if stored.result is not None:
        out.append("result: " + ", ".join(f"{r.name} {_or_dash(r.score)} (place {_or_dash(r.rank)})" for r in stored.result))
    return "\n".join(out) + "\n"


def _or_dash(number: int | None) -> str:
    return "–" if number is None else str(number)


def _log_jsonl(stored: LogOnlyRecord, moves: tuple[LogMove, ...]) -> str:
    """A first line with the players and the result, then one line per move with its lines as BGA wrote them."""
    head: dict[str, Any] = {"game": stored.game_name, "table_id": stored.table_id,
                            "players": [dict(p.__dict__) for p in stored.players],
                            "result": None if stored.result is None else [dict(r.__dict__) for r in stored.result]}
    rows = [head] + [{"index": m.index, "move_id": m.move_id, "time": m.time, "time_text": m.time_text,
                      "lines": [{"text": li.text, "private": li.private} for li in m.lines]} for m in moves]
    return "".join(json.dumps(row, separators=(",", ":"), ensure_ascii=False) + "\n" for row in rows)
