"""``ludolog bench live --storm --quick`` runs end to end against its own Redis and gunicorn: clients beyond the
address's stream limit are refused with 429, no web process restarts, and the table states its targets (the values of
the timings are the bench's to judge, not this test's)."""

from __future__ import annotations

import pytest

from bench.storm import QUICK_LIMIT, QUICK_SIZES, run
from bench.table import format_rows, meets_target

pytestmark = pytest.mark.timeout(300)


def test_the_quick_storm_refuses_beyond_the_limit_and_restarts_nothing() -> None:
    rows = run(quick=True)
    by_metric = {row["metric"].split(": ", 1)[-1]: row for row in rows}
    assert by_metric["worker restarts"]["value"] == 0
    assert by_metric["streams opened"]["value"] >= QUICK_LIMIT
    assert by_metric["streams refused with 429"]["value"] > 0, "the clients beyond the limit were refused"
    assert meets_target(by_metric["/healthz p99"]) is not None, "the p99 states its target"
    assert by_metric["/healthz p50"]["value"] > 0
    table = format_rows(rows)
    assert f"{QUICK_SIZES[0]:,} clients" in table and ("met" in table or "MISSED" in table)
