"""Where the test suite's CPU goes: a pytest plugin that writes each test's CPU, its process tree's, to a file.

``LUDOLOG_SUITE_CPU=<folder> pytest -p bench.suite …`` writes one line per test (``nodeid``, CPU-seconds, wall seconds)
to ``<folder>/<worker>.tsv``; each xdist worker writes its own file, and the lines of the collection and of the
session's end are there too (``<collection>``, ``<session end>``). A test's CPU is that of the test process and every
process below it (Chromium and its renderers, servers, workers, subprocesses), live ones read from ``/proc`` and ended
ones as their parents reaped them, so it holds what a module- or session-scoped fixture set up during the test too.
``python -m bench.suite <folder>`` sums the lines by module, largest first.

A process that ends without a parent in the tree to reap it takes the CPU it was counted for out of the tree: Chromium's
browser processes when Playwright closes the browser (at the teardown of the last test to use it, since the browser is
a session fixture), whose whole CPU, counted test by test while they ran, would come off that one test. So a negative
line is summed apart, as ``<ended outside the tree>``: the tests' lines are what they spent.

CPU is what the machine will be asked to spend, the number issue 48's targets are in; wall time moves with the load.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
FOLDER_VARIABLE = "LUDOLOG_SUITE_CPU"
#: The row of the lines whose CPU came out negative (see the module's docstring).
ENDED_OUTSIDE = "<ended outside the tree>"


def _processes() -> dict[int, tuple[int, float]]:
    """Every process's (parent, CPU-seconds of itself and of the children it reaped), from ``/proc``."""
    found: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the name: state, ppid, …; utime, stime, cutime, cstime are fields 14–17 of stat(5) (11–14 here).
        found[int(entry)] = (int(fields[1]), sum(int(value) for value in fields[11:15]) / TICKS)
    return found


def tree_cpu(root: int) -> float:
    """CPU-seconds of process ``root`` and of everything below it, ended processes included once reaped."""
    processes = _processes()
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (parent, _) in processes.items():
        children[parent].append(pid)
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += processes.get(pid, (0, 0.0))[1]
        stack.extend(children.get(pid, ()))
    return total


class Recorder:
    """Writes a line per test, and one for what came before the first test and after the last."""

    def __init__(self, folder: Path) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        folder.mkdir(parents=True, exist_ok=True)
        self.out = (folder / f"{worker}-{os.getpid()}.tsv").open("a", encoding="utf-8")
        self.cpu, self.wall = 0.0, time.monotonic()

    def line(self, name: str) -> None:
        """Write ``name`` with the CPU and wall time since the last line."""
        cpu, wall = tree_cpu(os.getpid()), time.monotonic()
        self.out.write(f"{name}\t{cpu - self.cpu:.2f}\t{wall - self.wall:.2f}\n")
        self.out.flush()
        self.cpu, self.wall = cpu, wall

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        """The test's line, after its setup, call and teardown (the previous line ends where it starts)."""
        self.line("<between tests>")
        yield
        self.line(item.nodeid)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """The collection's line: the process's start, its imports and the collection."""
        self.line("<collection>")

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """The session's end: session fixtures torn down (Chromium, Redis)."""
        self.line("<session end>")
        self.out.close()


def pytest_configure(config: pytest.Config) -> None:
    """Record only when asked (:data:`FOLDER_VARIABLE`)."""
    folder = os.environ.get(FOLDER_VARIABLE)
    if folder:
        config.pluginmanager.register(Recorder(Path(folder)), "ludolog-suite-cpu")


def by_module(folder: Path) -> list[tuple[str, float, float, int]]:
    """(module, CPU-seconds, wall seconds, tests) summed over every file in ``folder``, largest CPU first."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for path in folder.glob("*.tsv"):
        for row in path.read_text(encoding="utf-8").splitlines():
            name, cpu, wall = row.split("\t")
            module = name.split("::", 1)[0] if float(cpu) >= 0 else ENDED_OUTSIDE
            sums[module][0] += float(cpu)
            sums[module][1] += float(wall)
            sums[module][2] += "::" in name
    return sorted(((module, cpu, wall, int(n)) for module, (cpu, wall, n) in sums.items()), key=lambda row: -row[1])


def main(argv: list[str]) -> None:
    """Print :func:`by_module` of the folder given."""
    rows = by_module(Path(argv[0]))
    total = sum(row[1] for row in rows if row[0] != ENDED_OUTSIDE)
    print(f"{'CPU-s':>8} {'wall s':>8} {'tests':>6}  module (total {total:.0f} CPU-s)")
    for module, cpu, wall, tests in rows:
        print(f"{cpu:8.1f} {wall:8.1f} {tests:6d}  {module}")


if __name__ == "__main__":
    main(sys.argv[1:])
