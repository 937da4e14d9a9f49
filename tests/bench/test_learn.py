"""``ludolog bench learn --quick`` runs end to end against its own Redis: the explorer read with 200 and 2,000 games
counted, a puzzle served through the app (each answering 200, checked inside the bench), and the generator's CPU on top
of an analysis's, each row stating its target (the values are the bench's to judge, not this test's)."""

from __future__ import annotations

import pytest

from bench.learn import run
from bench.table import format_rows, meets_target
from ludolog.app import create_app

#: The slow tier: a bench's smoke run (some 15 CPU-s), not behaviour every change needs checked.
pytestmark = pytest.mark.slow


def test_the_quick_learn_bench_reads_the_explorer_serves_puzzles_and_weighs_the_generator() -> None:
    rows = run(create_app, quick=True)
    assert [row["metric"] for row in rows] == [
        "explorer query p99, 200 games", "explorer query p99, 2,000 games", "serving a puzzle p99",
        "puzzle generation over the analysis"]
    assert all(row["value"] > 0 for row in rows[:3])
    assert all(meets_target(row) is not None for row in rows), "each row states its target"
    assert "on 4 decisions at 50 rollouts" in format_rows(rows)
