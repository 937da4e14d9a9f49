"""The page of a log-only game (a BGA log of a game without rules here), as a BGA player knows it.

BGA's replay shows the players with their colours, the final scores and ranks, and the log as
numbered moves with their time, each move a block of lines with icons. This page shows the same:
the players' table, one block per move (BGA's move number and time, the lines in order, icon
tokens written as words), and controls that fit a log (step, jump to a move number, search the
text). Annotations and glyphs attach to a move's position (its event's seq) as on any game.

Only public lines reach the page: the events of a log-only game hold the public lines of each
move (private lines stay in the stored record, for the owner's ``/api/games/<gid>/log?view=<seat>``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue

from engine.bga import LogOnlyRecord, has_tokens, readable_tokens
from replay_ui.blueprint import page_blueprint
from service.games.titles import game_label
from service.imports.importer import log_record
from service.store.errors import NotFoundError
from service.store.games import GameRecord
from service.web.auth import readable_game
from service.web.context import api

#: This module's pages, registered by the app factory with the UI's others (replay_ui.BLUEPRINTS).
bp = page_blueprint("log_page", __name__)


def log_page_data(record: GameRecord) -> dict[str, Any]:
    """What the page header shows: the game, table, date, and the players with colour, score and rank."""
    stored = log_record(api().games, record.id)
    extra = record.extra or {}
    bga_game = str(extra.get("bga_game") or record.game)
    players = _players(record, stored)
    ranked = any(p["rank"] is not None for p in players)
    return {
        "bga_game": bga_game, "label": game_label(bga_game), "table_id": extra.get("table_id"),
        "date": _date_of(stored), "players": sorted(players, key=lambda p: (p["rank"] or 99, p["seat"])) if ranked else players,
        "finished": stored is not None and stored.result is not None, "moves": extra.get("moves"),
    }


def _players(record: GameRecord, stored: LogOnlyRecord | None) -> list[dict[str, Any]]:
    if stored is None or not stored.players:
        return [{"seat": seat, "name": name, "color": None, "score": None, "rank": None} for seat, name in enumerate(record.setup.players)]
    results = {r.seat: r for r in stored.result or () if r.seat is not None}
    out = []
    for player in stored.players:
        result = results.get(player.seat)
        out.append({"seat": player.seat, "name": player.name, "color": player.color,
                    "score": result.score if result is not None else player.score,
                    "rank": result.rank if result is not None else player.rank})
    return out


def _date_of(stored: LogOnlyRecord | None) -> str | None:
    times = [m.time for m in stored.moves if m.time is not None] if stored is not None else []
    return datetime.fromtimestamp(min(times), UTC).strftime("%Y-%m-%d") if times else None


@bp.get("/games/<gid>/b/<bid>/log.json")
def log_json(gid: str, bid: str) -> ResponseReturnValue:
    """Every move of a log-only game: its seq (where annotations attach), BGA move number, time, and lines."""
    record = readable_game(gid)
    if not record.is_log_only:
        raise NotFoundError(f"game {gid!r} has rules: its moves are in timeline.json", game=gid)
    game = str((record.extra or {}).get("bga_game") or record.game)
    moves = []
    for event in api().games.events(gid, bid):
        if event.seq == 1:
            continue
        meta = event.meta or {}
        lines = [str(line) for line in meta.get("lines") or []]
        moves.append({
            "seq": event.seq, "move_id": meta.get("move_id"), "time": meta.get("time"), "time_text": meta.get("time_text"),
            "lines": [_line(text, game) for text in lines],
        })
    response = jsonify({"game": game, "head": moves[-1]["seq"] if moves else 1, "moves": moves})
    response.headers["Cache-Control"] = "no-cache"
    return response


def _line(text: str, game: str) -> dict[str, str]:
    """A line as shown (icon tokens in words) and, when they differ, as BGA wrote it."""
    if not has_tokens(text):
        return {"text": text}
    return {"text": readable_tokens(text, game), "raw": text}
