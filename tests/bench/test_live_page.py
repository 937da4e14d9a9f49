"""``ludolog bench page --quick`` runs end to end: a real Chromium follows a game that gunicorn serves from its own Redis,
and the table has the page's cost per move (its value is the bench's to judge, not this test's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.live_page import CHROMIUM, QUICK_MOVES, run
from bench.table import format_rows

pytestmark = [pytest.mark.timeout(300), pytest.mark.browser]


def test_the_quick_page_bench_measures_what_each_move_costs_the_browser() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    rows = run(quick=True)
    by_metric = {row["metric"]: row for row in rows}
    renderer = by_metric["the page's renderer, CPU per move"]
    assert 0 < renderer["value"] <= by_metric["Chromium in all, CPU per move"]["value"]
    assert f"{QUICK_MOVES} moves" in renderer["note"]
    assert "CPU per move" in format_rows(rows)
