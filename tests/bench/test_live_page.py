"""``python -m bench.live_page --quick`` (what ``ludolog bench page --quick`` runs) end to end, in a process of its own as
a user runs it (its Playwright must not share this test process's, which the browser tests' fixture may hold): a real
Chromium follows a game that gunicorn serves from the bench's own Redis, and the table has the page's cost per move
(its value is the bench's to judge, not this test's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.live_page import CHROMIUM, QUICK_MOVES
from tests.helpers import PATIENCE_SECONDS, ROOT

pytestmark = [pytest.mark.timeout(300), pytest.mark.browser]


def _figure(table: str, metric: str) -> float:
    found = re.search(re.escape(metric) + r"\s+([\d.]+)\s+ms", table)
    assert found, f"no {metric!r} in:\n{table}"
    return float(found.group(1))


def test_the_quick_page_bench_measures_what_each_move_costs_the_browser() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    done = subprocess.run([sys.executable, "-m", "bench.live_page", "--quick"], cwd=ROOT, capture_output=True, text=True,
                          timeout=PATIENCE_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr
    renderer = _figure(done.stdout, "the page's renderer, CPU per move")
    assert 0 < renderer <= _figure(done.stdout, "Chromium in all, CPU per move")
    assert f"{QUICK_MOVES} moves" in done.stdout
