"""The suite's CPU by test (bench/suite.py): a test's line holds the CPU of the processes it started, and the lines of
every test process are summed by module, a negative line (processes that ended outside the tree) apart."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from bench.suite import ENDED_OUTSIDE, by_module, tree_cpu

BUSY = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def test_the_tree_holds_a_child_process_ended_and_reaped() -> None:
    before, children_before = tree_cpu(os.getpid()), _children_cpu()
    subprocess.run([sys.executable, "-c", BUSY], check=True)
    spent_by_child = _children_cpu() - children_before
    assert spent_by_child >= 0.3
    assert tree_cpu(os.getpid()) - before >= spent_by_child - 0.02  # (clock ticks of 10 ms, twice)


def test_the_lines_of_every_test_process_are_summed_by_module(tmp_path: Path) -> None:
    (tmp_path / "gw0-1.tsv").write_text("<collection>\t2.00\t1.00\ntests/a.py::test_x\t1.50\t3.00\n"
                                        "tests/b.py::test_y[1]\t0.25\t0.50\n")
    (tmp_path / "gw1-2.tsv").write_text("<collection>\t2.00\t1.00\ntests/b.py::test_y[2]\t4.00\t5.00\n"
                                        "tests/c.py::test_z\t-3.00\t1.00\n")
    assert by_module(tmp_path) == [("tests/b.py", 4.25, 5.5, 2), ("<collection>", 4.0, 2.0, 0),
                                   ("tests/a.py", 1.5, 3.0, 1), (ENDED_OUTSIDE, -3.0, 1.0, 1)]
