"""A trivial WSGI app: lets the tests run gunicorn with deploy/gunicorn.conf.py without ludolog's app."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """Answer every request with 200 and a short plain-text body."""
    body = b"ok\n"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
