"""Live pages under load (``ludolog bench live``): N open streams, one writer, the pages meanwhile.

For each N (100, 500 and 1,000 open ``GET …/branches/main/stream`` connections to the gunicorn of deploy/, i.e. its
gevent workers), one writer plays a Puerto Rico game over HTTP (GET the legal moves, POST the first) and the bench
measures, for every move and every stream, the time from the append's 201 reaching the writer to that move's event
reaching the stream (one client thread reads every stream's socket through a selector, so the clients cost one core's
share, not a thread each). Meanwhile a page reader GETs the branch page (``/games/<gid>/b/main``) one request after
another: its p50/p99 says whether pages still answer while the streams are open. Also reported: the web processes'
resident memory with all streams open (bounded memory: it grows with N by a few kilobytes a stream).

It starts its own embedded Redis and gunicorn (2 processes) in a temporary directory, never a real database. The
clients run on the same machine as the server (the measurements in docs/PERFORMANCE.md say what else shared it).
``--quick``: 20 and 50 streams, a few moves: a smoke run, not figures for the record.
"""

from __future__ import annotations

import http.client
import os
import re
import selectors
import socket
import sys
import threading
import time

from bench.processes import Gunicorn, served
from bench.table import Row, format_rows, percentiles

SIZES = (100, 500, 1000)
QUICK_SIZES = (20, 50)
MOVES, QUICK_MOVES = 30, 6
#: Between two moves, so that each move's latency is measured on its own (a human plays far slower).
MOVE_PAUSE_S = 0.3
P99_TARGET_MS = 250
#: Between two sizes: a stream whose client left is noticed by the server at its next keep-alive comment (every 15 s;
#: the second write after the close fails), so the last size's connections are gone before the next size opens.
DRAIN_S = 35
ID_LINE = re.compile(rb"(?:^|\n)id: (\d+)\n")


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "live", "metric": metric, "value": value, "unit": unit, "note": note}


class Streams:
    """N open streams read by one thread through a selector; records when each stream received each seq."""

    def __init__(self, port: int, path: str, count: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.received: list[dict[int, float]] = [{} for _ in range(count)]
        self.ready = [False] * count
        self.status = [""] * count
        self.tails = [b""] * count
        self.stopped = threading.Event()
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        for index in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(request)
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, index)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stopped.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                now = time.perf_counter()
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    self.selector.unregister(sock)
                    continue
                self._take(key.data, data, now)

    def _take(self, index: int, data: bytes, now: float) -> None:
        text = self.tails[index] + data
        if not self.ready[index] and not self.status[index] and text.startswith(b"HTTP/"):
            self.status[index] = text.split(b" ", 2)[1].decode(errors="replace")
        if b"retry:" in text:
            self.ready[index] = True
        for found in ID_LINE.finditer(text):
            self.received[index].setdefault(int(found.group(1)), now)
        self.tails[index] = text[-32:]

    def wait_ready(self, timeout: float) -> int:
        """Until every stream got its first bytes (it is subscribed by then), or the timeout; how many did not."""
        deadline = time.monotonic() + timeout
        while not all(self.ready) and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.ready.count(False)

    def refusals(self) -> str:
        """The statuses of the streams that did not open, counted ("503 ×8"), or "" when all opened."""
        counts: dict[str, int] = {}
        for ready, status in zip(self.ready, self.status, strict=True):
            if not ready:
                counts[status or "no answer"] = counts.get(status or "no answer", 0) + 1
        return ", ".join(f"{status} ×{n}" for status, n in counts.items())

    def wait_for(self, seq: int, timeout: float) -> int:
        """Until every stream received ``seq`` (or the timeout); how many did not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            missing = self._missing(seq)
            if not missing:
                return 0
            time.sleep(0.01)
        return self._missing(seq)

    def _missing(self, seq: int) -> int:
        return sum(1 for ready, got in zip(self.ready, self.received, strict=True) if ready and seq not in got)

    def close(self) -> None:
        """Stop reading and close every socket."""
        self.stopped.set()
        self.thread.join(timeout=5)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()


class PageReader:
    """GETs a page one request after another until stopped; the latency of each."""

    def __init__(self, web: Gunicorn, path: str) -> None:
        self.web, self.path = web, path
        self.samples: list[float] = []
        self.failures = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.web.port, timeout=30)
        while not self.stopped.is_set():
            started = time.perf_counter()
            status, _ = self.web.request("GET", self.path, conn=conn)
            self.samples.append((time.perf_counter() - started) * 1000)
            self.failures += status != 200
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop and wait for the last request."""
        self.stopped.set()
        self.thread.join(timeout=30)


