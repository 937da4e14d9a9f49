"""Reading JSON that strangers send: one parser, with bounds, whose only failure is :class:`JsonTextError`.

Python's ``json.loads`` accepts more than JSON and fails in more ways than
``JSONDecodeError``: it reads ``NaN`` and ``Infinity``, builds integers of any length
(and raises ``ValueError`` past 4,300 digits), turns ``1e400`` into infinity, hits
``RecursionError`` on deeply nested arrays, and decodes ``"\\ud800"`` into a string that
cannot be encoded again. Each of those became a 500 somewhere, or a
number Redis or the rules cannot hold. :func:`parse_json` refuses them all with one
exception that says what and where, so the HTTP edge answers 400.
"""

from __future__ import annotations

import json
import math
from typing import Any

#: Deepest nesting of arrays and objects accepted (a request or a log never needs more than a few levels).
MAX_DEPTH = 64
#: Largest integer magnitude accepted: what a signed 64-bit field (and Redis) can hold.
MAX_INT = 2**63 - 1


class JsonTextError(ValueError):
    """The text is not JSON we accept; ``details`` says where or why, for the error body."""

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


def _int(literal: str) -> int:
    digits = len(literal.lstrip("-"))
    if digits > len(str(MAX_INT)) or abs(value := int(literal)) > MAX_INT:
        raise JsonTextError(f"integer of {digits} digits is out of range: at most {MAX_INT} in magnitude",
                            reason="integer out of range", digits=digits)
    return value


def _float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise JsonTextError(f"number {literal[:40]!r} is out of range", reason="number out of range")
    return value


def _constant(name: str) -> Any:
    raise JsonTextError(f"{name!r} is not a JSON value", reason="not JSON", token=name)


def nesting_depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_json(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``text`` as JSON, refusing what JSON does not allow and what we cannot hold; raises JsonTextError."""
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"{exc.msg} at line {exc.lineno} column {exc.colno} (char {exc.pos})",
                            line=exc.lineno, column=exc.colno, position=exc.pos, reason=exc.msg) from None
    except JsonTextError:
        raise
    except RecursionError:
        raise JsonTextError(f"nested too deeply: at most {max_depth} levels of arrays and objects",
                            reason="nesting", max_depth=max_depth) from None
    except ValueError as exc:  # a float literal float() refuses; any other parse-time refusal of json itself
        raise JsonTextError(f"unreadable JSON: {exc}", reason=str(exc)) from None
    if nesting_depth(value) > max_depth:
        raise JsonTextError(f"nested too deeply: at most {max_depth} levels of arrays and objects",
                            reason="nesting", max_depth=max_depth)
    _refuse_lone_surrogates(value)
    return value


def _refuse_lone_surrogates(value: Any) -> None:
    """JSON's ``\\ud800`` escapes can spell half a character, which no UTF-8 store can hold."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise JsonTextError(f"a string holds a lone UTF-16 surrogate ({exc.object[exc.start]!r}): not text",
                            reason="lone surrogate") from None
