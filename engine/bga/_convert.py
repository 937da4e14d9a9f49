"""Small, strict conversions shared by the readers (internal).

BGA sends numbers as JSON numbers or as decimal strings, at random; these helpers
accept both and nothing else, so that a wrong type is reported instead of guessed.
"""

from __future__ import annotations

import math
import re
from typing import Any

# Up to 19 digits: every id and time BGA uses fits, and Python's int() limit on huge
# digit strings (ValueError past 4300 digits) can never be reached.
_INT_TEXT = re.compile(r"-?\d{1,19}")


def to_int(value: Any) -> int | None:
    """``value`` as an int if it is one (a JSON int, an integral float, or a decimal string), else None."""
    if isinstance(value, bool):  # bool is an int subclass; true is not a number here
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else None
    if isinstance(value, str):
        text = value.strip()
        return int(text) if _INT_TEXT.fullmatch(text) else None
    return None


def json_type(value: Any) -> str:
    """The JSON name of ``value``'s type, for messages (``object``, ``array``, ``string`` …)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def short_repr(value: Any, limit: int = 60) -> str:
    """A repr of ``value`` cut to ``limit`` characters, for error details (never the whole huge string)."""
    # Containers are summarised, not printed: a packet list may be megabytes, and a
    # deeply nested one would make repr() itself recurse too deep.
    if isinstance(value, dict):
        return f"{{…{len(value)} keys}}"
    if isinstance(value, list):
        return f"[…{len(value)} items]"
    if isinstance(value, str) and len(value) > limit:
        return repr(value[:limit]) + f"… ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def found(value: Any) -> str:
    """What a field held, for a message: its JSON type and a short repr."""
    return f"{json_type(value)} {short_repr(value)}"
