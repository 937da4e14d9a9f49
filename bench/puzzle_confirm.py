"""The puzzle generator on games the strategy bots play (issue 49's "done when"): its yield, and how often a third
judgement confirms what it kept (target: at least 95 %).

Game ``index`` of a game, from one of two sources (``--source``):

- ``bots``: its strategy bots, one per seat (the game's bots in turn, from seat ``index``), play a three-player game
  from seed ``index``. They seldom make a mistake the analysis can call clear, so they keep few puzzles.
- ``demo``: the game's ``index``-th demo game, played as the service's demo games are (its declared demo player, else
  uniform random play; indices 1 to 5 are the demo games the service holds, the next ones more games played alike).
  Their many mistakes give the confirmation rate a sample of some size.

Every decision is analysed as the analysis job analyses it (the full view, seed
0, the budget given), the generator's criteria and its confirming judgement decide whether it is kept
(:mod:`bench.puzzle_yield`'s loop), and each kept puzzle is judged a third time: the mover's view, a third seed, four
times the budget. Confirmed when that judgement passes the generator's criteria (at their bounds: the replication
margin is the generator's own, not asked of the test) with the same best move (or one the game treats as the same).
The positions are found and judged as :mod:`bench.puzzle_yield` finds and judges a demo game's (its ``decisions`` and
``decide``).

Each line names the generator's version (:data:`service.games.puzzles.GENERATOR_VERSION`; a line without one is
version 1) and, for every decision that reached the confirming judgement, what that judgement and the third found
(``judged``: the played move's loss interval, the best move's smallest lead and interval gap over another move, and
whether each passed), so that a rule is judged on the evidence, and the summary counts each version apart.

A game is minutes of CPU, and a hundred are hours: each game's result is appended as one JSON line to
``bench/results/puzzles.jsonl`` as soon as it is done, so runs in several sessions (and on several machines) add up;
a game already recorded (same game, index and budget) is not played again. ``--jobs 2`` plays two games at a time.

    python -m bench.puzzle_confirm --game golden_city --rollouts 50 --minutes 30
    python -m bench.puzzle_confirm --game golden_city --rollouts 400 --source demo --minutes 60
    python -m bench.puzzle_confirm --game golden_city --rollouts 400 --minutes 45 --jobs 2
    python -m bench.puzzle_confirm --summary
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from bench.puzzle_yield import decide, decisions
from engine import Event, Setup, get_rules, is_compiled, random_playout
from engine.analysis import wilson_interval
from engine.players.offered import strategy_players
from service.games.analysis import analysis_version
from service.games.demo import demo_playout
from service.games.puzzles import CONFIRM_SEED, GENERATOR_VERSION, Generator, same_moves

RESULTS = Path(__file__).with_name("results") / "puzzles.jsonl"
PLAYERS = 3
#: The search version of every line recorded before lines named theirs (Puerto Rico's and Die goldene Stadt's then).
UNRECORDED_SEARCH_VERSION = "9"
#: The third judgement's seed: neither the analysis's (0) nor the generator's confirmation's.
THIRD_SEED = CONFIRM_SEED + 1


def bot_game(game: str, index: int) -> list[Event]:
    """Game ``index``'s events, played by the game's strategy bots (one per seat, in turn of the game's list from seat
    ``index``) from seed ``index``."""
    rules = get_rules(game)
    bots = list(strategy_players(rules).values())
    players = [bots[(index + seat) % len(bots)] for seat in range(PLAYERS)]

    def seated(state: Any, actions: list[Any], rng: random.Random) -> Any:
        return players[int(rules.current_actor(state))](state, actions, rng)

    setup = Setup(tuple(f"P{i}" for i in range(PLAYERS)))
    return random_playout(rules, setup, random.Random(index), check=False, player=seated).events


def demo_game(game: str, index: int) -> list[Event]:
    """Game ``index``'s events, played as the service plays its demo games (:func:`service.games.demo.demo_playout`)."""
    return list(demo_playout(game, index).events)


#: Where the bench's games come from: the played game's events for (game, index).
SOURCES: dict[str, Callable[[str, int], list[Event]]] = {"bots": bot_game, "demo": demo_game}


def game_record(game: str, index: int, rollouts: int, source: str = "bots") -> dict[str, Any]:
    """Game ``index``'s line: decisions, kept, rejections by criterion, kept ones confirmed by the third judgement."""
    started = time.process_time()
    counts: Counter[str] = Counter()
    confirmed = 0
    judged: list[dict[str, Any]] = []
    events = SOURCES[source](game, index)
    for rules, state, position in decisions(events):
        decided = decide(rules, state, position, rollouts)
        counts[decided.reason or "kept"] += 1
        if decided.confirming is None:
            continue
        third = Generator._confirm(rules, state, position, rollouts, seed=THIRD_SEED)
        holds = Generator._confirmation_fails(rules, state, decided.first, third, margin_z=0.0) is None
        confirmed += decided.reason is None and holds
        judged.append({"seq": position.seq, "kept": decided.reason is None,
                       "second": evidence(rules, state, decided.confirming), "third": evidence(rules, state, third),
                       "third_holds": holds})
    return {"game": game, "source": source, "index": index, "rollouts": rollouts,
            "players": len(events[0].data["setup"]["players"]),
            "generator": GENERATOR_VERSION, "search_version": analysis_version(game),
            "decisions": sum(counts.values()), "kept": counts["kept"], "confirmed": confirmed,
            "rejected": {k: v for k, v in sorted(counts.items()) if k != "kept"}, "judged": judged,
            "cpu_s": round(time.process_time() - started, 1), "compiled": is_compiled(),
            "when": time.strftime("%Y-%m-%d %H:%M")}


