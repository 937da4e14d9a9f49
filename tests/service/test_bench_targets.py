"""`ludolog bench` says which figures miss their targets (issue 29): each row whose note states a target is marked
met or MISSED, and a last line counts the misses."""

from __future__ import annotations

from bench.table import format_rows, meets_target


def test_rows_are_judged_against_the_target_in_their_note() -> None:
    assert meets_target({"value": 0.9, "unit": "ratio", "note": "target >= 0.8"}) is True
    assert meets_target({"value": 7.5, "unit": "ms", "note": "p99; target <= 5 ms"}) is False
    assert meets_target({"value": 150.0, "unit": "ms", "note": "600 events; median of 15; target < 150 ms"}) is False
    assert meets_target({"value": 30.0, "unit": "bytes", "note": "version 1: 80; target <= 35"}) is True
    assert meets_target({"value": 3.0, "unit": "KB", "note": "no target here"}) is None
    assert meets_target({"value": 3.0, "unit": "bytes", "note": "target <= 25 KB"}) is None  # another unit: not judged


def test_the_table_marks_each_judged_row_and_counts_the_misses() -> None:
    rows = [{"suite": "store", "metric": "store / raw", "value": 0.5, "unit": "ratio", "note": "target >= 0.8"},
            {"suite": "store", "metric": "state p99", "value": 3.0, "unit": "ms", "note": "target <= 5 ms"},
            {"suite": "engine", "metric": "moves/s", "value": 1000.0, "unit": "moves/s", "note": "compiled"}]
    lines = format_rows(rows).splitlines()
    assert "MISSED" in lines[1] and " met " in lines[2] and "MISSED" not in lines[3] and " met " not in lines[3]
    assert lines[-1] == "1 of 2 figures with a target MISSED it: store / raw"
    assert format_rows(rows[1:]).splitlines()[-1] == "every figure with a target met it (1)"
