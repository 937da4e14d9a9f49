"""The compiled engine and the pure-Python reference (issue 23).

Issue 23: "a differential test plays seeded random games of every game and player count through
both and requires identical events, states (`dump_state`), legal-action lists and outcomes at
every step", and "a fresh clone without a C compiler (test it by hiding the compiler in a
subprocess's PATH) still passes `make test` on the pure engine".

The pure engine runs in a child process with ``LUDOLOG_PURE=1`` (engine/_build.py), the compiled
one in this process when ``make compile`` built it; without compiled files the differential test
has nothing to compare and is skipped.
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

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")
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
                          capture_output=True, text=True, timeout=600, check=True)


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
        pytest.skip("the engine is not compiled here (`make compile`): nothing to compare")
    pure = json.loads(run_pure("import json, tests.engine.test_compiled as t; print(json.dumps(t.all_traces()))").stdout)
    compiled = json.loads(json.dumps(all_traces()))
    differ = {}
    for key in pure:
        step = next((i for i, (a, b) in enumerate(zip(compiled[key], pure[key], strict=False)) if a != b), None)
        if step is not None or len(compiled[key]) != len(pure[key]):
            differ[key] = (step, str(compiled[key][step or 0])[:200])
    assert differ == {}


def analyses() -> dict[str, Any]:
    """The search player's analysis of one seeded position of every game (its rollout policy and determinisation
    run through the rules object's hooks, which a compiled class must hand out as plain functions)."""
    from engine.analysis import search

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
    return result


@pytest.mark.slow
def test_compiled_and_pure_engines_analyse_alike():
    if not engine.is_compiled():
        pytest.skip("the engine is not compiled here (`make compile`): nothing to compare")
    pure = json.loads(run_pure("import json, tests.engine.test_compiled as t; print(json.dumps(t.analyses()))").stdout)
    assert json.loads(json.dumps(analyses())) == pure


def test_without_a_c_compiler_the_build_says_so_in_one_line_and_the_engine_is_pure(tmp_path: Path):
    copy = tmp_path / "clone"
    ignore = shutil.ignore_patterns("*.so", "__pycache__")
    for folder in ("engine", "tools"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=ignore)
    no_compiler = tmp_path / "bin"  # a PATH with no cc or gcc on it
    no_compiler.mkdir()
    env = {**os.environ, "PATH": str(no_compiler)}
    env.pop("LUDOLOG_PURE", None)
    done = subprocess.run([sys.executable, "tools/compile_engine.py"], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.splitlines() == [
        "ludolog: no C compiler found: the pure-Python engine is used (install gcc and run `make compile`)"]
    assert list((copy / "engine").rglob("*.so")) == []
    loaded = subprocess.run([sys.executable, "-c", "import engine; print(engine.__file__, engine.is_compiled())"],
                            cwd=copy, env={**env, "PYTHONPATH": str(copy)}, capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout.split() == [str(copy / "engine" / "__init__.py"), "False"]
