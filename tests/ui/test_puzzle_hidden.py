"""Issue 49's "done when" on a game that hides cards: a Die goldene Stadt puzzle (its players hold hands, bonus cards
and letters the others do not see, and draw from face-down piles) is asked in the mover's seat view only, through the
API and on the real board in a browser, answered right at a laptop's width and wrong at a phone's; no card of another
seat's and no future draw reaches the page or any answer.

The puzzle is stored as the generator stores one (:meth:`PuzzleStore.keep`) at a decision of the demo game where
another seat holds bonus cards; its verdict (which move is best) is this test's, for the page is what is tested here:
the generator's criteria are ``tests/service/api/test_puzzles.py``'s.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from engine import CHANCE, apply_event, start
from engine.golden_city.serialize import dump_state
from service.games.demo import demo_playout
from service.games.puzzles import puzzle_id, theme_of
from service.store.games import MAIN
from service.store.puzzles import PuzzleStore
from tests.ui.conftest import LiveServer, Watched

pytestmark = pytest.mark.browser

GID = "demo-golden-city-1"


def _decision_with_hidden_cards() -> tuple[Any, Any, int, int]:
    """(rules, state, seq, mover) at the first decision of the demo game where another seat holds a bonus card."""
    events = demo_playout("golden_city", 1).events
    rules, state = start(events[0])
    for event in events[1:]:
        actor = rules.current_actor(state)
        if actor is not None and actor != CHANCE and len(rules.legal_actions(state)) > 1:
            others = [p for i, p in enumerate(dump_state(state)["players"]) if i != actor]
            if any(p["bonus"] for p in others):
                return rules, state, event.seq - 1, int(actor)
        state = apply_event(rules, state, event, check=False)
    raise AssertionError("no decision with another seat's bonus card in the demo game")


def _secrets(state: Any, mover: int) -> list[str]:
    """What the mover may not know, as it would be written in JSON: each other seat's bonus cards, the face-down
    goods pile and scoring pile in their order."""
    full = dump_state(state)
    hidden = [card for i, p in enumerate(full["players"]) if i != mover for card in p["bonus"]]
    return [json.dumps(card) for card in hidden] + [json.dumps(full["goods_pile"]), json.dumps(full["scoring_pile"])]


@pytest.fixture
def puzzle(live_server: LiveServer, redis_client: redis.Redis) -> dict[str, Any]:
    """The stored puzzle, with the test's own keys: ``secrets`` and the ``wrong`` move."""
    rules, state, seq, mover = _decision_with_hidden_cards()
    actions = [rules.format_action(a) for a in rules.legal_actions(state)]
    best, wrong = actions[0], actions[-1]
    move = {"text": "", "win": 0.6, "ci": [0.55, 0.65]}
    stored = {"id": puzzle_id(GID, MAIN, seq), "gid": GID, "bid": MAIN, "seq": seq, "game": "golden_city",
              "seat": mover, "players": len(dump_state(state)["players"]), "theme": theme_of(rules, state, mover),
              "stage": "middle", "best": [best], "best_move": move | {"action": best},
              "played": move | {"action": wrong, "win": 0.3, "ci": [0.25, 0.35], "loss": 0.3, "loss_ci": [0.2, 0.4],
                                "mark": "??"},
              "judged": {"rollouts": 800, "view": str(mover), "from": {"rollouts": 200, "view": "full", "seed": 0}}}
    assert PuzzleStore(redis_client).keep(GID, f"{MAIN} {seq}", stored)
    return stored | {"secrets": _secrets(state, mover), "wrong": wrong}


def _leaks(text: str, secrets: list[str]) -> list[str]:
    return [secret for secret in secrets if secret in text]


def test_the_api_asks_and_answers_in_the_movers_view_only(live_server: LiveServer, puzzle: dict[str, Any]) -> None:
    client = live_server.app.test_client()
    asked = client.get(f"/api/puzzles/{puzzle['id']}")
    assert asked.status_code == 200
    body = asked.get_json()
    others = [p for i, p in enumerate(body["state"]["players"]) if i != puzzle["seat"]]
    assert all(p["hand"] is None and p["bonus"] is None and p["letters"] is None for p in others)
    assert isinstance(body["state"]["goods_pile"], int) and isinstance(body["state"]["scoring_pile"], int)
    assert not _leaks(asked.get_data(as_text=True), puzzle["secrets"])
    for action in (puzzle["best"][0], puzzle["wrong"]):
        answer = client.post(f"/api/puzzles/{puzzle['id']}/answer", json={"action": action})
        assert answer.status_code == 200 and not _leaks(answer.get_data(as_text=True), puzzle["secrets"])


def _answer(page: Any, action: str) -> str:
    page.check(f"input[name=action][value='{action}']")
    page.click("#puzzle-submit")
    page.wait_for_selector("#puzzle-verdict p")
    return str(page.inner_text("#puzzle-verdict"))


def test_the_page_shows_the_real_board_and_no_hidden_card(live_server: LiveServer, watched: Watched, browser: Any,
                                                         puzzle: dict[str, Any]) -> None:
    bodies: list[str] = []  # every API answer the page read
    shown: list[str] = []  # what the page showed
    for width, height, action, said in ((1366, 768, puzzle["best"][0], "Right!"),
                                        (390, 844, puzzle["wrong"], "Not the best move.")):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.on("response", lambda response: bodies.append(response.text())
                    if "/api/" in response.url and response.ok else None)
            page.goto(f"{live_server.url}/puzzles/{puzzle['id']}")
            page.wait_for_selector("body[data-ready]")
            assert page.locator("#board .gc-map").count() == 1, "Die goldene Stadt's own board"
            assert _answer(page, action).startswith(said)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            shown.append(page.inner_text("body"))
        finally:
            context.close()
    assert not [leak for body in bodies for leak in _leaks(body, puzzle["secrets"])]
    cards = [json.loads(secret) for secret in puzzle["secrets"] if isinstance(json.loads(secret), str)]
    assert not [card for text in shown for card in cards if card in text], "another seat's bonus card is shown"
    watched.assert_clean()
