"""The compiled engine and the pure-Python reference (issue 23).

Issue 23: "a differential test plays seeded random games of every game and player count through
both and requires identical events, states (`dump_state`), legal-action lists and outcomes at
every step", and "a fresh clone without a C compiler (test it by hiding the compiler in a
subprocess's PATH) still passes `make test` on the pure engine".

The pure engine runs in a child process with ``LUDOLOG_PURE=1`` (engine/_build.py), the compiled
one in this process, as ``make install`` built it. Where a C compiler is present the engine must be
compiled (a silent fallback would skip the differential tests); without one they have nothing to
compare and are skipped, and the build's fallback is tested here by hiding the compiler.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import CHANCE, Setup, draw_chance
from engine._build import stale_compiled_modules
from engine.core.registry import BUILTIN_GAMES
from tests.helpers import PATIENCE_SECONDS

ROOT = Path(__file__).resolve().parents[2]
#: The games the compile compiles: every built-in game of the registry (a game a test registers is not compiled).
GAMES = tuple(BUILTIN_GAMES)
SEEDS = (0, 1)


def trace(game: str, players: int, seed: int) -> list[Any]:
    """Every step of one seeded random game: actor, legal actions, chosen action, state; then the outcome."""
    rules: Any = engine.get_rules(game)
    rng = random.Random(seed)
    state = rules.initial_state(Setup(tuple(f"P{i}" for i in range(players))))
    steps: list[Any] = []
    while (actor := rules.current_actor(state)) is not None:
        if actor == CHANCE:
            action = draw_chance(rules.chance_outcomes(state), rng.random())
            legal = None
        else:
            options = list(rules.legal_actions(state))
            legal = [rules.format_action(option) for option in options]
            action = rng.choice(options)
        state = rules.apply(state, action)
        steps.append([actor, legal, rules.format_action(action), rules.dump_state(state)])
    outcome = rules.outcome(state)
    steps.append(outcome.to_json() if outcome is not None else None)
    return steps


def all_traces() -> dict[str, Any]:
    """Traces of every game, player count and seed, keyed ``game/players/seed``."""
    result = {}
    for game in GAMES:
        rules: Any = engine.get_rules(game)
        for players in range(rules.min_players, rules.max_players + 1):
            for seed in SEEDS:
                try:
                    result[f"{game}/{players}/{seed}"] = trace(game, players, seed)
                except Exception as error:  # an engine that raises where the other does not differs from it
                    result[f"{game}/{players}/{seed}"] = [["raised", type(error).__name__, str(error)]]
    return result


def run_pure(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a child Python with LUDOLOG_PURE=1."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "LUDOLOG_PURE": "1", **env},
                          capture_output=True, text=True, timeout=PATIENCE_SECONDS, check=True)


def test_ludolog_pure_loads_no_compiled_module():
    code = (
        "import sys, engine\n"
        "for name in engine.registered_games(): engine.get_rules(name)\n"
        "compiled = [m for m, mod in sys.modules.items() if (getattr(mod, '__file__', '') or '').endswith('.so')\n"
        "            and m.startswith('engine')]\n"
        "print(engine.is_compiled(), compiled)\n"
    )
    assert run_pure(code).stdout.strip() == "False []"


@pytest.mark.slow
def test_compiled_and_pure_engines_play_every_game_identically():
    if not engine.is_compiled():
        pytest.skip("the engine is not compiled here (no C compiler): nothing to compare")
    pure = json.loads(run_pure("import json, tests.engine.test_compiled as t; print(json.dumps(t.all_traces()))").stdout)
    compiled = json.loads(json.dumps(all_traces()))
    differ = {}
    for key in pure:
        step = next((i for i, (a, b) in enumerate(zip(compiled[key], pure[key], strict=False)) if a != b), None)
        if step is not None or len(compiled[key]) != len(pure[key]):
            differ[key] = (step, str(compiled[key][step or 0])[:200])
    assert differ == {}


def analyses() -> dict[str, Any]:
    """The search player's analysis and verdict of one seeded position of every game (its rollout policy and
    determinisation run through the rules object's hooks, which a compiled class must hand out as plain functions)."""
    from engine.analysis import judge, search

    result = {}
    for game in GAMES:
        rules: Any = engine.get_rules(game)
        rng = random.Random(3)
        state = rules.initial_state(Setup(("P0", "P1", "P2")))
        for _ in range(12):
            actor = rules.current_actor(state)
            options = list(rules.legal_actions(state)) if actor != CHANCE else []
            action = draw_chance(rules.chance_outcomes(state), rng.random()) if actor == CHANCE else rng.choice(options)
            state = rules.apply(state, action)
        while rules.current_actor(state) == CHANCE:
            state = rules.apply(state, draw_chance(rules.chance_outcomes(state), rng.random()))
        found = search(rules, state, seat=rules.current_actor(state), rollouts=24, seed=5)
        result[game] = [[rules.format_action(a.action), a.visits, round(a.win, 9)] for a in found.actions]
        verdict = judge(rules, state, seat=rules.current_actor(state), rollouts=24, seed=5,
                        played=rules.legal_actions(state)[-1])
        result[f"{game} verdict"] = [[rules.format_action(m.action), m.samples, round(m.win, 9), round(m.loss_low, 9)]
                                     for m in verdict.moves]
    return result


