"""Reading ludolog's own exports back: JSON lines of events (``format=jsonl``) and plain text (``format=text``).

The BGA export (``format=bga``) is a BGA document and :func:`engine.bga.parse_log` reads it.
The other two are ours alone, not BGA's, so they are read here rather than in :mod:`engine.bga`
(and their JSON through the bounded :mod:`service.imports.jsontext` parser). Each is checked move by move against the
game's rules (a line that names no legal action is refused with its line number, 422) and then
turned into our BGA export of the same events, so that one import path (``service.imports.importer``)
stores every format and a re-imported export gives back exactly the events it was made from.

:func:`read_upload` is the one entry point: any upload's bytes to a :class:`~engine.bga.BgaLog`.
"""

from __future__ import annotations

import re
from typing import Any

from engine import CHANCE, EngineError, Event, Setup, action_event, apply_event, game_created, get_rules
from engine.bga import BgaLanguageError, BgaLog, BgaShapeError, BgaSyntaxError, export_log, parse_document, parse_log
from engine.bga.language import LANGUAGE_NAMES, seems_written_in
from service.imports.jsontext import JsonTextError, parse_json

#: The first line of a text export: ``puerto_rico (rules version 3): seat 0 Anna, seat 1 Ben``.
_TEXT_HEADER = re.compile(r"(?P<game>[a-z][a-z0-9_]{0,63}) \(rules version (?P<version>[^)]*)\): (?P<seats>seat 0 .*)")
_SEAT = re.compile(r"seat (\d{1,2}) (.*?)(?=, seat \d{1,2} |$)")
#: A move line of a text export: ``12. [seat 1] role mayor — Ben takes the mayor``.
_TEXT_MOVE = re.compile(r"(?P<seq>\d{1,9})\. \[(?P<who>chance|seat \d{1,2})\] (?P<action>.+?)(?: — .*)?")
_OPTIONS_PREFIX = "options: "
_TITLE_PREFIX = "title: "
_FROM_PREFIX = "from: "
_RESULT_PREFIX = "result: "


def read_upload(raw: bytes | str) -> BgaLog:
    """Any upload as a :class:`BgaLog`: a BGA document, BGA log text, or our own jsonl or text export.

    Raises :class:`~engine.bga.BgaLogError` (400 unreadable, 422 unusable) naming the line and why.
    """
    try:
        return parse_log(raw)
    except BgaSyntaxError as not_bga:
        text = raw.decode("utf-8-sig", errors="replace") if isinstance(raw, (bytes, bytearray)) else raw
        if is_jsonl_export(text):
            return parse_document(export_log(events_from_jsonl(text)))
        if is_text_export(text):
            return parse_document(export_log(events_from_text(text)))
        raise _explained(not_bga, text) from None


#: Where a log in any language can be had: what the refusal of a log in another language points to.
LOG_IN_ANY_LANGUAGE = ("upload the game's archive JSON from Board Game Arena, or send the game with the bookmarklet "
                       "(see /help/bga-logs#review-language): both carry BGA's log templates, which are the same in every language")


def _explained(error: BgaSyntaxError, text: str) -> BgaSyntaxError:
    """Broken JSON stays a JSON error, and so does anything that is not text at all (bad UTF-8, empty);
    text in another language than English (a German review page, say: :func:`engine.bga.language.seems_written_in`)
    is told so and where a log in any language can be had; other text is told which formats a paste may be in."""
    if text.lstrip()[:1] in ("{", "[") or "column" not in error.details:
        return error
    language = seems_written_in(text)
    if language is not None:
        name = LANGUAGE_NAMES[language]
        return BgaLanguageError(
            f"This log seems to be in {name}: ludolog reads Board Game Arena's log text in English only; "
            f"{LOG_IN_ANY_LANGUAGE}",
            details={"language": language, "language_name": name, "help": "/help/bga-logs#review-language"},
        )
    return BgaSyntaxError(
        "not a log we can read: expected BGA JSON (any envelope), ludolog's jsonl or text export, "
        "or BGA log text with 'Move N :' lines",
        details={**error.details, "expected": ["bga json", "jsonl export", "text export", "bga log text"]},
    )


# --- jsonl ------------------------------------------------------------------------------------


