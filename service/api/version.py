"""The running version of ludolog, for /healthz and the OpenAPI document."""

from __future__ import annotations

from functools import cache
from importlib import metadata


@cache
def service_version() -> str:
    """The installed package's version ("unknown" when run from a tree that was never installed)."""
    try:
        return metadata.version("ludolog")
    except metadata.PackageNotFoundError:
        return "unknown"
