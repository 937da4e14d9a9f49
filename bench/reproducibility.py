"""Do verdicts survive a second look? Reproducibility and calibration of the analysis (``ludolog bench analysis``).

Games are played by the strongest bot of each game in every seat (``engine.players.offered.strongest_player``
once it exists, else the game's rollout policy; the table says which). At every ``every``-th decision of a game
(the first one offset by the game's index, so the stages mix) the position is judged with the played move under
seed 0 and under seed 1 (:func:`engine.analysis.judge`, full view, the budget given, else the game's default
(:func:`engine.analysis.default_rollouts`); the seeds are the service's
own :func:`service.games.analysis.position_seed`, and the position's own seed, seed 0's, is the ``screen_seed`` of
a game that shares its screening), and one line per decision is appended to :data:`RESULTS`: the
best move, the mark, the mover's and every seat's win chance under each seed, the stage of the game and how the
game ended. The file is in the repository so that several sessions add up: a run skips the games already there
(for the same game, player, budget and the game's search version, :func:`engine.analysis.search_version`) and stops
starting new ones after ``--minutes``.

The table reads the whole file:

* of the moves marked ``??`` under one seed, the share marked ``??`` or ``?`` under the other (target >= 90 %);
* of the moves marked at all under one seed, the share marked under the other (>= 80 %), and of those not marked
  again, the share whose rival (the first seed's best move) the other seed never evaluated: a mark lost to the
  screening (the tree that picks the candidates) rather than to the duel's precision;
* the best move's agreement between the seeds (>= 75 %);
* the mean absolute difference of the mover's win chance (<= 0.03);
* the bot's own moves marked ``?`` or ``??`` (<= 10 %), over both seeds' verdicts;
* calibration: the Brier score (sum over seats of (p - actual share)^2) of seed 0's win chances by stage of the
  game (thirds of its events), beside the uninformed 1/n estimate's.

Every figure comes with its sample size (decisions, games; for the shares, the pairs they are taken of). Run as
``python -m bench.reproducibility [--decisions N] [--rollouts R] [--every K] [--minutes M] [--jobs J] [--games G,H]``
(``--games``: judge only those games, for a small sample where the others cost too much), or ``--table`` to print the
table of what the file holds without playing.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.played import game_positions
from engine import get_rules
from engine.analysis import judge, search_version, win_shares
from engine.analysis.verdict import mark_for
from engine.core.fold import Player
from engine.players.offered import policy_for, strategy_players
from service.games.analysis import analysis_budget, analysis_version, position_seed

GAMES = ("puerto_rico", "amerigo", "entdecker", "golden_city")
SEATS = 4
SEEDS = (0, 1)
STAGES = ("opening", "middle", "end")
RESULTS = Path(__file__).resolve().parent / "results" / "verdicts.jsonl"
Row = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Plan:
    """How much one run adds: decisions per game wanted in the file, the budget, the sampling step, a time cap."""

    decisions: int = 300
    rollouts: int | None = None
    every: int = 6
    minutes: float = 60.0
    jobs: int = 2
    games: tuple[str, ...] = GAMES


def strongest(rules: Any) -> tuple[str, Player]:
    """The strongest strategy bot of the game and its label (:mod:`engine.players.offered`), else the rollout policy."""
    for name, player in strategy_players(rules).items():  # strongest first
        return f"strongest bot ({name})", player
    return "rollout policy", policy_for(rules)


def _verdict_line(rules: Any, state: Any, played: Any, rollouts: int, seed: int, screen_seed: int) -> dict[str, Any]:
    verdict = judge(rules, state, seat=None, rollouts=rollouts, seed=seed, played=played, screen_seed=screen_seed)
    assert verdict.best is not None and verdict.played is not None
    mover = int(verdict.actor)
    return {"best": rules.format_action(verdict.best.action), "mark": mark_for(verdict.played.loss_low),
            "loss": round(verdict.played.loss, 4), "loss_low": round(verdict.played.loss_low, 4),
            "win": round(verdict.win[mover], 4), "wins": [round(p, 4) for p in verdict.win],
            "evaluated": [rules.format_action(move.action) for move in verdict.moves]}


def bot_game(game: str, index: int, every: int) -> tuple[Any, list[tuple[int, Any, Any, int]], int, Any]:
    """Game ``index`` played by the strongest bot in every seat: its rules, the positions of every ``every``-th decision
    (event number, state, the move played, the mover), the game's number of events and its last state. Cheap: no
    verdict is asked."""
    rules = get_rules(game)
    _, player = strongest(rules)
    sampled: list[tuple[int, Any, Any, int]] = []
    decisions = 0
    for events, state, action, actions in game_positions(rules, player, random.Random(40_000 + index), SEATS):
        if actions is not None and len(actions) > 1:
            if decisions % every == index % every:
                sampled.append((events, state, action, int(rules.current_actor(state))))
            decisions += 1
    return rules, sampled, events, state


def judged_game(game: str, index: int, rollouts: int, every: int) -> list[dict[str, Any]]:
    """One game played by the strongest bot in every seat, every ``every``-th decision judged under both seeds."""
    rules, sampled, events, end = bot_game(game, index, every)
    label, _ = strongest(rules)
    outcome = rules.outcome(end)
    assert outcome is not None
    actual = list(win_shares(outcome))
    lines = []
    for at, state, played, actor in sampled:
        position = index * 100_000 + at
        seeds = {str(seed): _verdict_line(rules, state, played, rollouts, position_seed(position, seed),
                                          position_seed(position, 0)) for seed in SEEDS}
        lines.append({"game": game, "player": label, "rollouts": rollouts, "search_version": search_version(rules),
                      "index": index, "event": at, "stage": round(at / events, 4), "actor": actor,
                      "played": rules.format_action(played), "actual": actual, "seeds": seeds})
    return lines


def read_results(path: Path = RESULTS) -> list[dict[str, Any]]:
    """Every line of the results file (none if it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _matching(lines: list[dict[str, Any]], game: str, rollouts: int | None) -> list[dict[str, Any]]:
    budget = analysis_budget(game, rollouts)
    return [line for line in lines if line["game"] == game and line["rollouts"] == budget
            and line["search_version"] == analysis_version(game)]


def games_to_judge(lines: list[dict[str, Any]], plan: Plan) -> Iterator[tuple[str, int]]:
    """(game, index) of the games still to judge, round-robin over the games, until each has enough decisions."""
    have = {game: len(_matching(lines, game, plan.rollouts)) for game in plan.games}
    done = {(game, line["index"]) for game in plan.games for line in _matching(lines, game, plan.rollouts)}
    index = 0
    while any(have[game] < plan.decisions for game in plan.games):
        for game in plan.games:
            if have[game] < plan.decisions and (game, index) not in done:
                yield game, index
                have[game] += len(bot_game(game, index, plan.every)[1])  # what the game will add (its bot game is cheap)
        index += 1


def run_plan(plan: Plan, path: Path = RESULTS) -> int:
    """Judge games until each game has ``plan.decisions`` decisions in the file or the time is up; lines added."""
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + plan.minutes * 60
    todo = games_to_judge(read_results(path), plan)
    added = 0
    with ProcessPoolExecutor(max_workers=plan.jobs) as pool, path.open("a") as out:
        running: set[Future[list[dict[str, Any]]]] = set()
        while True:
            while len(running) < plan.jobs and time.monotonic() < deadline:
                task = next(todo, None)
                if task is None:
                    break
                running.add(pool.submit(judged_game, task[0], task[1], analysis_budget(task[0], plan.rollouts), plan.every))
            if not running:
                return added
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                lines = future.result()
                out.writelines(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
                out.flush()
                added += len(lines)
                if lines:
                    print(f"judged {lines[0]['game']} game {lines[0]['index']}: {len(lines)} decisions", flush=True)


def _share(hits: int, total: int) -> str:
    return f"{100 * hits / total:.0f} % ({hits}/{total})" if total else "no sample"


def _pairs(lines: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Both directions of each decision's two verdicts: (first opinion, second opinion)."""
    for line in lines:
        yield from _directions(line)


def _directions(line: dict[str, Any]) -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """One decision's two verdicts both ways round: (first opinion, second opinion)."""
    first, second = line["seeds"]["0"], line["seeds"]["1"]
    return (first, second), (second, first)


def table(lines: list[dict[str, Any]], rollouts: int | None) -> list[Row]:
    """The reproducibility and calibration rows of every game from the results' lines at ``rollouts`` (None: at each
    game's default budget)."""
    rows: list[Row] = []
    for game in GAMES:
        mine = _matching(lines, game, rollouts)
        if not mine:
            continue
        games = len({line["index"] for line in mine})
        players = ", ".join(sorted({line["player"] for line in mine}))
        sample = f"{len(mine)} decisions of {games} games by {players}, {analysis_budget(game, rollouts)} rollouts, seeds 0 and 1"
        rows += _reproducibility_rows(game, mine, sample) + _calibration_rows(game, mine, games)
    return rows


def agreement_counts(lines: list[dict[str, Any]], game: str, rollouts: int | None) -> tuple[int, int, int, int, int]:
    """For ``game`` at ``rollouts`` (None: its default) under its current search version: the decisions judged, the
    verdicts (of either seed) with any mark, the ``??`` marks of either seed, how many of them the other seed marked
    ``??`` or ``?``, and the decisions whose best move both seeds named (what the analysis panel says of a budget:
    :mod:`service.games.analysis_budgets`)."""
    mine = _matching(lines, game, rollouts)
    marked = sum(verdict["mark"] is not None for line in mine for verdict in line["seeds"].values())
    blunders = [(a, b) for a, b in _pairs(mine) if a["mark"] == "??"]
    kept = sum(b["mark"] in ("??", "?") for _, b in blunders)
    agree = sum(line["seeds"]["0"]["best"] == line["seeds"]["1"]["best"] for line in mine)
    return len(mine), marked, len(blunders), kept, agree


def _row(game: str, metric: str, value: float, unit: str, note: str) -> Row:
    return {"suite": "analysis", "game": game, "metric": metric, "value": value, "unit": unit, "note": note}


def _reproducibility_rows(game: str, lines: list[dict[str, Any]], sample: str) -> list[Row]:
    pairs = list(_pairs(lines))
    blunders = [(a, b) for a, b in pairs if a["mark"] == "??"]
    kept_blunders = sum(b["mark"] in ("??", "?") for _, b in blunders)
    marked = [(a, b) for a, b in pairs if a["mark"]]
    kept_marks = sum(b["mark"] is not None for _, b in marked)
    agree = sum(line["seeds"]["0"]["best"] == line["seeds"]["1"]["best"] for line in lines)
    drift = sum(abs(line["seeds"]["0"]["win"] - line["seeds"]["1"]["win"]) for line in lines) / len(lines)
    verdicts = [v for line in lines for v in line["seeds"].values()]
    serious = sum(v["mark"] in ("?", "??") for v in verdicts)
    light = sum(v["mark"] == "?!" for v in verdicts)
    return [
        _row(game, "?? under one seed kept ?? or ? under the other", _pct(kept_blunders, len(blunders)), "%",
             f"target >= 90 %; {_share(kept_blunders, len(blunders))}; {sample}"),
        _row(game, "marked under one seed, marked under the other", _pct(kept_marks, len(marked)), "%",
             f"target >= 80 %; {_share(kept_marks, len(marked))}"),
        _row(game, "best move agrees between seeds", _pct(agree, len(lines)), "%",
             f"target >= 75 %; {_share(agree, len(lines))}"),
        _row(game, "mean |mover's win chance, seed 0 - seed 1|", drift, "", f"target <= 0.03; {len(lines)} decisions"),
        _row(game, "bot's own moves marked ? or ??", _pct(serious, len(verdicts)), "%",
             f"target <= 10 %; {_share(serious, len(verdicts))} verdicts; ?! on {_share(light, len(verdicts))}"),
        *_lost_mark_rows(game, lines),
    ]


def _lost_mark_rows(game: str, lines: list[dict[str, Any]]) -> list[Row]:
    """Why marks were not repeated: the other seed never evaluated the rival, or named the played move best."""
    lost = [(line, a, b) for line in lines for a, b in _directions(line) if a["mark"] and b["mark"] is None]
    recorded = [(a, b) for _, a, b in lost if "evaluated" in b]
    unseen = sum(a["best"] not in b["evaluated"] for a, b in recorded)
    played_best = sum(b["best"] == line["played"] for line, _, b in lost)
    return [
        _row(game, "marks lost because the other seed never evaluated the rival", _pct(unseen, len(recorded)), "%",
             f"{_share(unseen, len(recorded))} of the marks not repeated (the rest: the rival evaluated, not shown "
             "worse enough); lines since the bench recorded the evaluated moves"),
        _row(game, "marks lost where the other seed named the played move best", _pct(played_best, len(lost)), "%",
             f"{_share(played_best, len(lost))} of the marks not repeated (the rest: the other seed found a better "
             "move but did not confirm the loss)"),
    ]


def _pct(hits: int, total: int) -> float:
    return 100 * hits / total if total else float("nan")


def _brier(estimate: list[float], actual: list[float]) -> float:
    return sum((p - a) ** 2 for p, a in zip(estimate, actual, strict=True))


def _calibration_rows(game: str, lines: list[dict[str, Any]], games: int) -> list[Row]:
    rows: list[Row] = []
    for k, stage in enumerate(STAGES):
        inside = [line for line in lines if k / 3 <= line["stage"] < (k + 1) / 3]
        if not inside:
            continue
        score = sum(_brier(line["seeds"]["0"]["wins"], line["actual"]) for line in inside) / len(inside)
        seats = len(inside[0]["actual"])
        baseline = sum(_brier([1 / seats] * seats, line["actual"]) for line in inside) / len(inside)
        rows.append({"suite": "analysis", "game": game, "metric": f"verdict Brier, {stage} (lower is better)",
                     "value": score, "unit": "", "note": f"1/n baseline {baseline:.3f}; {len(inside)} positions of "
                                                         f"{len({line['index'] for line in inside})} games (of {games})"})
    return rows


def main() -> None:
    """``python -m bench.reproducibility``: add judged games to the results file, then print the table."""
    from bench.table import format_rows

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=Plan.decisions, help="decisions per game wanted in the file")
    parser.add_argument("--rollouts", type=int, default=Plan.rollouts, help="the verdicts' budget (default: each game's)")
    parser.add_argument("--every", type=int, default=Plan.every, help="judge every k-th decision of a game")
    parser.add_argument("--minutes", type=float, default=Plan.minutes, help="start no new game after this long")
    parser.add_argument("--jobs", type=int, default=Plan.jobs)
    parser.add_argument("--games", default=",".join(GAMES), help="the games to judge, comma-separated (default: all)")
    parser.add_argument("--table", action="store_true", help="only print the table of what the file holds")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results file (a smoke run may use another)")
    args = parser.parse_args()
    if not args.table:
        games = tuple(game for game in args.games.split(",") if game)
        unknown = sorted(set(games) - set(GAMES))
        if unknown:
            parser.error(f"unknown games {', '.join(unknown)}: expected some of {', '.join(GAMES)}")
        run_plan(Plan(decisions=args.decisions, rollouts=args.rollouts, every=args.every, minutes=args.minutes,
                      jobs=args.jobs, games=games), args.results)
    print(format_rows(table(read_results(args.results), args.rollouts)))


if __name__ == "__main__":
    main()
