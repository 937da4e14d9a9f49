"""The three real BGA logs of ../shared/samples/bga, each read from disk once per test session.

Tests that need them skip (with the reason) on a checkout without the shared samples.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

SAMPLES_DIR = Path(os.environ.get("LUDOLOG_BGA_SAMPLES", Path(__file__).resolve().parents[4] / "shared" / "samples" / "bga"))

GAIA = "gaiaproject_798145204_fullresponse.json"
TOKAIDO_A = "tokaido_100004927.json"
TOKAIDO_B = "tokaido_161915629.json"
ALL = (GAIA, TOKAIDO_A, TOKAIDO_B)


@cache
def raw(name: str) -> bytes:
    """The file's bytes (skips the test if the samples are not there)."""
    path = SAMPLES_DIR / name
    if not path.exists():
        pytest.skip(f"BGA sample {path} not present (set LUDOLOG_BGA_SAMPLES)")
    return path.read_bytes()


@cache
def _doc_text(name: str) -> str:
    return raw(name).decode("utf-8")


def doc(name: str) -> Any:
    """A fresh decoded copy of the file's JSON (callers may mutate it)."""
    return json.loads(_doc_text(name))


@cache
def packets(name: str) -> tuple[Any, ...]:
    """The file's raw packet dicts, whatever its envelope (shared: do not mutate)."""
    d = json.loads(_doc_text(name))
    return tuple(d["data"]["logs"] if isinstance(d, dict) else d)
