"""The analysis panel's comforts (issue 46) in headless Chromium: the time left while it runs ("estimating…" before the
first decision is done), cancelling it from the panel (only for who asked, or the game's owner) with the decisions
done kept, the note on how unsure a budget below the game's default is (before the run and after), and the best moves
by win chance with the reason said wherever the engine's choice is listed above a higher chance."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import Setup, get_rules
from service.games.analysis import Position, analysis_version, decisions
from service.games.analysis_budgets import measured as measured_at
from service.jobs import analysis_queue_name, make_queue
from service.store.analysis_results import AnalysisResults, holder_of
from service.store.analysis_turns import AnalysisTurns
from service.store.games import MAIN, GameStore
from tests.helpers import kill_with_work_horses, start_worker
from tests.ui.analysed import BLUNDERED, QUEUE, fresh_pig_game, js_import, run_worker, scripted_events
from tests.ui.conftest import BROWSER_WAIT_MS, DEMO_PR, Watched
from tests.ui.helpers import open_game, sign_up, wait_board

#: A budget at which one Pig decision takes seconds: the panel is seen before and after the first is done.
SLOW = 3000


@pytest.fixture
def worker(redis_server) -> Iterator[None]:
    """One real ``ludolog worker`` on the UI tests' queues, killed (with its work horse) at the end."""
    process = start_worker(redis_server.url, "--no-reconcile", LUDOLOG_QUEUE=QUEUE)
    yield
    kill_with_work_horses(process)


def _status_starts(page, text: str) -> None:
    page.wait_for_function("t => document.getElementById('analysis-status').textContent.startsWith(t)", arg=text)


def test_the_panel_says_the_time_left_and_its_requester_cancels_it(live_server, watched, redis_client, worker,
                                                                   browser):
    fresh_pig_game(redis_client)
    sign_up(watched, live_server, "analyst")
    page = watched.page
    page.goto(f"{live_server.url}/games/pig-fresh/b/main?rollouts={SLOW}")
    page.wait_for_selector("body[data-ready='true']")
    _status_starts(page, "Not analysed yet")
    assert page.locator("#analysis-cancel").is_hidden(), "nothing runs: nothing to cancel"
    page.click("#analysis-request")
    _status_starts(page, "Analysing… 0 of ")
    assert page.locator("#analysis-left").inner_text() == "estimating…", "no estimate before the first decision is done"
    assert page.locator("#analysis-cancel").is_visible()
    page.wait_for_function("() => /^Analysing… [1-9]\\d* of \\d+ decisions\\.$/"
                           ".test(document.getElementById('analysis-status').textContent)")
    page.wait_for_function("() => /^(about \\d+ (s|min|h)|a few seconds) left$/"
                           ".test(document.getElementById('analysis-left').textContent)")

    other = browser.new_context(viewport={"width": 1366, "height": 768})
    try:  # another signed-in user sees it run, with no cancel button
        stranger = other.new_page()
        stranger.set_default_timeout(BROWSER_WAIT_MS)
        sign_up(Watched(stranger), live_server, "stranger")
        stranger.goto(f"{live_server.url}/games/pig-fresh/b/main?rollouts={SLOW}")
        stranger.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Analysing')")
        assert stranger.locator("#analysis-cancel").is_hidden()
    finally:
        other.close()

    page.click("#analysis-cancel")
    page.wait_for_function("() => /^Cancelled at [1-9]\\d* of \\d+ decisions; the \\d+ analysed are shown\\.$/"
                           ".test(document.getElementById('analysis-status').textContent)")
    assert page.locator("#analysis-cancel").is_hidden() and page.locator("#analysis-left").is_hidden()
    assert page.locator("#win-chart .win-point").count() >= 1, "the decisions done are shown"
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    _status_starts(page, "Cancelled at ")
    watched.assert_clean()


