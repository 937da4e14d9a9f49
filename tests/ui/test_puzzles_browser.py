"""The puzzles pages in a real browser (issue 49): a puzzle cut by a real worker from a Pig game's analysis, found
from the site header's link and the list, answered right with the keyboard at a laptop's width and wrong at a phone's
(390 px, nothing wider than the screen), each answer's verdict naming the played and the best move with their chances.
"""

from __future__ import annotations

import random

from engine import Setup, get_rules, random_playout
from service.games.analysis import enqueue_analysis
from service.i18n.games.stored import stored_text
from service.jobs import make_queue
from service.store.games import MAIN, GameStore
from service.store.puzzles import PuzzleStore
from tests.ui.analysed import QUEUE, run_worker
from tests.ui.helpers import sign_up

ROLLOUTS = 100


def _puzzle(redis_client, redis_url: str) -> dict:
    """A public Pig game analysed by a real burst worker, which then cut its puzzles: the first puzzle."""
    setup = Setup(("Anna", "Ben"), {"target": 50})
    playout = random_playout(get_rules("pig"), setup, random.Random(2), check=False)
    games = GameStore(redis_client)
    games.create_game("pig", "1", setup, owner="alice", gid="pig-puzzles")
    games.append("pig-puzzles", MAIN, playout.events[1:], 1)
    enqueue_analysis(games, redis_client, make_queue(redis_client, QUEUE), "pig-puzzles", MAIN, ROLLOUTS, "full")
    run_worker(redis_url)
    store = PuzzleStore(redis_client)
    return store.get(store.all_ids()[0])


def _verdict(page) -> str:
    page.wait_for_selector("#puzzle-verdict p")
    return page.inner_text("#puzzle-verdict")


def test_a_puzzle_is_solved_right_with_the_keyboard_and_wrong_on_a_phone(live_server, watched, browser, redis_client,
                                                                         redis_server):
    puzzle = _puzzle(redis_client, redis_server.url)
    page = watched.page
    sign_up(watched, live_server, "solver")
    page.goto(live_server.url + "/")
    page.click("header >> text=Puzzles")
    page.wait_for_selector(f"#puzzle-list a[href='/puzzles/{puzzle['id']}']")
    page.click(f"#puzzle-list a[href='/puzzles/{puzzle['id']}']")
    page.wait_for_selector("body[data-ready]")
    assert page.inner_text("#puzzle-ask") == "What would you play?"
    assert page.locator("#board table").count() == 1  # the generic board: Pig has no renderer of its own
    best = puzzle["best"][0]
    page.focus(f"input[name=action][value='{best}']")
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    said = _verdict(page)
    assert said.startswith("Right!"), said
    played, best_move = puzzle["played"], puzzle["best_move"]
    assert f"Played {stored_text(played, 'en')} (win {round(100 * played['win'])}%), best {stored_text(best_move, 'en')} " \
           f"({round(100 * best_move['win'])}%)" in said
    assert "95% intervals" in said and page.evaluate("document.activeElement.id") == "puzzle-verdict"
    assert "Your rating: 1,500 → 1," in said  # a first right answer raises the solver's rating
    page.click("text=All puzzles")
    page.wait_for_selector("#my-rating-chart svg")
    assert "after 1 answer" in page.inner_text("#my-rating-now")
    assert page.locator("#my-rating-chart circle").count() == 2  # the start and the answer
    assert page.inner_text("#my-history").startswith("right")
    watched.assert_clean()

    phone = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        small = phone.new_page()
        small.goto(f"{live_server.url}/puzzles/{puzzle['id']}")
        small.wait_for_selector("body[data-ready]")
        small.check(f"input[name=action][value='{played['action']}']")
        small.click("#puzzle-submit")
        said = _verdict(small)
        assert said.startswith("Not the best move."), said
        assert "Your rating" not in said  # an anonymous answer is not rated
        assert small.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        phone.close()
