"""The layers run one way: engine ← stores ← services ← web, API, UI, workers ← the wiring in ``ludolog/``.

Inside the engine too: core ← players ← the games ← the analysis (and the BGA reader beside them). The players a
game offers are built from ``engine/players``, below both the games that build them and the analysis that plays
them, so no game imports the analysis.

Each rule says which of our packages (and which web libraries) a layer may not import. They are checked
three ways: every ``import`` statement of every module is read with ``ast`` (so an offending line is named,
even one inside a function); each layer is imported in a fresh interpreter to see that nothing above it gets
loaded on the way (so an indirect import is caught too); and the graph of imports between our modules must
have no circle. Only the composition root (``ludolog/``: the app factory, the CLI, the process supervisor)
knows every layer, and nothing of ours but the benchmarks imports it.

Redis data has one owner, ``service/store``: outside it no module calls a Redis command, builds a key name
(``service.store.keys``) or imports redis for more than its exceptions and the connection's type
(:func:`test_only_the_stores_call_redis`).

See docs/ARCHITECTURE.md for the picture.
"""

from __future__ import annotations

import ast
import importlib
import pathlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from engine.core.registry import BUILTIN_GAMES
from service.jobs import JOB_FUNCTIONS

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: Our top-level packages, the tests aside.
PACKAGES = ("engine", "service", "workers", "replay_ui", "ludolog", "bench")
WEB = ("flask", "werkzeug", "marshmallow", "apispec", "gunicorn", "flask_compress")
#: What lies above the services (``service/`` outside ``store``, ``web`` and ``api``).
ABOVE_THE_SERVICES = ("service.api", "service.web", "workers", "replay_ui", "ludolog", "bench")
#: The built-in games' packages (``engine.amerigo`` …), from the registry: the engine's floor above its players.
GAMES = tuple(sorted(BUILTIN_GAMES.values()))


@dataclass(frozen=True)
class Layer:
    """A layer: its source paths, the paths inside them that belong elsewhere, and what it must not import."""

    name: str
    paths: tuple[str, ...]
    forbidden: tuple[str, ...]
    outside: tuple[str, ...] = ()


