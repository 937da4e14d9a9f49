"""Ruff over every source folder: the style rules of pyproject.toml hold everywhere."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("engine", "ludolog", "service", "workers", "replay_ui", "tests", "bench", "deploy")


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", *FOLDERS], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