def test_a_small_budget_says_how_unsure_it_is_before_and_after_the_run(live_server, watched, redis_client,
                                                                       redis_server):
    measured = measured_at("puerto_rico", 50)
    page = open_game(watched, live_server, gid=DEMO_PR)
    _status_starts(page, "Not analysed yet")
    assert page.locator("#analysis-budget-note").is_hidden(), "at the game's default budget nothing is said"
    page.select_option("#analysis-budget", "50")
    page.wait_for_function("() => !document.getElementById('analysis-budget-note').hidden")
    note = page.locator("#analysis-budget-note").inner_text()
    assert note.startswith("50 rollouts is a small budget for this game (its default is 200)"), note
    assert (f"Measured on {measured.decisions} decisions judged twice, the engine marked {measured.marked} of "
            f"{2 * measured.decisions} moves ({round(50 * measured.marked / measured.decisions)} %) where at 200 it "
            "marks 9 %: at 50 it cannot tell most moves apart") in note, note
    assert f"A second opinion named the same best move in {round(100 * measured.best_agrees / measured.decisions)} % " \
           "(at 200: 93 %)." in note, note
    if not measured.blunders:
        assert note.endswith("No ?? mark came up in that sample, so how often a second opinion keeps one at 50 is not "
                             "measured (at 200: 98 %)."), note

    fresh_pig_game(redis_client)  # a game without measurements: said so, and still said once analysed
    sign_up(watched, live_server, "analyst")
    page = open_game(watched, live_server, gid="pig-fresh")
    page.select_option("#analysis-budget", "50")
    page.wait_for_function("() => !document.getElementById('analysis-budget-note').hidden")
    assert "not measured for this game at 50 rollouts" in page.locator("#analysis-budget-note").inner_text()
    page.click("#analysis-request")
    _status_starts(page, "Analysing")
    run_worker(redis_server.url)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.endsWith('decisions analysed.')")
    assert page.locator("#analysis-budget-note").is_visible()
    assert page.locator("#analysis-budget-note").inner_text().startswith("50 rollouts is a small budget")
    watched.assert_clean()


def _verdict(actor: int, moves: list[tuple[str, float, float, float, int]], played: str) -> dict:
    """A stored verdict: the moves (notation, win, interval, playouts) in the verdict's order, the best first."""
    return {"actor": actor, "win": [moves[0][1], 1 - moves[0][1]] if actor == 0 else [1 - moves[0][1], moves[0][1]],
            "win_ci": [[0.2, 0.5], [0.5, 0.8]],
            "moves": [{"action": action, "text": f"{action} text", "win": win, "ci": [low, high], "n": n,
                       "loss": 0.0, "loss_ci": [-0.1, 0.1]} for action, win, low, high, n in moves],
            "played": played}


def test_the_best_moves_go_by_win_chance_and_say_why_the_engines_choice_is_above_a_higher_one(live_server, watched,
                                                                                              redis_client):
    rules, setup = get_rules("pig"), Setup(("Anna", "Ben"), {"target": 30})
    games = GameStore(redis_client)
    games.create_game("pig", "1", setup, owner="nobody", gid="pig-order", visibility="public")
    games.append("pig-order", MAIN, scripted_events(rules, setup, BLUNDERED), 1)
    _, positions = decisions(games, "pig-order", MAIN)
    hold = next(p for p in positions if p.played == "hold")
    other = next(p for p in positions if p.played == "roll" and p.seq != hold.seq)
    results = AnalysisResults(redis_client, "pig-order", "1", 200, "full", 0, search_version=analysis_version("pig"))
    branches = games.branches("pig-order")
    # The played move, not shown worse, stays the engine's choice above a higher chance: the reason is said.
    results.put(holder_of(branches, MAIN, hold.seq), Position(hold.seq, hold.actor, "hold"),
                _verdict(hold.actor, [("hold", 0.34, 0.25, 0.43, 96), ("roll", 0.42, 0.31, 0.53, 96)], "hold"))
    # In the order of the chances: nothing to say.
    results.put(holder_of(branches, MAIN, other.seq), Position(other.seq, other.actor, "roll"),
                _verdict(other.actor, [("roll", 0.61, 0.52, 0.70, 96), ("hold", 0.40, 0.30, 0.50, 40)], "roll"))
    page = open_game(watched, live_server, seq=hold.seq, gid="pig-order")
    page.wait_for_selector("#best-moves li")
    items = page.locator("#best-moves li")
    assert [items.nth(i).locator(".best-win").inner_text() for i in range(items.count())] == ["34%", "42%"]
    assert items.first.locator(".best-ci").inner_text().strip() == "± 9"
    note = page.locator("#best-moves .best-order-note").inner_text()
    assert note == ("Listed first although roll text has the higher win chance: 34 % ± 9 and 42 % ± 11: not told apart "
                    "at this budget, so the move played stands as the engine's choice."), note
    page.goto(f"{live_server.url}/games/pig-order/b/main/{other.seq}")
    page.wait_for_selector("body[data-ready='true']")
    wait_board(page, other.seq)
    page.wait_for_selector("#best-moves li")
    assert page.locator("#best-moves li .best-win").all_inner_texts() == ["61%", "40%"]
    assert page.locator("#best-moves .best-order-note").count() == 0
    watched.assert_clean()


