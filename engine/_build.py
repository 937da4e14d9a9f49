"""Which build of the engine Python loads: the mypyc-compiled one or the pure-Python reference.

``make install`` compiles the engine in place (``tools/compile_engine.py``): each compiled module
is an extension module next to its source, and Python's import system prefers an extension module
to a source file of the same name. Setting ``LUDOLOG_PURE=1`` before the engine is first imported
puts :class:`SourceOnlyFinder` first on ``sys.meta_path``: it finds ``engine.*`` modules among
source files only, so no compiled module (nor their shared library) is ever imported. This works
in any process, with the compiled files left where they are (nothing to copy or delete), which is
why it is the mechanism: the differential test runs the pure engine in a child process this way.

A compiled module older than its source is an edit not compiled yet (``make install`` compiles again
when a source changes, but running Python directly does not): then the pure engine is loaded as
well, with a warning, so that an edit always takes effect and never runs beside stale compiled code.

The one place in the engine that reads the environment and the file system (``os``): choosing the
build happens at import, before any rule runs, and changes no result, only speed.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The environment variable that forces the pure-Python engine.
PURE_VARIABLE = "LUDOLOG_PURE"
#: A module that is compiled whenever the engine is (see tools/compile_engine.py).
PROBE = "engine.core.fold"


class SourceOnlyFinder:
    """A meta path finder that finds ``engine.*`` modules among ``.py`` files only."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of the module's source file, or None (so the usual finders look) when it is not the engine's."""
        if not fullname.startswith("engine.") or path is None:
            return None
        loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, loader).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def pure_requested() -> bool:
    """True when ``LUDOLOG_PURE`` asks for the pure-Python engine."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def stale_compiled_modules(root: Path = Path(__file__).parent) -> list[str]:
    """The compiled modules under ``root`` whose source changed after they were compiled (by path)."""
    stale = []
    for compiled in root.rglob("*.so"):
        source = compiled.with_name(compiled.name.split(".", 1)[0] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            stale.append(source.relative_to(root.parent).as_posix())
    return sorted(stale)


def choose() -> None:
    """Install :class:`SourceOnlyFinder` when the pure engine is asked for, or when compiled modules are stale (once)."""
    if SourceOnlyFinder in sys.meta_path:
        return
    if pure_requested():
        sys.meta_path.insert(0, SourceOnlyFinder)
        return
    stale = stale_compiled_modules()
    if stale:
        named = ", ".join(stale[:3]) + (f" and {len(stale) - 3} more" if len(stale) > 3 else "")
        warnings.warn(f"engine sources changed since the engine was compiled ({named}): the pure-Python engine is "
                      "used until `make install` compiles it again", RuntimeWarning, stacklevel=2)
        sys.meta_path.insert(0, SourceOnlyFinder)


def is_compiled() -> bool:
    """True when the loaded engine is the mypyc-compiled one, False for the pure-Python engine."""
    __import__(PROBE)
    module = sys.modules[PROBE]
    return not (getattr(module, "__file__", None) or "").endswith(".py")


choose()  # at import: engine/__init__.py imports this module before any other engine module
