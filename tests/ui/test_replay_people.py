"""Issue 15 in the browser, on all four boards: the final result in words and in the engine's places, the
pieces the last decision changed, stepping by decisions only (chance folded into the step) and history."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from engine import get_rules
from service.games.demo import demo_playout
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import demo_states, open_game, wait_board

pytestmark = pytest.mark.browser

GAMES = {"puerto_rico": "demo-puerto-rico-1", "amerigo": "demo-amerigo-1", "entdecker": "demo-entdecker-1",
         "golden_city": "demo-golden-city-1"}


def test_the_timeline_says_the_result_in_words(app: Flask) -> None:
    client = app.test_client()
    for game, gid in GAMES.items():
        outcome = client.get(f"/games/{gid}/b/main/timeline.json").get_json()["outcome"]
        words = outcome["words"]
        engine_outcome = get_rules(game).outcome(demo_states(game)[-1])
        assert outcome["ranks"] == list(engine_outcome.ranks)
        # Every column of the engine's breakdown, in its order; Entdecker's words lead with what the fold counted
        # (island points, ruins) to make up each total.
        keys = [c["key"] for c in words["columns"]]
        assert [k for k in keys if k in engine_outcome.details[0]] == list(engine_outcome.details[0])
        assert keys[:2] == (["islands", "ruins"] if game == "entdecker" else keys[:2])
        assert all("_" not in c["label"] for c in words["columns"]), words["columns"]
        assert len(words["tiebreaks"]) == len(outcome["scores"])
        assert all(re.search(r"[a-z]{3}", t) for t in words["tiebreaks"]), (game, words["tiebreaks"])
    golden = client.get(f"/games/{GAMES['golden_city']}/b/main/timeline.json").get_json()["outcome"]["words"]
    assert re.fullmatch(r"\d+ houses? in the city, then \d+ coins?", golden["tiebreaks"][0]), golden["tiebreaks"]


def test_the_result_table_lists_final_places_with_readable_columns(live_server: LiveServer, watched: Watched,
                                                                   artifacts: Path) -> None:
    for game, gid in GAMES.items():
        page = open_game(watched, live_server, gid=gid)
        page.wait_for_selector("#outcome table")
        heads = page.locator("#outcome thead th").all_inner_texts()
        assert not [h for h in heads if "_" in h], heads
        places = [int(p) for p in page.locator("#outcome td.place").all_inner_texts()]
        assert places == sorted(places) and places[0] == 1
        ranks = get_rules(game).outcome(demo_states(game)[-1]).ranks
        seats = [int(s) for s in page.eval_on_selector_all("#outcome tbody tr", "rows => rows.map(r => r.dataset.seat)")]
        assert [ranks[s] for s in seats] == places
        tiebreaks = page.locator("#outcome td.tiebreak").all_inner_texts()
        assert all(not t.strip().isdigit() for t in tiebreaks), tiebreaks
        page.locator("#outcome").screenshot(path=str(artifacts / f"result-{game}.png"))
    watched.assert_clean()



def _first_decision(game: str, changed: Any) -> tuple[int, Any]:
    """The first seq whose event is a player's decision and whose states before and after pass ``changed``."""
    events = demo_playout(game, 1).events
    states = demo_states(game)
    for seq in range(2, len(states) + 1):
        if isinstance(events[seq - 1].actor, int) and events[seq - 1].actor >= 0:
            found = changed(states[seq - 2], states[seq - 1])
            if found is not None:
                return seq, found
    raise AssertionError(f"no such decision in the {game} demo")


def _new_building(before: Any, after: Any) -> str | None:
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        for index, (was, now) in enumerate(zip(old.city, new.city, strict=True)):
            if was < 0 <= now:
                return f'[data-path="players.{seat}.city.{index}"]'
    return None


def _new_post(before: Any, after: Any) -> str | None:
    cells = [c for c, (was, now) in enumerate(zip(before.cover, after.cover, strict=True)) if now < 0 <= was]
    return f'.am-post[data-path="cover.{cells[0]}"]' if cells and len(before.cover) else None


def _new_tile(before: Any, after: Any) -> str | None:
    cells = [c for c, (was, now) in enumerate(zip(before.board, after.board, strict=True)) if was < 0 <= now]
    return f'.ed-tile[data-cell="{cells[0]}"]' if cells else None


def _new_house(before: Any, after: Any) -> str | None:
    dump = get_rules("golden_city").dump_state
    for old, new in zip(dump(before)["players"], dump(after)["players"], strict=True):
        added = [site for site in new["houses"] if site not in old["houses"]]
        if added:
            return f'.gc-site[data-site="{added[0]}"]'
    return None


LAST_MOVES = {"puerto_rico": _new_building, "amerigo": _new_post, "entdecker": _new_tile, "golden_city": _new_house}


