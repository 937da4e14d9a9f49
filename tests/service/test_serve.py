"""`ludolog serve` (what `make run` runs): it starts on a store with data in it, never dies at
start-up, protects the embedded Redis, and Ctrl-C stops it all.

Issue 21: "Start-up waits until Redis has loaded its data … the web server answers 503
{"error": {"code": "starting"}} meanwhile …; workers, the reconciler and the demo loader start
only when the store is ready." and "No optional start-up step (demo games, the reconciler) can
stop the service". Issue 13 item 9: the embedded Redis requires a password kept in var/ (0600),
data and logs 0600/0700, no weak secret key outside development, no `Server: gunicorn` header.
"""

from __future__ import annotations

import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.helpers import PATIENCE_SECONDS, ROOT
from tests.service.serving import Serve, children_of, clean_env, filled_store, is_alive

#: How long the test holds the embedded Redis in its loading state at most (Redis's key-load-delay, per key).
LOADING_HOLD_SECONDS = 40.0


def mode_of(path: Path) -> int:
    """The permission bits of ``path``."""
    return stat.S_IMODE(path.stat().st_mode)


def test_serve_starts_redis_worker_web_and_demo_then_ctrl_c_stops_every_child(tmp_path):
    with Serve(tmp_path) as serve:
        serve.ready()
        status, health = serve.health()
        assert status == 200 and health["redis"] is True and health["workers"] >= 1
        status, listed, headers = serve.request("/api/games")
        assert any(g["source"] == "demo" for g in listed["games"])
        assert "gunicorn" not in headers.get("Server", ""), headers
        assert (tmp_path / "redis" / "appendonlydir").exists() or list((tmp_path / "redis").glob("*.aof*"))
        children = children_of(serve.process.pid)
        assert len(children) >= 4, "redis, worker, gunicorn master and its workers"
        assert serve.stop() == 0
        time.sleep(0.5)
        assert [pid for pid in children if is_alive(pid)] == []
    assert not (tmp_path / "redis.url").exists(), "a stopped serve leaves no URL behind for the commands to find"


def test_the_embedded_redis_requires_its_password_kept_in_var_and_its_files_are_private(tmp_path):
    with Serve(tmp_path) as serve:
        serve.wait_for("serving at")
        password = (tmp_path / "redis.password").read_text().strip()
        url = (tmp_path / "redis.url").read_text().strip()
        assert len(password) >= 32 and f":{password}@" in url
        assert mode_of(tmp_path / "redis.password") == 0o600 and mode_of(tmp_path / "redis.url") == 0o600
        anonymous = redis.Redis(port=serve.redis_port)
        try:
            anonymous.get("ll:games")
            raise AssertionError("the embedded Redis answered without a password")
        except (redis.exceptions.AuthenticationError, redis.exceptions.ResponseError) as refused:
            assert "auth" in str(refused).lower()
        assert serve.store().ping()
        assert password not in serve.output, "the password is never printed"
        assert mode_of(tmp_path / "redis") == 0o700
        files = [p for p in (tmp_path / "redis").rglob("*") if p.is_file()]
        assert any(p.name == "redis.log" for p in files) and any(".aof" in p.name for p in files)
        assert {p.name: mode_of(p) for p in files} == {p.name: 0o600 for p in files}
        # Restarted, it keeps the same password (the data and every client's URL stay valid).
        assert serve.stop() == 0
    with Serve(tmp_path) as again:
        again.wait_for("serving at")
        assert (tmp_path / "redis.password").read_text().strip() == password


def test_serve_refuses_an_example_or_short_secret_key_outside_development(tmp_path):
    for key in ("change-me", "short-but-not-example"):
        done = subprocess.run([sys.executable, "-m", "ludolog.cli", "serve"], cwd=ROOT, capture_output=True, text=True,
                              env=clean_env(LUDOLOG_DATA_DIR=str(tmp_path), LUDOLOG_SECRET_KEY=key), timeout=PATIENCE_SECONDS)
        assert done.returncode == 2, done
        assert done.stderr.count("\n") == 1 and "LUDOLOG_SECRET_KEY" in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "redis").exists(), "nothing was started"


