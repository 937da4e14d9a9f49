"""``ludolog bench``: run the benchmark suites and print their figures as one table."""

from __future__ import annotations

import platform
from collections.abc import Callable
from typing import Any

from bench.table import Row, format_rows


def _suites(create_app: Callable[..., Any] | None) -> dict[str, Callable[[bool], list[Row]]]:
    from bench import engine as engine_bench
    from bench import engine_fairness as fairness_bench
    from bench import engine_think as think_bench
    from bench import explorer as explorer_bench
    from bench import listing as listing_bench
    from bench import live as live_bench
    from bench import live_page as page_bench
    from bench import restart as restart_bench
    from bench import store as store_bench

    suites: dict[str, Callable[[bool], list[Row]]] = {
        "store": lambda quick: store_bench.run(quick=quick),
        "engine": lambda quick: [{"suite": "engine", **r} for r in engine_bench.run(seconds=0.5 if quick else 3.0)],
        "restart": lambda quick: restart_bench.run(quick=quick),
        "list": lambda quick: listing_bench.run(quick=quick, sizes=_list_sizes()),
        "live": lambda quick: live_bench.run(quick=quick),
        "page": lambda quick: page_bench.run(quick=quick),
        "engine-fairness": lambda quick: fairness_bench.run(quick=quick),
        "engine-think": lambda quick: think_bench.run(quick=quick),
        "explore": lambda quick: explorer_bench.run(quick=quick),
    }
    if create_app is not None:  # the queue suite drives the app in process: only the composition root can make it
        from bench import queue as queue_bench

        suites["queue"] = lambda quick: queue_bench.run(create_app, quick=quick)
        from bench import tables as tables_bench

        suites["tables"] = lambda quick: tables_bench.run(create_app, quick=quick)
        from bench import learn as learn_bench

        suites["learn"] = lambda quick: learn_bench.run(create_app, quick=quick)
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


def run_suites(name: str, *, quick: bool = False, create_app: Callable[..., Any] | None = None) -> list[Row]:
    """Run one suite (or ``all``) and print its table; ``create_app`` is the app factory, which the composition root
    hands down (the queue suite needs it)."""
    suites = _suites(create_app)
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
