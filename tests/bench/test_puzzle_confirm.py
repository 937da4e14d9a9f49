"""``python -m bench.puzzle_confirm`` plays, judges and records bot games one JSON line each, skips a game already
recorded when run again (sessions add up), and sums the lines with the confirmed share's interval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.puzzle_confirm import recorded, run, summary
from service.games.analysis import analysis_version
from service.games.demo import demo_setup
from service.games.puzzles import GENERATOR_VERSION

#: The slow tier: a whole Die goldene Stadt game judged at every decision (some 8 CPU-s at this tiny budget).
pytestmark = pytest.mark.slow


def test_games_are_recorded_once_and_summed(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.jsonl"
    assert run("golden_city", 4, minutes=0, path=path) == 1  # a game started is finished, whatever the time
    assert run("golden_city", 4, minutes=0, path=path) == 1, "the next run plays the next game"
    lines = recorded(path)
    assert [line["index"] for line in lines] == [1, 2]
    assert all(line["decisions"] > 50 and 0 <= line["confirmed"] <= line["kept"] for line in lines)
    assert sum(lines[0]["rejected"].values()) + lines[0]["kept"] == lines[0]["decisions"]
    assert all(line["generator"] == GENERATOR_VERSION and len(line["judged"]) >= line["kept"] for line in lines)
    assert all(line["search_version"] == analysis_version("golden_city") for line in lines)
    assert (f"| golden_city | bots | 4 | {GENERATOR_VERSION} | {analysis_version('golden_city')} | 2 | "
            f"{lines[0]['decisions'] + lines[1]['decisions']} |") in summary(path)


def test_a_game_judged_under_another_search_version_is_played_again_and_counted_apart(tmp_path: Path) -> None:
    """A line counts under the analysis's search version too (a game whose verdict settings change is measured anew):
    a line recorded under another version is neither skipped nor summed with today's, and a line naming none (those
    recorded before the version was) counts as version 9's, which Die goldene Stadt's still is."""
    path = tmp_path / "puzzles.jsonl"
    old = {"game": "golden_city", "source": "bots", "index": 1, "rollouts": 4, "generator": GENERATOR_VERSION,
           "search_version": "8", "decisions": 100, "kept": 1, "confirmed": 1}
    unnamed = {key: value for key, value in old.items() if key != "search_version"}
    path.write_text(json.dumps(old) + "\n" + json.dumps({**unnamed, "index": 2}) + "\n")
    assert analysis_version("golden_city") == "9"
    assert run("golden_city", 4, minutes=0, path=path) == 1
    assert [line["index"] for line in recorded(path)] == [1, 2, 1], "game 1 judged again under today's version, not 2"
    table = summary(path)
    assert f"| golden_city | bots | 4 | {GENERATOR_VERSION} | 8 | 1 | 100 |" in table
    assert f"| golden_city | bots | 4 | {GENERATOR_VERSION} | 9 | 2 |" in table


def test_demo_games_are_a_source_of_their_own(tmp_path: Path) -> None:
    """Games played as the demo games are count apart from the bots' (a different sample), from demo game 1 on."""
    path = tmp_path / "puzzles.jsonl"
    assert run("golden_city", 4, minutes=0, path=path) == 1
    assert run("golden_city", 4, minutes=0, path=path, source="demo") == 1
    bots, demo = recorded(path)
    assert (bots["source"], bots["index"], demo["source"], demo["index"]) == ("bots", 1, "demo", 1)
    assert demo["players"] == len(demo_setup("golden_city", 1).players)
    assert "| golden_city | demo | 4 |" in summary(path) and "| golden_city | bots | 4 |" in summary(path)


def test_two_jobs_play_two_games_side_by_side_and_each_is_recorded_once(tmp_path: Path) -> None:
    """``--jobs 2``: two processes play and judge, the bench alone appends, so every line is whole and no game twice."""
    path = tmp_path / "puzzles.jsonl"
    assert run("golden_city", 4, minutes=0, path=path, jobs=2) == 2
    assert run("golden_city", 4, minutes=0, path=path, jobs=2) == 2
    assert sorted(line["index"] for line in recorded(path)) == [1, 2, 3, 4]
