"""Reading an uploaded BGA log, in any envelope, into a :class:`~engine.bga.model.BgaLog`.

Accepted shapes (the same packets inside, whatever the wrapping):

- ``{"status": 1, "data": {"logs": [...], "players": [...]}}``: the archive endpoint today;
- ``{"data": {"data": {"data": [...]}}}``: what 2021 scrapers saved;
- ``{"data": {"data": [...]}}``: the replay page's ``g_gamelogs``;
- ``[...]``: a bare list of packets;
- text pasted from the log panel or the game review page ("Move N :" headers), best effort.

Anything else raises a :class:`~engine.bga.errors.BgaLogError` that says where and why.
Nothing here enforces a size limit (the API does) and nothing is ever cut short.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from engine.bga._convert import found, json_type, short_repr, to_int
from engine.bga.errors import BgaEnvelopeError, BgaShapeError, BgaStatusError, BgaSyntaxError
from engine.bga.model import BgaLog, Notification, Packet, Player, ResultEntry
from engine.bga.render import strip_html
from engine.bga.textlog import looks_like_text_log, parse_text_log

#: The envelopes we accept, as named in error details.
EXPECTED_ENVELOPES = (
    '{"status": 1, "data": {"logs": [packets], "players": [players]}}',
    '{"data": {"data": {"data": [packets]}}}',
    '{"data": {"data": [packets]}}',
    "[packets]",
    'plain text with "Move N :" lines',
)

_PUBLIC_CHANNEL = re.compile(r"/table/t(\d{1,19})")
_PRIVATE_CHANNEL = re.compile(r"/player/p(\d{1,19})")
_GAME_OVER_STATE = 99
_EXCERPT_RADIUS = 30


def parse_log(raw: bytes | str) -> BgaLog:
    """Read a BGA log from the bytes or text of an upload.

    Raises :class:`BgaSyntaxError` (400) for bytes that are neither JSON nor a pasted log,
    :class:`BgaEnvelopeError` / :class:`BgaStatusError` (422) for JSON that is not a log,
    and :class:`BgaShapeError` (422) for a packet, notification or player of the wrong shape.
    """
    text = _decode(raw)
    stripped = text.strip()
    if not stripped:
        raise BgaSyntaxError("empty upload: expected a BGA log (JSON or log text)", details={"length": len(raw)})
    try:
        doc = _load_json(text)
    except BgaSyntaxError:
        # Not JSON: it may be a log panel pasted by a person. A line that starts with
        # "Move N :" never occurs in JSON, so broken JSON is never mistaken for it.
        if looks_like_text_log(text):
            return parse_text_log(text)
        raise
    return parse_document(doc)


def parse_document(doc: Any) -> BgaLog:
    """Read a BGA log from an already decoded JSON document (see :func:`parse_log` for errors)."""
    envelope, packets_raw, players_raw, game_name = _unwrap(doc)
    packets = tuple(_read_packet(index, raw) for index, raw in enumerate(packets_raw))
    if not packets:
        raise BgaShapeError("log holds no packets", details={"field": "packets", "expected": "at least one packet", "found": "[]"})
    result = _read_result(packets)
    return BgaLog(
        table_id=_table_id(packets),
        players=_read_players(players_raw, packets, result),
        packets=packets,
        result=result,
        game_name=game_name,
        source="json",
        envelope=envelope,
    )


# --- bytes and JSON -------------------------------------------------------------------


def _decode(raw: bytes | str) -> str:
    """The upload as text: UTF-8 (a byte-order mark is dropped)."""
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff")
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse_log expects bytes or str, not {type(raw).__name__}")
    try:
        return bytes(raw).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BgaSyntaxError(
            f"upload is not UTF-8 text: byte {exc.start} is {bytes(raw)[exc.start : exc.start + 1]!r}",
            details={"position": exc.start, "reason": exc.reason},
        ) from None


def _reject_constant(name: str) -> Any:
    """json's hook for NaN and Infinity, which Python accepts but JSON does not."""
    raise BgaSyntaxError(f"{name!r} is not a JSON value", details={"token": name})


