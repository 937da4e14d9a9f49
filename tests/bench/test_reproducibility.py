"""The reproducibility bench (bench.reproducibility): its judged games and its table's arithmetic."""

from __future__ import annotations

import math

import pytest

from bench.reproducibility import GAMES, SEEDS, Plan, bot_game, games_to_judge, judged_game, read_results, run_plan, table


def _line(game: str, index: int, first: dict, second: dict, stage: float = 0.5, actual=(1.0, 0.0)) -> dict:
    return {"game": game, "player": "rollout policy", "rollouts": 200, "search_version": _version(), "index": index,
            "event": 10, "stage": stage, "actor": 0, "played": "x", "actual": list(actual),
            "seeds": {"0": first, "1": second}}


def _version() -> str:
    from engine.analysis import SEARCH_VERSION

    return SEARCH_VERSION


def _verdict(mark, best="a", win=0.5, wins=(0.5, 0.5)) -> dict:
    return {"best": best, "mark": mark, "loss": 0.0, "loss_low": 0.0, "win": win, "wins": list(wins)}


def _value(rows, metric: str) -> float:
    return next(row["value"] for row in rows if row["metric"].startswith(metric))


def test_the_table_counts_both_directions_of_each_pair():
    lines = [
        _line("pig", 0, _verdict("??"), _verdict("?")),           # ?? kept as ?
        _line("pig", 0, _verdict("??"), _verdict(None, best="b", win=0.4)),  # ?? lost; best differs
        _line("pig", 1, _verdict("?!"), _verdict("?!")),          # marked, kept (twice)
        _line("pig", 1, _verdict(None), _verdict(None)),
    ]
    import bench.reproducibility as bench

    rows = bench._reproducibility_rows("pig", lines, "sample")
    assert _value(rows, "?? under one seed") == pytest.approx(50.0)  # of 2 ?? verdicts, one kept
    # marked under one seed: ??→?, ?→??, ??→None, ?!→?!, ?!→?! : 4 of 5 kept
    assert _value(rows, "marked under one seed") == pytest.approx(80.0)
    assert _value(rows, "best move agrees") == pytest.approx(75.0)
    assert _value(rows, "mean |mover's win") == pytest.approx(0.1 / 4)
    assert _value(rows, "bot's own moves marked") == pytest.approx(100 * 3 / 8)


def test_a_lost_mark_says_whether_the_other_seed_evaluated_the_rival_at_all():
    def evaluated(mark, best, moves):
        return {**_verdict(mark, best=best), "evaluated": moves}

    lines = [
        _line("pig", 0, evaluated("?", "roll", ["roll", "x"]), evaluated(None, "x", ["x", "hold"])),  # never saw roll
        _line("pig", 1, evaluated("?!", "roll", ["roll", "x"]), evaluated(None, "x", ["x", "roll"])),  # saw it
        _line("pig", 2, evaluated("?", "roll", ["roll", "x"]), evaluated("?!", "roll", ["roll", "x"])),  # kept
        _line("pig", 3, _verdict("?", best="roll"), _verdict(None, best="x")),  # recorded before: not counted
    ]
    import bench.reproducibility as bench

    rows = bench._reproducibility_rows("pig", lines, "sample")
    assert _value(rows, "marks lost because the other seed never evaluated") == pytest.approx(50.0)


def test_a_lost_mark_says_whether_the_other_seed_named_the_played_move_best():
    lines = [
        _line("pig", 0, _verdict("?", best="roll"), _verdict(None, best="x")),  # "x" is the played move
        _line("pig", 1, _verdict("?!", best="roll"), _verdict(None, best="hold")),  # another move, not confirmed
        _line("pig", 2, _verdict("?", best="roll"), _verdict("?!", best="roll")),  # kept: not a lost mark
    ]
    import bench.reproducibility as bench

    rows = bench._reproducibility_rows("pig", lines, "sample")
    assert _value(rows, "marks lost where the other seed named the played move best") == pytest.approx(50.0)


def test_the_calibration_rows_score_seed_zero_against_the_outcome_by_stage():
    import bench.reproducibility as bench

    lines = [_line("pig", 0, _verdict(None, wins=(1.0, 0.0)), _verdict(None), stage=0.1),
             _line("pig", 1, _verdict(None, wins=(0.0, 1.0)), _verdict(None), stage=0.9)]
    rows = bench._calibration_rows("pig", lines, 2)
    assert [row["metric"].split(",")[1].split()[0] for row in rows] == ["opening", "end"]
    assert [row["value"] for row in rows] == [0.0, 2.0]
    assert all("1/n baseline 0.500" in row["note"] for row in rows)


def test_a_judged_game_gives_both_seeds_verdicts_at_sampled_decisions(tmp_path):
    lines = judged_game("golden_city", 0, rollouts=8, every=40)
    assert lines and all(set(line["seeds"]) == {str(s) for s in SEEDS} for line in lines)
    for line in lines:
        assert 0 <= line["stage"] < 1 and math.isclose(sum(line["actual"]), 1.0)
        assert all(sum(v["wins"]) == pytest.approx(1.0, abs=1e-3) for v in line["seeds"].values())
    assert lines == judged_game("golden_city", 0, rollouts=8, every=40), "a judged game is reproducible"


def test_a_run_appends_and_a_second_run_skips_the_games_already_there(tmp_path):
    path = tmp_path / "verdicts.jsonl"
    plan = Plan(decisions=1, rollouts=8, every=80, minutes=5, jobs=1)
    added = run_plan(plan, path)
    assert added == len(read_results(path)) > 0
    assert run_plan(plan, path) == 0, "every game already has its decisions"
    rows = table(read_results(path), 8)
    assert {row["game"] for row in rows} == {"puerto_rico", "amerigo", "entdecker", "golden_city"}


def test_a_plan_starts_as_many_games_as_reach_the_decisions_and_no_more():
    """Each game's bot game is played first without verdicts to count what it will add: a game is started only while
    its game still lacks decisions (a fixed guess once started twice the games needed in Puerto Rico)."""
    plan = Plan(decisions=12, every=60)
    planned = list(games_to_judge([], plan))
    for game in GAMES:
        adds = [len(bot_game(game, index, plan.every)[1]) for name, index in planned if name == game]
        assert sum(adds) >= plan.decisions > sum(adds[:-1]), (game, adds)
