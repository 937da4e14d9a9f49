"""Every `ludolog` command in a broken environment, and the command line's rough edges (issue 29).

Each command runs in a subprocess through the `ludolog` console script. With no store to be found, an
unreachable one, a malformed LUDOLOG_REDIS_URL or a corrupt `var/redis.url` it must end with one clear line
on standard error (after at most one line saying it waited) and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from service.runtime.redis_server import EmbeddedRedis, free_port
from tests.helpers import PATIENCE_SECONDS, ROOT
from tests.service.serving import LUDOLOG, clean_env

REVIEW_TEXT = ("https://boardgamearena.com/gamereview?table=100004927\nMove 1 : 7/7/2020, 1:53:04 PM\n"
               "Colors of agila13, annie3 have been chosen according to their preferences.\n"
               "Move 2 : 1:53:30 PM\nagila13 chooses a traveler\nMove 3 : 1:54:02 PM\nannie3 chooses a traveler\n")

#: Every command that talks to the store, with arguments that would be fine against a working one.
COMMANDS: dict[str, tuple[str, ...]] = {
    "reconcile": ("reconcile",),
    "reindex": ("reindex",),
    "migrate": ("migrate", "--dry-run"),
    "demo": ("demo", "--per-game", "1"),
    "user add": ("user", "add", "zed"),
    "import": ("import", "@LOG"),
    "export": ("export", "nosuchgame"),
    "analyze": ("analyze", "nosuchgame", "--timeout", "1"),
    "worker": ("worker", "--burst"),
}
#: Broken environments: (LUDOLOG_REDIS_URL or None, bytes of var/redis.url or None, what the line must name).
BROKEN: dict[str, tuple[str | None, bytes | None, str]] = {
    "no store at all": (None, None, "no running ludolog found"),
    "unreachable store": ("redis://127.0.0.1:@PORT/0", None, "unreachable"),
    "url not a url": ("not a url", None, "LUDOLOG_REDIS_URL"),
    "url with a non-numeric port": ("redis://127.0.0.1:abc/0", None, "LUDOLOG_REDIS_URL"),
    "url with a port out of range": ("redis://127.0.0.1:99999/0", None, "LUDOLOG_REDIS_URL"),
    "url file not a url": (None, b"not a url\n", "redis.url"),
    "url file with a non-numeric port": (None, b"redis://:pw@127.0.0.1:notaport/0\n", "redis.url"),
    "url file not utf-8": (None, b"\xff\xfe\x00redis", "redis.url"),
}


def ludolog(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`ludolog ARGS` with ``data_dir`` as its data directory, a one-second store wait, and ``env``."""
    return subprocess.run([LUDOLOG, *args], cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE_SECONDS,
                          env=clean_env(LUDOLOG_DATA_DIR=str(data_dir), LUDOLOG_STORE_WAIT="1", LUDOLOG_PURE="1", **env))


