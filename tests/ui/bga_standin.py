"""A local stand-in for Board Game Arena's pages, served on a second origin for the bookmarklet's browser tests.

BGA cannot be reached from the tests, so this small Flask app holds the structures the bookmarklet reads, built
from real logs (the BGA samples) and from our own BGA export of a Puerto Rico game:

- ``/archive/replay/<id>/?table=<id>``: a replay page whose script defines ``g_gamelogs`` (``{"data": {"data":
  [packets]}}``) and BGA's page object ``gameui`` with the game's name;
- ``/gamereview?table=<id>``: the game review, the log as text under ``Move N : time`` headers;
- ``/archive/archive/logs.html?table=<id>&translated=true``: the archive's JSON, only with the session cookie
  ``/account/login`` sets; without it the answer BGA gives a visitor who is not signed in (``status`` 0 and a message);
- ``/table?table=<id>``: a table's page that holds no log (the bookmarklet asks the archive);
- ``/welcome``: a page of another kind.
"""

from __future__ import annotations

import html
import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, abort, request
from werkzeug.serving import make_server

from engine.bga import parse_document, render_notification

SESSION_COOKIE = "PHPSESSID"
SESSION_VALUE = "standin-session"
SIGNED_OUT = {"status": "0", "error": "You must be logged in to see this page.", "expected": 1, "code": 100}


@dataclass(frozen=True)
class Table:
    """One table the stand-in knows: BGA's short game name and the log as the archive answers it."""

    game_name: str
    document: Mapping[str, Any]

    @property
    def packets(self) -> Any:
        """The log's packets, whatever its envelope (as the document holds them, a list in a real log)."""
        doc = self.document
        if isinstance(doc, list):
            return doc
        data = doc["data"]
        return data["logs"] if "logs" in data else data["data"]


def archive_document(table: Table) -> dict[str, Any]:
    """The archive endpoint's answer: ``{"status": 1, "data": {"logs": [...], "players": [...]}}``."""
    doc = table.document
    if isinstance(doc, dict) and doc.get("status") in (1, "1"):
        return dict(doc)
    return {"status": 1, "data": {"logs": table.packets, "players": []}}


def review_html(table: Table) -> str:
    """The game review's log: each public move's header (``Move N : time``) and its lines, as BGA shows them."""
    bga = parse_document({"data": {"data": table.packets}})
    blocks = []
    for packet in sorted(bga.public_packets, key=lambda p: p.packet_id):
        lines = [text for text in (render_notification(n) for n in packet.notifications) if text.strip()]
        if not lines or packet.move_id is None:
            continue
        when = time.strftime("%H:%M:%S", time.gmtime(packet.time or 0))
        body = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
        blocks.append(f'<div class="gamelogreview"><div class="smalltext">Move {packet.move_id} : {when}</div>{body}</div>')
    return "".join(blocks)


def _page(title: str, body: str, script: str = "") -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)} - Board Game Arena</title>"
            f"{script}</head><body><header>Board Game Arena (stand-in)</header><main>{body}</main></body></html>")


def standin_app(tables: Mapping[str, Table]) -> Flask:
    """The stand-in BGA site holding ``tables`` (table id to table)."""
    app = Flask("bga_standin")

    def table() -> Table:
        found = tables.get(request.args.get("table", ""))
        if found is None:
            abort(404)
        return found

    @app.get("/archive/replay/<path:rest>")
    def replay(rest: str) -> str:
        known = table()
        gamelogs = json.dumps({"data": {"data": known.packets}}).replace("</", "<\\/")
        script = (f"<script>var g_gamelogs = {gamelogs};\nvar gameui = {{game_name: {json.dumps(known.game_name)}}};</script>")
        return _page("Replay", "<div id='replaylogs'>replay</div>", script)

    @app.get("/gamereview")
    def review() -> str:
        known = table()
        return _page("Game review", f"<h1>Game review</h1><div id='gamelogs'>{review_html(known)}</div>")

    @app.get("/archive/archive/logs.html")
    def archive() -> Response:
        known = table()
        signed_in = request.cookies.get(SESSION_COOKIE) == SESSION_VALUE
        body = archive_document(known) if signed_in else SIGNED_OUT
        return Response(json.dumps(body), mimetype="application/json")

    @app.get("/account/login")
    def login() -> Response:
        response = Response(_page("Signed in", "<p>Welcome back</p>"), mimetype="text/html")
        response.set_cookie(SESSION_COOKIE, SESSION_VALUE, httponly=True, samesite="Lax")
        return response

    @app.get("/table")
    def table_page() -> str:
        table()
        return _page("Table", "<p>A finished table</p>")

    @app.get("/welcome")
    def welcome() -> str:
        return _page("Welcome", "<p>Play board games online</p>")

    return app


@contextmanager
def serve(app: Flask, host: str = "127.0.0.1") -> Iterator[str]:
    """``app`` on a free port of 127.0.0.1 in a thread; yields its origin, named by ``host`` (``localhost`` is another
    host than ``127.0.0.1`` to the browser, so its cookies stay its own: cookies tell sites apart by host, not port)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