def test_no_move_is_listed_above_a_higher_chance_without_its_reason(live_server, watched):
    """Over a position whose engine's choice was measured on the most playouts (no move played), five moves: the
    choice first with its reason, the others in the order of their chances."""
    page = open_game(watched, live_server, gid=DEMO_PR)
    entry = {"played": None, "best": [{"action": "a", "text": "A", "win": 0.30, "ci": [0.22, 0.38], "n": 150}],
             "options": [{"action": a, "text": a.upper(), "win": w, "ci": [w - h, w + h], "n": n}
                         for a, w, h, n in (("a", 0.30, 0.08, 150), ("b", 0.45, 0.2, 12), ("c", 0.20, 0.1, 40),
                                            ("d", 0.33, 0.1, 40), ("e", 0.10, 0.1, 12), ("f", 0.05, 0.1, 6))]}
    said = page.evaluate("async (entry) => {" + js_import("analysistext.js") + """
        const listed = m.bestMoves(entry);
        return { order: listed.map((o) => o.action), reason: m.orderReason(entry, listed) };
    }""", entry)
    assert said["order"] == ["a", "b", "d", "c", "e"]
    assert said["reason"] == ("Listed first although B has the higher win chance: 30 % ± 8 and 45 % ± 20: not told "
                              "apart at this budget, and the engine's choice rests on 150 playouts, B on 12.")
    watched.assert_clean()


def test_the_second_opinion_is_cancelled_from_its_own_line(live_server, watched, redis_client):
    """No worker runs: the second opinion's jobs wait, and cancelling it leaves none of them and the first opinion
    untouched."""
    fresh_pig_game(redis_client)
    sign_up(watched, live_server, "skeptic")
    page = open_game(watched, live_server, gid="pig-fresh")
    _status_starts(page, "Not analysed yet")
    page.click("#opinion-request")
    page.wait_for_function("() => document.getElementById('opinion-status').textContent"
                           ".startsWith('Second opinion (seed 1): analysing… 0 of ')")
    assert page.locator("#opinion-cancel").is_visible() and page.locator("#analysis-cancel").is_hidden()
    page.click("#opinion-cancel")
    page.wait_for_function("() => /^Second opinion \\(seed 1\\): cancelled at 0 of \\d+ decisions\\.$/"
                           ".test(document.getElementById('opinion-status').textContent)")
    assert page.locator("#opinion-cancel").is_hidden() and page.locator("#opinion-progress").is_hidden()
    assert page.locator("#analysis-status").inner_text().startswith("Not analysed yet")
    queue = make_queue(redis_client, analysis_queue_name(QUEUE))
    assert queue.count == 0 and not AnalysisTurns(redis_client, queue.name).waiting_args(), "no job is left"
    watched.assert_clean()
