"""``mypy --strict`` on the engine and the stores, enforced.

Runs mypy in a subprocess from the repository root on exactly the modules held to strict typing (the
engine is compiled with mypyc, so its types must be exact), and fails with mypy's own report when it
finds anything.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
STRICT_PATHS = ("engine", "service/store", "service/games", "service/imports", "service/upkeep", "service/runtime",
                "service/jobs.py", "service/web/csrf.py", "workers")


def test_engine_and_stores_pass_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *STRICT_PATHS],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, f"mypy --strict found problems:\n{report}"


def test_the_configuration_holds_mypy_strict_and_the_engine_ships_its_hints() -> None:
    """``strict = true`` in ``[tool.mypy]`` (a plain ``mypy`` run is strict too) and PEP 561's ``py.typed``
    marker shipped with the engine, so that code using the engine as a library is checked against its hints."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["mypy"]["strict"] is True
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["engine"]
    assert (ROOT / "engine" / "py.typed").is_file()