LAYERS = (
    Layer("engine", ("engine",), ("service", "workers", "replay_ui", "ludolog", "bench", "tests", *WEB, "redis", "rq")),
    Layer("engine core", ("engine/core",), ("engine.players", *GAMES, "engine.analysis", "engine.bga")),
    Layer("engine players", ("engine/players",), (*GAMES, "engine.analysis", "engine.bga")),
    Layer("engine games", tuple(game.replace(".", "/") for game in GAMES), ("engine.analysis", "engine.bga")),
    Layer("stores", ("service/store",), (*WEB, "rq", *ABOVE_THE_SERVICES, "service.games", "service.imports",
                                         "service.upkeep", "service.jobs", "service.runtime.redis_server")),
    Layer("services", ("service",), (*WEB, *ABOVE_THE_SERVICES), outside=("service/store", "service/web", "service/api")),
    Layer("web", ("service/web",), ("service.api", "workers", "replay_ui", "ludolog", "bench")),
    Layer("workers", ("workers",), (*WEB, "service.api", "service.web", "replay_ui", "ludolog", "bench")),
    Layer("api", ("service/api",), ("workers", "replay_ui", "ludolog", "bench")),
    Layer("ui", ("replay_ui",), ("service.api", "workers", "ludolog", "bench")),
    Layer("bench", ("bench",), ("ludolog.cli", "ludolog.supervisor", "tests")),
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


def _files(paths: tuple[str, ...], outside: tuple[str, ...] = ()) -> list[pathlib.Path]:
    files = []
    for part in paths:
        path = ROOT / part
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    skip = tuple(ROOT / part for part in outside)
    return [f for f in files if not any(f == s or s in f.parents for s in skip)]


def _sources(layer: Layer) -> list[pathlib.Path]:
    return _files(layer.paths, layer.outside)


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


def test_nothing_but_the_benchmarks_imports_the_wiring() -> None:
    """The composition root is the top: no layer (the benchmarks aside, which drive the app) imports ``ludolog``."""
    sources = _files(("engine", "service", "workers", "replay_ui"))
    offenders = [f"{path.relative_to(ROOT)}:{line} imports {module}"
                 for path in sources for line, module in _imports(path) if _is_under(module, "ludolog")]
    assert offenders == []


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
    bad.write_text("def f():\n    from service.web.context import api\n    return api\n")
    stores = next(layer for layer in LAYERS if layer.name == "stores")
    assert [(line, m) for line, m in _imports(bad) if any(_is_under(m, p) for p in stores.forbidden)] == [
        (2, "service.web.context")]


# --- no circles ---------------------------------------------------------------------------------------------


def _our_modules() -> dict[str, pathlib.Path]:
    return {_module_name(path): path for path in _files(PACKAGES)}


def _dependencies(name: str, path: pathlib.Path, modules: dict[str, pathlib.Path]) -> set[str]:
    """The modules of ours that ``name`` imports: ``from a.b import c`` is ``a.b.c`` when ``c`` is a module, else ``a.b``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = [f"{node.module}.{alias.name}" for alias in node.names if f"{node.module}.{alias.name}" in modules]
            names = submodules if len(submodules) == len(node.names) else [node.module, *submodules]
        else:
            continue
        for imported in names:
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                found.add(imported)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively): each a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            nxt = next((s for s in successors if s not in index or s in on_stack), None)
            if nxt is not None and nxt not in index:
                index[nxt] = low[nxt] = len(index)
                stack.append(nxt)
                on_stack.add(nxt)
                work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                continue
            if nxt is not None:
                low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    """0 circles in the import graph of the whole tree: a circle means two modules that cannot be read apart."""
    modules = _our_modules()
    graph = {name: _dependencies(name, path, modules) for name, path in modules.items()}
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    """The checker itself: a → b → c → a is found, a lone edge and a self-import are not circles."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


# --- one owner of the Redis data --------------------------------------------------------------------------------

#: The stores, and the embedded server's start-up (it starts Redis and polls it until it answers).
REDIS_OWNERS = ("service/store", "service/runtime/redis_server.py")
#: Of the redis package, what a module outside the stores may name: its errors (to answer them) and the
#: connection's type (to pass a connection on to a store).
REDIS_NAMES_ALLOWED = ("exceptions", "Redis")
#: The attributes that hold a connection: ``stores.redis``, ``stores.queue_redis``.
CONNECTIONS = ("redis", "queue_redis")


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _annotated_connections(tree: ast.AST) -> set[str]:
    """Names of parameters annotated as a Redis connection (``redis.Redis`` or ``Redis``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            text = ast.unparse(node.annotation)
            if text in ("redis.Redis", "Redis", "'redis.Redis'"):
                names.add(node.arg)
    return names


def redis_calls(source: str) -> list[tuple[int, str]]:
    """(line, what) for every way ``source`` talks to Redis itself rather than through a store."""
    tree = ast.parse(source)
    parents = _parents(tree)
    clients = _annotated_connections(tree)
    found = []
    for node in ast.walk(tree):
        up = parents.get(node)
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if _is_under(a.name, "redis") and a.name != "redis"]
        elif isinstance(node, ast.ImportFrom) and node.module and _is_under(node.module, "redis"):
            if node.module != "redis.exceptions":
                found.append((node.lineno, f"from {node.module} import …"))
        elif isinstance(node, ast.ImportFrom) and node.module == "service.store" and any(a.name == "keys" for a in node.names):
            found.append((node.lineno, "imports the stores' key names"))
        elif isinstance(node, ast.Import) and any(_is_under(a.name, "service.store.keys") for a in node.names):
            found.append((node.lineno, "imports the stores' key names"))
        elif isinstance(node, ast.Name) and node.id == "redis" and isinstance(up, ast.Attribute):
            if up.attr not in REDIS_NAMES_ALLOWED:
                found.append((node.lineno, f"redis.{up.attr}"))
        elif isinstance(node, ast.Attribute) and node.attr in CONNECTIONS and isinstance(up, ast.Attribute):
            found.append((node.lineno, f".{node.attr}.{up.attr}"))
        elif isinstance(node, ast.Attribute) and node.attr in CONNECTIONS and isinstance(up, ast.Assign | ast.AnnAssign):
            found.append((node.lineno, f"keeps .{node.attr} in a name"))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in clients:
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return sorted(found)


def test_only_the_stores_call_redis() -> None:
    """Every Redis key has one owner under service/store: views, services, workers, the UI and the wiring reach
    Redis data through a store (``stores.games``, ``stores.uploads``, ``stores.folds`` …), never by a command."""
    sources = _files(("service", "workers", "replay_ui", "ludolog"), outside=REDIS_OWNERS)
    offenders = [f"{path.relative_to(ROOT)}:{line} {what}"
                 for path in sources for line, what in redis_calls(path.read_text())]
    assert offenders == [], "Redis reached outside service/store:\n" + "\n".join(offenders)


@pytest.mark.parametrize(("source", "what"), [
    ("def f(stores):\n    return stores.redis.get('k')\n", ".redis.get"),
    ("def f(games):\n    client = games.redis\n    return client\n", "keeps .redis in a name"),
    ("import redis\ndef f(url):\n    return redis.from_url(url)\n", "redis.from_url"),
    ("def f(client: redis.Redis) -> None:\n    client.set('k', 1)\n", "client.set"),
    ("from redis.client import Pipeline\n", "from redis.client import …"),
    ("from service.store import keys\n", "imports the stores' key names"),
])
def test_the_redis_rule_catches_each_way_in(source: str, what: str) -> None:
    """The checker itself: each way of calling Redis around the stores is named."""
    assert [w for _, w in redis_calls(source)] == [what]


def test_the_redis_rule_lets_a_connection_be_passed_on() -> None:
    """Handing a connection to a store, or answering redis's errors, is no Redis call."""
    source = ("import redis\nfrom service.store.games import GameStore\n"
              "def f(stores, client: redis.Redis) -> GameStore:\n"
              "    try:\n        return GameStore(stores.redis)\n"
              "    except redis.exceptions.ConnectionError:\n        return GameStore(client)\n")
    assert redis_calls(source) == []


def test_pages_leave_missing_and_forbidden_games_to_the_blueprints_handlers() -> None:
    """Pages handle errors at the edge (replay_ui/errors.py): no UI module catches a missing or forbidden game or the
    web layer's errors itself. (Forms still catch the store's refusal of what was typed, to show the form again.)"""
    edge = ("NotFoundError", "ForbiddenError", "StoreError", "ApiError", "UnknownGameError", "EngineError")
    offenders = []
    for path in _files(("replay_ui",)):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                caught = [n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)]
                offenders += [f"{path.relative_to(ROOT)}:{node.lineno} catches {name}" for name in caught if name in edge]
    assert offenders == []


@pytest.mark.parametrize("dotted", JOB_FUNCTIONS)
def test_every_job_the_queues_name_is_a_worker_function(dotted: str) -> None:
    """service.jobs names the workers' functions without importing them: the names must stay true."""
    module, _, attribute = dotted.rpartition(".")
    assert module.startswith("workers.")
    assert callable(getattr(importlib.import_module(module), attribute))
