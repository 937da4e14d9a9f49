"""How long an engine seat thinks per move, by game and level (``ludolog bench engine-think``; issue 46 item 4).

The figure a table's page says beside "the engine is thinking" ("about N s") is measured where the site runs: the
running mean of each level's searches (:class:`service.store.engine_status.EngineStatus`). This suite gives the same
measure on this machine without a table: for each game, positions of its first demo game spread over the game
(:data:`FRACTIONS` of its decisions), and at each the engine's move for the seat to act at each level, timed as the
worker times it (:func:`service.games.seating.choose_engine_move` from the seat's own information, seeded as the
worker seeds it). The rows give the median and the slowest of a level's moves per game and say which engine build ran
(pure or compiled): a move early in a long game searches longer playouts than one near its end.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.table import Row, format_rows
from engine import CHANCE, apply_event, is_compiled, start
from service.games.demo import demo_playout
from service.games.seating import LEVELS, choose_engine_move, engine_seed

GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")
#: Where in a game (a share of its decisions) the moves are timed.
FRACTIONS = (0.05, 0.3, 0.55, 0.8)
QUICK_FRACTIONS = (0.3,)


def positions(game: str, fractions: tuple[float, ...]) -> list[tuple[Any, Any, int]]:
    """(rules, state, seat to act) at ``fractions`` of the decisions of ``game``'s first demo game."""
    playout = demo_playout(game, 1)
    rules, state = start(playout.events[0])
    decisions = []
    for event in playout.events[1:]:
        actor = rules.current_actor(state)
        if actor != CHANCE and isinstance(actor, int) and len(rules.legal_actions(state)) > 1:
            decisions.append((state, actor))
        state = apply_event(rules, state, event, check=False)
    picked = sorted({min(len(decisions) - 1, int(f * len(decisions))) for f in fractions})
    return [(rules, decisions[i][0], decisions[i][1]) for i in picked]


def time_level(game: str, level: str, fractions: tuple[float, ...]) -> list[float]:
    """Seconds of the engine's move at ``level`` at each position of ``game``."""
    times = []
    for rules, state, seat in positions(game, fractions):
        began = time.process_time()
        choose_engine_move(rules, state, seat, level, engine_seed(rules, state, seat))
        times.append(time.process_time() - began)
    return times


def run(*, quick: bool = False, games: tuple[str, ...] = GAMES, levels: tuple[str, ...] = tuple(LEVELS)) -> list[Row]:
    """The suite's rows: per game and level, the median and the slowest move (CPU seconds)."""
    fractions = QUICK_FRACTIONS if quick else FRACTIONS
    build = "compiled" if is_compiled() else "pure"
    rows: list[Row] = []
    for game in games:
        for level in levels:
            times = time_level(game, level, fractions)
            note = f"{build} engine, {len(times)} positions over the demo game, CPU seconds"
            rows.append({"suite": "think", "game": game, "metric": f"{level} move, median", "value": statistics.median(times),
                         "unit": "s", "note": note})
            rows.append({"suite": "think", "game": game, "metric": f"{level} move, slowest", "value": max(times),
                         "unit": "s", "note": note})
    return rows


def main() -> None:
    """``python -m bench.engine_think [--quick] [game ...]``."""
    import sys

    args = [a for a in sys.argv[1:] if a != "--quick"]
    print(format_rows(run(quick="--quick" in sys.argv, games=tuple(args) or GAMES)), flush=True)


if __name__ == "__main__":
    main()