def evidence(rules: Any, state: Any, verdict: dict[str, Any]) -> dict[str, Any]:
    """What a judgement says on the criteria: its best move, the played move's loss interval, and the best move's
    smallest lead over another move and smallest gap between their intervals (None with no other move)."""
    best = verdict["moves"][0]
    same = same_moves(rules, state, rules.parse_action(best["action"]))
    played = next((m for m in verdict["moves"] if m["action"] == verdict.get("played")), None)
    others = [m for m in verdict["moves"][1:] if not same(m["action"])]
    return {"best": best["action"], "loss_ci": [round(x, 4) for x in played["loss_ci"]] if played else None,
            "lead": round(min(best["win"] - m["win"] for m in others), 4) if others else None,
            "gap": round(min(best["ci"][0] - m["ci"][1] for m in others), 4) if others else None}


def recorded(path: Path = RESULTS) -> list[dict[str, Any]]:
    """Every game recorded so far (every generator version's)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _key(line: dict[str, Any]) -> tuple[str, str, int, int, str]:
    """What a line counts under: its game, source, budget, generator version and the analysis's search version (the
    verdicts the generator reads and its judgements are made under). The first lines name none of the last three (bot
    games, generator 1); the lines before the search version was recorded were all judged under version 9."""
    return (line["game"], line.get("source", "bots"), line["rollouts"], line.get("generator", 1),
            line.get("search_version", UNRECORDED_SEARCH_VERSION))


def run(game: str, rollouts: int, minutes: float, path: Path = RESULTS, source: str = "bots", jobs: int = 1) -> int:
    """Play, judge and record games of ``game`` from ``source`` not recorded yet, in index order, until ``minutes`` have
    passed (one game at least; a game started is finished); how many were recorded. With ``jobs`` above 1 that many
    processes play and judge games side by side; this process alone appends their lines, one whole line at a time."""
    done = {(_key(r), r["index"]) for r in recorded(path)}
    key = (game, source, rollouts, GENERATOR_VERSION, analysis_version(game))
    todo = (index for index in range(1, 10_000) if (key, index) not in done)
    deadline = time.monotonic() + 60 * minutes
    added = 0
    with ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else _InProcess() as pool:
        running = {pool.submit(game_record, game, next(todo), rollouts, source) for _ in range(jobs)}
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                _append(path, future.result())
                added += 1
                if time.monotonic() < deadline:  # a short run still adds its first games
                    running.add(pool.submit(game_record, game, next(todo), rollouts, source))
    return added


def _append(path: Path, line: dict[str, Any]) -> None:
    """Record one game's line and say so."""
    with path.open("a") as out:
        out.write(json.dumps(line) + "\n")
    print(f"{line['game']} ({line['source']}) #{line['index']}: {line['decisions']} decisions, {line['kept']} kept, "
          f"{line['confirmed']} confirmed by a third judgement; {line['cpu_s']} CPU-s", flush=True)


class _InProcess:
    """An executor of one that runs each task when it is submitted, in this process (``--jobs 1``: no pool to start,
    and a profile or a debugger sees the work)."""

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, task: Callable[..., dict[str, Any]], *args: Any) -> Future[dict[str, Any]]:
        """``task(*args)``, already done."""
        future: Future[dict[str, Any]] = Future()
        future.set_result(task(*args))
        return future


def summary(path: Path = RESULTS) -> str:
    """Per game, source, budget, generator version and search version: games, decisions, kept (the yield), confirmed
    by the third judgement, with the confirmed share's 95 % Wilson interval."""
    totals: dict[tuple[str, str, int, int, str], Counter[str]] = {}
    for line in recorded(path):
        total = totals.setdefault(_key(line), Counter())
        total.update(games=1, decisions=line["decisions"], kept=line["kept"], confirmed=line["confirmed"])
    rows = ["| game | games by | rollouts | generator | search version | games | decisions | kept (yield) | confirmed "
            "| confirmed share, 95 % |",
            "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |"]
    for (game, source, rollouts, generator, version), t in sorted(totals.items()):
        share = "no puzzle kept yet"
        if t["kept"]:
            low, high = wilson_interval(t["confirmed"], t["kept"])
            share = f"{100 * t['confirmed'] / t['kept']:.0f} % ({100 * low:.0f}-{100 * high:.0f} %)"
        rows.append(f"| {game} | {source} | {rollouts} | {generator} | {version} | {t['games']} | {t['decisions']} | {t['kept']} "
                    f"({100 * t['kept'] / max(1, t['decisions']):.1f} %) | {t['confirmed']} | {share} |")
    return "\n".join(rows)


def main() -> None:
    """``python -m bench.puzzle_confirm``: record more games, or print the summary."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="golden_city")
    parser.add_argument("--rollouts", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--source", choices=sorted(SOURCES), default="bots",
                        help="bots: the strategy bots' games; demo: games played as the demo games are")
    parser.add_argument("--jobs", type=int, default=1, help="games played and judged side by side (one per core)")
    parser.add_argument("--summary", action="store_true")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if not args.summary:
        run(args.game, args.rollouts, args.minutes, source=args.source, jobs=args.jobs)
    print(summary())


if __name__ == "__main__":
    main()
