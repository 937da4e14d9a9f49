"""The README's "Two commands", followed literally on a fresh clone.

Issue 14: "the README's "Two commands" section is followed literally by a test from a fresh clone
(`make run` in the background, the README's CLI lines, an upload, a page)".

The clone is made with `git clone` of this repository (its committed HEAD) into a temporary
directory; `make run` runs there with its own ports (LUDOLOG_PORT, LUDOLOG_REDIS_PORT, both in
the README's configuration table) and its own `var/`. One shortcut, so that the test takes
seconds and not minutes: the clone's `.venv` is a symlink to this checkout's (made by `make
install`), and the clone's pyproject.toml is dated before that venv's install stamp, so make sees
an up-to-date install instead of creating a venv and reinstalling every dependency. Likewise the
compiled engine: this checkout's compiled modules are copied in and the clone's engine sources are
dated before the compile's stamp, so make does not compile again (CI's own `make install` and
tests/engine/test_compiled.py test the compile). PYTHONPATH
points at the clone, so the code that runs is the clone's own (the venv's editable install of
this checkout comes after PYTHONPATH on the import path).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from service.runtime.redis_server import free_ports
from tests.helpers import PATIENCE_SECONDS
from tests.service.serving import children_of, clean_env, is_alive

#: The slow tier (`make test` runs it, `make check` leaves it out): a fresh clone's `make run` from nothing.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
STAMP = ROOT / ".venv" / ".installed"
ENGINE_STAMP = ROOT / ".venv" / ".engine-compiled"


def readme_block(heading: str) -> str:
    """The first fenced block under ``## heading`` in the README."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"## {heading}", 1)[1]
    return section.split("```", 2)[1]


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A fresh clone of this repository that reuses this checkout's installed .venv."""
    if not STAMP.exists() or shutil.which("git") is None or shutil.which("make") is None:
        pytest.skip("needs git, make and the .venv that `make install` made")
    target = tmp_path / "ludolog"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(target)], check=True, timeout=PATIENCE_SECONDS)
    (target / ".venv").symlink_to(ROOT / ".venv")
    older = STAMP.stat().st_mtime - 60
    os.utime(target / "pyproject.toml", (older, older))
    if ENGINE_STAMP.exists():
        reuse_compiled_engine(target, before=ENGINE_STAMP.stat().st_mtime - 60)
    return target


def reuse_compiled_engine(target: Path, before: float) -> None:
    """This checkout's compiled engine in the clone, its sources dated ``before`` the compile's stamp."""
    for compiled in (ROOT / "engine").rglob("*.so"):
        shutil.copy2(compiled, target / compiled.relative_to(ROOT))
    for source in [*(target / "engine").rglob("*.py"), target / "tools" / "compile_engine.py"]:
        os.utime(source, (before, before))


def fetch(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """(status, body) of one request."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, answer.read()


def wait_for_line(process: subprocess.Popen[str], lines: list[str], text: str, timeout: float) -> None:
    """Read the process's output until a line contains ``text``."""
    if any(text in line for line in lines):
        return  # already said (the start-up steps and the server come up side by side, in either order)
    deadline = time.monotonic() + timeout
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"make run ended before {text!r}:\n" + "".join(lines[-60:]))
        lines.append(line)
        if text in line:
            return
    raise AssertionError(f"no {text!r} within {timeout} s:\n" + "".join(lines[-60:]))


def test_make_run_then_the_readme_command_lines_an_upload_and_a_page_on_a_fresh_clone(clone: Path) -> None:
    assert "make run" in readme_block("Two commands")
    port, redis_port = free_ports(2)
    env = clean_env(PYTHONPATH=str(clone), LUDOLOG_PORT=str(port), LUDOLOG_REDIS_PORT=str(redis_port))
    run = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, start_new_session=True)
    lines: list[str] = []
    try:
        wait_for_line(run, lines, "serving at", PATIENCE_SECONDS)
        wait_for_line(run, lines, "start-up steps done", PATIENCE_SECONDS)
        output = "".join(lines)
        assert "pip install" not in output, "make reinstalled instead of using the installed venv"
        assert "compile_engine.py" not in output or not ENGINE_STAMP.exists(), "make compiled instead of reusing"
        ludolog = str(clone / ".venv" / "bin" / "ludolog")  # "installed into .venv/bin/ by make install"

        def cli(*args: str) -> str:
            done = subprocess.run([ludolog, *args], cwd=clone, env=env, capture_output=True, text=True, timeout=PATIENCE_SECONDS)
            assert done.returncode == 0 and "Traceback" not in done.stderr, (args, done.stdout, done.stderr)
            return done.stdout

        token = cli("user", "add", "alice").split()[-1]
        bga_log = cli("export", "demo-puerto-rico-1", "--format", "bga")
        assert (clone / "var" / "redis.url").exists(), "the commands found the store through var/redis.url"

        status, body = fetch(f"http://127.0.0.1:{port}/api/uploads", bga_log.encode(),
                             {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        assert status == 202, body
        upload = json.loads(body)
        deadline = time.monotonic() + PATIENCE_SECONDS
        while time.monotonic() < deadline:
            upload = json.loads(fetch(f"http://127.0.0.1:{port}{upload['url']}")[1]) | {"url": upload["url"]}
            if upload["status"] in ("done", "failed"):
                break
            time.sleep(0.5)
        assert upload["status"] == "done", upload
        gid = upload["game"]

        status, page = fetch(f"http://127.0.0.1:{port}/games/{gid}/b/main")
        assert status == 200 and b"<html" in page.lower()
        status, home = fetch(f"http://127.0.0.1:{port}/")
        assert status == 200 and b"demo" in home.lower()
        children = children_of(run.pid)
    finally:
        # Ctrl-C in the terminal: SIGINT to make's whole process group.
        os.killpg(run.pid, signal.SIGINT)
        try:
            run.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            raise
    time.sleep(0.5)
    assert [pid for pid in children if is_alive(pid)] == []
