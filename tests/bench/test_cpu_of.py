"""``python -m bench.cpu_of``, the reader behind the suite's CPU figures: a command that burns CPU is charged for it,
by its process tree and by the whole machine, and its exit status is passed on."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.helpers import ROOT

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.0: pass"


def _run(*command: str) -> tuple[int, dict[str, float]]:
    done = subprocess.run([sys.executable, "-m", "bench.cpu_of", *command], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("CPUOF "), done.stdout + done.stderr
    return done.returncode, {k: float(v.rstrip("s")) for k, v in re.findall(r"(\w+)=([\d.]+)s?", line)}


def test_a_second_of_cpu_is_counted_by_the_tree_and_the_machine() -> None:
    returncode, figures = _run(sys.executable, "-c", BURN)
    assert returncode == 0 and figures["rc"] == 0
    assert figures["tree_cpu"] >= 1 and figures["machine_busy"] >= 1
    assert figures["loop_before"] > 0 and figures["loop_after"] > 0


def test_the_commands_exit_status_is_passed_on() -> None:
    returncode, figures = _run(sys.executable, "-c", "raise SystemExit(3)")
    assert returncode == 3 and figures["rc"] == 3
