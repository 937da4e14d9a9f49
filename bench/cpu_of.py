"""``python -m bench.cpu_of <command…>``: run a command and say what CPU it cost, with the machine's loop time beside it.

How the test suite's figures in docs/PERFORMANCE.md are taken (issue 48): the suite's CPU is user + system time of the
**whole machine**, read from ``/proc/stat`` before and after (Chromium's processes and the servers the tests start
leave the command's process tree, so what the tree reaps, ``getrusage(RUSAGE_CHILDREN)``, misses part of it; both are
printed), and the fixed 10-million-step loop is timed before and after, so the figure can be given in loop-times
(CPU-seconds over the loop's seconds). Whole-machine CPU counts anything else running, niced or not: take it on a
quiet machine. The last line, for a log to keep:

    CPUOF rc=0 wall=576s tree_cpu=805s machine_busy=993s idle=143s loop_before=0.70 loop_after=0.68
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

#: The fields of ``/proc/stat``'s first line (after "cpu") that count as busy: user, nice, system, irq, softirq.
BUSY_FIELDS = (0, 1, 2, 5, 6)
#: The idle field of that line.
IDLE_FIELD = 3


def machine_seconds() -> tuple[float, float]:
    """(busy, idle) CPU-seconds of the whole machine since boot, every core summed."""
    with open("/proc/stat") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    hertz = os.sysconf("SC_CLK_TCK")
    return sum(ticks[i] for i in BUSY_FIELDS) / hertz, ticks[IDLE_FIELD] / hertz


#: The fixed loop, as docs/PERFORMANCE.md and issue 48 state it (``python3 -c '…'``): run at a module's top level, where
#: ``x`` and ``i`` are globals. The same loop inside a function (fast locals) takes some 2.4 times less, and a
#: figure in loop-times must use the loop its target was set with.
LOOP_SOURCE = "x = 0\nfor i in range(10_000_000):\n    x += i\n"


def loop_seconds() -> float:
    """The CPU time of the fixed loop ``x = 0; for i in range(10_000_000): x += i`` at a module's top level (the
    machine's speed today): the benches that record it beside their figures take it from here."""
    loop = compile(LOOP_SOURCE, "<the fixed loop>", "exec")
    started = time.process_time()
    exec(loop, {})  # a fresh module namespace: the loop's names are globals, as in `python3 -c`
    return time.process_time() - started


def measure(command: list[str]) -> tuple[int, str]:
    """Run ``command``: its exit status and its CPUOF line."""
    loop_before = loop_seconds()
    busy_before, idle_before = machine_seconds()
    started = time.monotonic()
    returncode = subprocess.call(command)
    wall = time.monotonic() - started
    busy_after, idle_after = machine_seconds()
    loop_after = loop_seconds()
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return returncode, (f"CPUOF rc={returncode} wall={wall:.0f}s tree_cpu={reaped.ru_utime + reaped.ru_stime:.0f}s "
            f"machine_busy={busy_after - busy_before:.0f}s idle={idle_after - idle_before:.0f}s "
            f"loop_before={loop_before:.2f} loop_after={loop_after:.2f}")


def main() -> None:
    """Run the command given on the command line; print its CPUOF line; exit with its status."""
    if len(sys.argv) < 2:
        sys.exit("usage: python -m bench.cpu_of <command> [arguments…]")
    returncode, line = measure(sys.argv[1:])
    print(line, flush=True)
    sys.exit(returncode)


if __name__ == "__main__":
    main()
