"""Ruff over every source folder (the style rules of pyproject.toml hold everywhere), and radon: no function
above grade C."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from radon.complexity import cc_rank, cc_visit
from radon.visitors import Class

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("engine", "ludolog", "service", "workers", "replay_ui", "tests", "bench", "deploy")


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", *FOLDERS], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


#: The folders whose functions radon grades (the code we ship and its tools; tests are not graded).
GRADED_FOLDERS = ("engine", "service", "workers", "replay_ui", "bench", "tools")
#: radon's grades above C: cyclomatic complexity over 20.
TOO_COMPLEX = "DEF"


def _functions(blocks):
    """Every function and method radon found, closures and nested classes' methods included (radon lists a
    class's methods both beside the class and inside it: the caller drops the repeats)."""
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions(block.methods + block.inner_classes)
        else:
            yield block
            yield from _functions(block.closures)


def test_no_function_is_graded_above_c_by_radon():
    """Issue 31: no function in the tree above radon grade C (cyclomatic complexity <= 20)."""
    offenders = set()
    for folder in GRADED_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for block in _functions(cc_visit(path.read_text(encoding="utf-8"))):
                if cc_rank(block.complexity) in TOO_COMPLEX:
                    offenders.add(f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} "
                                     f"{cc_rank(block.complexity)} ({block.complexity})")
    assert not offenders, "functions above radon grade C (split them):\n" + "\n".join(sorted(offenders))


#: What Playwright takes for a function: `() => …`, `x => …`, `async …` or `function …`. Anything else it evaluates as
#: an expression with eval() while it polls, which the pages' Content Security Policy (script-src 'self') refuses.
_PAGE_FUNCTION = re.compile(r"\s*(\(|[A-Za-z_$][\w$]*\s*=>|async\b|function\b)")


def _bare_page_expressions(path: Path):
    """The string first arguments of ``wait_for_function`` calls in ``path`` that are not functions."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "wait_for_function" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and not _PAGE_FUNCTION.match(node.args[0].value)):
            yield f"{path.relative_to(ROOT)}:{node.lineno}: {node.args[0].value[:60]}"


def test_browser_waits_poll_a_function_not_an_expression():
    """A bare expression in wait_for_function passes when it is true at once and fails as soon as it must be polled
    (CSP refuses the eval): a test that flakes by the machine's speed. Every wait in the suite is a function."""
    found = [hit for path in sorted((ROOT / "tests").rglob("*.py")) for hit in _bare_page_expressions(path)]
    assert found == [], "\n".join(found)
