"""Compile the engine with mypyc, in place: ``make install`` runs this (issue 23).

mypyc's documented route (``mypyc.build.mypycify`` handed to setuptools' ``build_ext --inplace``)
turns each listed module into an extension module next to its source, all sharing one library,
``engine/_compiled__mypyc*.so``. Python prefers an extension module to a source file of the same
name, so the compiled engine is what ``import engine`` loads; ``engine.is_compiled()`` tells which
one did, and ``LUDOLOG_PURE=1`` makes :mod:`engine._build` load the sources instead.

Compiled: ``engine/core`` (but ``protocol.py``, whose runtime-checkable Protocol mypyc cannot
compile) and the four games. Not compiled: package ``__init__`` files (they only register and
re-export), ``engine/bga`` and anything else. Without a C compiler, or when the compile fails,
one line says so and the pure engine is used: the pure engine is the reference, the compiled
one a speed-up.

Usage: ``python tools/compile_engine.py`` (from the repository root). Exit status 0 unless the
arguments are wrong: falling back is not an error.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine/core", "engine/puerto_rico", "engine/amerigo", "engine/entdecker", "engine/golden_city")
#: Sources mypyc cannot compile (a runtime-checkable Protocol) or that gain nothing from it.
NOT_COMPILED = {"engine/core/protocol.py"}
#: The shared library's module name: it lives inside the engine package, where the editable
#: install's finder looks (a top-level module would only be found from the repository root).
GROUP = "engine._compiled"
BUILD_DIR = "build/mypyc"
STAMP = ROOT / ".venv" / ".engine-compiled"


def compiled_sources() -> list[str]:
    """The source files to compile, relative to the repository root."""
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).glob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if path.name != "__init__.py" and relative not in NOT_COMPILED:
                files.append(relative)
    return files


def compiled_outputs() -> list[Path]:
    """Every extension module a previous compile left in the engine's folders."""
    return sorted(path for path in (ROOT / "engine").rglob("*.so"))


def remove_outputs() -> None:
    """Delete earlier build outputs, so that no stale compiled module outlives its source."""
    for path in compiled_outputs():
        path.unlink()


def c_compiler() -> str | None:
    """The C compiler Python's build uses, if it is on PATH."""
    command = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(command)


def say(message: str) -> None:
    """One line for ``make install``'s output."""
    print(f"ludolog: {message}", flush=True)


def build() -> bool:
    """Run mypyc and the C compiler in a child process (its output goes to a log); True when it worked."""
    code = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='ludolog-engine', script_args=['build_ext', '--inplace', '--parallel', '{os.cpu_count() or 1}'],\n"
        f"      ext_modules=mypycify({compiled_sources()!r}, opt_level='{os.environ.get('MYPYC_OPT_LEVEL', '3')}',\n"
        f"                           group_name={GROUP!r}, target_dir={BUILD_DIR!r}))\n"
    )
    log = ROOT / "build" / "compile_engine.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("w") as out:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    return done.returncode == 0


def main() -> int:
    """Compile, or say in one line why the pure engine is used."""
    remove_outputs()
    STAMP.unlink(missing_ok=True)
    if os.environ.get("LUDOLOG_PURE"):
        say("LUDOLOG_PURE is set: the pure-Python engine is used (not compiled)")
        return 0
    compiler = c_compiler()
    if compiler is None:
        say("no C compiler found: the pure-Python engine is used (install gcc and run `make compile`)")
        return 0
    begin = time.monotonic()
    if not build():
        remove_outputs()
        say("compiling the engine failed (see build/compile_engine.log): the pure-Python engine is used")
        return 0
    STAMP.parent.mkdir(exist_ok=True)
    STAMP.touch()
    say(f"engine compiled with mypyc in {time.monotonic() - begin:.0f} s ({len(compiled_outputs())} modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
