"""``ludolog bench live --quick`` runs end to end against its own Redis and gunicorn: every stream gets every move,
and the table has its figures (their values are the bench's to judge, not this test's)."""

from __future__ import annotations

from bench.live import QUICK_SIZES, run
from bench.table import format_rows, meets_target


def test_the_quick_live_bench_delivers_every_move_to_every_stream() -> None:
    rows = run(quick=True)
    by_metric = {row["metric"]: row for row in rows}
    for count in QUICK_SIZES:
        label = f"{count:,} streams"
        assert by_metric[f"{label}: events lost (not received within 10 s)"]["value"] == 0
        assert meets_target(by_metric[f"{label}: 201 to event on every stream p99"]) is not None, "the p99 states its target"
        assert by_metric[f"{label}: branch page meanwhile p50"]["value"] > 0
        assert by_metric[f"{label}: web processes' resident memory"]["value"] > 0
    table = format_rows(rows)
    assert "201 to event on every stream p99" in table and ("met" in table or "MISSED" in table)