def last_line_of_a_failure(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a failing command ended with (a line saying it waited may come before it)."""
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output
    assert done.returncode != 0, output
    lines = done.stderr.splitlines()
    assert 1 <= len(lines) <= 2 and lines[-1].strip(), done.stderr
    assert len(lines) == 1 or lines[0].startswith("ludolog: waiting for the store"), done.stderr
    return lines[-1]


@pytest.mark.parametrize("broken", list(BROKEN))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_in_a_broken_environment_says_one_line(tmp_path: Path, command: str, broken: str) -> None:
    url, file_bytes, named = BROKEN[broken]
    if command == "worker" and broken == "unreachable store":
        pytest.skip("a worker waits for its store for ever, by design (`ludolog worker` under a supervisor)")
    log = tmp_path / "log.txt"
    log.write_text(REVIEW_TEXT)
    args = tuple(str(log) if a == "@LOG" else a for a in COMMANDS[command])
    if file_bytes is not None:
        (tmp_path / "redis.url").write_bytes(file_bytes)
    env = {} if url is None else {"LUDOLOG_REDIS_URL": url.replace("@PORT", str(free_port()))}
    line = last_line_of_a_failure(ludolog(tmp_path, *args, **env))
    assert named in line, line
    assert "pw" not in line, "the password of a URL is never shown"


def test_analyze_of_a_log_only_game_says_so_in_one_line(tmp_path: Path, redis_server: EmbeddedRedis, redis_client) -> None:
    from service.imports.importer import import_bytes

    assert import_bytes(redis_client, REVIEW_TEXT.encode(), gid="lonly", owner=None, filename="review.txt").status == "done"
    done = ludolog(tmp_path, "analyze", "lonly", "--timeout", "5", LUDOLOG_REDIS_URL=redis_server.url)
    line = last_line_of_a_failure(done)
    assert done.returncode == 1
    assert line == "game lonly is log-only: it has no rules to analyse with", line


@pytest.fixture
def full_disk(tmp_path: Path):
    """A real filesystem with no space left: a 64 KB tmpfs, filled (needs the right to mount: root in a container)."""
    mount_point = tmp_path / "full"
    mount_point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount_point)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        filler = os.open(mount_point / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(filler, b"\0" * 4096)
        except OSError:
            pass  # full
        finally:
            os.close(filler)
        yield mount_point
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)


def test_serve_on_a_full_disk_names_the_file_it_could_not_write(full_disk: Path) -> None:
    data_dir = full_disk / "var"
    done = subprocess.run([LUDOLOG, "serve"], cwd=ROOT, capture_output=True, text=True, timeout=PATIENCE_SECONDS,
                          env=clean_env(LUDOLOG_DATA_DIR=str(data_dir), LUDOLOG_PORT=str(free_port()),
                                        LUDOLOG_REDIS_PORT=str(free_port()), LUDOLOG_ENV="development", LUDOLOG_PURE="1"))
    line = last_line_of_a_failure(done)
    assert line.startswith(str(data_dir / "")) and line.endswith("cannot write it: No space left on device"), line
    # Nothing half-written is left for the next start to read as an empty password or key.
    assert all(path.stat().st_size > 0 for path in data_dir.rglob("*") if path.is_file())


def test_user_add_labels_its_token_and_bare_prints_it_alone(tmp_path: Path, redis_server: EmbeddedRedis, redis_client) -> None:
    from service.store.users import UserStore

    done = ludolog(tmp_path, "user", "add", "zed", LUDOLOG_REDIS_URL=redis_server.url)
    assert done.returncode == 0, done.stderr
    label, _, token = done.stdout.strip().rpartition(": ")
    assert label == "API token of zed (shown once, only its hash is kept)" and done.stdout.count("\n") == 1
    assert UserStore(redis_client).user_for_token(token) == "zed"
    bare = ludolog(tmp_path, "user", "add", "--bare", "amy", LUDOLOG_REDIS_URL=redis_server.url).stdout
    assert UserStore(redis_client).user_for_token(bare.strip()) == "amy" and " " not in bare.strip()


def test_analyze_redirected_shows_progress_as_lines(tmp_path: Path, redis_server: EmbeddedRedis, redis_client) -> None:
    import random

    from engine import Setup, get_rules, random_playout
    from service.store.games import MAIN, GameStore
    from tests.helpers import kill_with_work_horses, ludolog_env, start_worker

    setup = Setup(("Anna", "Ben"), {"target": 20})
    playout = random_playout(get_rules("pig"), setup, random.Random(4), check=False)
    games = GameStore(redis_client)
    record = games.create_game("pig", "1", setup, owner="alice")
    games.append(record.id, MAIN, playout.events[1:], 1)
    worker = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE="ludolog-cli-edges")
    try:
        env = ludolog_env(redis_server.url, LUDOLOG_QUEUE="ludolog-cli-edges", LUDOLOG_PURE="1")
        done = subprocess.run([LUDOLOG, "analyze", record.id, "--rollouts", "2", "--timeout", "120"], cwd=ROOT,
                              capture_output=True, text=True, timeout=PATIENCE_SECONDS, env=env)
    finally:
        kill_with_work_horses(worker)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith(f"analysing {record.id}/main: ") and " decisions (" in line for line in lines), lines
    total = lines[-1].split(" of ")[1].split()[0]
    assert lines[-1] == f"analysing {record.id}/main: {total} of {total} decisions (100 %)", lines
    assert done.stdout.startswith(f"{total} decisions analysed; marks: ")


@pytest.mark.parametrize("view", ["²", "١", "9" * 5000, "7"])
def test_export_with_a_view_that_names_no_seat_says_one_line(tmp_path: Path, redis_server: EmbeddedRedis, redis_client,
                                                            view: str) -> None:
    from engine import Setup
    from service.store.games import GameStore
    from tests.helpers import ludolog_env

    record = GameStore(redis_client).create_game("pig", "1", Setup(("Anna", "Ben")), owner="alice")
    done = subprocess.run([LUDOLOG, "export", record.id, "--format", "text", "--view", view], cwd=ROOT, capture_output=True,
                          text=True, timeout=PATIENCE_SECONDS, env=ludolog_env(redis_server.url, LUDOLOG_PURE="1"))
    line = last_line_of_a_failure(done)
    assert line.startswith("--view ") and line.endswith("expected full, spectator or a seat 0 to 1"), line


def test_analyze_without_a_budget_queues_at_the_games_default(tmp_path: Path, redis_server: EmbeddedRedis,
                                                              redis_client) -> None:
    """``ludolog analyze`` asks Die goldene Stadt's 400 rollouts unless ``--rollouts`` says (no worker: it times out)."""
    import random

    from engine import Setup, get_rules, random_playout
    from service.store.analysis_results import AnalysisRequests
    from service.store.games import MAIN, GameStore

    rules, setup = get_rules("golden_city"), Setup(("A", "B", "C"))
    games = GameStore(redis_client)
    record = games.create_game("golden_city", rules.version, setup, owner=None)
    games.append(record.id, MAIN, random_playout(rules, setup, random.Random(4), check=False).events[1:], 1)
    done = ludolog(tmp_path, "analyze", record.id, "--timeout", "1", LUDOLOG_REDIS_URL=redis_server.url)
    assert done.returncode == 1 and "is a worker running" in done.stderr, done.stderr
    requests = AnalysisRequests(redis_client)
    assert requests.is_marked(record.id, MAIN, 400, "full", 0) and not requests.is_marked(record.id, MAIN, 200, "full", 0)
