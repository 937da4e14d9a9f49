"""A page following a game live (``ludolog bench page``): what each new move costs the browser that shows it.

One game page (``/games/<gid>/b/main``, read as an anonymous visitor) is open in headless Chromium (Debian's, driven by
Playwright, as the browser tests do) while a writer plays a Die goldene Stadt game over HTTP, one move every
:data:`MOVE_PAUSE_S` (quicker than people, as a table of engine seats plays). Over the moves, the bench reads the CPU
time of the Chromium processes it started (``/proc``): the page's renderer, and Chromium as a whole (the browser
process draws and sends what the renderer paints). Per move, so runs of different lengths compare. The page follows
the branch's stream: no reload. It starts its own embedded Redis and gunicorn in a temporary directory.

``--quick``: a few moves, a smoke run, not figures for the record.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from bench.live import play
from bench.processes import Gunicorn, descendants, served
from bench.table import Row, format_rows

MOVES, QUICK_MOVES = 150, 8
#: Between two moves: about what an engine seat and a quick player take, so moves come one at a time, not in batches.
MOVE_PAUSE_S = 0.15
CHROMIUM = os.environ.get("LUDOLOG_CHROMIUM", "/usr/bin/chromium")
GAME = "golden_city"


def _row(metric: str, value: float, unit: str, note: str = "") -> Row:
    return {"suite": "page", "metric": metric, "value": round(value, 1), "unit": unit, "note": note}


def chromium_ticks() -> dict[int, tuple[int, bool]]:
    """CPU ticks (user + system) of each Chromium process this process started, and whether it is a renderer."""
    ticks: dict[int, tuple[int, bool]] = {}
    for pid in descendants(os.getpid()):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if b"chrom" in cmdline:
            ticks[pid] = (int(fields[11]) + int(fields[12]), b"--type=renderer" in cmdline)
    return ticks


def spent(before: dict[int, tuple[int, bool]], after: dict[int, tuple[int, bool]]) -> tuple[float, float]:
    """Seconds of CPU between two readings: the busiest renderer's (the page's), and all processes' (each counted from
    its first reading: one that ended between them took what it spent with it, and counts nothing)."""
    hertz = os.sysconf("SC_CLK_TCK")
    grown = {pid: (ticks - before.get(pid, (0, False))[0], renderer) for pid, (ticks, renderer) in after.items()}
    renderer = max((ticks for ticks, is_renderer in grown.values() if is_renderer), default=0)
    return renderer / hertz, sum(ticks for ticks, _ in grown.values()) / hertz


def follow(web: Gunicorn, token: str, moves: int) -> list[Row]:
    """Open the page, play ``moves`` moves, and measure what the page's Chromium spent on them."""
    from playwright.sync_api import sync_playwright

    _, created = web.request("POST", "/api/games", {"game": GAME, "players": ["A", "B", "C"], "seed": "bench-page"},
                             token)
    gid = created["id"]
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.goto(f"http://127.0.0.1:{web.port}/games/{gid}/b/main")
        page.wait_for_selector("body[data-ready='true']")
        time.sleep(1)  # the page settles (its first requests, fonts) before the count starts
        before = chromium_ticks()
        started = time.perf_counter()
        head = 0
        for _ in range(moves):
            head, _ = play(web, gid, token)  # bench live's move: a new connection each, as a browser's
            time.sleep(MOVE_PAUSE_S)
        page.wait_for_function("seq => document.getElementById('board').dataset.seq === String(seq)", arg=head,
                               polling=200, timeout=60_000)
        time.sleep(1.5)  # anything the page does after the last move (a summary drawn at its pace) is counted
        seconds = time.perf_counter() - started
        renderer, total = spent(before, chromium_ticks())
        browser.close()
    note = f"{moves} moves ({head} events) of {GAME} over {seconds:.0f} s, one every {MOVE_PAUSE_S} s or slower"
    return [
        _row("the page's renderer, CPU per move", renderer / moves * 1000, "ms", note),
        _row("Chromium in all, CPU per move", total / moves * 1000, "ms", "renderer, browser process and the rest"),
    ]


def run(*, quick: bool = False) -> list[Row]:
    """The page's cost per move, with its own Redis and gunicorn (a row saying why not, without Chromium)."""
    if not Path(CHROMIUM).exists():
        return [_row("a page following a game: not measured", 0, "", f"no Chromium at {CHROMIUM} (make browser)")]
    with served("ludolog-bench-page-") as (web, token):
        return [_row("machine's load average (1 min) at the start", os.getloadavg()[0], "",
                     f"{os.cpu_count()} cores; other work on a shared machine slows every figure"),
                *follow(web, token, QUICK_MOVES if quick else MOVES)]


def main() -> None:
    """``python -m bench.live_page [--quick]``."""
    print(format_rows(run(quick="--quick" in sys.argv)))


if __name__ == "__main__":
    main()
