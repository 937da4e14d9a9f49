"""Live streams in a reconnect storm (``ludolog bench live --storm``): can clients that keep reconnecting take the
site down? (issue 45: 3,000 of them made both web processes recycle together, /healthz p99 12 s, 14 of 30 probes
failed.)

N clients from one address (127.0.0.1) each open ``GET …/branches/main/stream`` and read it until it ends or is
refused, then open it again 2 s later, for T seconds: browser-like, except that they ignore the stream's retry hint
and a refusal's Retry-After (a hostile client's worst). The clients run in a child process of their own (asyncio: one
process holds thousands of connections), so that the probes, in this process, are not slowed by them: /healthz every
0.25 s and the game's page every 0.5 s, each on a new connection with a 10 s timeout. A third thread watches the
gunicorn master's worker processes: a pid that was not there at the start is a restart.

The table per N: /healthz p50 and p99, the page's p99, failed probes (not 200, or no answer within 10 s), worker
restarts, streams opened and refused with 429 (and anything else the clients met), and the CPU time the web processes
and the clients used (on a shared machine, what was left for them shows there). It starts its own embedded Redis
and gunicorn of deploy/ (2 gevent workers, the stream limit per address as deployed), never a real database.
``--quick``: 300 clients for 8 s with a limit of 50 streams per address (so that refusals happen): a smoke run.
"""

from __future__ import annotations

import asyncio
import http.client
import multiprocessing
import os
import random
import resource
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.cpu_of import loop_seconds
from bench.processes import Gunicorn, children, served
from bench.table import Row

SIZES = (3000, 4500)
SECONDS = 120.0
QUICK_SIZES = (300,)
QUICK_SECONDS = 8.0
#: The stream limit per address of the quick run's server (the full run keeps the deployed default).
QUICK_LIMIT = 50
#: A client opens its stream again this long after it ended or was refused.
RECONNECT_S = 2.0
HEALTHZ_EVERY_S, PAGE_EVERY_S = 0.25, 0.5
#: The clients all arrive within the first RECONNECT_S; the figures "after the first ARRIVAL_S" (half the run at most)
#: leave that rush out.
ARRIVAL_S = 10.0
PROBE_TIMEOUT_S = 10.0
HEALTHZ_P99_TARGET_MS, PAGE_P99_TARGET_MS = 250, 1000


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "live", "metric": metric, "value": value, "unit": unit, "note": note}


def raise_fd_limit() -> int:
    """Let this process (and the servers it starts) hold as many connections as the hard limit allows."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# --- the clients (a child process) -------------------------------------------------------------------------------


async def _one_stream(port: int, request: bytes, until: float, seen: Counter[str]) -> None:
    """Open the stream once and read it until it ends (or the storm does); its status counted in ``seen``."""
    loop = asyncio.get_running_loop()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), PROBE_TIMEOUT_S)
    except (TimeoutError, OSError) as exc:
        seen[f"no connection ({type(exc).__name__})"] += 1
        return
    try:
        writer.write(request)
        status_line = await asyncio.wait_for(reader.readline(), max(0.1, until - loop.time()) + PROBE_TIMEOUT_S)
        parts = status_line.split(b" ", 2)
        seen[parts[1].decode(errors="replace") if len(parts) > 1 else "no answer"] += 1
        if len(parts) > 1 and parts[1] == b"200":
            while loop.time() < until and await asyncio.wait_for(reader.read(65536), until - loop.time()):
                pass
    except (TimeoutError, OSError):
        pass  # the storm ended while the stream was open, or the server closed it: the client reconnects as planned
    finally:
        writer.close()


async def _client(port: int, request: bytes, until: float, seen: Counter[str]) -> None:
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.uniform(0, RECONNECT_S))  # noqa: S311 - arrivals spread over the first period
    while loop.time() < until:
        await _one_stream(port, request, until, seen)
        await asyncio.sleep(RECONNECT_S)


async def _storm(port: int, path: str, clients: int, seconds: float) -> Counter[str]:
    seen: Counter[str] = Counter()
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n".encode()
    until = asyncio.get_running_loop().time() + seconds
    await asyncio.gather(*(_client(port, request, until, seen) for _ in range(clients)))
    return seen


def _storm_process(port: int, path: str, clients: int, seconds: float, results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    raise_fd_limit()
    seen = dict(asyncio.run(_storm(port, path, clients, seconds)))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    results.put((seen, usage.ru_utime + usage.ru_stime))


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes ``pids`` have used so far (those still running)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


# --- the probes and the watcher (this process) --------------------------------------------------------------------


@dataclass
class Probe:
    """GETs ``path`` every ``every`` seconds on a new connection until stopped: each latency, and the failures."""

    port: int
    path: str
    every: float
    samples: list[float] = field(default_factory=list)
    #: When each probe started, in seconds from the probe's start (the storm's start, give or take a few ms).
    times: list[float] = field(default_factory=list)
    failures: Counter[str] = field(default_factory=Counter)
    stopped: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        """Probe until stopped (a thread's target)."""
        began = time.perf_counter()
        while not self.stopped.is_set():
            started = time.perf_counter()
            self.times.append(started - began)
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PROBE_TIMEOUT_S)
                conn.request("GET", self.path)
                response = conn.getresponse()
                response.read()
                conn.close()
                if response.status != 200:
                    self.failures[str(response.status)] += 1
            except (OSError, http.client.HTTPException) as exc:
                self.failures[type(exc).__name__] += 1
            elapsed = time.perf_counter() - started
            self.samples.append(elapsed * 1000)
            self.stopped.wait(max(0.0, self.every - elapsed))

    def percentile(self, share: float, after: float = 0.0) -> float:
        """The latency below which ``share`` of the probes (those started ``after`` seconds or later) answered, in ms."""
        ordered = sorted(ms for ms, at in zip(self.samples, self.times, strict=True) if at >= after) or [0.0]
        return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


