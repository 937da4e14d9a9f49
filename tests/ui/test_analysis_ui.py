"""The analysis in the replay UI, in headless Chromium: win-chance chart (click jumps), the engine's marks in the move
list, best moves at a position, a fork compared with its parent line, asking for an analysis, and the owner's move
picker with each move's win chance, ordered by it. (What the panel says of a move and its intervals, its legend,
progress and the visitor's hint: ``test_analysis_explained.py``.)"""

from __future__ import annotations

from typing import Any

from service.jobs import analysis_queue_name, make_queue
from tests.ui.analysed import (
    GID,
    QUEUE,
    analysed_game_with_fork,
    analysed_pig_game,
    analysis_report,
    fresh_pig_game,
    pct,
    ranked,
    run_worker,
)
from tests.ui.helpers import HeldRequests, open_game, sign_up, wait_board
from tests.ui.test_accessibility import _blocking
from tests.ui.test_phone import SMALL_TEXT


def test_win_chart_marks_best_moves_and_fork_comparison(live_server, watched, redis_client, redis_server, artifacts):
    fork_seq, analysed = analysed_game_with_fork(redis_client, redis_server.url)
    page = open_game(watched, live_server, seq=1, gid=GID)
    page.wait_for_selector("#win-chart svg.win-chart")
    assert page.locator("#analysis-status").inner_text().startswith(f"{analysed} decisions analysed")
    assert page.locator("#win-chart .win-point").count() == analysed
    assert page.locator("#win-chart polyline.series").count() == 2
    point = page.locator("#win-chart .win-point").nth(3)
    target = int(point.get_attribute("data-seq"))
    point.click()
    wait_board(page, target)
    best = page.locator("#best-moves li")
    assert best.count() >= 1 and "%" in best.first.inner_text()
    marks = page.locator("#moves .mv-mark")
    assert marks.count() >= 1, "the game has sure mistakes"
    assert set(marks.all_inner_texts()) <= {"?!", "?", "??"}
    page.screenshot(path=str(artifacts / "analysis-main.png"), full_page=True)
    page = open_game(watched, live_server, seq=fork_seq, gid=GID, bid="whatif")
    page.wait_for_selector("#fork-compare table")
    rows = page.locator("#fork-compare tbody tr").all_inner_texts()
    assert rows[0].startswith(f"move {fork_seq + 1}") and "at the head" in rows[-1], rows
    page.locator("#win-section").screenshot(path=str(artifacts / "analysis-fork.png"))
    watched.assert_clean()


def test_a_signed_in_user_asks_for_an_analysis_from_the_page(live_server, watched, redis_client):
    fresh_pig_game(redis_client)
    sign_up(watched, live_server, "analyst")
    page = open_game(watched, live_server, gid="pig-fresh")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Not analysed')")
    page.select_option("#analysis-budget", "50")
    page.click("#analysis-request")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Analysing')")
    assert make_queue(redis_client, analysis_queue_name(QUEUE)).count >= 1, "queued on the analysis queue"
    watched.assert_clean()


def assert_picker_chances_agree_with_best_moves(page: Any, rules: Any, state: Any) -> None:
    """Every legal move in the picker shows a win chance, the same figures as the best-moves list."""
    page.wait_for_selector("#picker button.pick .pick-win")
    buttons = page.locator("#picker button.pick")
    chances = page.locator("#picker button.pick .pick-win").all_inner_texts()
    assert buttons.count() == len(rules.legal_actions(state)) == len(chances) == 2
    assert all(text.strip(" ·").endswith("%") for text in chances), chances
    best = page.locator("#best-moves li .best-win").all_inner_texts()
    assert sorted(text.strip(" ·") for text in chances) == sorted(best)  # the picker and the best-moves list agree


def assert_picker_ranks_by_win_chance(page: Any, entry: dict[str, Any]) -> None:
    """The picker lists its moves in one group by win chance, best first and highlighted, each with its chance and
    interval in its title and in a disclosure that opens by tap."""
    order = [o["action"] for o in ranked(entry)]
    buttons = page.locator("#picker fieldset.pick-ranked button.pick")
    assert [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())] == order
    assert page.locator("#picker fieldset.pick-group:not(.pick-ranked):visible").count() == 0
    assert page.locator("#picker button.pick-best").get_attribute("data-action") == order[0]
    assert page.locator("#picker button.pick-best .pick-best-tag").inner_text().lower() == "best"
    for option in ranked(entry):
        title = page.locator(f'#picker button.pick[data-action="{option["action"]}"]').get_attribute("title")
        assert title.startswith(f"{option['action']}: win {pct(option['win'])}"), title
    odds = page.locator("#picker details.pick-odds")
    assert not odds.locator("ol").is_visible()
    odds.locator("summary").click()
    rows = odds.locator("li").all_inner_texts()
    assert [row.split(":")[0] for row in rows] == [o["text"] for o in ranked(entry)]
    assert rows[0].split(": ")[1].startswith(f"win {pct(ranked(entry)[0]['win'])}")


