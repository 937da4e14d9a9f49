"""The error tree of BGA log reading.

Every error raised while reading an uploaded log is a :class:`BgaLogError`, which is a
``ValueError`` (the upload is a bad value, like a bad FEN in python-chess). Each error
carries the HTTP ``status`` the API answers with and a JSON-safe ``details`` dict, so the
API's one error handler needs no knowledge of this package beyond those two attributes.

Messages follow the engine's style: lower case, quote the input, say what was expected
and where.
"""

from __future__ import annotations

from typing import Any


class BgaLogError(ValueError):
    """Root of every error raised while reading a BGA log.

    ``status`` is the HTTP status the API uses (400 malformed, 422 well-formed but not a
    usable log); ``details`` is a JSON-safe dict naming where and what went wrong.
    """

    status: int = 422

    def __init__(self, message: str, *, details: dict[str, Any] | None = None, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        if status is not None:
            self.status = status


class BgaSyntaxError(BgaLogError):
    """The upload is not readable at all: broken JSON, bad encoding, or text that is no log (400).

    For broken JSON, ``details`` holds ``line``, ``column`` (both 1-based, as
    ``json.JSONDecodeError`` counts them), ``position`` and a short ``excerpt``.
    """

    status = 400


class BgaEnvelopeError(BgaLogError):
    """Valid JSON, but not one of the known BGA envelopes (422).

    ``details`` holds ``expected`` (the shapes accepted) and ``found`` (what the document
    is: its type and top-level keys).
    """

    status = 422


class BgaStatusError(BgaEnvelopeError):
    """The document is a BGA error answer (``status`` 0), not a log (422).

    ``details`` holds ``bga_status`` and, when present, BGA's own ``bga_error`` message
    and ``bga_code``.
    """


class BgaShapeError(BgaLogError):
    """A packet, notification or player entry has the wrong shape (422).

    ``details`` names the place (``packet_index``, ``packet_id``, ``notification_index``
    where known), the ``field``, what was ``expected`` and what was ``found``.
    """

    status = 422
