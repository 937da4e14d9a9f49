"""The strength bench: Wald's sequential test, the results file that sessions add to, the table."""

from __future__ import annotations

import json
import math
from pathlib import Path

from bench.strength import (
    MARGIN,
    Match,
    bounds,
    format_table,
    llr,
    load,
    matches,
    run_matches,
    sprt_state,
)
from engine.analysis import PLAYER_VERSION, SEARCH_VERSION


def test_bounds_are_walds_for_five_percent_errors():
    low, high = bounds(0.05, 0.05)
    assert math.isclose(low, math.log(0.05 / 0.95)) and math.isclose(high, math.log(0.95 / 0.05))
    assert math.isclose(low, -2.944, abs_tol=1e-3)


def test_llr_counts_a_shared_first_place_as_part_of_a_win():
    p0, p1 = 1 / 3, 1 / 3 + MARGIN
    assert math.isclose(llr([1.0], p0, p1), math.log(p1 / p0))
    assert math.isclose(llr([0.0], p0, p1), math.log((1 - p1) / (1 - p0)))
    assert math.isclose(llr([0.5], p0, p1), 0.5 * llr([1.0], p0, p1) + 0.5 * llr([0.0], p0, p1))


def test_the_test_decides_for_a_winner_and_for_a_player_at_par_and_waits_in_between():
    par = 1 / 3
    assert sprt_state([1.0] * 12, par) == "H1 accepted"
    assert sprt_state([0.0] * 30, par) == "H0 accepted"
    assert sprt_state([1.0, 0.0, 0.0], par) == "running"
    # a searcher winning half its games is accepted as at least par + 15 points before 100 games
    half = [1.0, 0.0] * 50
    first = next(n for n in range(1, 101) if sprt_state(half[:n], par) != "running")
    assert sprt_state(half[:first], par) == "H1 accepted"


def test_games_are_appended_and_a_second_session_adds_to_the_first(tmp_path: Path):
    results = tmp_path / "strength.jsonl"
    match = Match("puerto_rico", "shipping")
    assert match in matches(("puerto_rico",))
    rows = run_matches([match], minutes=5, rollouts=2, path=results, max_games=2, report=lambda line: None)
    assert rows[0]["games"] == 2
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [line["index"] for line in lines] == [0, 1] and [line["seat"] for line in lines] == [0, 1]
    assert {line["search_version"] for line in lines} == {SEARCH_VERSION} and {line["rollouts"] for line in lines} == {2}
    assert {line["player_version"] for line in lines} == {PLAYER_VERSION}
    assert all(set(line) >= {"game", "bot", "seats", "seed", "winners", "scores", "commit", "player"} for line in lines)
    assert {line["player"] for line in lines} == {"verdict"}
    rows = run_matches([match], minutes=5, rollouts=2, path=results, max_games=3, report=lambda line: None)
    assert rows[0]["games"] == 3 and len(results.read_text().splitlines()) == 3
    assert json.loads(results.read_text().splitlines()[2])["index"] == 2  # a new game, not a repeat of game 0
    assert "puerto_rico" in format_table(rows, 2) and rows[0]["state"] in ("running", "H0 accepted", "H1 accepted")


def test_only_lines_of_the_current_player_version_budget_and_player_count(tmp_path: Path):
    """Games count by the version of the search player's own choice: a line written before lines named it counts
    by its search version, which was the player's then."""
    results = tmp_path / "strength.jsonl"
    line = {"game": "puerto_rico", "bot": "shipping", "seat": 0, "index": 0, "share": 1.0, "scores": [3, 2, 1]}
    kept = ((PLAYER_VERSION, 200, "verdict"), ("0", 200, "verdict"), (PLAYER_VERSION, 50, "verdict"),
            (PLAYER_VERSION, 200, "tree"))
    lines = [json.dumps({**line, "search_version": v, "rollouts": r, "player": p}) for v, r, p in kept]
    lines.append(json.dumps({**line, "search_version": PLAYER_VERSION, "rollouts": 200}))  # before players were named
    lines.append(json.dumps({**line, "search_version": "99", "player_version": PLAYER_VERSION, "rollouts": 200,
                             "player": "verdict"}))  # a later search version that left the player's choice alone
    lines.append(json.dumps({**line, "search_version": PLAYER_VERSION, "player_version": "0", "rollouts": 200,
                             "player": "verdict"}))
    results.write_text("\n".join(lines) + "\n{torn")
    assert len(load(results, 200)) == 2 and len(load(results, 50)) == 1
    assert len(load(results, 200, kind="tree")) == 2, "a line that names no player is the tree's"


def test_the_cli_takes_strength_only_with_the_analysis_suite():
    from click.testing import CliRunner

    from ludolog.cli import cli

    result = CliRunner().invoke(cli, ["bench", "store", "--strength"])
    assert result.exit_code == 2 and "--strength goes with the analysis suite" in result.output
