"""Issue 15 in the browser, on all four boards: the final result in words and in the engine's places, the
pieces the last decision changed, stepping by decisions only (chance folded into the step) and history."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from engine import get_rules
from tests.ui.conftest import LiveServer, Watched
from tests.ui.helpers import demo_states, open_game

pytestmark = pytest.mark.timeout(180)

GAMES = {"puerto_rico": "demo-puerto-rico-1", "amerigo": "demo-amerigo-1", "entdecker": "demo-entdecker-1",
         "golden_city": "demo-golden-city-1"}


def test_the_timeline_says_the_result_in_words(app: Flask) -> None:
    client = app.test_client()
    for game, gid in GAMES.items():
        outcome = client.get(f"/games/{gid}/b/main/timeline.json").get_json()["outcome"]
        words = outcome["words"]
        engine_outcome = get_rules(game).outcome(demo_states(game)[-1])
        assert outcome["ranks"] == list(engine_outcome.ranks)
        assert [c["key"] for c in words["columns"]] == list(engine_outcome.details[0])
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