def test_the_last_decision_is_highlighted_on_every_board(live_server: LiveServer, watched: Watched, artifacts: Path) -> None:
    for game, changed in LAST_MOVES.items():
        seq, selector = _first_decision(game, changed)
        page = open_game(watched, live_server, seq, gid=GAMES[game])
        page.wait_for_selector(f"{selector}[data-last-move='true']")
        assert page.get_attribute("#board", "data-last-move-seq") == str(seq)
        marked = page.locator("#board [data-last-move='true']").count()
        assert 1 <= marked <= 12, f"{game}: {marked} pieces marked for one decision"
        page.screenshot(path=str(artifacts / f"last-move-{game}-{seq}.png"))
        # One step on, the highlight follows the next decision (or is gone when that decision changed nothing drawn).
        page.keyboard.press("ArrowRight")
        wait_board(page, seq + 1)
        page.wait_for_function("s => document.getElementById('board').dataset.lastMoveSeq !== String(s)", arg=seq)
    watched.assert_clean()


def test_map_edges_carry_the_notations_coordinates(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 200, gid=GAMES["amerigo"])
    texts = "els => els.map(e => e.textContent)"
    top = page.eval_on_selector_all("svg.am-map text.am-tick:not(.side)", texts)
    side = page.eval_on_selector_all("svg.am-map text.am-tick.side", texts)
    # Every row and column numbered, but for the few beside a frame space's label (which would overlap them).
    for numbers in (top, side):
        values = [int(n) for n in numbers]
        assert values == sorted(set(values)) and len(values) >= 20, numbers
        assert all(b - a <= 3 for a, b in zip(values, values[1:], strict=False)), numbers
    page = open_game(watched, live_server, 60, gid=GAMES["entdecker"])
    assert page.locator("svg.ed-map text.ed-coord").count() >= 10
    watched.assert_clean()


def test_stepping_by_decisions_folds_chance_into_the_step_and_is_remembered(live_server: LiveServer,
                                                                          watched: Watched) -> None:
    page = open_game(watched, live_server, 40, gid=GAMES["amerigo"])
    positions = page.evaluate("fetch(location.pathname.replace(/\\/\\d+$/, '/timeline.json')).then(r => r.json())")["positions"]
    acts = [seq for seq, info in enumerate(positions, start=1) if isinstance(info["actor"], int)]
    page.check("#decisions-only")
    start = next(seq for seq in acts if seq > 40 and positions[seq]["actor"] == "chance")
    page.evaluate("s => window.ludolog.goTo(s)", start)
    wait_board(page, start)
    target = next(seq for seq in acts if seq > start)
    assert target > start + 1, "a decision followed by chance"
    page.keyboard.press("ArrowRight")
    wait_board(page, target)
    assert page.locator("#step-chance").is_visible() and "then chance" in page.inner_text("#step-chance")
    page.keyboard.press("ArrowLeft")
    wait_board(page, start)
    # Remembered: a new page starts with the toggle on.
    page = open_game(watched, live_server, start, gid=GAMES["amerigo"])
    assert page.is_checked("#decisions-only")
    page.click("#nav-next")
    wait_board(page, target)
    watched.assert_clean()


def test_steps_replace_history_and_jumps_push_it(live_server: LiveServer, watched: Watched) -> None:
    page = watched.page
    page.goto(live_server.url + "/")
    page = open_game(watched, live_server, 50, gid=GAMES["puerto_rico"])
    length = page.evaluate("history.length")
    for seq in range(51, 56):
        page.keyboard.press("ArrowRight")
        wait_board(page, seq)
    assert page.evaluate("history.length") == length and page.url.endswith("/55")
    page.select_option("#jump-round", index=3)
    page.wait_for_function("n => history.length === n + 1", arg=length)
    page.go_back()
    wait_board(page, 55)
    page.go_back()
    page.wait_for_url(live_server.url + "/")
    watched.assert_clean()


def test_one_throw_of_the_cube_tower_is_one_line(live_server: LiveServer, watched: Watched) -> None:
    page = open_game(watched, live_server, 60, gid=GAMES["amerigo"])
    throws = page.locator("#moves li.throw")
    assert throws.count() >= 5
    first, last = (int(v) for v in page.eval_on_selector("#moves li.throw", "li => [li.dataset.first, li.dataset.last]"))
    assert last - first >= 6, "the seven tower events of one throw are one line"
    assert page.locator("#moves li.throw").first.inner_text().count("Cube tower throw") == 1
    page.evaluate("s => window.ludolog.goTo(s)", first + 2)
    wait_board(page, first + 2)
    assert "current" in (page.get_attribute("#moves li.throw >> nth=0", "class") or "")
    watched.assert_clean()
