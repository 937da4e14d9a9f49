"""The repository stands alone: no tracked file cites a path outside it (issue 31).

Rulebooks are cited by title and edition, our rule digests live in ``docs/games/``, and every
``docs/...`` path a file names exists. The one path outside the repository that stays is test input,
not a citation: the real BGA logs that some tests read when present (``LUDOLOG_BGA_SAMPLES``, by
default the samples folder beside the repository).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: References to files that are not in the repository, each with why it is refused.
OUTSIDE = (
    (re.compile(r"\.\./shared(?!/samples)"), "a path outside the repository"),
    (re.compile(r"(?<![\w/.-])seeds/"), "a rulebook file outside the repository: cite the rulebook by title and edition"),
    (re.compile(r"\bDESIGN\.md\b"), "a design document the repository does not have"),
    (re.compile(r"(?<![\w/])games/[\w-]+\.md"), "a rule digest outside docs/: they live in docs/games/"),
)
DOCS_PATH = re.compile(r"(?<![\w/.-])docs/[\w/.-]*\w\.md")
#: This file names the patterns it refuses.
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()


def tracked_text_files() -> list[tuple[str, str]]:
    """``(path, text)`` of every file git tracks that reads as UTF-8 text."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(b"\0")
    files = []
    for name in filter(None, (n.decode() for n in names)):
        path = ROOT / name
        if name == SELF or not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            files.append((name, data.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return files


def outside_references(name: str, text: str) -> list[str]:
    """``file:line: why`` for every reference in ``text`` to a file outside the repository or a missing doc."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, why in OUTSIDE:
            for match in pattern.finditer(line):
                found.append(f"{name}:{number}: {match.group(0)!r}: {why}")
        for match in DOCS_PATH.finditer(line):
            if not (ROOT / match.group(0)).is_file():
                found.append(f"{name}:{number}: {match.group(0)!r}: no such file in the repository")
    return found


def test_no_tracked_file_cites_a_path_outside_the_repository():
    found = [ref for name, text in tracked_text_files() for ref in outside_references(name, text)]
    assert not found, "references to files the repository does not have:\n" + "\n".join(found)


def test_the_check_finds_each_kind_of_outside_reference():
    """The check itself: each kind of reference is caught (and named by file and line); ours pass."""
    text = "\n".join(["see ../shared/games/x.md", "``seeds/000_x.txt``", "(DESIGN.md § Layers)", "``games/amerigo.md``",
                      "docs/games/no_such_game.md", "docs/games/amerigo.md and docs/ARCHITECTURE.md",
                      "LUDOLOG_BGA_SAMPLES, by default ../shared/samples/bga"])
    found = outside_references("example.py", text)
    assert [ref.split(":")[1] for ref in found] == ["1", "2", "3", "4", "5"], found
    assert found[0].startswith("example.py:1: '../shared'")