@dataclass
class Workers:
    """Watches gunicorn's worker processes: every pid seen."""

    web: Gunicorn
    seen: set[int] = field(default_factory=set)
    stopped: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        """Note the workers every 0.2 s until stopped (a thread's target)."""
        while not self.stopped.is_set():
            self.seen |= set(children(self.web.process.pid))
            self.stopped.wait(0.2)


def run_size(web: Gunicorn, token: str, clients: int, seconds: float) -> list[Row]:
    """One storm of ``clients`` on a new game, probed meanwhile."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    _, created = web.request("POST", "/api/games", {"game": "puerto_rico", "players": ["A", "B", "C", "D"]}, token, conn)
    gid = created["id"]
    for path in ("/healthz", f"/games/{gid}/b/main") * 3:  # each process's first page (templates, imports) is slow
        web.request("GET", path)
    first_workers = set(children(web.process.pid))
    watcher = Workers(web)
    probes = [Probe(web.port, "/healthz", HEALTHZ_EVERY_S), Probe(web.port, f"/games/{gid}/b/main", PAGE_EVERY_S)]
    threads = [threading.Thread(target=job.run, daemon=True) for job in (watcher, *probes)]
    for thread in threads:
        thread.start()
    results: multiprocessing.Queue = multiprocessing.get_context("fork").Queue()  # type: ignore[type-arg]
    storm = multiprocessing.get_context("fork").Process(
        target=_storm_process, args=(web.port, f"/api/games/{gid}/branches/main/stream", clients, seconds, results))
    web_pids = [web.process.pid, *children(web.process.pid)]
    web_cpu = cpu_seconds(web_pids)
    storm.start()
    seen, clients_cpu = results.get(timeout=seconds + 120)
    web_cpu = cpu_seconds(web_pids) - web_cpu
    storm.join(30)
    for job in (watcher, *probes):
        job.stopped.set()
    for thread in threads:
        thread.join(PROBE_TIMEOUT_S + 5)
    return [*_rows(clients, seconds, probes, len(watcher.seen - first_workers), seen),
            _row(f"{clients:,} clients: CPU of the web processes during the storm", web_cpu, "s",
                 f"of {2 * seconds:.0f} s on 2 cores"),
            _row(f"{clients:,} clients: CPU of the clients' process", clients_cpu, "s")]


def _rows(clients: int, seconds: float, probes: list[Probe], restarts: int, seen: dict[str, int]) -> list[Row]:
    healthz, page = probes
    failed = sum(healthz.failures.values()) + sum(page.failures.values())
    causes = ", ".join(f"{what} ×{n}" for what, n in (healthz.failures + page.failures).items())
    other = ", ".join(f"{what} ×{n}" for what, n in sorted(seen.items()) if what not in ("200", "429"))
    label = f"{clients:,} clients reconnecting every {RECONNECT_S:.0f} s for {seconds:.0f} s"
    arrival = min(ARRIVAL_S, seconds / 2)
    return [
        _row(f"{label}: /healthz p50", statistics.median(healthz.samples or [0.0]), "ms", f"{len(healthz.samples)} probes"),
        _row(f"{label}: /healthz p99", healthz.percentile(0.99), "ms", f"target <= {HEALTHZ_P99_TARGET_MS} ms"),
        _row(f"{label}: /healthz p99 after the first {arrival:.0f} s", healthz.percentile(0.99, arrival), "ms",
             "once every client has arrived once (not a target: what the arrival costs, the rest shows)"),
        _row(f"{label}: game page p99", page.percentile(0.99), "ms",
             f"target <= {PAGE_P99_TARGET_MS} ms; {len(page.samples)} probes"),
        _row(f"{label}: game page p99 after the first {arrival:.0f} s", page.percentile(0.99, arrival), "ms"),
        _row(f"{label}: failed probes", failed, "probes", f"target <= 0 probes{'; ' + causes if causes else ''}"),
        _row(f"{label}: worker restarts", restarts, "restarts", "target <= 0 restarts"),
        _row(f"{label}: streams opened", seen.get("200", 0), "streams", ""),
        _row(f"{label}: streams refused with 429", seen.get("429", 0), "answers", other and f"others: {other}"),
    ]


def run(*, quick: bool = False) -> list[Row]:
    """Every N, each on its own Redis and gunicorn; the machine's loop time beside the figures."""
    fds = raise_fd_limit()
    rows = [_row("machine's 10-million-step loop (CPU time)", loop_seconds(), "s",
                 f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; open files allowed {fds:,}")]
    env = {"LUDOLOG_STREAMS_PER_ADDRESS": str(QUICK_LIMIT)} if quick else {}
    for clients in QUICK_SIZES if quick else SIZES:
        with served("ludolog-bench-storm-", env) as (web, token):
            rows += run_size(web, token, clients, QUICK_SECONDS if quick else SECONDS)
    return rows
