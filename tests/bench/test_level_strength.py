"""The engine levels' strength the seats card shows (issue 46 item 4) is the strength bench's: each game's UI adapter's
``engine_strength`` (read from replay_ui/games/engine_strength.json) equals, level by level, the table
``bench.strength`` makes of the games recorded in bench/results/strength.jsonl for that level's player and budget (the
strong level: the search player at the game's analysis budget; easy and normal: the tree search at 16 and 64
rollouts). A level with no recorded games has no figure (the card says "not measured"): no number is typed in without
its games."""

from __future__ import annotations

import pytest

from bench.strength import GAMES, RESULTS, load, matches, table
from engine import Setup
from replay_ui.games import adapter_for
from service.games.seating import LEVELS


def _measured(game: str, level: str) -> list[dict[str, object]]:
    spec = LEVELS[level]
    rows = load(RESULTS, spec.rollouts, kind="verdict" if spec.search_player else "tree")
    return [{"bot": r["bot"], "seats": r["seats"], "games": r["games"], "win": round(r["win"], 3),
             "low": round(r["low"], 3), "high": round(r["high"], 3)}
            for r in table(matches((game,)), rows) if r["games"]]


@pytest.mark.parametrize("game", GAMES)
def test_the_seats_card_shows_what_the_strength_bench_recorded(game: str) -> None:
    setup = Setup(("A", "B", "C", "D"))
    shown = adapter_for(game).components(setup).get("engine_strength", {})
    for level in LEVELS:
        assert shown.get(level, []) == _measured(game, level), (game, level)
