"""A Puerto Rico game analysed end to end (``python -m bench.analysis --only end-to-end``): two real workers.

Issue 30 set a speed target: the ~450-event Puerto Rico demo game (``demo-puerto-rico-2``) analysed at the default
budget (:data:`engine.analysis.DEFAULT_ROLLOUTS`) in at most 60 s with two workers on a 2-core machine. The machine's
speed moves from day to day (its time for a fixed loop, 0.7 to 1.6 s), so the target is judged as the workers' CPU in
loops (:data:`TARGET_LOOPS`, issue 49 item 7); the wall time is reported beside it. This suite
measures it the way a user meets it, with real processes and nothing in between: its own embedded Redis in a
temporary directory on a free port, ``ludolog demo`` to load the demo games, two ``ludolog worker`` processes, and,
once both workers are listening and the demo's folds are done, ``ludolog analyze demo-puerto-rico-2 --rollouts N``,
timed from its start until it returns, which it does when every decision has its result (it looks every
0.5 s, so the wall time is that coarse; its own start, a second or so, is part of what a user waits for too).

Reported: the wall time; the CPU time of each worker with its work horses and scheduler (``os.wait4`` when the
worker is reaped), and their sum in loops, the figure with the target; the CPU of every process the suite started, Redis and the two
commands included (``getrusage(RUSAGE_CHILDREN)`` after they are all reaped); the decisions analysed, as the
analysis report counts them; the moves marked ``??``, ``?`` and ``?!`` as ``ludolog analyze`` printed them; the
machine's 1-minute load average before the suite started anything and when the analysis ended (the workers' own
two included), so that a reader tells a quiet run from a loaded one; and how many of the processes it started or
saw (work horses included) were still running after it stopped them (0, or the run leaked and killed them).

Everything is stopped and the temporary directory removed at the end, also when the run fails; a worker that dies
during the analysis ends the run with its exit code and the end of its log, and every wait has a deadline.
``--quick`` analyses at 4 rollouts: a smoke run of the machinery in seconds, never figures for the record.
``ludolog bench analysis`` runs it with the suite's other tables.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from rq import Worker

from bench.cpu_of import loop_seconds
from bench.processes import (
    LUDOLOG,
    descendants,
    exit_code,
    is_running,
    processes_mentioning,
    service_env,
    start_worker,
    stop_worker,
    wait_for,
)
from bench.table import Row
from engine import is_compiled
from engine.analysis import DEFAULT_ROLLOUTS
from service.games.analysis import report
from service.games.demo import demo_id
from service.jobs import job_queue
from service.runtime.config import ROOT, Config
from service.runtime.redis_server import EmbeddedRedis
from service.store.context import Stores

GAME = demo_id("puerto_rico", 2)
BRANCH = "main"
WORKERS = 2
QUICK_ROLLOUTS = 4
#: Issue 30's 60 s held on the day it was set; issue 49 item 7 asks the same back: 60/102 = 0.59 of the CPU of the
#: head it measured (e3a9c40), whose two workers took 117 and 123 CPU-s side by side with a loop of 0.71 s on
#: 2026-11-29, about 169 loops. The target is therefore one of CPU in loops (the machine's time for the fixed loop of
#: :func:`bench.cpu_of.loop_seconds`), which a day's machine speed moves far less than it moves the wall time.
TARGET_LOOPS = 100
QUEUE = "bench-e2e"
SUITE = "bench end-to-end"
#: Deadlines: loading the demo; both workers listening and the demo's folds done; the analysis itself.
DEMO_TIMEOUT_S, READY_TIMEOUT_S, ANALYSIS_TIMEOUT_S, QUICK_ANALYSIS_TIMEOUT_S = 180, 120, 900, 300
#: The last line ``ludolog analyze`` prints.
SUMMARY = re.compile(r"^(\d+) decisions analysed; marks: \?\? (\d+), \? (\d+), \?! (\d+)$", re.MULTILINE)
MARKS = ("??", "?", "?!")


@dataclass(frozen=True)
class Analysis:
    """One analysis as measured: wall seconds, each worker's CPU seconds, the report's counts and the marks printed."""

    wall: float
    worker_cpu: tuple[float, ...]
    done: int
    total: int
    events: int
    marks: dict[str, int]
    load_end: float


@dataclass
class Run:
    """One run: its temporary directory, the processes it started or saw, what it measured and its rows."""

    scratch: Path
    processes: set[int] = field(default_factory=set)
    analysis: Analysis | None = None
    rows: list[Row] = field(default_factory=list)


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "analysis", "game": "puerto_rico", "metric": f"end to end: {metric}", "value": value, "unit": unit,
            "note": note}


def _cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def _ludolog(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A ``ludolog`` command in the background, its output (both streams) to ``log``."""
    with log.open("wb") as output:
        return subprocess.Popen([*LUDOLOG, *args], cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)