def _load_json(text: str) -> Any:
    """``text`` decoded as JSON, or a :class:`BgaSyntaxError` naming line and column."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        excerpt = text[max(0, exc.pos - _EXCERPT_RADIUS) : exc.pos + _EXCERPT_RADIUS]
        raise BgaSyntaxError(
            f"broken JSON at line {exc.lineno} column {exc.colno}: {exc.msg.lower()} (near {excerpt!r})",
            details={"line": exc.lineno, "column": exc.colno, "position": exc.pos, "reason": exc.msg, "excerpt": excerpt},
        ) from None
    except RecursionError:
        raise BgaSyntaxError("JSON nested too deeply to be a BGA log", details={"reason": "nesting"}) from None
    except ValueError as exc:  # e.g. an integer literal with thousands of digits
        raise BgaSyntaxError(f"unreadable JSON: {str(exc).lower()}", details={"reason": str(exc)}) from None


# --- envelopes -------------------------------------------------------------------------


def _unwrap(doc: Any) -> tuple[str, list[Any], Any, str | None]:
    """(envelope name, raw packets, raw players or None, game name or None) of a document."""
    if isinstance(doc, list):
        return "bare", doc, None, None
    if not isinstance(doc, dict):
        raise _unknown_envelope(doc)
    _check_status(doc)
    data = doc.get("data")
    game_name = _game_name(doc, data)
    if isinstance(data, dict):
        if "logs" in data:
            if not isinstance(data["logs"], list):
                raise _shape("data.logs", "an array of packets", data["logs"])
            return "archive", data["logs"], data.get("players"), game_name
        inner = data.get("data")
        if isinstance(inner, list):
            return "gamelogs", inner, data.get("players"), game_name
        if isinstance(inner, dict) and isinstance(inner.get("data"), list):
            return "scraper", inner["data"], inner.get("players", data.get("players")), game_name
    if "logs" in doc and isinstance(doc["logs"], list):  # the archive's "data" object saved on its own
        return "archive", doc["logs"], doc.get("players"), game_name
    raise _unknown_envelope(doc)


def _check_status(doc: dict[str, Any]) -> None:
    """Refuse a BGA error answer (``status`` 0 or false), which holds a message instead of a log."""
    if "status" not in doc:
        return
    status = doc["status"]
    if status in (1, "1", True):  # True == 1 in Python; listed for the reader
        return
    message = doc.get("error") if isinstance(doc.get("error"), str) else None
    details: dict[str, Any] = {"bga_status": short_repr(status), "expected": list(EXPECTED_ENVELOPES)}
    if message is not None:
        details["bga_error"] = message[:500]
    if "code" in doc:
        details["bga_code"] = short_repr(doc["code"])
    said = f": {message[:200]!r}" if message else ""
    raise BgaStatusError(f"BGA answered with an error (status {short_repr(status)}){said}, not a game log", details=details)


def _describe(value: Any, depth: int = 0) -> dict[str, Any]:
    """What a JSON value looks like, for error details: its type, keys, and the same for ``data``."""
    out: dict[str, Any] = {"type": json_type(value)}
    if isinstance(value, dict):
        out["keys"] = sorted(str(k) for k in value)[:20]
        if "data" in value and depth < 2:
            out["data"] = _describe(value["data"], depth + 1)
    elif isinstance(value, list):
        out["length"] = len(value)
    return out


def _unknown_envelope(doc: Any) -> BgaEnvelopeError:
    """The error for valid JSON in none of the known envelopes."""
    seen = _describe(doc)
    keys = f" with keys {', '.join(seen['keys']) or '(none)'}" if "keys" in seen else ""
    return BgaEnvelopeError(
        f"unknown log envelope: found a JSON {seen['type']}{keys}; expected a list of packets, "
        '{"data": {"logs": [...]}}, {"data": {"data": [...]}} or {"data": {"data": {"data": [...]}}}',
        details={"expected": list(EXPECTED_ENVELOPES), "found": seen},
    )


def _game_name(doc: dict[str, Any], data: Any) -> str | None:
    """A game name the envelope states outright (some saved pages and scrapers add one)."""
    for holder in (doc, data):
        if isinstance(holder, dict):
            for key in ("game_name", "gamename", "game"):
                value = holder.get(key)
                if isinstance(value, str) and value.strip():
                    return value.strip()[:100]
    return None


# --- packets and notifications --------------------------------------------------------------


def _shape(field: str, expected: str, value: Any, **where: Any) -> BgaShapeError:
    """A :class:`BgaShapeError` for ``field`` (placed by ``where``) holding ``value`` instead of ``expected``."""
    place = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in where.items() if v is not None)
    prefix = f"{place}: " if place else ""
    details = {k: v for k, v in where.items() if v is not None}
    details.update(field=field, expected=expected, found=found(value))
    return BgaShapeError(f"{prefix}field {field!r} should be {expected}, found {found(value)}", details=details)


def _read_packet(index: int, raw: Any) -> Packet:
    """One packet, checked field by field; errors name the packet's index and id."""
    if not isinstance(raw, dict):
        raise _shape("packet", "an object", raw, packet_index=index)
    raw_id = raw.get("packet_id")
    packet_id = to_int(raw_id)
    where = {"packet_index": index, "packet_id": short_repr(raw_id) if raw_id is not None else None}
    if packet_id is None:
        raise _shape("packet_id", "an integer", raw_id, **where)
    channel = raw.get("channel")
    if not isinstance(channel, str):
        raise _shape("channel", "a string like '/table/t123' or '/player/p456'", channel, **where)
    private = _PRIVATE_CHANNEL.fullmatch(channel)
    if private is None and _PUBLIC_CHANNEL.fullmatch(channel) is None:
        raise _shape("channel", "'/table/t<id>' or '/player/p<id>'", channel, **where)
    time = to_int(raw.get("time"))
    if time is None:
        raise _shape("time", "Unix seconds (an integer)", raw.get("time"), **where)
    move_id = to_int(raw.get("move_id"))
    if move_id is None and raw.get("move_id") is not None:
        raise _shape("move_id", "an integer or null", raw.get("move_id"), **where)
    packet_type = raw.get("packet_type", "")
    if not isinstance(packet_type, str):
        raise _shape("packet_type", "a string", packet_type, **where)
    if "table_id" in raw and to_int(raw["table_id"]) is None:
        raise _shape("table_id", "an integer", raw["table_id"], **where)
    notes = raw.get("data")
    if not isinstance(notes, list):
        raise _shape("data", "an array of notifications", notes, **where)
    is_private = private is not None
    notifications = tuple(
        _read_notification(raw_note, where | {"notification_index": i}, is_private, move_id, packet_id, time)
        for i, raw_note in enumerate(notes)
    )
    return Packet(
        channel=channel,
        is_private=is_private,
        player_id=int(private.group(1)) if private else None,
        packet_id=packet_id,
        packet_type=packet_type,
        move_id=move_id,
        time=time,
        notifications=notifications,
    )


