"""Reading Board Game Arena logs: envelopes, templates, and log-only game records.

Pure and storage-free (stdlib only): the API, the RQ import worker and the command line
all use it. Start with :func:`parse_log`, then :func:`to_log_only` for a game without
rules, or walk ``BgaLog.packets`` to map notifications onto a game's rules.
"""

from service.bga.envelope import EXPECTED_ENVELOPES, parse_document, parse_log
from service.bga.errors import BgaEnvelopeError, BgaLogError, BgaShapeError, BgaStatusError, BgaSyntaxError
from service.bga.logonly import (
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
from service.bga.model import BgaLog, Notification, Packet, Player, ResultEntry, packets_visible_to
from service.bga.render import fill_template, render_notification, render_template, strip_html
from service.bga.textlog import looks_like_text_log, parse_text_log
from service.bga.tokens import has_tokens, readable_tokens

__all__ = [
    "EXPECTED_ENVELOPES",
    "RECORD_FORMAT",
    "UNKNOWN_GAME",
    "BgaEnvelopeError",
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
