"""The search player measured (``ludolog bench analysis``): strength, calibration and speed, per game.

* **strength**: 4-player games, the search player (:func:`engine.analysis.search` for its own seat,
  over determinisations of what it cannot see) against three uniform-random players and against
  three of the game's default rollout players; the search player's seat rotates game by game. The
  figure is its mean win share (a shared first place counts 1/k) with a 95 % Wilson interval; 25 %
  is par.
* **calibration**: games played by the search player in every seat; at every ``every``-th decision the
  searcher's estimated win probabilities are recorded, and once the game is over each estimate's
  Brier score (sum over seats of (p - actual share)^2) is averaged by stage of the game (thirds of
  its events), beside the same score of the uninformed 1/n estimate.
* **speed**: rollouts (search iterations, each a playout to the end) per second on one core, from
  positions spread over a seeded game; from it, the time two workers need for the decisions of a
  450-event Puerto Rico game at the default budget (an estimate: decisions x budget / (2 x rate)).
* **end to end** (:mod:`bench.end_to_end`): the ~450-event Puerto Rico demo game analysed at the default budget by
  two real ``ludolog worker`` processes on an embedded Redis, asked for with ``ludolog analyze``: the wall time
  against issue 30's <= 60 s, the CPU time, the decisions and marks, the load average before and after.
* **rollout policy**: the game's default rollout policy in one seat against three uniform-random
  players (seats rotated), to show it plays better than random (25 % is par).
* **verdicts**: the CPU time of judging every decision of a seeded 450-event Puerto Rico game at the
  default budget (:func:`engine.analysis.judge`, as the analysis jobs do), halved for two workers.
* **reproducibility** (:mod:`bench.reproducibility`): decisions of games played by the strongest bot,
  judged under two seeds; whether marks and best moves survive the second look, and the verdicts'
  calibration. Its results file in the repository grows run by run; the table reads all of it.

Games are spread over a process pool (``--jobs``, default 2: the machine's cores). ``--quick`` is a
smoke run (a few games, tiny budgets; calibration games are then played by the rollout policy rather
than the searcher, to stay fast), never figures for the record. Run as ``python -m bench.analysis``
for the options (games, budget) or through ``ludolog bench analysis [--quick]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import end_to_end, reproducibility
from bench.played import opening, seated_positions
from bench.strength import search_player
from engine import get_rules, is_compiled
from engine.analysis import DEFAULT_ROLLOUTS, judge, search, wilson_interval, win_shares
from engine.core.fold import Player, uniform_player
from engine.players.offered import policy_for

GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")
SEATS = 4
STAGES = ("opening", "middle", "end")
Row = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Budget:
    """How much one bench run spends."""

    games: int
    rollouts: int
    calibration_games: int
    calibration_rollouts: int
    speed_rollouts: int
    every: int
    searcher_calibration: bool
    policy_games: int = 200


QUICK = Budget(games=1, rollouts=8, calibration_games=1, calibration_rollouts=8, speed_rollouts=12, every=40,
               searcher_calibration=False, policy_games=8)
#: The recorded run (docs/PERFORMANCE.md): about half an hour on two busy cores. The issue's 200 games per game at
#: the default budget would take days here; raise ``--games`` / ``--rollouts`` on a bigger machine.
FULL = Budget(games=6, rollouts=25, calibration_games=1, calibration_rollouts=16, speed_rollouts=60, every=8,
              searcher_calibration=True)


def _play(rules: Any, players: list[Player], seed: int,
          observe: Callable[[Any, int], None] | None = None) -> tuple[tuple[float, ...], int]:
    """One game with one Player per seat, ``observe`` shown every decision's position (forced ones too) and its event
    number; every seat's win share and the number of events."""
    for events, state, _, actions in seated_positions(rules, players, random.Random(seed)):
        if observe is not None and actions is not None:
            observe(state, events)
    outcome = rules.outcome(state)  # the last position is the final state
    assert outcome is not None
    return win_shares(outcome), events


def strength_game(game: str, opponents: str, index: int, rollouts: int) -> float:
    """The search player's win share in game ``index`` (its seat: ``index`` mod 4) against ``opponents``."""
    rules = get_rules(game)
    seat = index % SEATS
    other = uniform_player if opponents == "random" else policy_for(rules)
    players = [search_player(rules, s, rollouts, index) if s == seat else other for s in range(SEATS)]
    shares, _ = _play(rules, players, seed=10_000 + index)
    return shares[seat]


