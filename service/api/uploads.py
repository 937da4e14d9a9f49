"""Uploads of BGA logs, their import status, log-only games' lines, and exports of any branch.

``POST /api/uploads`` takes a file (multipart ``file``) or the raw body: BGA JSON in any envelope,
BGA log or review-page text, or ludolog's own jsonl or text export (:mod:`service.imports.reimport`),
checks that it is a readable log at once (400 naming line and column for broken JSON,
422 for an unknown envelope, 413 over ``LUDOLOG_MAX_UPLOAD_BYTES``), keeps its bytes in
Redis and queues the import job; ``GET /api/uploads/<uid>`` follows it.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from marshmallow import Schema, ValidationError, fields, validate
from werkzeug.exceptions import RequestEntityTooLarge

from engine.bga import export_log, lines_visible_to
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import body_limit, load_query
from service.api.schemas import Strict, plain_text
from service.imports.importer import EXPORT_FORMATS, export_jsonl, export_text, log_record, submit_upload, titled
from service.imports.reimport import read_upload
from service.jobs import enqueue_import
from service.store.games import VISIBILITIES
from service.web.auth import current_user, readable_game
from service.web.context import api
from service.web.viewing import branch_view, viewer_for_request
from service.web.viewnames import VIEW_SHAPE, ViewError, parse_view

bp = Blueprint("uploads", __name__)

_TRUE = ("1", "true", "yes", "on")


# -- schemas ------------------------------------------------------------------------------------
class UploadQuery(Strict):
    """Options of an upload (also accepted as multipart form fields)."""

    partial = fields.String(load_default="false", validate=validate.OneOf(["0", "1", "true", "false", "yes", "no"]),
                            metadata={"description": "true: store a log that disagrees with the rules up to its last "
                                                     "consistent move, on a branch flagged incomplete"})
    visibility = fields.String(load_default="public", validate=validate.OneOf(VISIBILITIES))
    filename = fields.String(validate=[validate.Length(max=200), plain_text()],
                             metadata={"description": "the file's name (helps name the game)"})


class UploadBodySchema(Schema):
    """The uploaded log: a BGA document in any envelope (this one, ``{"data": {"data": [...]}}``,
    ``{"data": {"data": {"data": [...]}}}`` or a bare list of packets), or pasted log text; also as
    multipart/form-data with the file in ``file``."""

    status = fields.Raw(metadata={"description": "1, as BGA answers"})
    data = fields.Raw(required=True, metadata={"description": "logs (the packets) and players"})


class UploadCreatedSchema(Schema):
    """``POST /api/uploads``."""

    id = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "queued, running, done or failed"})
    duplicate = fields.Boolean(required=True, metadata={"description": "already here: the same file was uploaded before by "
                                                                       "the same uploader (status 200); id is that upload"})
    game = fields.String(required=True, allow_none=True, metadata={"description": "the game, once imported"})
    url = fields.String(required=True)


class ProgressSchema(Schema):
    """How far reading the log is: its entries (BGA notifications) read out of their total, for every game. Not a
    count of moves: the summary says how many moves were stored, and its entries add up to this total."""

    done = fields.Integer(required=True)
    total = fields.Integer(required=True)


class ReportSummarySchema(Schema):
    """What an import did, in counts."""

    moves = fields.Integer(required=True, metadata={"description": "the players' moves stored (events after the setup, "
                                                                   "less the chance draws)"})
    draws = fields.Integer(metadata={"description": "chance draws stored (cards, dice, tiles): events too, no one's move"})
    entries = fields.Integer(metadata={"description": "log entries (BGA notifications) read: used + skipped + refused, "
                                                      "the progress's total once the import is done"})
    used = fields.Integer(required=True, metadata={"description": "log entries that became moves, draws or lines"})
    inferred = fields.Integer(required=True, metadata={"description": "moves the log does not state, inferred from the "
                                                                      "rules (events, not entries)"})
    refused = fields.Integer(required=True, metadata={"description": "log entries the rules refused"})
    skipped = fields.Integer(required=True, metadata={"description": "silent or housekeeping entries left out"})


class UploadStatusSchema(Schema):
    """``GET /api/uploads/<uid>``."""

    id = fields.String(required=True)
    status = fields.String(required=True)
    filename = fields.String(required=True, allow_none=True)
    size = fields.Integer(required=True)
    partial = fields.Boolean(required=True)
    owner = fields.String(required=True, allow_none=True)
    created = fields.Float(required=True)
    progress = fields.Nested(ProgressSchema, required=True)
    game = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True, allow_none=True, metadata={"description": "rules (full replay) or log-only"})
    game_name = fields.String(required=True, allow_none=True)
    title = fields.String(required=True, allow_none=True, metadata={"description": "the game's title, once imported "
                                                                                 "(or linked to)"})
    incomplete = fields.Boolean(required=True, metadata={"description": "stored up to the last consistent move (partial)"})
    events = fields.Integer(required=True, metadata={"description": "events stored: the setup, the moves and the draws"})
    error = fields.Dict(required=True, allow_none=True, metadata={"description": "why the import stopped: move_id, line, rule"})
    report = fields.List(fields.Dict(), required=True,
                         metadata={"description": "per notification: status used/inferred/skipped/refused, move_id, reason"})
    summary = fields.Nested(ReportSummarySchema, required=True, allow_none=True,
                            metadata={"description": "the report in counts, once the import has finished"})
    linked = fields.Boolean(required=True, metadata={"description": "a public upload of a BGA table that is public here "
                                                                    "already: game is that game, nothing new was stored"})


class ExportQuery(Strict):
    """Which export."""

    format = fields.String(load_default="bga", validate=validate.OneOf(EXPORT_FORMATS))
    view = fields.String(load_default="full", validate=validate.Regexp(VIEW_SHAPE, error="expected full, spectator or a seat number"),
                         metadata={"description": "whose log: full (every channel), spectator (the table only, hidden events "
                                                  "as their public sentence) or a seat (the table and that seat's channel)"})


class LogQuery(Strict):
    """Whose view of a log-only game."""

    view = fields.String(load_default="spectator", validate=validate.Regexp(VIEW_SHAPE),
                         metadata={"description": "spectator, or a seat (the game's owner only): its private lines too"})


class LogLinesSchema(Schema):
    """``GET /api/games/<gid>/log``."""

    game = fields.String(required=True)
    view = fields.String(required=True)
    players = fields.List(fields.Dict(), required=True)
    moves = fields.List(fields.Dict(), required=True)
    result = fields.List(fields.Dict(), required=True, allow_none=True)


# -- views ----------------------------------------------------------------------------------------
def _upload_limit() -> int:
    return int(current_app.config["LUDOLOG"].max_upload_bytes)


def _options() -> dict[str, Any]:
    data: dict[str, Any] = {}
    if request.mimetype == "multipart/form-data":  # a raw body sent as a form (curl -d) is read as the file instead
        data = {k: v for k, v in request.form.items() if k in ("partial", "visibility", "filename")}
    for name, values in request.args.lists():
        data[name] = values[0]
    return UploadQuery().load(data)  # type: ignore[no-any-return]


def _raw_upload() -> tuple[bytes, str | None]:
    if request.mimetype == "multipart/form-data" and request.files:
        upload = request.files.get("file") or next(iter(request.files.values()))
        raw = upload.read(_upload_limit() + 1)
        if len(raw) > _upload_limit():
            raise RequestEntityTooLarge()
        return raw, upload.filename or None
    raw = request.get_data(cache=False)
    if request.content_length is None and len(raw) >= _upload_limit():
        raise RequestEntityTooLarge()  # a chunked body cut at the cap
    return raw, None


@bp.post("/api/uploads")
@body_limit(_upload_limit)
@documented("Upload a log to import (multipart 'file' or the raw body): BGA JSON in any envelope, BGA log or review-page "
            "text, or a ludolog export (bga, jsonl or text)",
            response=UploadCreatedSchema, status=202, query=UploadQuery, body=UploadBodySchema, errors=(400, 401, 413, 422),
            tag="uploads", also=((200, "already here: the same file was uploaded before by the same uploader; its "
                                       "upload (duplicate=true), and its game once imported"),),
            description="202 with the upload id; the import runs as a job (GET /api/uploads/{uid}). The same file again "
                        "from the same uploader (the same bytes, or the same game's export in any format) is 200 with "
                        "its first upload (duplicate=true) and so the same game, nothing imported anew; the same file "
                        "from someone else is an upload of their own (an upload may be private). A public upload of a BGA "
                        "table that is public here already links to that game (linked=true in its status). 400: broken JSON (details.line "
                        "and details.column) or unreadable bytes; 413: over the upload limit (LUDOLOG_MAX_UPLOAD_BYTES, "
                        "default 10 MB); 422: valid JSON in no known envelope (details.expected lists them).")
def create_upload() -> ResponseReturnValue:
    """202 ``{"id", "status", "duplicate", "game", "url"}``."""
    try:
        options = _options()
    except ValidationError as exc:
        raise ApiError(400, "invalid", f"invalid upload options: {exc.messages}", fields=exc.messages) from None
    if options["visibility"] == "private" and current_user() is None:
        # Nobody could ever read it back: a private upload is its owner's, and an anonymous one has none.
        raise ApiError(401, "unauthorized", "visibility 'private' needs an owner: sign in or send 'Authorization: Bearer TOKEN'",
                       fields={"visibility": ["private needs an authenticated owner"]})
    raw, filename = _raw_upload()
    read_upload(raw)  # an unreadable log is refused now (400/422, service.api.errors), not left to the job
    uploads = api().stores.uploads
    uid, duplicate = submit_upload(uploads, raw, owner=current_user(), partial=options["partial"] in _TRUE,
                                   filename=options.get("filename") or filename, visibility=options["visibility"])
    if not duplicate:
        enqueue_import(api().queue, uid)
    status = uploads.status(uid) or {}
    url = url_for("uploads.show_upload", uid=uid)
    response = jsonify({"id": uid, "status": status.get("status"), "duplicate": duplicate, "game": status.get("game"), "url": url})
    response.headers["Location"] = url
    return response, 200 if duplicate else 202


@bp.get("/api/uploads/<uid>")
@documented("An upload's import: status, progress (log entries read / total), the game and the per-line report",
            response=UploadStatusSchema, errors=(404,), tag="uploads",
            description="A private upload answers 404 to everyone but its owner, as if it did not exist.")
def show_upload(uid: str) -> ResponseReturnValue:
    """The upload's record (a private one: its owner's only)."""
    uploads = api().stores.uploads
    status = uploads.status(uid)
    if status is None or not _may_read_upload(uploads.visibility(uid), status["owner"]):
        raise ApiError(404, "not_found", f"no upload {uid!r}", upload=uid)
    return jsonify(status)


def _may_read_upload(visibility: str | None, owner: str | None) -> bool:
    """Public and unlisted uploads are anyone's to follow; a private one only its owner's."""
    return visibility != "private" or (owner is not None and current_user() == owner)


@bp.get("/api/games/<gid>/branches/<bid>/export")
@documented("The branch's log for download: BGA-style packets (format=bga), JSON lines of events (jsonl) or plain text",
            response=None, query=ExportQuery, errors=(400, 404, 422), tag="uploads",
            description="bga: the archive envelope with our own notification types (engine/bga/export.py and "
                        "engine/bga/<game>/export.py document them); importing it gives back the same events. "
                        "Log-only games have no rules to export with (422).")
def export_branch(gid: str, bid: str) -> ResponseReturnValue:
    """The export as a download."""
    record = readable_game(gid)
    query = load_query(ExportQuery)
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games have no rules to export with; their lines are at /api/games/<gid>/log",
                       game=gid)
    view = branch_view(record, [bid], query["view"])
    viewer = viewer_for_request(record, view)
    # A public game's export says where it came from: re-imported unchanged, it is this game, already here.
    events = titled(api().games.events(gid, bid), record.title, (gid, bid) if record.visibility == "public" else None)
    fmt = query["format"]
    stem = f"{gid}-{bid}" + ("" if viewer.full else f"-{view}")
    if fmt == "bga":
        document = export_log(events, view=view)
        body, mimetype, name = json.dumps(document, separators=(",", ":")), "application/json", f"{stem}.json"
    elif fmt == "jsonl":
        body, mimetype, name = export_jsonl(events, viewer), "application/x-ndjson", f"{stem}.jsonl"
    else:
        body, mimetype, name = export_text(events, viewer), "text/plain", f"{stem}.txt"
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = attachment(name)
    return response


def attachment(filename: str) -> str:
    """A ``Content-Disposition`` naming ``filename`` safely whatever its characters (RFC 6266 with RFC 5987's
    ``filename*``): an ASCII-only ``filename`` for old clients, the exact name percent-encoded in UTF-8 beside it.
    Never raw input in a header: a non-Latin-1 character there is a server error, a quote or line break a forgery."""
    fallback = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "._-") else "_" for ch in filename)
    return f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"


@bp.get("/api/games/<gid>/log")
@documented("A log-only game's moves and lines as a viewer sees them (other players' private lines never shown)",
            response=LogLinesSchema, query=LogQuery, errors=(400, 403, 404, 422), tag="uploads")
def show_log(gid: str) -> ResponseReturnValue:
    """Players, moves with their lines, and the final result."""
    record = readable_game(gid)
    query = load_query(LogQuery)
    stored = log_record(api().games, gid) if record.is_log_only else None
    if stored is None:
        raise ApiError(422, "not_log_only", "this game has rules: read its events and states instead", game=gid)
    seat: int | None = None
    if query["view"] != "spectator":
        if current_user() is None or current_user() != record.owner:
            raise ApiError(403, "forbidden", "only the game's owner may read a seat's private lines", game=gid)
        try:
            seat = int(parse_view(query["view"], len(stored.players), words=()))
        except ViewError as exc:
            raise ApiError(400, "invalid", f"invalid query string: {exc.message}", **exc.details) from exc
    moves = [{"index": m.index, "move_id": m.move_id, "time": m.time, "time_text": m.time_text,
              "lines": [{"text": li.text, "private": li.private} for li in m.lines]} for m in lines_visible_to(stored, seat)]
    result = None if stored.result is None else [dict(r.__dict__) for r in stored.result]
    return jsonify({"game": stored.game_name, "view": query["view"], "players": [dict(p.__dict__) for p in stored.players],
                    "moves": moves, "result": result})