@pytest.mark.slow
def test_compiled_and_pure_engines_analyse_alike():
    if not engine.is_compiled():
        pytest.skip("the engine is not compiled here (no C compiler): nothing to compare")
    pure = json.loads(run_pure("import json, tests.engine.test_compiled as t; print(json.dumps(t.analyses()))").stdout)
    assert json.loads(json.dumps(analyses())) == pure


def bot_traces() -> dict[str, list[str]]:
    """The first 150 steps of a seeded game of every strategy bot of every game, the bot in every seat."""
    from engine.players.offered import strategy_players

    result = {}
    for game in GAMES:
        rules: Any = engine.get_rules(game)
        for name, bot in strategy_players(rules).items():
            rng = random.Random(11)
            state = rules.initial_state(Setup(("P0", "P1", "P2")))
            trace = []
            for _ in range(150):
                actor = rules.current_actor(state)
                if actor is None:
                    break
                if actor == CHANCE:
                    action = draw_chance(rules.chance_outcomes(state), rng.random())
                else:
                    action = bot(state, list(rules.legal_actions(state)), rng)
                trace.append(rules.format_action(action))
                state = rules.apply(state, action)
            result[f"{game} {name}"] = trace
    return result


@pytest.mark.slow
def test_compiled_and_pure_strategy_bots_play_alike():
    if not engine.is_compiled():
        pytest.skip("the engine is not compiled here (no C compiler): nothing to compare")
    pure = json.loads(run_pure("import json, tests.engine.test_compiled as t; print(json.dumps(t.bot_traces()))").stdout)
    compiled = bot_traces()
    assert compiled.keys() == pure.keys() and all(compiled[key] == pure[key] for key in pure)