def _tail(log: Path, lines: int = 15) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _finish(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait for a command; stop it (SIGTERM, then SIGKILL) when it outlives ``timeout``."""
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _load_demo(env: dict[str, str], scratch: Path, run: Run) -> None:
    log = scratch / "demo.log"
    demo = _ludolog(["demo"], env, log)
    run.processes.add(demo.pid)
    _finish(demo, DEMO_TIMEOUT_S)
    if demo.returncode != 0:
        raise RuntimeError(f"{SUITE}: `ludolog demo` failed (exit {demo.returncode}):\n{_tail(log)}")


def _check_workers(workers: list[subprocess.Popen[bytes]], logs: list[Path], run: Run) -> None:
    """Note every process under the workers; raise, with its log's end, when a worker has died."""
    for number, (worker, log) in enumerate(zip(workers, logs, strict=True), 1):
        code = exit_code(worker)
        if code is not None:
            raise RuntimeError(f"{SUITE}: worker {number} (pid {worker.pid}) died during the run (exit code {code}); "
                               f"its log ends:\n{_tail(log)}")
        run.processes |= descendants(worker.pid)


def _wait_until_ready(stores: Stores, workers: list[subprocess.Popen[bytes]], logs: list[Path], run: Run) -> None:
    """Until both workers listen and the demo's folds are done, so that the analysis starts on idle workers."""
    queue = job_queue(stores)

    def ready() -> bool:
        _check_workers(workers, logs, run)
        return Worker.count(queue=queue) >= len(workers) and queue.count + queue.started_job_registry.count == 0

    wait_for(ready, "the workers to listen and the demo's folds", READY_TIMEOUT_S, suite=SUITE)


def _analyse(env: dict[str, str], scratch: Path, rollouts: int, timeout: float,
             workers: list[subprocess.Popen[bytes]], logs: list[Path], run: Run) -> tuple[float, dict[str, int], float]:
    """``ludolog analyze`` until it returns: (wall seconds, the marks it printed, the load average at its end)."""
    log = scratch / "analyze.log"
    started = time.perf_counter()
    analyze = _ludolog(["analyze", GAME, "--branch", BRANCH, "--rollouts", str(rollouts), "--timeout", str(timeout)],
                       env, log)
    run.processes.add(analyze.pid)
    try:
        while analyze.poll() is None:
            _check_workers(workers, logs, run)
            if time.perf_counter() - started > timeout + 30:
                raise RuntimeError(f"{SUITE}: `ludolog analyze` did not return within {timeout + 30:g} s:\n{_tail(log)}")
            time.sleep(0.05)
        wall = time.perf_counter() - started
        load_end = os.getloadavg()[0]
    finally:
        _finish(analyze, 0)
    found = SUMMARY.search(log.read_text(errors="replace"))
    if analyze.returncode != 0 or found is None:
        raise RuntimeError(f"{SUITE}: `ludolog analyze` failed (exit {analyze.returncode}):\n{_tail(log)}")
    return wall, dict(zip(MARKS, (int(n) for n in found.groups()[1:]), strict=True)), load_end


def _with_workers(url: str, scratch: Path, rollouts: int, timeout: float, run: Run) -> Analysis:
    """The demo loaded, two workers started, the game analysed; the workers stopped and reaped, also on failure."""
    env = service_env(url, QUEUE, scratch)
    stores = Stores(Config(redis_url=url, queue_redis_url=None, queue_name=QUEUE, data_dir=scratch))
    _load_demo(env, scratch, run)
    logs = [scratch / f"worker-{number}.log" for number in range(1, WORKERS + 1)]
    workers: list[subprocess.Popen[bytes]] = []
    usages: list[resource.struct_rusage | None]
    try:
        for log in logs:
            workers.append(start_worker(url, QUEUE, data_dir=scratch, log=log))
            run.processes.add(workers[-1].pid)
        _wait_until_ready(stores, workers, logs, run)
        wall, marks, load_end = _analyse(env, scratch, rollouts, timeout, workers, logs, run)
        _check_workers(workers, logs, run)
    finally:
        usages = [stop_worker(worker) for worker in workers]
    state = report(stores.games, stores.redis, GAME, BRANCH, rollouts, "full")
    return Analysis(wall=wall, worker_cpu=tuple(_cpu(u) if u else 0.0 for u in usages), done=state["done"],
                    total=state["total"], events=stores.games.head(GAME, BRANCH), marks=marks, load_end=load_end)


def _leftovers(run: Run) -> int:
    """How many of the run's processes still run, those that lost their parent included (found by the temporary
    directory in their command line or environment); they are killed (a leak the row then shows)."""
    run.processes |= processes_mentioning(str(run.scratch))
    left = [pid for pid in run.processes if is_running(pid)]
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return len(left)


def measure(*, rollouts: int, timeout: float, scratch_parent: Path | None = None) -> Run:
    """One run at ``rollouts`` per decision: its rows, processes and (removed) temporary directory."""
    load_start = os.getloadavg()[0]
    loop = loop_seconds()
    before = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
    with tempfile.TemporaryDirectory(prefix="ludolog-e2e-", dir=scratch_parent) as folder:
        run = Run(scratch=Path(folder))
        server = EmbeddedRedis(run.scratch / "redis")
        try:
            server.start()
            if server.process is not None:
                run.processes.add(server.process.pid)
            analysis = _with_workers(server.url, run.scratch, rollouts, timeout, run)
        finally:
            server.stop()
            left = _leftovers(run)
    whole = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - before
    run.analysis = analysis
    run.rows = rows_of(analysis, rollouts, whole=whole, load_start=load_start, loop=loop, left=left,
                       seen=len(run.processes))
    return run


def rows_of(analysis: Analysis, rollouts: int, *, whole: float, load_start: float, loop: float, left: int,
            seen: int) -> list[Row]:
    """The table's rows for ``analysis`` at ``rollouts``: ``whole`` CPU seconds of every child, the load average
    before the run, the machine's time for the fixed loop (``loop`` seconds, taken before the run), and ``left`` of the
    ``seen`` processes still running after the stop."""
    build = "compiled" if is_compiled() else "pure"
    work = f"{analysis.total} decisions x {rollouts} rollouts, {build} engine"
    default = rollouts == DEFAULT_ROLLOUTS
    if default:
        verdict = f"{work}, load {load_start:.1f} before, {analysis.load_end:.1f} at the end"
    else:
        verdict = f"{work}: not the default budget ({DEFAULT_ROLLOUTS}), a smoke run, not a figure"
    per_worker = " + ".join(f"{cpu:.1f}" for cpu in analysis.worker_cpu)
    cpu = sum(analysis.worker_cpu)
    loops_note = f"the workers' CPU over the loop's {loop:.2f} s" + (
        f"; target <= {TARGET_LOOPS} loops (0.59 of the head issue 49 measured)" if default else "")
    return [
        _row(f"{analysis.events}-event game, {WORKERS} workers (wall)", analysis.wall, "s", verdict),
        _row("CPU of the workers", cpu, "s", f"{per_worker} s, with their work horses (wait4), from start to stop"),
        _row("CPU of the workers in loops", cpu / loop, "loops", loops_note),
        _row("CPU of every process started", whole, "s",
             "Redis, `ludolog demo`, the workers, `ludolog analyze` (getrusage of the children)"),
        _row("decisions analysed", analysis.done, "decisions", f"of {analysis.total} in {GAME}"),
        *(_row(f"moves marked {mark}", count, "moves", "as `ludolog analyze` printed them")
          for mark, count in analysis.marks.items()),
        _row("load average (1 min) before the run", load_start, "", "other work on the machine"),
        _row("load average (1 min) at the end", analysis.load_end, "", f"the {WORKERS} workers' own included"),
        _row("processes still running after the stop", left, "processes", f"of {seen} started or seen; killed"),
    ]


def run(*, quick: bool = False, scratch_parent: Path | None = None) -> list[Row]:
    """The suite's rows: the default budget, or ``quick``'s few rollouts (a smoke run)."""
    rollouts, timeout = (QUICK_ROLLOUTS, QUICK_ANALYSIS_TIMEOUT_S) if quick else (DEFAULT_ROLLOUTS, ANALYSIS_TIMEOUT_S)
    return measure(rollouts=rollouts, timeout=timeout, scratch_parent=scratch_parent).rows
