"""Compile the engine with mypyc, in place: ``make install`` runs this (issue 23).

mypyc's documented route (``mypyc.build.mypycify`` handed to setuptools' ``build_ext --inplace``)
turns each listed module into an extension module next to its source. Python prefers an extension
module to a source file of the same name, so the compiled engine is what ``import engine`` loads;
``engine.is_compiled()`` tells which one did, and ``LUDOLOG_PURE=1`` makes :mod:`engine._build` load
the sources instead (it also does so by itself when a source is newer than its compiled module).

Compiled: ``engine/core`` (but ``protocol.py``, whose runtime-checkable Protocol mypyc cannot
compile), ``engine/players``, every game package of the registry (``BUILTIN_GAMES`` in ``engine/core/registry.py``,
read as text: nothing here names a game) and ``engine/analysis``, less the cold modules (:data:`COLD_MODULES`).
Each package is one compilation group with its own shared library (``engine/_compiled_<package>
__mypyc*.so``): calls within a package stay native C calls, and the C compiler works on the groups in
parallel (one group for everything was one serial compile of 21 MB of C, about 3.5 minutes here).
Not compiled: package ``__init__`` files (they only register and re-export), ``engine/bga`` and
anything else. Without a C compiler, or when the compile fails, one line says so and the pure
engine is used: the pure engine is the reference, the compiled one a speed-up.

Usage: ``python tools/compile_engine.py [--stamp FILE]`` (from the repository root): FILE is
touched after a compile that worked (the Makefile's record that the compiled engine is current).
Exit status 0 unless the arguments are wrong: falling back is not an error.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The game registry, whose ``BUILTIN_GAMES`` literal names every built-in game's package.
REGISTRY = ROOT / "engine" / "core" / "registry.py"


def game_packages(registry: Path = REGISTRY) -> list[str]:
    """The folders of the registry's game packages (``engine/amerigo`` …), sorted. The registry is read as text,
    not imported: importing it would load the engine, compiled modules and all, in the process about to
    replace them."""
    for node in ast.parse(registry.read_text()).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "BUILTIN_GAMES":
            packages: dict[str, str] = ast.literal_eval(node.value) if node.value is not None else {}
            return sorted(package.replace(".", "/") for package in packages.values())
    raise SystemExit(f"{registry}: no BUILTIN_GAMES literal to read the games from")


PACKAGES = ("engine/core", "engine/players", *game_packages(), "engine/analysis")
#: Sources mypyc cannot compile (a runtime-checkable Protocol).
NOT_COMPILED = {"engine/core/protocol.py"}
#: Modules off the hot path (a move's sentence, why a move is illegal, saving and loading a state, a
#: custom component set): compiling them would add about a third to the C compiler's time and gain
#: nothing that a fold, a playout or a search spends time on.
COLD_MODULES = {"describe.py", "explain.py", "serialize.py", "component_set.py"}
BUILD_DIR = "build/mypyc"
#: The C compiler's optimisation level (``MYPYC_OPT_LEVEL`` overrides it): mypyc's default. Level 1 compiles in 25 s
#: instead of 37 but analyses 3 % slower, past issue 30's speed target; level 0 runs no faster than the pure engine
#: (docs/PERFORMANCE.md, "Compiled engine").
OPT_LEVEL = "3"


def package_sources(package: str) -> list[str]:
    """The source files of one package to compile, relative to the repository root."""
    files = []
    for path in sorted((ROOT / package).glob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if path.name != "__init__.py" and path.name not in COLD_MODULES and relative not in NOT_COMPILED:
            files.append(relative)
    return files


def compiled_sources() -> list[str]:
    """Every source file to compile, relative to the repository root."""
    return [file for package in PACKAGES for file in package_sources(package)]


def groups() -> list[tuple[list[str], str]]:
    """One compilation group per package, ``(sources, shared library module)``. The shared library lives
    inside the engine package, where the editable install's finder looks (a top-level module would
    only be found from the repository root)."""
    return [(package_sources(package), f"engine._compiled_{package.rsplit('/', 1)[1]}") for package in PACKAGES]


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
        f"      ext_modules=mypycify({compiled_sources()!r}, opt_level='{os.environ.get('MYPYC_OPT_LEVEL', OPT_LEVEL)}',\n"
        f"                           separate={groups()!r}, target_dir={BUILD_DIR!r}))\n"
    )
    log = ROOT / "build" / "compile_engine.log"
    log.parent.mkdir(exist_ok=True)
    with log.open("w") as out:
        child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        follow(child, log)
    return child.returncode == 0


#: How often a compile still in one part says it is alive (seconds).
PROGRESS_EVERY = 15.0


def follow(child: subprocess.Popen[bytes], log: Path) -> None:
    """Until ``child`` ends, say which part of the compile it is in and the time so far: a line when a part
    starts, and every :data:`PROGRESS_EVERY` seconds within one (the first ``make run`` compiles for a minute or
    more, and silence looked like a hang)."""
    begin = last_said = time.monotonic()
    said = ""
    while child.poll() is None:
        time.sleep(1.0)
        part = compile_part(log.read_text(errors="replace"))
        now = time.monotonic()
        if part != said or now - last_said >= PROGRESS_EVERY:
            say(f"compiling the engine: {part} ({now - begin:.0f} s so far)")
            said, last_said = part, now


def compile_part(log_text: str) -> str:
    """Which part of the compile the log shows: mypyc translating to C, or the C compiler on some of the
    packages' groups (setuptools' ``building '<module>' extension`` lines; they run in parallel)."""
    started = re.findall(r"building '(engine\._compiled_\w+?)__mypyc' extension", log_text)
    if not started:
        return f"mypyc is type-checking {len(compiled_sources())} modules and writing their C"
    names = ", ".join(dict.fromkeys(name.removeprefix("engine._compiled_") for name in started))
    return f"the C compiler has started {len(set(started))} of {len(PACKAGES)} packages ({names})"


def compile_engine(stamp: Path | None) -> None:
    """Compile, or say in one line why the pure engine is used; touch ``stamp`` after a compile that worked."""
    remove_outputs()
    if stamp is not None:
        stamp.unlink(missing_ok=True)
    if os.environ.get("LUDOLOG_PURE", "") not in ("", "0"):
        say("LUDOLOG_PURE is set: the pure-Python engine is used (not compiled)")
        return
    if c_compiler() is None:
        say("no C compiler found: the pure-Python engine is used (install gcc and run `make compile`)")
        return
    begin = time.monotonic()
    if not build():
        remove_outputs()
        say("compiling the engine failed (see build/compile_engine.log): the pure-Python engine is used")
        return
    for output in compiled_outputs():
        # setuptools copies a module it did not need to rebuild with its old time, which would look
        # older than a source touched since (engine/_build.py reads that as "edited, not compiled")
        output.touch()
    if stamp is not None:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    say(f"engine compiled with mypyc in {time.monotonic() - begin:.0f} s ({len(compiled_outputs())} modules)")


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description="Compile the engine with mypyc, in place.")
    parser.add_argument("--stamp", type=Path, help="a file to touch after a compile that worked")
    args = parser.parse_args(argv)
    compile_engine(args.stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
