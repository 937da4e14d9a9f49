"""`ludolog serve` (what `make run` runs): everything starts, answers, and Ctrl-C stops it all."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

from service.redis_server import free_port
from tests.helpers import ROOT


def _children_of(pid: int) -> set[int]:
    found, frontier = set(), [pid]
    while frontier:
        current = frontier.pop()
        try:
            kids = open(f"/proc/{current}/task/{current}/children").read().split()
        except FileNotFoundError:
            continue
        for kid in map(int, kids):
            found.add(kid)
            frontier.append(kid)
    return found


def _alive(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_serve_starts_redis_worker_web_and_demo_then_ctrl_c_stops_every_child(tmp_path):
    port, redis_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LUDOLOG_")}
    env |= {"LUDOLOG_DATA_DIR": str(tmp_path), "LUDOLOG_PORT": str(port), "LUDOLOG_REDIS_PORT": str(redis_port)}
    serve = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = serve.stdout.readline()
            lines.append(line)
            if "serving at" in line or not line:
                break
        assert f"serving at http://127.0.0.1:{port}" in "".join(lines), "".join(lines)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            health = json.load(answer)
        assert health["redis"] is True and health["workers"] >= 1
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as answer:
            listed = json.load(answer)["games"]
        assert any(g["source"] == "demo" for g in listed)
        assert (tmp_path / "redis" / "appendonlydir").exists() or list((tmp_path / "redis").glob("*.aof*"))
        children = _children_of(serve.pid)
        assert len(children) >= 4, "redis, worker, gunicorn master and its workers"
        serve.send_signal(signal.SIGINT)
        assert serve.wait(60) == 0
        time.sleep(0.5)
        assert [pid for pid in children if _alive(pid)] == []
    finally:
        if serve.poll() is None:
            serve.kill()
