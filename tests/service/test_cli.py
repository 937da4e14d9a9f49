"""Every `ludolog` command, run as the README writes it, against a running `ludolog serve`.

Issue 14, item 1: "`ludolog serve` writes the embedded Redis's URL (password included) to
`var/redis.url` with mode 0600, and every `ludolog` command uses it when `LUDOLOG_REDIS_URL` is
unset; when no server is running it says so in one line (`no running ludolog found: start it with
make run, or set LUDOLOG_REDIS_URL`) and exits 2. No command ever shows a traceback for an expected
failure (unreachable Redis, unknown game id, unreadable file, bad option)."

Each command runs in a subprocess through the `ludolog` console script, with no LUDOLOG_REDIS_URL:
it finds the store through the data directory, as after `make run` in another terminal.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.runtime.redis_server import EmbeddedRedis, free_port, write_private
from tests.helpers import PATIENCE_SECONDS, ROOT
from tests.service.serving import LUDOLOG, Serve, clean_env, filled_store

NO_SERVER = "no running ludolog found: start it with make run, or set LUDOLOG_REDIS_URL\n"


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """One `ludolog serve` for the module (its demo games loaded)."""
    with Serve(tmp_path_factory.mktemp("serve")) as running:
        running.ready()
        yield running


def no_traceback(done: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """``done``, after checking that it printed no traceback."""
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def ok(done: subprocess.CompletedProcess[str]) -> str:
    """Standard output of a command that must succeed."""
    no_traceback(done)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def one_line_failure(done: subprocess.CompletedProcess[str], code: int) -> str:
    """The single line a failing command printed on standard error."""
    no_traceback(done)
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1, done.stderr
    return done.stderr.strip()


def run_in(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`ludolog ARGS` with ``data_dir`` as its data directory and nothing else configured."""
    return subprocess.run([LUDOLOG, *args], cwd=ROOT, env=clean_env(LUDOLOG_DATA_DIR=str(data_dir), **env),
                          capture_output=True, text=True, timeout=PATIENCE_SECONDS)


def test_serve_leaves_the_store_url_for_the_commands_readable_by_its_owner_only(serve):
    url_file = serve.data_dir / "redis.url"
    assert stat.S_IMODE(url_file.stat().st_mode) == 0o600
    assert url_file.read_text().startswith("redis://:")


def test_user_add_prints_a_token_the_api_accepts_and_refuses_a_second_alice(serve):
    token = ok(serve.ludolog("user", "add", "alice")).split()[-1]
    assert len(token) >= 20
    status, _, _ = serve.request("/api/games", {"game": "puerto_rico", "players": ["Anna", "Ben", "Cy"]}, token=token)
    assert status == 201
    assert ok(serve.ludolog("user", "add", "bob", "--password", "correct-horse-battery")).strip()
    assert "alice" in one_line_failure(serve.ludolog("user", "add", "alice"), 1)


def test_demo_reconcile_and_worker_burst(serve):
    assert "demo: 0 new demo games (already loaded)" in ok(serve.ludolog("demo", "--per-game", "2"))
    assert "reconciled" in ok(serve.ludolog("reconcile"))
    ok(serve.ludolog("worker", "--burst"))


def test_export_every_format_then_import_the_file_and_a_folder(serve, tmp_path):
    gid = "demo-puerto-rico-1"
    bga = ok(serve.ludolog("export", gid))
    assert json.loads(bga)["data"]["game_name"] == "puertorico"
    jsonl = ok(serve.ludolog("export", gid, "--branch", "main", "--format", "jsonl"))
    actions = [json.loads(line)["action"] for line in jsonl.splitlines()]
    assert len(actions) > 100
    assert ok(serve.ludolog("export", gid, "--format", "text")).strip()
    log = tmp_path / "pr.json"
    log.write_text(bga)
    imported = serve.ludolog("import", str(log))
    assert "imported 1" in ok(imported) and "game " in imported.stdout + imported.stderr
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "again.json").write_text(bga)
    assert "already there 1" in ok(serve.ludolog("import", str(folder)))
    assert "failed 0" in ok(serve.ludolog("import", str(folder), "--partial"))


def test_bench_runs_on_its_own_redis(serve):
    assert "engine" in ok(serve.ludolog("bench", "engine", "--quick", timeout=PATIENCE_SECONDS))