def c_compiler_present() -> bool:
    """True when the build would find a C compiler (tools/compile_engine.py's test)."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import compile_engine
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return compile_engine.c_compiler() is not None


def test_make_install_compiled_the_engine_where_a_c_compiler_is_present():
    if not c_compiler_present() or os.environ.get("LUDOLOG_PURE", "") not in ("", "0"):
        pytest.skip("no C compiler here, or LUDOLOG_PURE is set: the pure engine is the one to test")
    assert engine.is_compiled(), ("a C compiler is present but the engine is not compiled, or a source changed since: "
                                  "`make install` compiles it (build/compile_engine.log says why a compile failed)")


def test_without_a_c_compiler_make_install_says_so_in_one_line_and_leaves_the_pure_engine(tmp_path: Path):
    copy = tmp_path / "clone"
    ignore = shutil.ignore_patterns("*.so", "__pycache__")
    for folder in ("engine", "tools"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=ignore)
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, copy / name)
    venv = tmp_path / "venv"  # the dependencies are installed: the real venv's Python, a stamp newer than pyproject
    venv.mkdir()
    (venv / ".installed").touch()
    tools = tmp_path / "bin"  # a PATH with what make's recipes use, and no cc or gcc
    tools.mkdir()
    for tool in ("sh", "find", "touch", "rm"):
        (tools / tool).symlink_to(shutil.which(tool) or f"/bin/{tool}")
    env = {**os.environ, "PATH": str(tools)}
    env.pop("LUDOLOG_PURE", None)
    make = [shutil.which("make") or "/usr/bin/make", "install", f"VENV={venv}", f"BIN={Path(sys.executable).parent}"]
    for _ in range(2):  # a fallback leaves no stamp, so the next `make install` tries (and says) again
        done = subprocess.run(make, cwd=copy, env=env, capture_output=True, text=True, timeout=PATIENCE_SECONDS)
        assert done.returncode == 0, done.stderr
        said = [line for line in done.stdout.splitlines() if line.startswith("ludolog:")]
        assert said == ["ludolog: no C compiler found: the pure-Python engine is used (install gcc and run `make compile`)"]
        assert done.stderr == ""
    assert list((copy / "engine").rglob("*.so")) == [] and not (venv / ".engine-compiled").exists()
    loaded = subprocess.run([sys.executable, "-c", "import engine; print(engine.__file__, engine.is_compiled())"],
                            cwd=copy, env={**env, "PYTHONPATH": str(copy)}, capture_output=True, text=True,
                            timeout=PATIENCE_SECONDS, check=True)
    assert loaded.stdout.split() == [str(copy / "engine" / "__init__.py"), "False"]


def test_a_compiled_module_older_than_its_source_is_listed_as_stale(tmp_path: Path):
    package = tmp_path / "engine" / "game"
    package.mkdir(parents=True)
    for name in ("fresh", "edited"):
        (package / f"{name}.py").write_text("")
        (package / f"{name}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (tmp_path / "engine" / "_compiled_game__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")  # no source
    os.utime(package / "edited.cpython-311-x86_64-linux-gnu.so", (1_000_000, 1_000_000))
    assert stale_compiled_modules(tmp_path / "engine") == ["engine/game/edited.py"]


def test_an_edited_source_loads_the_pure_engine_with_a_warning(tmp_path: Path):
    if not engine.is_compiled():
        pytest.skip("the engine is not compiled here: no compiled module to go stale")
    copy = tmp_path / "engine"
    shutil.copytree(ROOT / "engine", copy, ignore=shutil.ignore_patterns("__pycache__"))
    edited = copy / "core" / "fold.py"
    later = max(path.stat().st_mtime for path in copy.rglob("*.so")) + 60  # an edit after the compile
    os.utime(edited, (later, later))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("LUDOLOG_PURE", None)
    done = subprocess.run([sys.executable, "-c", "import engine; print(engine.__file__, engine.is_compiled())"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=PATIENCE_SECONDS, check=True)
    assert done.stdout.split() == [str(copy / "__init__.py"), "False"]
    assert "engine sources changed since the engine was compiled (engine/core/fold.py)" in done.stderr


def test_a_compile_that_fails_says_so_in_one_line_and_leaves_no_compiled_module(tmp_path: Path):
    if not c_compiler_present():
        pytest.skip("no C compiler here: the fallback without one is tested above")
    copy = tmp_path / "clone"
    for folder in ("engine", "tools"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    broken = tmp_path / "bin"  # a C compiler that fails on every file, first on PATH
    broken.mkdir()
    for name in ("cc", "gcc"):
        (broken / name).write_text("#!/bin/sh\necho 'broken compiler' >&2\nexit 1\n")
        (broken / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{broken}:{os.environ['PATH']}"}
    env.pop("LUDOLOG_PURE", None)
    stamp = tmp_path / "compiled-stamp"
    stamp.touch()  # a stamp left by an earlier compile goes: the compiled engine is not current any more
    done = subprocess.run([sys.executable, "tools/compile_engine.py", "--stamp", str(stamp)], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=PATIENCE_SECONDS, check=True)
    *progress, verdict = done.stdout.splitlines()
    assert verdict == "ludolog: compiling the engine failed (see build/compile_engine.log): the pure-Python engine is used"
    # Before it, only the progress lines of a first start (which part, the time so far), never the compiler's output.
    assert all(line.startswith("ludolog: compiling the engine: ") for line in progress), progress
    assert "broken compiler" in (copy / "build" / "compile_engine.log").read_text()
    assert list((copy / "engine").rglob("*.so")) == [] and not stamp.exists()
