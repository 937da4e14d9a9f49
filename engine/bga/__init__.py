"""Board Game Arena logs in and out of an event history: everything ludolog knows about BGA.

Pure (stdlib only, no I/O), beside the engine's core rather than inside it, as python-chess
keeps ``pgn.py`` beside its board: the API, the RQ import worker and the command line all use it.

Reading: :func:`parse_log` reads any envelope (:mod:`.envelope`, :mod:`.textlog`) into a
:class:`BgaLog` (:mod:`.model`); :func:`to_log_only` keeps a log of a game without rules as
lines (:mod:`.logonly`). Import: :func:`detect_game` and :func:`import_log` (:mod:`.importer`)
turn a log into checked events (:mod:`.history`), through the game's own mapping
``engine.bga.<game>`` when it has one (:mod:`.mapping`), else the generic ``ludologAction``
notes (:mod:`.generic`). Export: :func:`export_log` (:mod:`.export`). Errors: :mod:`.errors`.
"""

from engine.bga.envelope import EXPECTED_ENVELOPES, parse_document, parse_log
from engine.bga.errors import (
    BgaEnvelopeError,
    BgaLanguageError,
    BgaLogError,
    BgaPlayersError,
    BgaShapeError,
    BgaStatusError,
    BgaSyntaxError,
)
from engine.bga.export import DEFAULT_START_TIME, export_log
from engine.bga.history import INFERRED, REFUSED, SKIPPED, USED, HistoryBuilder, LogImport, LogNote, ReportRow
from engine.bga.importer import (
    detect_game,
    exported_source,
    exported_title,
    import_log,
    import_notes,
    in_log_order,
    is_our_export,
    notes_of,
)
from engine.bga.logonly import (
    RECORD_FORMAT,
    UNKNOWN_GAME,
    LogLine,
    LogMove,
    LogOnlyRecord,
    LogPlayer,
    LogResult,
    guess_game_name,
    import_report,
    lines_visible_to,
    to_log_only,
)
from engine.bga.model import BgaLog, Notification, Packet, Player, ResultEntry, packets_visible_to
from engine.bga.render import fill_template, render_notification, render_template, strip_html
from engine.bga.textlog import looks_like_text_log, parse_text_log
from engine.bga.tokens import has_tokens, readable_tokens

__all__ = [
    "DEFAULT_START_TIME",
    "INFERRED",
    "REFUSED",
    "SKIPPED",
    "USED",
    "BgaPlayersError",
    "HistoryBuilder",
    "LogImport",
    "LogNote",
    "ReportRow",
    "detect_game",
    "export_log",
    "import_log",
    "import_notes",
    "in_log_order",
    "is_our_export",
    "exported_source",
    "exported_title",
    "notes_of",
    "EXPECTED_ENVELOPES",
    "RECORD_FORMAT",
    "UNKNOWN_GAME",
    "BgaEnvelopeError",
    "BgaLanguageError",
    "BgaLog",
    "BgaLogError",
    "BgaShapeError",
    "BgaStatusError",
    "BgaSyntaxError",
    "LogLine",
    "LogMove",
    "LogOnlyRecord",
    "LogPlayer",
    "LogResult",
    "Notification",
    "Packet",
    "Player",
    "ResultEntry",
    "fill_template",
    "guess_game_name",
    "has_tokens",
    "import_report",
    "lines_visible_to",
    "looks_like_text_log",
    "packets_visible_to",
    "parse_document",
    "parse_log",
    "parse_text_log",
    "readable_tokens",
    "render_notification",
    "render_template",
    "strip_html",
    "to_log_only",
]