def test_expected_failures_are_one_line_without_a_traceback(serve, tmp_path):
    assert "no game 'no-such-game'" in one_line_failure(serve.ludolog("export", "no-such-game"), 1)
    garbage = tmp_path / "garbage.json"
    garbage.write_text('{"data": ')
    failed = no_traceback(serve.ludolog("import", str(garbage)))
    assert failed.returncode == 1 and "garbage.json: failed: broken JSON" in failed.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no log files found" in one_line_failure(serve.ludolog("import", str(empty)), 1)
    missing = no_traceback(serve.ludolog("import", str(tmp_path / "missing.json")))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    bad_option = no_traceback(serve.ludolog("export", "demo-puerto-rico-1", "--format", "pdf"))
    assert bad_option.returncode == 2 and "'pdf' is not one of" in bad_option.stderr
    assert no_traceback(serve.ludolog("user", "add")).returncode == 2


def test_a_file_that_cannot_be_read_is_one_line(serve, tmp_path):
    if os.geteuid() == 0:
        unreadable = Path("/proc/self/mem")  # root reads any file whatever its mode, but not this one
    else:
        unreadable = tmp_path / "secret.json"
        unreadable.write_text("{}")
        unreadable.chmod(0)
    done = no_traceback(serve.ludolog("import", str(unreadable)))
    assert done.returncode == 1
    assert f"{unreadable}: failed: cannot read it: " in done.stderr and "failed 1" in done.stdout


def test_with_no_server_running_every_command_says_so_in_one_line_and_exits_2(tmp_path):
    for args in (["user", "add", "alice"], ["import", str(ROOT / "README.md")], ["export", "g1"], ["demo"],
                 ["reconcile"], ["reindex"]):
        assert run_in(tmp_path, *args).stderr == NO_SERVER, args
        assert run_in(tmp_path, *args).returncode == 2


def test_a_url_left_by_a_serve_that_died_is_no_running_server(tmp_path):
    write_private(tmp_path / "redis.url", f"redis://:pw@127.0.0.1:{free_port()}/0\n")
    write_private(tmp_path / "serve.pid", "999999999\n")  # no such process
    done = run_in(tmp_path, "user", "add", "alice")
    assert done.stderr == NO_SERVER and done.returncode == 2


def test_an_unreachable_configured_redis_is_waited_for_then_one_line(tmp_path):
    done = run_in(tmp_path, "user", "add", "alice", LUDOLOG_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",
                  LUDOLOG_STORE_WAIT="2")
    no_traceback(done)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[0].startswith("ludolog: waiting for the store at redis://127.0.0.1:") and len(lines) == 2, lines
    assert "connection refused" in lines[1] and "waited 2 s" in lines[1]


def test_a_wrong_password_is_refused_at_once(serve, tmp_path):
    wrong = f"redis://:wrong@127.0.0.1:{serve.redis_port}/0"
    done = run_in(tmp_path, "user", "add", "carol", LUDOLOG_REDIS_URL=wrong)
    assert "refused our credentials" in one_line_failure(done, 2)
    assert "wrong" not in done.stderr.replace("WRONGPASS", "").lower().replace("wrong password", "")


def test_a_command_waits_while_a_configured_redis_loads_its_data_then_runs(tmp_path):
    """Issue 21: with an external Redis that is loading, "the CLI commands wait (with a timeout and a
    one-line message) too"."""
    password, keys = filled_store(tmp_path, games=50, filler_mb=8)
    # the load takes about 15 s (Redis sleeps between keys: no CPU), so that the command, however slowly a busy machine
    # starts it, still meets the store loading (at 4 s a loaded machine's command came after the load: empty stderr)
    server = EmbeddedRedis(tmp_path / "redis", password=password, extra={"key-load-delay": str(int(15e6 / keys))})
    server.spawn()
    try:
        done = run_in(tmp_path / "elsewhere", "user", "add", "dora", LUDOLOG_REDIS_URL=server.url, LUDOLOG_STORE_WAIT="60")
        assert ok(done).strip()
        said = done.stderr.splitlines()
        # one line per state waited through: the loading store's, after, on a loaded machine, a first read that timed
        # out while Redis was busy starting to load (said as the store unreachable)
        assert said and said[-1].startswith("ludolog: the store is loading its data (loading the store: "), said
        assert len(said) == 1 or (len(said) == 2 and said[0].startswith("ludolog: waiting for the store at ")), said
        assert password not in done.stderr
        held = run_in(tmp_path / "elsewhere", "user", "add", "eve", LUDOLOG_REDIS_URL=server.url)
        assert ok(held).strip() and held.stderr == "", "a loaded store is not waited for"
    finally:
        server.stop()
