"""``ludolog bench``: run the benchmark suites and print their figures as one table."""

from __future__ import annotations

import operator
import platform
import re
from collections.abc import Callable
from typing import Any

Row = dict[str, Any]


def _suites() -> dict[str, Callable[[bool], list[Row]]]:
    from bench import engine as engine_bench
    from bench import listing as listing_bench
    from bench import restart as restart_bench
    from bench import store as store_bench

    suites: dict[str, Callable[[bool], list[Row]]] = {
        "store": lambda quick: store_bench.run(quick=quick),
        "engine": lambda quick: [{"suite": "engine", **r} for r in engine_bench.run(seconds=0.5 if quick else 3.0)],
        "restart": lambda quick: restart_bench.run(quick=quick),
        "list": lambda quick: listing_bench.run(quick=quick, sizes=_list_sizes()),
    }
    from bench import queue as queue_bench

    suites["queue"] = lambda quick: queue_bench.run(quick=quick)
    from bench import analysis as analysis_bench

    suites["analysis"] = lambda quick: analysis_bench.run(quick=quick)
    try:
        from bench import importer as import_bench
    except ImportError:
        pass
    else:
        suites["import"] = lambda quick: import_bench.run(quick=quick)
    return suites


def _list_sizes() -> tuple[int, ...]:
    """Store sizes of ``ludolog bench list`` (LUDOLOG_BENCH_LIST_SIZES, comma-separated; default 20,000)."""
    import os

    raw = os.environ.get("LUDOLOG_BENCH_LIST_SIZES", "20000")
    return tuple(int(part) for part in raw.split(",") if part.strip())


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


def run_suites(name: str, *, quick: bool = False) -> list[Row]:
    """Run one suite (or ``all``) and print its table."""
    suites = _suites()
    if name != "all" and name not in suites:
        raise SystemExit(f"bench: the {name!r} suite is not available yet (have: {', '.join(suites)})")
    # The analysis suite plays whole games with a searcher (tens of minutes): run it by name, not with "all".
    chosen = {k: v for k, v in suites.items() if k != "analysis"} if name == "all" else {name: suites[name]}
    print(f"ludolog bench {name}{' --quick' if quick else ''} on {platform.node()} "
          f"({platform.python_implementation()} {platform.python_version()}, {platform.machine()})")
    rows: list[Row] = []
    for suite_name, suite in chosen.items():
        print(f"running {suite_name} …", flush=True)
        rows += suite(quick)
    print(format_rows(rows))
    return rows
