"""The benchmark table: rows of figures, whether each meets the target its note states, and the printed table.

Every suite's ``main`` and ``ludolog bench`` print through :func:`format_rows`; it lives apart from the
runner so that a suite can print its own table without importing the runner that imports every suite.
"""

from __future__ import annotations

import operator
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

#: One figure of a benchmark: ``suite``, ``metric``, ``value``, ``unit``, ``note`` and, where it applies, ``game``.
Row = dict[str, Any]


def percentiles(samples: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of ``samples`` (the value 99 % of them do not exceed), in their unit."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def timed(call: Callable[[], object], times: int) -> tuple[float, float]:
    """``call`` made ``times`` times, one after another: the median and 99th percentile of its wall time, in ms."""
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        spent.append(1000 * (time.perf_counter() - started))
    return percentiles(spent)


#: A target stated in a row's note: ``target <= 5 ms``, ``target >= 0.8``, ``target < 150 ms``.
TARGET = re.compile(r"target\s*(<=|>=|<|>)\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*([A-Za-z/%]+)?")
COMPARISONS: dict[str, Callable[[float, float], bool]] = {"<=": operator.le, ">=": operator.ge, "<": operator.lt,
                                                           ">": operator.gt}


def meets_target(row: Row) -> bool | None:
    """Whether the row's figure meets the target its note states; None when it states none (or in another unit)."""
    found = TARGET.search(str(row.get("note", "")))
    if found is None:
        return None
    comparison, bound, unit = found.groups()
    if unit and unit != row.get("unit"):
        return None
    return COMPARISONS[comparison](float(row["value"]), float(bound.replace(",", "")))


def _mark(row: Row) -> str:
    return {True: "met", False: "MISSED", None: ""}[meets_target(row)]


def format_rows(rows: list[Row]) -> str:
    """A plain-text table of benchmark rows; a figure with a target says whether it met it (``MISSED`` when not),
    and a last line counts the misses."""
    lines = [f"{'suite':<7} {'metric':<58} {'value':>12}  {'unit':<12} {'target':<7}note"]
    for row in rows:
        label = row.get("metric", "")
        if row.get("game"):
            label = f"{row['game']}: {label}"
        value = row["value"]
        shown = f"{value:,.2f}" if isinstance(value, float) and value < 100 else f"{value:,.0f}"
        lines.append(f"{row.get('suite', ''):<7} {label:<58} {shown:>12}  {row.get('unit', ''):<12} {_mark(row):<7}"
                     f"{row.get('note', '')}")
    judged = [row for row in rows if meets_target(row) is not None]
    missed = [row for row in judged if meets_target(row) is False]
    if missed:
        lines.append(f"{len(missed)} of {len(judged)} figures with a target MISSED it: "
                     + "; ".join(str(row.get("metric", "")) for row in missed))
    elif judged:
        lines.append(f"every figure with a target met it ({len(judged)})")
    return "\n".join(lines)
