"""``ludolog bench tables --quick`` runs end to end against its own Redis: the list of a user's tables with 0, 10 and 40
finished ones (each call checked to list the 3 being played and count the finished), and the ratio stating its target
(the values are the bench's to judge, not this test's)."""

from __future__ import annotations

from bench.table import format_rows, meets_target
from bench.tables import run
from ludolog.app import create_app


def test_the_quick_tables_bench_times_the_list_with_few_and_many_finished_tables() -> None:
    rows = run(create_app, quick=True)
    assert [row["metric"] for row in rows[:3]] == [
        "GET /api/me/tables, 3 played, 0 finished (0 listed)", "GET /api/me/tables, 3 played, 10 finished (10 listed)",
        "GET /api/me/tables, 3 played, 40 finished (10 listed)"]
    assert all(row["value"] > 0 for row in rows)
    assert meets_target(rows[3]) is not None, "the ratio states its target"
    assert "40 finished" in format_rows(rows)
