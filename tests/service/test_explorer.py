"""The explorer (issue 49): Wilson intervals, counting finished public games by the real fold and import jobs, once,
and the rebuild command over games stored before."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine import get_rules
from service.games.demo import demo_playout, demo_setup, load_demo
from service.games.explorer import count_game, explorer_table, picks_of, rebuild, wilson_interval
from service.jobs import FoldScheduler, make_queue
from service.store.explorer import ExplorerStore
from service.store.folds import FoldLedger
from service.store.games import MAIN, GameStore
from service.store.results import result_of
from tests.helpers import PATIENCE_SECONDS, ROOT, ludolog_env, run_to_end

PR = "puerto_rico"


@pytest.mark.parametrize(("wins", "count", "low", "high"), [
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998), "Two-sided confidence intervals for the single proportion", ex. 1
    (15, 148, 0.0624, 0.1605),  # ex. 2
    (0, 20, 0.0, 0.1611),       # ex. 3
    (1, 29, 0.0061, 0.1718),    # ex. 4
])
def test_the_wilson_interval_matches_worked_values(wins, count, low, high):
    got = wilson_interval(wins, count)
    assert got == pytest.approx((low, high), abs=0.00006)


def test_no_trials_is_the_whole_interval():
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.fixture
def games(redis_client):
    return GameStore(redis_client)


@pytest.fixture
def explorer(redis_client):
    return ExplorerStore(redis_client)


def store_demo_copy(games: GameStore, gid: str, visibility: str, n: int = 1) -> str:
    """Demo Puerto Rico game ``n`` again, under ``gid`` with ``visibility``."""
    rules, playout = get_rules(PR), demo_playout(PR, n)
    games.create_game(PR, rules.version, demo_setup(PR, n), owner="alice", gid=gid, seed=str(n), visibility=visibility)
    games.append(gid, MAIN, playout.events[1:], 1, ends=result_of(rules, playout.state, demo_setup(PR, n).players))
    return gid


def totals(explorer: ExplorerStore, game: str = PR, players: str = "all") -> dict[tuple[str, str], tuple[int, int]]:
    return {(c.stage, c.choice): (c.count, c.wins) for c in explorer.choices(game, players)}


def test_fold_jobs_count_public_finished_games_once_and_never_private_or_unlisted(games, explorer, redis_client,
                                                                                   redis_server):
    schedule = FoldScheduler(FoldLedger(redis_client), make_queue(redis_client, "ludolog"))
    load_demo(games, 2, on_append=schedule)
    for gid, visibility in (("secret", "private"), ("hushed", "unlisted")):
        schedule(store_demo_copy(games, gid, visibility), MAIN)
    done = run_to_end([sys.executable, "-m", "ludolog.cli", "worker", "--burst", "--no-reconcile"], "a burst worker",
                      cwd=ROOT, env=ludolog_env(redis_server.url))
    assert done.returncode == 0, done.stdout + done.stderr
    assert explorer.games_counted(PR) == 2
    expected: dict[tuple[str, str], list[int]] = {}
    for gid in ("demo-puerto-rico-1", "demo-puerto-rico-2"):
        for pick in picks_of(games, games.game(gid)):
            row = expected.setdefault((pick.stage, pick.choice), [0, 0])
            row[0], row[1] = row[0] + 1, row[1] + pick.won
    assert totals(explorer) == {key: tuple(value) for key, value in expected.items()}
    assert not explorer.is_counted(PR, "secret") and not explorer.is_counted(PR, "hushed")
    table = explorer_table(explorer, PR, stage="round 1 · place 1")
    assert sum(row.count for row in table.rows) == 2  # the governor of each counted game chose once in round 1
    before = totals(explorer)
    assert not count_game(games, explorer, "demo-puerto-rico-1")  # a job run twice counts nothing more
    assert totals(explorer) == before


def test_players_filter_counts_each_player_count_apart(games, explorer):
    load_demo(games, 2)  # demo 1 has five players, demo 2 four
    rebuild(games, explorer)
    five, four, every = (totals(explorer, players=p) for p in ("5", "4", "all"))
    assert five and four
    for key, (count, wins) in every.items():
        assert (count, wins) == tuple(a + b for a, b in zip(five.get(key, (0, 0)), four.get(key, (0, 0)), strict=True))


def test_an_unfinished_game_is_not_counted(games, explorer):
    rules = get_rules(PR)
    playout = demo_playout(PR, 1)
    games.create_game(PR, rules.version, demo_setup(PR, 1), owner="alice", gid="half", seed="1")
    games.append("half", MAIN, playout.events[1:40], 1)
    assert not count_game(games, explorer, "half")
    assert explorer.games_counted(PR) == 0


def test_the_rebuild_command_counts_games_stored_before_with_a_progress_bar(games, explorer, redis_server):
    load_demo(games, 2)  # no fold jobs: as if stored before the explorer
    store_demo_copy(games, "secret", "private")
    done = run_to_end([sys.executable, "-m", "ludolog.cli", "explorer", "rebuild"], "the rebuild", cwd=ROOT,
                      env=ludolog_env(redis_server.url), seconds=PATIENCE_SECONDS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "explorer: 8 games counted" in done.stdout
    assert "counting games" in done.stderr
    assert explorer.games_counted(PR) == 2 and not explorer.is_counted(PR, "secret")
    again = subprocess.run([sys.executable, "-m", "ludolog.cli", "explorer", "rebuild"], cwd=ROOT, capture_output=True,
                           text=True, env=ludolog_env(redis_server.url), timeout=PATIENCE_SECONDS)
    assert "explorer: 0 games counted" in again.stdout