@pytest.mark.slow  # supervision of a store held loading: the slow tier
def test_serve_waits_for_redis_to_load_a_big_store_then_runs_worker_demo_and_reconciler(tmp_path):
    _, keys = filled_store(tmp_path, games=300, filler_mb=48)
    # Redis's own knob for holding a load: it sleeps this many microseconds per key it reads. The hold
    # is long enough for gunicorn to boot on a busy machine (Redis takes no CONFIG SET while loading).
    # Redis 6.2 serves clients only between 2 MB chunks of the file, so each round trip of the web's
    # client costs one chunk: 48 MB make ~24 chunks, ~1.7 s apart while held.
    delay = int(LOADING_HOLD_SECONDS * 1e6 / keys)
    with Serve(tmp_path, LUDOLOG_REDIS_ARGS=f"--key-load-delay {delay}") as serve:
        serve.wait_for("loading the store:", timeout=PATIENCE_SECONDS)
        status, body = wait_for_an_answer_while_loading(serve)
        assert status == 503 and body.get("error", {}).get("code") == "starting", (status, body)
        assert "loading" in body["error"]["message"]
        serve.ready()
        ready_at = serve.wait_for("store ready")
        worker_at = serve.wait_for("started with PID")  # RQ's first line
        assert ready_at < worker_at, "the worker started before the store was ready"
        assert ready_at < serve.wait_for("demo: ") and ready_at < serve.wait_for("reconciled ")
        rebuilt = serve.lines[serve.wait_for("reconciled ")]
        assert int(rebuilt.split("rebuilt ")[1].split(",")[0]) >= 300, rebuilt
        assert [line for line in serve.supervisor_lines() if "loading the store:" in line][0].endswith("…")
        status, health = serve.health()
        assert status == 200 and health["workers"] >= 1
        assert serve.store().zcard("ll:games") >= 300 + 8


def wait_for_an_answer_while_loading(serve: Serve) -> tuple[int, Any]:
    """The first answer of /healthz while the supervisor has not yet seen the store ready.

    Patient: while the load is held, each round trip to Redis waits for the next chunk.
    """
    while not any("store ready" in line for line in serve.lines):
        status, body = serve.health(timeout=LOADING_HOLD_SECONDS)
        if status:
            return status, body
        time.sleep(0.2)
    raise AssertionError("the store was loaded before the web answered anything:\n" + "\n".join(serve.supervisor_lines()))


def test_a_failing_demo_loader_is_one_line_and_the_service_serves_on(tmp_path):
    with Serve(tmp_path, LUDOLOG_GAME_PLUGINS="tests.games.broken:BROKEN") as serve:
        serve.ready()
        failed = [line for line in serve.supervisor_lines() if "demo loader failed" in line]
        assert len(failed) == 1 and "broken_demo cannot set up a game" in failed[0], "\n".join(serve.supervisor_lines())
        assert "Traceback" not in serve.output
        assert serve.process.poll() is None
        status, health = serve.health()
        assert status == 200 and health["workers"] >= 1
        assert serve.request("/api/games")[0] == 200
        assert any(line.startswith("reconciled") for line in serve.supervisor_lines()), "the next step still ran"


@pytest.mark.slow  # supervision of six crashes: the slow tier
def test_a_child_that_keeps_crashing_makes_serve_give_up_with_a_clear_message(tmp_path):
    # A game plugin that cannot be imported: every `ludolog worker` exits at once, every time.
    with Serve(tmp_path, LUDOLOG_GAME_PLUGINS="no_such_module_anywhere:RULES") as serve:
        assert serve.process.wait(PATIENCE_SECONDS) == 1
        serve.wait_for("giving up", timeout=5)
        restarts = [line for line in serve.supervisor_lines() if line.startswith("ludolog: worker exited")]
        assert len(restarts) >= 5, serve.supervisor_lines()
        assert "worker crashed 6 times in a row" in serve.output
        assert serve.supervisor_lines()[-1] == "ludolog: stopped"


def test_sigterm_stops_serve_like_ctrl_c(tmp_path):
    with Serve(tmp_path) as serve:
        serve.wait_for("serving at")
        children = children_of(serve.process.pid)
        serve.process.send_signal(signal.SIGTERM)
        assert serve.process.wait(PATIENCE_SECONDS) == 0
        time.sleep(0.5)
        assert [pid for pid in children if is_alive(pid)] == []


def test_a_second_serve_on_the_same_data_dir_fails_in_one_line_and_leaves_the_first_alone(tmp_path):
    with Serve(tmp_path) as first:
        first.wait_for("serving at")
        url = (tmp_path / "redis.url").read_text()
        second = subprocess.run([sys.executable, "-m", "ludolog.cli", "serve"], cwd=ROOT, capture_output=True, text=True,
                                env=first.env, timeout=PATIENCE_SECONDS)
        assert second.returncode == 1 and "port" in second.stderr and "in use" in second.stderr, second
        assert "Traceback" not in second.stdout + second.stderr
        assert (tmp_path / "redis.url").read_text() == url
        assert first.health()[0] == 200
