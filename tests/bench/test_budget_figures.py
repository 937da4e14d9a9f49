"""The figures the analysis panel gives of a budget (each game's declared ``analysis_measured``, read by
:func:`service.games.analysis_budgets.measured`) are the ones the
reproducibility bench's results file gives now, under each game's current search version; and ``--games`` judges only
the games it names (how the small samples at 50 rollouts were taken)."""

from __future__ import annotations

from itertools import islice

from bench.reproducibility import Plan, agreement_counts, games_to_judge, read_results
from engine import get_rules, registered_games
from service.games.analysis_budgets import Measured, budget_note, measured


def test_each_measured_figure_is_what_the_results_file_says_under_the_current_search_version():
    lines = read_results()
    declared = [(game, rollouts) for game in registered_games() for rollouts in get_rules(game).declaration.analysis_measured]
    for game, rollouts in declared:
        assert Measured(*agreement_counts(lines, game, rollouts)) == measured(game, rollouts), (game, rollouts)
    assert ("puerto_rico", 50) in declared, "the budget the issue names is measured for the game it was seen in"


def test_the_report_says_a_budget_below_the_default_is_small_with_both_measurements():
    note = budget_note("puerto_rico", 50)
    assert note["small"] and note["default"] == 200
    assert note["measured"]["decisions"] == measured("puerto_rico", 50).decisions
    assert note["at_default"]["blunders_kept_pct"] == 98 and note["at_default"]["best_agrees_pct"] == 93
    assert note["at_default"]["marked_pct"] == 9 and note["measured"]["marked_pct"] == 1
    assert budget_note("puerto_rico", 200)["small"] is False
    assert budget_note("pig", 50)["measured"] is None, "a game never measured has no figures to give"


def test_games_judges_only_the_games_it_names():
    todo = list(islice(games_to_judge([], Plan(decisions=10_000, rollouts=50, games=("golden_city",))), 3))
    assert todo == [("golden_city", 0), ("golden_city", 1), ("golden_city", 2)]
