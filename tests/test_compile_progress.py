"""The first `make run` compiles the engine for a minute or more: tools/compile_engine.py says which part it is in
and the time so far, instead of compiling in silence (issue 29)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tools import compile_engine


def test_the_part_is_read_from_the_build_log() -> None:
    assert compile_engine.compile_part("").startswith("mypyc is type-checking ")
    log = ("running build_ext\nbuilding 'engine._compiled_core__mypyc' extension\ngcc -c build/mypyc/core.c\n"
           "building 'engine._compiled_amerigo__mypyc' extension\n")
    assert compile_engine.compile_part(log) == f"the C compiler has started 2 of {len(compile_engine.PACKAGES)} packages (core, amerigo)"


def test_a_running_compile_says_where_it_is_and_for_how_long(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_engine, "PROGRESS_EVERY", 1.0)
    log = tmp_path / "compile.log"
    log.write_text("")
    writer = ("import time, sys\ntime.sleep(1.5)\n"
              f"open({str(log)!r}, 'a').write(\"building 'engine._compiled_core__mypyc' extension\\n\")\ntime.sleep(2)\n")
    child = subprocess.Popen([sys.executable, "-c", writer])
    compile_engine.follow(child, log)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ludolog: compiling the engine: mypyc is type-checking ") and lines[0].endswith(" s so far)")
    assert any(f"the C compiler has started 1 of {len(compile_engine.PACKAGES)} packages (core)" in line for line in lines), lines
    assert len(lines) >= 3  # a line every PROGRESS_EVERY seconds too, not only when the part changes