def play(web: Gunicorn, gid: str, token: str) -> tuple[int, float]:
    """One move (the first legal action, each request on a new connection as a browser's after a pause): the new
    head and when its 201 arrived."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    _, legal = web.request("GET", f"/api/games/{gid}/branches/main/legal", conn=conn)
    status, done = web.request("POST", f"/api/games/{gid}/branches/main/actions",
                               {"action": legal["actions"][0]["action"], "expected_seq": legal["seq"]}, token, conn)
    arrived = time.perf_counter()
    conn.close()
    if status != 201:
        raise RuntimeError(f"bench live: the move was refused: {status} {done}")
    return int(done["seq"]), arrived


def run_size(web: Gunicorn, token: str, count: int, moves: int) -> list[Row]:
    """One N: open ``count`` streams on a new game, play ``moves`` moves, read pages meanwhile."""
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    _, created = web.request("POST", "/api/games", {"game": "puerto_rico", "players": ["A", "B", "C", "D"]}, token, conn)
    gid = created["id"]
    streams = Streams(web.port, f"/api/games/{gid}/branches/main/stream", count)
    unopened = streams.wait_ready(120)
    memory = web.resident_mb()
    pages = PageReader(web, f"/games/{gid}/b/main")
    latencies: list[float] = []
    lost = 0
    for _ in range(moves):
        seq, arrived = play(web, gid, token)
        lost += streams.wait_for(seq, 10)
        latencies += [max(0.0, (got[seq] - arrived) * 1000) for got in streams.received if seq in got]
        time.sleep(MOVE_PAUSE_S)
    pages.stop()
    streams.close()
    p50, p99 = percentiles(latencies)
    page50, page99 = percentiles(pages.samples) if pages.samples else (0.0, 0.0)
    label = f"{count:,} streams"
    return [
        _row(f"{label}: 201 to event on every stream p50", p50, "ms", f"{moves} moves × {count} streams; 0: came before the 201"),
        _row(f"{label}: 201 to event on every stream p99", p99, "ms", f"target <= {P99_TARGET_MS} ms"),
        _row(f"{label}: streams that did not open within 120 s", unopened, "streams",
             f"target <= 0 streams{'; ' + streams.refusals() if unopened else ''}"),
        _row(f"{label}: events lost (not received within 10 s)", lost, "events", "target <= 0 events"),
        _row(f"{label}: branch page meanwhile p50", page50, "ms", f"{len(pages.samples)} GETs, {pages.failures} not 200"),
        _row(f"{label}: branch page meanwhile p99", page99, "ms"),
        _row(f"{label}: web processes' resident memory", memory, "MB", "gunicorn master + 2 gevent workers, streams open"),
    ]


def _sizes() -> tuple[int, ...]:
    """Stream counts of ``ludolog bench live`` (LUDOLOG_BENCH_LIVE_SIZES, comma-separated; default 100,500,1000)."""
    raw = os.environ.get("LUDOLOG_BENCH_LIVE_SIZES", "")
    return tuple(int(part) for part in raw.split(",") if part.strip()) or SIZES


def run(*, quick: bool = False) -> list[Row]:
    """Every N; its own Redis and gunicorn."""
    with served("ludolog-bench-live-") as (web, token):
        rows = [_row("machine's load average (1 min) at the start", os.getloadavg()[0], "",
                     f"{os.cpu_count()} cores; other work on a shared machine slows every figure"),
                _row("web processes' resident memory, no stream open", web.resident_mb(), "MB")]
        for number, count in enumerate(QUICK_SIZES if quick else _sizes()):
            if number and not quick:
                time.sleep(DRAIN_S)
            rows += run_size(web, token, count, QUICK_MOVES if quick else MOVES)
    return rows


def storm_table(*, quick: bool = False) -> str:
    """The table of ``ludolog bench live --storm``: clients that keep reconnecting their streams (:mod:`bench.storm`)."""
    from bench import storm

    return format_rows(storm.run(quick=quick))


def main() -> None:
    """``python -m bench.live [--quick] [--storm]``."""
    quick = "--quick" in sys.argv
    print(storm_table(quick=quick) if "--storm" in sys.argv else format_rows(run(quick=quick)))


if __name__ == "__main__":
    main()