def _read_notification(raw: Any, where: dict[str, Any], private: bool, move_id: int | None, packet_id: int, time: int) -> Notification:
    """One notification, checked field by field."""
    if not isinstance(raw, dict):
        raise _shape("notification", "an object", raw, **where)
    uid = raw.get("uid", "")
    if isinstance(uid, int) and not isinstance(uid, bool):
        uid = str(uid)
    if not isinstance(uid, str):
        raise _shape("uid", "a string", uid, **where)
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise _shape("type", "a string", kind, **where)
    log = raw.get("log")
    if log is None:
        log = ""  # BGA sends null for some silent notifications
    if not isinstance(log, str):
        raise _shape("log", "a string", log, **where)
    args = raw.get("args")
    if args is None:
        args = {}
    if not isinstance(args, (dict, list)):
        raise _shape("args", "an object or an array", args, **where)
    return Notification(uid=uid, type=kind, log=log, args=args, private=private, move_id=move_id, packet_id=packet_id, time=time)


def _table_id(packets: tuple[Packet, ...]) -> int | None:
    """The table all public packets belong to; several tables in one log is an error."""
    tables: dict[int, int] = {}
    for index, packet in enumerate(packets):
        match = _PUBLIC_CHANNEL.fullmatch(packet.channel)
        if match:
            tables.setdefault(int(match.group(1)), index)
    if len(tables) > 1:
        (first, _), (second, at) = list(tables.items())[:2]
        raise BgaShapeError(
            f"packet index {at}: packets of two tables in one log ({first} and {second})",
            details={"packet_index": at, "field": "channel", "expected": f"'/table/t{first}'", "found": f"'/table/t{second}'"},
        )
    return next(iter(tables), None)


# --- result and players -----------------------------------------------------------------


def _notifications(packets: tuple[Packet, ...]) -> Iterator[tuple[int, int, Notification]]:
    """Every notification with its packet index and notification index, in file order."""
    for p_index, packet in enumerate(packets):
        for n_index, note in enumerate(packet.notifications):
            yield p_index, n_index, note


