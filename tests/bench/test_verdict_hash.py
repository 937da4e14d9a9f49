"""bench.verdict_hash: the fingerprint that shows a speed-up changed no verdict."""

from __future__ import annotations

import subprocess
import sys

from bench.verdict_hash import fingerprint, seeded_decisions
from service.runtime.config import ROOT


def test_the_fingerprint_is_the_same_twice_and_changes_with_the_budget():
    """Equal hashes before and after a change mean something only if the hash is deterministic and sees the verdicts:
    the same run twice agrees, and a run at another budget (other verdicts) does not."""
    first = fingerprint("puerto_rico", events=12, rollouts=6)
    again = fingerprint("puerto_rico", events=12, rollouts=6)
    other = fingerprint("puerto_rico", events=12, rollouts=7)
    assert first.decisions == len(list(seeded_decisions("puerto_rico", 12))) > 0
    assert first.sha256 == again.sha256
    assert other.sha256 != first.sha256


def test_the_command_prints_one_line_with_the_hash():
    """`python -m bench.verdict_hash` runs from the repository and says the count, the budget and the hash."""
    run = subprocess.run([sys.executable, "-m", "bench.verdict_hash", "--game", "golden_city", "--events", "20",
                          "--rollouts", "4"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "decisions judged at 4 rollouts" in run.stdout and "verdicts sha256 " in run.stdout, run.stdout
