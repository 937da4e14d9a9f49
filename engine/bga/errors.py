"""The error tree of BGA log reading.

Every error raised while reading an uploaded log is a :class:`BgaLogError`, which is a
``ValueError`` (the upload is a bad value, like a bad FEN in python-chess). Each error says
what went wrong, in its class, its message and a JSON-safe ``details`` dict; the API's error
table (``service/api/errors.py``) decides the HTTP status. A log that reads well but disagrees
with the rules is the engine's :class:`~engine.core.errors.LogMismatchError`.

Messages follow the engine's style: lower case, quote the input, say what was expected
and where.
"""

from __future__ import annotations

from typing import Any


class BgaLogError(ValueError):
    """Root of every error raised while reading a BGA log.

    ``details`` is a JSON-safe dict naming where and what went wrong.
    """

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = dict(details or {})


class BgaSyntaxError(BgaLogError):
    """The upload is not readable at all: broken JSON, bad encoding, or text that is no log.

    For broken JSON, ``details`` holds ``line``, ``column`` (both 1-based, as
    ``json.JSONDecodeError`` counts them), ``position`` and a short ``excerpt``.
    """


class BgaLanguageError(BgaSyntaxError):
    """Text that reads as no log, in a language other than English (:mod:`engine.bga.language`): the importer reads
    BGA's English log text only, and BGA's archive JSON or the bookmarklet carry a log in any language.

    ``details`` holds ``language`` (a BCP 47 tag, ``de``) and ``language_name`` (its English name, ``German``).
    """


class BgaEnvelopeError(BgaLogError):
    """Valid JSON, but not one of the known BGA envelopes.

    ``details`` holds ``expected`` (the shapes accepted) and ``found`` (what the document
    is: its type and top-level keys).
    """


class BgaStatusError(BgaEnvelopeError):
    """The document is a BGA error answer (``status`` 0), not a log.

    ``details`` holds ``bga_status`` and, when present, BGA's own ``bga_error`` message
    and ``bga_code``.
    """


class BgaShapeError(BgaLogError):
    """A packet, notification or player entry has the wrong shape.

    ``details`` names the place (``packet_index``, ``packet_id``, ``notification_index``
    where known), the ``field``, what was ``expected`` and what was ``found``.
    """


class BgaPlayersError(BgaLogError):
    """The log's players do not fit the rules of its game (too many or too few, say).

    ``details`` holds the ``game``.
    """