def _read_result(packets: tuple[Packet, ...]) -> tuple[ResultEntry, ...] | None:
    """The final result from the last ``gameStateChange`` with ``args.id == 99``, or None."""
    last: tuple[int, int, Notification] | None = None
    for p_index, n_index, note in _notifications(packets):
        if note.type == "gameStateChange" and to_int(note.named_args.get("id")) == _GAME_OVER_STATE:
            last = (p_index, n_index, note)
    if last is None:
        return None
    p_index, n_index, note = last
    where = {"packet_index": p_index, "packet_id": note.packet_id, "notification_index": n_index}
    inner = note.named_args.get("args")
    if not isinstance(inner, dict) or "result" not in inner:
        return None  # a game-over state without a result table (an abandoned game): no result
    entries = inner["result"]
    if not isinstance(entries, list):
        raise _shape("args.args.result", "an array of player results", entries, **where)
    return tuple(_read_result_entry(entry, where | {"result_index": i}) for i, entry in enumerate(entries))


def _read_result_entry(raw: Any, where: dict[str, Any]) -> ResultEntry:
    """One player's result line; values that are not numbers become None rather than fail the import."""
    if not isinstance(raw, dict):
        raise _shape("args.args.result[]", "an object", raw, **where)
    player_id = to_int(raw.get("player", raw.get("id")))
    name = raw.get("name")
    if not isinstance(name, str):
        if player_id is None:
            raise _shape("args.args.result[].name", "a string", name, **where)
        name = f"player {player_id}"
    return ResultEntry(
        player_id=player_id,
        name=strip_html(name),
        score=to_int(raw.get("score")),
        rank=to_int(raw.get("rank")),
        score_aux=to_int(raw.get("score_aux")),
        color=_color(raw.get("color")),
    )


def _read_players(raw: Any, packets: tuple[Packet, ...], result: tuple[ResultEntry, ...] | None) -> tuple[Player, ...]:
    """The players in seat order, with names, colors, scores and ranks from wherever the log has them."""
    listed = _listed_players(raw) if raw is not None else []
    names = _names_from_notifications(packets)
    by_result = {e.player_id: e for e in result or () if e.player_id is not None}
    order = [pid for pid, _, _ in listed] or _seat_order_from_states(packets)
    for pid in [*names, *by_result]:
        if pid not in order:
            order.append(pid)
    listed_by_id = {pid: (name, color) for pid, name, color in listed}
    players = []
    for pid in order:
        entry = by_result.get(pid)
        listed_name, listed_color = listed_by_id.get(pid, (None, None))
        name = listed_name or names.get(pid) or (entry.name if entry else None) or f"player {pid}"
        # The result's color is the one played with; the envelope's is often a placeholder black.
        color = (entry.color if entry else None) or listed_color
        players.append(Player(id=pid, name=name, color=color, score=entry.score if entry else None, rank=entry.rank if entry else None))
    return tuple(players)


def _listed_players(raw: Any) -> list[tuple[int, str, str | None]]:
    """(id, name, color) of the envelope's player list."""
    if not isinstance(raw, list):
        raise _shape("players", "an array of players", raw)
    out = []
    for index, item in enumerate(raw):
        if not isinstance(item, dict):
            raise _shape("players[]", "an object", item, player_index=index)
        pid = to_int(item.get("id"))
        if pid is None:
            raise _shape("players[].id", "an integer", item.get("id"), player_index=index)
        name = item.get("name")
        if not isinstance(name, str):
            raise _shape("players[].name", "a string", name, player_index=index)
        out.append((pid, strip_html(name), _color(item.get("color"))))
    return out


def _names_from_notifications(packets: tuple[Packet, ...]) -> dict[int, str]:
    """Player id → name, from notifications that carry both (first seen wins, in file order)."""
    names: dict[int, str] = {}
    for _, _, note in _notifications(packets):
        args = note.named_args
        name = args.get("player_name")
        pid = to_int(args.get("player_id", args.get("playerId")))
        if pid is not None and isinstance(name, str) and pid not in names:
            text = strip_html(name)
            if text:
                names[pid] = text
    return names


def _seat_order_from_states(packets: tuple[Packet, ...]) -> list[int]:
    """Player ids in the order BGA lists them in its first state change (its player table order)."""
    for _, _, note in _notifications(packets):
        if note.type != "gameStateChange":
            continue
        reflexion = note.named_args.get("reflexion")
        total = reflexion.get("total") if isinstance(reflexion, dict) else None
        if isinstance(total, dict) and total:
            ids = [to_int(k) for k in total]
            return [i for i in ids if i is not None]
    return []


def _color(value: Any) -> str | None:
    """A CSS color from BGA's ``ffa500`` or ``#ffa500``; None for anything else."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if re.fullmatch(r"[0-9a-fA-F]{6}", text):
        return "#" + text.lower()
    if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return text.lower()
    return None
