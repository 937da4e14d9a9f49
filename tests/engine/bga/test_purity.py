"""engine.bga stays pure and beside the core: stdlib and the engine only, and the core never imports it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import engine.bga

PACKAGE = Path(engine.bga.__file__).parent
CORE = PACKAGE.parent / "core"


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_only_stdlib_and_the_engine_are_imported() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        roots = {name.split(".")[0] for name in _imports(path)}
        others = {name for name in roots if name not in sys.stdlib_module_names and name not in {"engine", "__future__"}}
        assert not others, f"{path.relative_to(PACKAGE)} imports {others}"


def test_the_core_knows_nothing_of_bga() -> None:
    for path in sorted(CORE.rglob("*.py")):
        bga = {name for name in _imports(path) if name.startswith("engine.bga")}
        assert not bga, f"engine/core/{path.name} imports {bga}"


def test_a_game_mapping_imports_its_rules_but_no_other_mapping() -> None:
    for path in sorted(PACKAGE.glob("*/*.py")):
        game = path.parent.name
        mappings = {name.split(".")[2] for name in _imports(path) if name.startswith("engine.bga.") and name.count(".") >= 3}
        assert mappings <= {game}, f"{path.relative_to(PACKAGE)} imports the mappings of {mappings - {game}}"
