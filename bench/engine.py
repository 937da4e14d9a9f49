"""Engine speed on one core, for every registered game (``ludolog bench engine``).

Three figures per game:

* ``fold_unchecked`` — recorded events folded per second without checks (parse + apply):
  what snapshot rebuilding and replays cost;
* ``apply_checked`` — events applied per second with the full legality check (parse, turn
  order, the rules' check, apply): what the importer and the API pay on untrusted input;
* ``playouts`` — complete random games per second at 4 players (or the most a game takes),
  listing the legal moves at every decision, drawing chance by its weights.

With the engine compiled (``make compile``), every row is measured twice, compiled here and pure in a
child process with ``LUDOLOG_PURE=1``; the ``note`` names the build (and the speed-up over pure).

The events are recorded from seeded random playouts before timing starts, so every figure
measures the engine only. Each figure is the best of five rounds (as ``timeit`` advises), since
other processes share the machine. Run it with ``python -m bench.engine``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

import engine
from engine import CHANCE, Event, Setup, draw_chance, fold, random_playout, start

#: Games that exist only to test the core.
SKIP = {"pig"}
DEFAULT_SECONDS = 2.0


def _setup_for(rules: Any) -> Setup:
    players = min(4, rules.max_players) if rules.min_players <= 4 else rules.min_players
    return Setup(tuple(f"P{i}" for i in range(players)))


def _recorded_games(rules: Any, setup: Setup, count: int = 8) -> list[list[Event]]:
    return [random_playout(rules, setup, random.Random(seed), check=False).events for seed in range(count)]


def _repeat_until(seconds: float, step: Any, rounds: int = 5) -> tuple[int, float]:
    """Call ``step`` (returning a count of work units) for ``seconds`` split into ``rounds`` rounds;
    (units, elapsed) of the fastest round. Like ``timeit``, the best round is the figure least
    disturbed by other processes on a shared machine."""
    best: tuple[int, float] = (0, float("inf"))
    for _ in range(rounds):
        units = 0
        begin = time.perf_counter()
        while True:
            units += step()
            elapsed = time.perf_counter() - begin
            if elapsed >= seconds / rounds:
                break
        if units / elapsed > best[0] / best[1]:
            best = (units, elapsed)
    return best


def _fold_all(histories: Sequence[list[Event]], *, check: bool) -> int:
    events = 0
    for history in histories:
        rules, state = start(history[0])
        fold(rules, state, history[1:], check=check)
        events += len(history) - 1
    return events


def playout(rules: Any, setup: Setup, rng: random.Random) -> int:
    """One random game, legal moves listed at every decision; returns the number of actions."""
    state = rules.initial_state(setup)
    current_actor, legal_actions, apply = rules.current_actor, rules.legal_actions, rules.apply
    steps = 0
    while True:
        actor = current_actor(state)
        if actor is None:
            return steps
        if actor == CHANCE:
            action = draw_chance(rules.chance_outcomes(state), rng.random())
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        steps += 1


def bench_game(name: str, seconds: float = DEFAULT_SECONDS) -> list[dict[str, Any]]:
    """The three rows of one game."""
    rules = engine.get_rules(name)
    setup = _setup_for(rules)
    histories = _recorded_games(rules, setup)
    players = len(setup.players)
    rows = []
    units, elapsed = _repeat_until(seconds, lambda: _fold_all(histories, check=False))
    rows.append({"game": name, "metric": "fold_unchecked", "value": round(units / elapsed), "unit": "events/s"})
    units, elapsed = _repeat_until(seconds, lambda: _fold_all(histories, check=True))
    rows.append({"game": name, "metric": "apply_checked", "value": round(units / elapsed), "unit": "events/s"})
    rng = random.Random(12345)

    def one_game() -> int:
        playout(rules, setup, rng)
        return 1

    units, elapsed = _repeat_until(seconds, one_game)
    rows.append({"game": name, "metric": f"playouts_{players}p", "value": round(units / elapsed, 1), "unit": "games/s"})
    return rows


def run(games: Iterable[str] | None = None, *, seconds: float = DEFAULT_SECONDS) -> list[dict[str, Any]]:
    """Rows ``{"game", "metric", "value", "unit"}`` for every registered game (or ``games``)."""
    names = list(games) if games is not None else [g for g in engine.registered_games() if g not in SKIP]
    rows: list[dict[str, Any]] = []
    for name in names:
        rows.extend(bench_game(name, seconds))
    build = "compiled" if engine.is_compiled() else "pure"
    for row in rows:
        row["note"] = build
    if build == "compiled":
        rows += _pure_rows(names, seconds, {(r["game"], r["metric"]): r for r in rows})
    return rows


def _pure_rows(names: list[str], seconds: float, compiled: dict[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """The same rows from the pure-Python engine (a child process with LUDOLOG_PURE=1); each compiled row's
    note gains its speed-up."""
    code = f"import json, bench.engine as b; print(json.dumps(b.run({names!r}, seconds={seconds!r})))"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "LUDOLOG_PURE": "1"},
                          capture_output=True, text=True, check=True)
    pure: list[dict[str, Any]] = json.loads(done.stdout)
    for row in pure:
        twin = compiled[(row["game"], row["metric"])]
        twin["note"] = f"compiled, {twin['value'] / row['value']:.2f}x pure"
    return pure


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """The rows as an aligned text table."""
    header = ("game", "metric", "value", "unit", "build")
    lines = [header] + [(r["game"], r["metric"], f"{r['value']:,}", r["unit"], r.get("note", "")) for r in rows]
    widths = [max(len(str(line[i])) for line in lines) for i in range(5)]

    def cells(line: tuple[str, ...]) -> str:
        return "  ".join(cell.rjust(w) if i == 2 else cell.ljust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True)))

    return "\n".join(cells(tuple(map(str, line))) for line in lines)


def main() -> None:
    """Print the table for every registered game."""
    print(format_table(run()))


if __name__ == "__main__":
    main()
