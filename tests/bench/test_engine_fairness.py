"""``ludolog bench engine-fairness --quick`` runs end to end against its own Redis and real workers, and its table has
every figure, the p95 under load stating its target (the values are the bench's to judge, not this test's)."""

from __future__ import annotations

import pytest

from bench.engine_fairness import run
from bench.table import format_rows, meets_target

pytestmark = pytest.mark.timeout(300)


def test_the_quick_engine_fairness_bench_times_the_easy_seat_solo_and_under_load() -> None:
    rows = run(quick=True)
    by_metric = {row["metric"]: row for row in rows}
    for name in ("solo p50", "solo p95", "under load p50", "under load p95"):
        assert by_metric[f"easy seat's first move, {name}"]["value"] > 0
    assert meets_target(by_metric["easy seat's first move, under load p95"]) is not None, "the p95 states its target"
    assert by_metric["moves the load played while the easy seats were timed"]["value"] >= 0
    assert "under load p95" in format_rows(rows)