def is_jsonl_export(text: str) -> bool:
    """True if the first non-empty line is a ``game_created`` event as our jsonl export writes it."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        doc = parse_json(first)
    except JsonTextError:
        return False
    return isinstance(doc, dict) and doc.get("type") == "game_created" and isinstance(doc.get("data"), dict)


def events_from_jsonl(text: str) -> list[Event]:
    """The events of a jsonl export, each checked against the rules; 400/422 naming the line."""
    events: list[Event] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            doc = parse_json(line)
            event = Event.from_json(doc)
        except ValueError as exc:
            raise BgaSyntaxError(f"jsonl line {line_no}: not an event: {str(exc)[:200]}", details={"line": line_no}) from None
        if event.type != "game_created" and event.action is None:
            continue  # nothing the rules act on
        events.append(event)
    return _checked(events, [0] + list(range(2, len(events) + 1)), "jsonl")


# --- text --------------------------------------------------------------------------------------


def is_text_export(text: str) -> bool:
    """True if the first non-empty line is the header of our text export."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return _TEXT_HEADER.fullmatch(first.strip()) is not None


def events_from_text(text: str) -> list[Event]:
    """The events a text export states (header: game, version, seats; then one line per action)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip())
    header = _TEXT_HEADER.fullmatch(lines[start].strip())
    assert header is not None  # is_text_export said so
    players = tuple(name for _, name in _SEAT.findall(header.group("seats")))
    options: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    events: list[Event] = []
    line_numbers: list[int] = []
    for line_no, line in enumerate(lines[start + 1:], start=start + 2):
        stripped = line.strip()
        if not stripped or stripped.startswith(_RESULT_PREFIX):
            continue
        if stripped.startswith(_OPTIONS_PREFIX) and not events:
            options = _options(stripped[len(_OPTIONS_PREFIX):], line_no)
            continue
        if stripped.startswith(_TITLE_PREFIX) and not events:
            meta["title"] = stripped[len(_TITLE_PREFIX):].strip()[:200]
            continue
        if stripped.startswith(_FROM_PREFIX) and not events:
            game, _, branch = stripped[len(_FROM_PREFIX):].strip().partition("/")
            meta["from"] = {"game": game[:100], "branch": branch[:100]}
            continue
        move = _TEXT_MOVE.fullmatch(stripped)
        if move is None:
            raise BgaShapeError(f"text line {line_no}: expected '<n>. [seat <k>] <action> — <sentence>', found {stripped[:80]!r}",
                                details={"line": line_no, "expected": "<n>. [seat <k>] <action>", "found": stripped[:200]})
        who = move.group("who")
        actor = CHANCE if who == "chance" else int(who.split()[1])
        events.append(action_event(len(events) + 2, actor, move.group("action").strip()))
        line_numbers.append(line_no)
    created = game_created(header.group("game"), header.group("version"), Setup(players, options), **meta)
    return _checked([created, *events], [start + 1, *line_numbers], "text")


def _options(text: str, line_no: int) -> dict[str, Any]:
    try:
        value = parse_json(text)
    except JsonTextError:
        value = None
    if not isinstance(value, dict):
        raise BgaShapeError(f"text line {line_no}: options should be a JSON object", details={"line": line_no, "field": "options"})
    return value


# --- checking ----------------------------------------------------------------------------------


def _checked(events: list[Event], line_numbers: list[int], fmt: str) -> list[Event]:
    """``events`` if every one is legal where it stands; else a 422 naming the line and the rule."""
    if not events or events[0].type != "game_created" or events[0].data is None:
        raise BgaShapeError(f"{fmt}: the first event should be game_created", details={"line": line_numbers[0] if line_numbers else 1})
    data = events[0].data
    try:
        rules = get_rules(str(data["game"]))
        state = rules.initial_state(Setup.from_json(data["setup"]))
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise BgaShapeError(f"{fmt} line {line_numbers[0]}: {exc}", details={"line": line_numbers[0], "field": "game"}) from None
    renumbered = [events[0]]
    for line_no, event in zip(line_numbers[1:], events[1:], strict=True):
        numbered = Event(len(renumbered) + 1, event.type, event.actor, event.action, meta=event.meta)
        try:
            state = apply_event(rules, state, numbered)
        except (EngineError, ValueError) as exc:
            raise BgaShapeError(f"{fmt} line {line_no}: {event.action!r} is refused: {exc}",
                                details={"line": line_no, "field": "action", "found": str(event.action)[:200]}) from None
        renumbered.append(numbered)
    return renumbered