def test_the_owner_s_move_picker_shows_each_analysed_move_s_win_chance(live_server, watched, redis_client, redis_server,
                                                                      artifacts):
    """Issue 17: "at any position the move picker lists the best moves with their win chances"; issue 30: sorted by
    them, the best highlighted, with intervals on hover or tap."""
    rules, state = analysed_pig_game(live_server, watched, redis_client, redis_server)
    page = open_game(watched, live_server, gid="pig-picker")
    assert_picker_chances_agree_with_best_moves(page, rules, state)
    report = analysis_report(page, live_server, "pig-picker")
    head = page.evaluate("window.ludolog.head")
    assert_picker_ranks_by_win_chance(page, next(p for p in report["positions"] if p["seq"] == head))
    page.locator("#play-section").screenshot(path=str(artifacts / "analysis-picker.png"))
    found = _blocking(page, "analysis-picker-1366", artifacts)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#play-section").screenshot(path=str(artifacts / "analysis-picker-390.png"))
    found += _blocking(page, "analysis-picker-390", artifacts)
    assert not found, "\n".join(found)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways on a phone"
    small = page.evaluate(SMALL_TEXT)
    assert not small, f"text under 12 px on a phone: {small[:8]}"
    page.set_viewport_size({"width": 1366, "height": 768})
    page.select_option("#view-select", "spectator")  # no analysis for a spectator: the picker's own groups come back
    page.wait_for_function("""() => {
        const groups = [...document.querySelectorAll('#picker fieldset.pick-group')];
        return groups.length === 2 && groups.every((g) => !g.hidden && !g.classList.contains('pick-ranked'));
    }""")  # (the picker is drawn again for the new view, and loads its moves again)
    page.wait_for_timeout(500)  # and stays so: no ranking from the full view's analysis comes late
    assert page.locator("#picker .pick-win, #picker .pick-best, #picker .pick-odds, #picker .pick-ranked").count() == 0
    assert page.locator("#picker fieldset.pick-group:visible").count() == 2
    assert sorted(page.locator("#picker button.pick").evaluate_all("bs => bs.map((b) => b.title)")) == sorted(
        rules.format_action(a) for a in rules.legal_actions(state))
    watched.assert_clean()


def test_the_picker_gains_its_win_chances_when_the_analysis_arrives_after_it(live_server, watched, redis_client,
                                                                             redis_server):
    """The picker and the analysis load independently: an analysis that arrives second still decorates the picker
    (it did not, and the test above failed now and then under load)."""
    rules, state = analysed_pig_game(live_server, watched, redis_client, redis_server)
    held = HeldRequests(watched.page, "**/analysis?*")
    page = open_game(watched, live_server, gid="pig-picker")
    page.wait_for_selector("#picker button.pick")
    held.wait()
    assert page.locator("#picker .pick-win").count() == 0
    held.release()
    assert_picker_chances_agree_with_best_moves(page, rules, state)
    watched.assert_clean()


def test_the_picker_is_ranked_as_soon_as_a_requested_analysis_reaches_it(live_server, watched, redis_client,
                                                                         redis_server):
    """The owner asks for an analysis with the picker on screen; once the worker has done it, the page's polling
    ranks the picker, without a reload."""
    rules, state = analysed_pig_game(live_server, watched, redis_client, redis_server, analysed=False)
    page = open_game(watched, live_server, gid="pig-picker")
    page.wait_for_selector("#picker button.pick")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Not analysed')")
    assert page.locator("#picker .pick-ranked, #picker .pick-win").count() == 0
    page.click("#analysis-request")
    page.wait_for_function("() => document.getElementById('analysis-status').textContent.startsWith('Analysing')")
    run_worker(redis_server.url)
    page.wait_for_selector("#picker fieldset.pick-ranked")
    head = page.evaluate("window.ludolog.head")
    assert_picker_ranks_by_win_chance(page, next(p for p in analysis_report(page, live_server, "pig-picker")["positions"]
                                                 if p["seq"] == head))
    assert_picker_chances_agree_with_best_moves(page, rules, state)
    watched.assert_clean()
