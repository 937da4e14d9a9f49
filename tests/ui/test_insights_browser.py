"""Issue 49, "your mistakes", in the browser: a player claims their seat of a Puerto Rico game on the account page
from the keyboard, and their insights page shows its figures (decisions, mistakes per 100 by role and by stage with a
bar beside every player's figure, the worst moves linked to their positions) at a laptop's width and a phone's.

The game is the Puerto Rico demo game copied as the user's own upload. A full analysis of its 303 decisions takes
minutes on the pure engine, too long for a browser test, so its verdicts are written in the stored form with chosen
losses (every third move a mistake, every ninth a blunder); the insights' own job (:func:`count_analysis`) then counts
them as it counts a real analysis's (the API tests count a real worker's analysis of Pig games against its report).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import CHANCE, apply_event, get_rules, start
from service.games.analysis import stored_results
from service.games.demo import demo_playout, demo_setup
from service.games.insights import COUNTED_SEED, COUNTED_VIEW, count_analysis
from service.i18n.games.stored import message_json
from service.store.analysis_results import holder_of
from service.store.claims import ClaimStore
from service.store.games import MAIN, GameStore
from service.store.insights import InsightStore
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import sign_up
from tests.ui.test_accessibility import _check_both_widths

pytestmark = pytest.mark.browser

GID = "pr-insights"
ROLLOUTS = 8
USER = "tester"


def _loss(index: int) -> float:
    """The chosen loss of the ``index``-th decision: a blunder every ninth, a mistake every third, else small."""
    return 0.25 if index % 9 == 0 else 0.12 if index % 3 == 0 else 0.01


def _verdict(rules, state, actor: int, played: str, index: int) -> dict:
    legal = [rules.format_action(a) for a in rules.legal_actions(state)]
    best = next(a for a in legal if a != played)
    loss = _loss(index)

    def move(action: str, win: float) -> dict:
        message = message_json(rules.describe_message(state, rules.parse_action(action)))  # as the analysis stores it
        return {"action": action, "message": message, "win": win,
                "ci": [win - 0.02, win + 0.02], "n": ROLLOUTS, "loss": round(0.5 - win, 4),
                "loss_ci": [round(0.5 - win - 0.01, 4), round(0.5 - win + 0.01, 4)]}

    return {"actor": actor, "win": [0.5] * 3, "win_ci": [[0.45, 0.55]] * 3,
            "moves": [move(best, 0.5), move(played, round(0.5 - loss, 4))], "played": played}


def _analysed_copy(redis_client) -> dict[str, int]:
    """The demo game as the user's own public upload, its every decision judged; seat 0's counts by measure."""
    games = GameStore(redis_client)
    playout = demo_playout("puerto_rico", 1)
    games.create_game("puerto_rico", get_rules("puerto_rico").version, demo_setup("puerto_rico", 1), owner=USER,
                      gid=GID, source="bga", seed="1")
    games.append(GID, MAIN, playout.events[1:], 1)
    record, branches = games.game(GID), games.branches(GID)
    results = stored_results(redis_client, record, ROLLOUTS, COUNTED_VIEW, COUNTED_SEED)
    rules, state = start(playout.events[0])
    index, seat0 = 0, {"n": 0, "m": 0}
    for event in playout.events[1:]:
        actor = rules.current_actor(state)
        if actor is not None and actor != CHANCE and len(rules.legal_actions(state)) > 1:
            played = rules.format_action(rules.parse_action(event.action))
            seq = event.seq - 1
            position = type("P", (), {"seq": seq, "field": f"{seq} {played}"})()
            results.put(holder_of(branches, MAIN, seq), position, _verdict(rules, state, int(actor), played, index))
            if actor == 0:
                seat0["n"] += 1
                seat0["m"] += _loss(index) >= 0.1
            index += 1
        state = apply_event(rules, state, event, check=False)
    assert count_analysis(games, redis_client, InsightStore(redis_client), ClaimStore(redis_client), GID, ROLLOUTS)
    return seat0


def test_a_player_claims_their_seat_and_reads_their_mistakes(live_server: LiveServer, watched: Watched, redis_client,
                                                             artifacts: Path) -> None:
    sign_up(watched, live_server, USER)
    expected = _analysed_copy(redis_client)
    player = demo_setup("puerto_rico", 1).players[0]
    page = watched.page
    page.goto(f"{live_server.url}/account")
    page.focus("#claim-game")
    page.keyboard.type(f"{live_server.url}/games/{GID}/b/main/12")  # a game's address pasted does as its id
    page.keyboard.press("Tab")
    page.keyboard.type(player)
    page.keyboard.press("Enter")
    page.wait_for_selector("#claim-done")
    assert player in page.inner_text("#my-claims")
    page.focus("#my-insights")
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: f"/users/{USER}/insights" in url)
    section = page.locator("section.insights-game")
    assert section.count() == 1 and "Puerto Rico" in section.locator("h2").inner_text()
    assert page.inner_text(".insights-decisions") == str(expected["n"])
    assert page.inner_text(".insights-mistakes").startswith(f"{100 * expected['m'] / expected['n']:.1f}")
    phases = page.locator(".insights-table").first
    rows = phases.locator("tbody tr")
    assert rows.count() >= 5 and phases.locator("svg rect.insights-bar-you").count() == rows.count()
    assert phases.locator("svg rect.insights-bar-all").count() == rows.count()
    assert "builder" in phases.inner_text() and "settler" in phases.inner_text()
    stages = page.locator(".insights-table").nth(1).locator("tbody th")
    assert [stages.nth(i).inner_text() for i in range(stages.count())] == ["early game", "middle game", "late game"]
    worst = page.locator(".insights-worst li a")
    assert worst.count() == 10
    assert page.locator("#insights-puzzles").get_attribute("href") == "/puzzles?mine=true"
    found: list[str] = []
    _check_both_widths(page, "insights", artifacts, found)
    assert not found, "\n".join(found)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.eval_on_selector(".insights-chart svg", "e => e.getBoundingClientRect().width") > 20
    page.screenshot(path=str(artifacts / "insights-390.png"), full_page=True)
    href = worst.first.get_attribute("href") or ""
    assert href.startswith(f"/games/{GID}/b/main/")
    worst.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: href in url)
    watched.assert_clean()
