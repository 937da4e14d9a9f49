"""The layers run one way: engine ← stores ← API / workers / UI, the app factory and the CLI on top.

Each rule says which of our packages (and which web libraries) a layer may not import. They
are checked twice: every ``import`` statement of every module is read with ``ast`` (so an
offending line is named, even one inside a function), and each layer is imported in a fresh
interpreter to see that nothing above it gets loaded on the way (so an indirect import is
caught too). Only the wiring modules (:data:`WIRING`) may import across: the app factory
(``ludolog/app.py``), the CLI (``ludolog/cli.py``) and the process supervisor.

See docs/ARCHITECTURE.md for the picture.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
import subprocess
import sys
from dataclasses import dataclass

import pytest

from service.jobs import JOB_FUNCTIONS

ROOT = pathlib.Path(__file__).resolve().parents[1]
WIRING = ("ludolog/app.py", "ludolog/cli.py", "ludolog/supervisor.py")
WEB = ("flask", "werkzeug", "marshmallow", "apispec", "gunicorn")
ABOVE_THE_STORES = ("service.api", "ludolog.app", "ludolog.cli", "service.csrf", "workers", "replay_ui")


@dataclass(frozen=True)
class Layer:
    """A layer: its source paths, the paths inside them that belong elsewhere, and what it must not import."""

    name: str
    paths: tuple[str, ...]
    forbidden: tuple[str, ...]
    outside: tuple[str, ...] = ()


LAYERS = (
    Layer("engine", ("engine",), ("service", "workers", "replay_ui", "bench", "tests", *WEB, "redis", "rq")),
    Layer("stores", ("service",), (*WEB, *ABOVE_THE_STORES),
          outside=("service/api", "service/csrf.py", *WIRING)),
    Layer("workers", ("workers",), (*WEB, "service.api", "ludolog.app", "ludolog.cli", "service.csrf", "replay_ui")),
    Layer("csrf", ("service/csrf.py",), ("service.api", "ludolog.app", "ludolog.cli", "workers", "replay_ui")),
    Layer("api", ("service/api",), ("ludolog.app", "ludolog.cli", "workers", "replay_ui")),
    Layer("ui", ("replay_ui",), ("ludolog.app", "ludolog.cli", "workers")),
)


def _imports(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``path``, nested ones included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _is_under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _sources(layer: Layer) -> list[pathlib.Path]:
    files = []
    for part in layer.paths:
        path = ROOT / part
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    skip = tuple(ROOT / part for part in layer.outside)
    return [f for f in files if not any(f == s or s in f.parents for s in skip)]


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.name)
def test_no_module_imports_up_a_layer(layer: Layer) -> None:
    sources = _sources(layer)
    assert sources, f"layer {layer.name}: no sources under {layer.paths}; update LAYERS"
    offenders = [f"{path.relative_to(ROOT)}:{line} imports {module}"
                 for path in sources for line, module in _imports(path)
                 if any(_is_under(module, bad) for bad in layer.forbidden)]
    assert offenders == [], f"layer {layer.name} imports upward:\n" + "\n".join(offenders)


@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.name)
def test_importing_a_layer_loads_nothing_above_it(layer: Layer) -> None:
    """Indirect imports count too: import every module of the layer alone and look at what came along."""
    modules = sorted({_module_name(path) for path in _sources(layer)})
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if any(m == p or m.startswith(p + '.') for p in {list(layer.forbidden)!r}))\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"importing layer {layer.name} loads what lies above it:\n{result.stderr[-2000:]}"


def test_the_rules_catch_an_upward_import(tmp_path: pathlib.Path) -> None:
    """The checker itself: a store module importing the API is an offender."""
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from service.api.context import api\n    return api\n")
    stores = next(layer for layer in LAYERS if layer.name == "stores")
    assert [(line, m) for line, m in _imports(bad) if any(_is_under(m, p) for p in stores.forbidden)] == [
        (2, "service.api.context")]


@pytest.mark.parametrize("dotted", JOB_FUNCTIONS)
def test_every_job_the_queues_name_is_a_worker_function(dotted: str) -> None:
    """service.jobs names the workers' functions without importing them: the names must stay true."""
    module, _, attribute = dotted.rpartition(".")
    assert module.startswith("workers.")
    assert callable(getattr(importlib.import_module(module), attribute))