def calibration_game(game: str, index: int, rollouts: int, every: int, searcher: bool) -> list[tuple[float, float, float]]:
    """(stage fraction, Brier of the search, Brier of 1/n) for the positions sampled in one self-play game."""
    rules = get_rules(game)
    players = [search_player(rules, s, rollouts, 7 * index + s) if searcher else policy_for(rules) for s in range(SEATS)]
    estimates: list[tuple[int, tuple[float, ...]]] = []
    decisions = [0]

    def observe(state: Any, events: int) -> None:
        decisions[0] += 1
        if decisions[0] % every == 0:
            actor = rules.current_actor(state)
            estimates.append((events, search(rules, state, seat=actor, rollouts=rollouts, seed=index).win))

    shares, total = _play(rules, players, seed=20_000 + index, observe=observe)
    uniform = 1.0 / SEATS
    return [(events / total, _brier(win, shares), _brier((uniform,) * SEATS, shares)) for events, win in estimates]


def _brier(estimate: tuple[float, ...], actual: tuple[float, ...]) -> float:
    return sum((p - a) ** 2 for p, a in zip(estimate, actual, strict=True))


def speed(game: str, rollouts: int) -> float:
    """Rollouts per second on one core, over five positions spread along a seeded game."""
    rules = get_rules(game)
    positions: list[Any] = []
    _play(rules, [policy_for(rules)] * SEATS, seed=1, observe=lambda state, events: positions.append(state))
    picked = [positions[len(positions) * k // 6] for k in range(1, 6)]
    begin = time.perf_counter()
    for k, state in enumerate(picked):
        search(rules, state, seat=rules.current_actor(state), rollouts=rollouts, seed=k)
    return rollouts * len(picked) / (time.perf_counter() - begin)


def policy_games(game: str, count: int) -> float:
    """The rollout policy's mean win share in ``count`` games against three uniform-random players, seats rotated."""
    rules = get_rules(game)
    total = 0.0
    for index in range(count):
        seat = index % SEATS
        players = [policy_for(rules) if s == seat else uniform_player for s in range(SEATS)]
        total += _play(rules, players, seed=30_000 + index)[0][seat]
    return total


def pr_decisions(events: int = 450) -> int:
    """Decisions (two or more legal moves) in the first ``events`` events of a seeded Puerto Rico game."""
    return sum(1 for _, _, _, actions in opening(get_rules("puerto_rico"), events) if actions is not None and len(actions) > 1)


def verdict_seconds(rollouts: int, events: int = 450) -> tuple[float, int]:
    """CPU seconds to judge every decision (with the move played) of a seeded ``events``-event Puerto Rico game, and
    the number of decisions; process time, so that other load on the machine inflates it little."""
    rules = get_rules("puerto_rico")
    count, spent = 0, 0.0
    for seq, state, action, actions in opening(rules, events):
        if actions is not None and len(actions) > 1:
            begin = time.process_time()
            judge(rules, state, seat=None, rollouts=rollouts, seed=seq, played=action)
            spent += time.process_time() - begin
            count += 1
    return spent, count


def _verdict_rows(rollouts: int) -> list[Row]:
    seconds, count = verdict_seconds(rollouts)
    build = "compiled" if is_compiled() else "pure"
    return [{"suite": "analysis", "game": "puerto_rico", "metric": "450-event game judged, 2 workers (CPU s / 2)",
             "value": seconds / 2, "unit": "s", "note": f"{count} decisions x {rollouts} rollouts, {build} engine, "
                                                         f"{seconds:.0f} CPU s; target <= 60 s at the default budget"}]


def _reproducibility_rows(quick: bool) -> list[Row]:
    if quick:  # a smoke run into a file of its own, thrown away: never figures for the record
        import tempfile

        plan = reproducibility.Plan(decisions=3, rollouts=16, every=60, minutes=1)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "verdicts.jsonl"
            reproducibility.run_plan(plan, path)
            return reproducibility.table(reproducibility.read_results(path), plan.rollouts)
    plan = reproducibility.Plan()
    reproducibility.run_plan(plan)
    return reproducibility.table(reproducibility.read_results(), plan.rollouts)


def _speed_rows(budget: Budget) -> list[Row]:
    build = "compiled" if is_compiled() else "pure"  # the two differ ~2x in speed: say which one ran
    rows: list[Row] = []
    for game in GAMES:
        rate = speed(game, budget.speed_rollouts)
        rows.append({"suite": "analysis", "game": game, "metric": "rollouts per second, one core", "value": rate,
                     "unit": "rollouts/s", "note": f"{build} engine"})
        if game == "puerto_rico":
            decisions = pr_decisions()
            rows.append({"suite": "analysis", "game": game, "metric": "450-event game, 2 workers, default budget (est.)",
                         "value": decisions * DEFAULT_ROLLOUTS / (2 * rate), "unit": "s",
                         "note": f"{decisions} decisions x {DEFAULT_ROLLOUTS} rollouts / (2 x {rate:.0f}/s)"})
        wins = policy_games(game, budget.policy_games)
        low, high = wilson_interval(wins, budget.policy_games)
        rows.append({"suite": "analysis", "game": game, "metric": "rollout policy vs 3 random players (win share)",
                     "value": 100 * wins / budget.policy_games, "unit": "%",
                     "note": f"95% CI {100 * low:.0f}-{100 * high:.0f} %, {budget.policy_games} games"})
    return rows


def _strength_rows(pool: ProcessPoolExecutor, budget: Budget) -> list[Row]:
    jobs = {(game, opp): [pool.submit(strength_game, game, opp, i, budget.rollouts) for i in range(budget.games)]
            for game in GAMES for opp in ("random", "rollout")}
    rows = []
    for (game, opponents), futures in jobs.items():
        shares = [f.result() for f in futures]
        print(f"strength {game} vs {opponents}: {shares}", file=sys.stderr, flush=True)
        low, high = wilson_interval(sum(shares), len(shares))
        rows.append({"suite": "analysis", "game": game, "metric": f"strength vs 3 {opponents} players (win share)",
                     "value": 100 * sum(shares) / len(shares), "unit": "%",
                     "note": f"95% CI {100 * low:.0f}-{100 * high:.0f} %, {len(shares)} games, {budget.rollouts} rollouts/move"})
    return rows


def _calibration_rows(pool: ProcessPoolExecutor, budget: Budget) -> list[Row]:
    jobs = {game: [pool.submit(calibration_game, game, i, budget.calibration_rollouts, budget.every,
                               budget.searcher_calibration) for i in range(budget.calibration_games)] for game in GAMES}
    rows = []
    for game, futures in jobs.items():
        samples = [sample for f in futures for sample in f.result()]
        print(f"calibration {game}: {len(samples)} positions", file=sys.stderr, flush=True)
        for k, stage in enumerate(STAGES):
            inside = [s for s in samples if k / 3 <= s[0] < (k + 1) / 3]
            if not inside:
                continue
            search_brier = sum(s[1] for s in inside) / len(inside)
            baseline = sum(s[2] for s in inside) / len(inside)
            rows.append({"suite": "analysis", "game": game, "metric": f"Brier, {stage} (lower is better)",
                         "value": search_brier, "unit": "",
                         "note": f"1/n baseline {baseline:.3f}, {len(inside)} positions"})
    return rows


def run(*, quick: bool = False, budget: Budget | None = None, jobs: int = 2) -> list[Row]:
    """Every row of the suite: speed, verdicts, the end-to-end analysis, strength, calibration and reproducibility."""
    budget = budget or (QUICK if quick else FULL)
    rows = _speed_rows(budget) + _verdict_rows(8 if quick else DEFAULT_ROLLOUTS) + end_to_end.run(quick=quick)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        rows += _strength_rows(pool, budget)
        rows += _calibration_rows(pool, budget)
    return rows + _reproducibility_rows(quick)


def main() -> None:
    """``python -m bench.analysis [--quick] [--games N] [--rollouts N] …``: print the table."""
    from bench.table import format_rows

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, help="strength games per game and opponent kind")
    parser.add_argument("--rollouts", type=int, help="the search player's budget in strength games")
    parser.add_argument("--calibration-games", type=int)
    parser.add_argument("--calibration-rollouts", type=int, help="the self-playing searchers' budget")
    parser.add_argument("--policy-games", type=int, help="games of the rollout policy against random players")
    parser.add_argument("--only", choices=("speed", "verdicts", "end-to-end", "all"), default="all",
                        help="speed: only the speed and policy rows; verdicts: only the judged 450-event game; "
                             "end-to-end: only the demo game analysed by two real workers (bench/end_to_end.py)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    base = QUICK if args.quick else FULL
    budget = Budget(games=args.games or base.games, rollouts=args.rollouts or base.rollouts,
                    calibration_games=args.calibration_games or base.calibration_games,
                    calibration_rollouts=args.calibration_rollouts or base.calibration_rollouts, speed_rollouts=base.speed_rollouts,
                    every=base.every, searcher_calibration=base.searcher_calibration,
                    policy_games=args.policy_games or base.policy_games)
    if args.only == "speed":
        rows = _speed_rows(budget)
    elif args.only == "verdicts":
        rows = _verdict_rows(args.rollouts or DEFAULT_ROLLOUTS)
    elif args.only == "end-to-end":
        rows = end_to_end.run(quick=args.quick)
    else:
        rows = run(quick=args.quick, budget=budget, jobs=args.jobs)
    print(format_rows(rows))


if __name__ == "__main__":
    main()
