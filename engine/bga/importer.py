"""Import: a parsed BGA log to a checked event history, for any game.

:func:`detect_game` decides which game with rules a log is of (a game the log names, our own
export's setup note, or a notification a game's mapping recognises); :func:`import_log` reads
its players in seat order, renders its notes (:func:`notes_of`) and hands them to the game's
mapping (:mod:`engine.bga.mapping`), or to the generic ``ludologAction`` reader for a game
without one. Every action goes through the rules' check; the first disagreement stops the
import with a :class:`~engine.core.errors.LogMismatchError` kept in the result, beside the
consistent prefix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.bga.errors import BgaPlayersError
from engine.bga.generic import import_generic
from engine.bga.history import LogImport, LogNote, Progress
from engine.bga.mapping import game_for_bga_name, mapped_games, mapping_for, recognised_game, seat_order
from engine.bga.model import BgaLog
from engine.bga.render import render_notification
from engine.core.errors import EngineError
from engine.core.protocol import Rules, Setup
from engine.core.registry import get_rules, registered_games


def import_notes(rules: Rules, setup: Setup, notes: Sequence[LogNote], seats: Mapping[int, int] | None = None,
                 progress: Progress | None = None, keep_every: int = 0) -> LogImport:
    """The history ``notes`` describe for ``rules``: the game's own mapping, else our generic notes.

    With ``keep_every``, the result also keeps the states after every seq that is a multiple of
    it (``kept_states``), so that the caller can write snapshots without folding again.
    """
    mapping = mapping_for(rules.name)
    if mapping is not None:
        return mapping.import_notes(rules, setup, notes, dict(seats or {}), progress, keep_every)
    return import_generic(rules, setup, notes, progress, keep_every)


def import_log(bga: BgaLog, game: str, *, keep_every: int = 0, progress: Progress | None = None) -> LogImport:
    """The history of ``game`` a parsed log describes (see :func:`import_notes`).

    Raises :class:`~engine.bga.errors.BgaPlayersError` when the log's players do not fit the
    game's rules (too many, say); a disagreement with the rules is kept in the result's ``error``.
    """
    notes = notes_of(bga)
    rules = get_rules(game)
    order = players_in_seat_order(bga, notes, game)
    setup = Setup(tuple(name for _, name in order), setup_options(notes))
    try:
        rules.initial_state(setup)
    except EngineError as exc:
        raise BgaPlayersError(f"the log's players do not fit the {game} rules: {exc}", details={"game": game}) from None
    return import_notes(rules, setup, notes, {pid: seat for seat, (pid, _) in enumerate(order)}, progress, keep_every)


def notes_of(bga: BgaLog) -> list[LogNote]:
    """Every notification in packet order, rendered, as the games' mappings read them."""
    notes: list[LogNote] = []
    for packet in sorted(bga.packets, key=lambda p: p.packet_id):
        for note in packet.notifications:
            text = " ".join(note.log.split()) if bga.source == "text" else render_notification(note)
            notes.append(LogNote(len(notes), packet.move_id, packet.packet_id, note.uid, note.type, text, note.named_args,
                                 packet.is_private, packet.player_id, packet.time))
    return notes


def detect_game(bga: BgaLog) -> str | None:
    """The game with rules this log is of, or None for a log-only game.

    A game the log names (``puertorico``, or our own export's setup note), or the game whose
    mapping recognises one of its notifications (Puerto Rico: role choices carrying ``rol_type``).
    """
    known = registered_games()
    named = game_for_bga_name(bga.game_name, known)
    if named:
        return named
    mappings = mapped_games()
    for packet in bga.packets:
        for note in packet.notifications:
            args = note.named_args
            if note.type == "ludologSetup" and isinstance(args.get("game"), str) and args["game"] in known:
                return str(args["game"])
            recognised = recognised_game(args, mappings)
            if recognised is not None:
                return recognised
    return None


def is_our_export(bga: BgaLog) -> bool:
    """True for a log ludolog exported (its first packet states our setup): its table id is no BGA table."""
    return any(note.type == "ludologSetup" for packet in bga.packets[:1] for note in packet.notifications)


def exported_title(bga: BgaLog) -> str | None:
    """The game's title our export states in its setup note (None for a BGA log, or an export without one)."""
    for packet in bga.packets[:1]:
        for note in packet.notifications:
            title = note.named_args.get("title") if note.type == "ludologSetup" else None
            if isinstance(title, str) and title.strip():
                return title.strip()[:200]
    return None


def exported_source(bga: BgaLog) -> tuple[str, str] | None:
    """The (game, branch) our export says it was exported from (its setup note's ``from``; a public game's export
    only), or None."""
    for packet in bga.packets[:1]:
        for note in packet.notifications:
            source = note.named_args.get("from") if note.type == "ludologSetup" else None
            if isinstance(source, Mapping) and isinstance(source.get("game"), str) and isinstance(source.get("branch"), str):
                return str(source["game"])[:100], str(source["branch"])[:100]
    return None


def setup_options(notes: Sequence[LogNote]) -> dict[str, Any]:
    """The game's options as our export's setup note states them ({} for a BGA log: the defaults)."""
    for note in notes:
        if note.type == "ludologSetup" and isinstance(note.args.get("options"), Mapping):
            return dict(note.args["options"])
    return {}


def players_in_seat_order(bga: BgaLog, notes: Sequence[LogNote], game: str) -> list[tuple[int, str]]:
    """(BGA id, name) in seat order: our own export lists them so; a BGA log's game mapping decides."""
    players = [(p.id, p.name) for p in bga.players]
    if any(n.type == "ludologSetup" for n in notes):
        return players
    return seat_order(game, players, notes)


def in_log_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
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
