"""A game is its own package plus one registry line (issue 31, item 5).

* Every registered game's package (the built-in ones under ``engine/``, and the test game Pig under
  ``tests/games/pig/``) has the modules of the game-package skeleton for the roles every game has, under the
  same names (docs/ARCHITECTURE.md, "The game-package skeleton"); a rollout policy or strategy bots the rules
  declares live in ``rollout.py`` and ``strategy.py``.
* Every game declares itself once (``DECLARATION`` in its ``rules.py``, an ``engine.core.declaration.Declaration``):
  its rules object carries that declaration and answers with its identity.
* Nothing that serves every game names one: the engine outside the game packages, the service, the workers,
  the pages, the composition root, the tools, the Makefile and the all-games tests find the games through the
  registry (``engine/core/registry.py``, one line per built-in game). A game's name may appear only in its own
  places: its package, its BGA mapping (``engine/bga/<game>/``), its board adapter (``replay_ui/games/<game>.py``),
  and its registry line. Prose (docstrings, comments, a sentence with an example) does not count.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

import engine
from engine.core.declaration import Declaration
from engine.core.registry import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parents[2]
#: role → the module every game has for it, and the names that module must define.
SKELETON = {
    "setup": ("state", ("initial_state",)),
    "notation": ("notation", ("parse_action", "format_action")),
    "chance": ("chance", ("outcomes", "apply")),
    "outcome": ("scoring", ("outcome",)),
    "log sentences": ("describe", ("describe",)),
    "snapshots and views": ("serialize", ("view", "dump_state", "load_state")),
    "rules object": ("rules", ("RULES",)),
    "declaration": ("rules", ("DECLARATION",)),
}
#: The code that serves every game: it must find the games through the registry.
SHARED_CODE = ("engine", "service", "workers", "replay_ui", "ludolog", "tools")
#: The tests every game passes, found through the registry.
ALL_GAMES_TESTS = ("tests/engine/test_compiled.py", "tests/engine/test_conformance.py")
REGISTRY = "engine/core/registry.py"


def package_of(name: str) -> ModuleType:
    """The package of a registered game (the one its rules object's class lives in)."""
    module = type(engine.get_rules(name)).__module__
    return importlib.import_module(module.rpartition(".")[0])


@pytest.mark.parametrize("name", engine.registered_games())
@pytest.mark.parametrize("role", SKELETON)
def test_every_game_package_has_the_module_of_each_role(name, role):
    package = package_of(name)
    module_name, names = SKELETON[role]
    module = importlib.import_module(f"{package.__name__}.{module_name}")
    assert [n for n in names if not hasattr(module, n)] == []
    assert package.RULES is engine.get_rules(name)


@pytest.mark.parametrize("name", engine.registered_games())
def test_the_rollout_policy_and_the_bots_a_game_offers_live_in_rollout_and_strategy(name):
    rules, package = engine.get_rules(name), package_of(name)
    offered = rules.declaration.rollout_player
    if offered is not None:
        assert offered is importlib.import_module(f"{package.__name__}.rollout").rollout_player
    if rules.declaration.strategy_players:
        assert (Path(package.__file__).parent / "strategy.py").is_file()


@pytest.mark.parametrize("name", engine.registered_games())
def test_every_game_declares_itself_once_and_its_rules_answer_with_the_declarations_identity(name):
    rules, package = engine.get_rules(name), package_of(name)
    declared = importlib.import_module(f"{package.__name__}.rules").DECLARATION
    assert rules.declaration is declared and isinstance(declared, Declaration)
    identity = ("name", "title", "version", "min_players", "max_players")
    assert [getattr(rules, field) for field in identity] == [getattr(declared, field) for field in identity]
    assert declared.name == name


def tracked(*paths: str) -> list[str]:
    """The files git tracks under ``paths``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in listed.decode().split("\0") if name]


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (of the module, a class or a function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def code_strings(path: str) -> list[tuple[int, str]]:
    """``(line, text)`` of the string constants of a Python file that are code, not prose (no docstring, no space)."""
    tree = ast.parse((ROOT / path).read_text(), path)
    skipped = docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
            and (not re.search(r"\s", node.value.strip()) or node.value in TITLES)]


def makefile_lines() -> list[tuple[int, str]]:
    """``(line, text)`` of the Makefile's lines that are not comments."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    return [(number, line) for number, line in enumerate(lines, 1) if not line.lstrip().startswith("#")]


TITLES = {str(getattr(engine.get_rules(name), "title", "")) for name in engine.registered_games()}


def names_game(text: str, name: str, title: str) -> bool:
    """True when ``text`` names the game: its registry name as a word (``engine/amerigo``), or its title."""
    return name in re.split(r"\W+", text) or text.strip() == title


def own_place(path: str, name: str) -> bool:
    """True for the files that belong to game ``name``."""
    package = Path(package_of(name).__file__).parent.relative_to(ROOT).as_posix()
    return path.startswith((f"{package}/", f"engine/bga/{name}/")) or path == f"replay_ui/games/{name}.py"


def mentions(name: str) -> list[str]:
    """``path:line`` of every place outside the game's own that names it, in the code that serves every game."""
    title = str(getattr(engine.get_rules(name), "title", name))
    found = []
    for path in tracked(*SHARED_CODE) + list(ALL_GAMES_TESTS):
        if path.endswith(".py") and not own_place(path, name):
            found += [f"{path}:{line}" for line, text in code_strings(path) if names_game(text, name, title)]
    found += [f"Makefile:{line}" for line, text in makefile_lines() if names_game(text, name, title)]
    return found


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_nothing_that_serves_every_game_names_a_built_in_game_but_its_registry_line(name):
    places = set(mentions(name))
    assert sorted(place for place in places if not place.startswith(f"{REGISTRY}:")) == []
    assert len(places) == 1, places  # its one line in the registry


def test_nothing_that_serves_every_game_names_the_test_game():
    assert [place for place in mentions("pig") if not place.startswith("tests/engine/test_conformance.py:")] == []
