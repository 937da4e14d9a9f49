"""The demo player: legal moves only, and games worth looking at (posts and tiles on the map)."""

from __future__ import annotations

import random

from engine import Setup, random_playout
from engine.amerigo import RULES
from engine.amerigo.rollout import builder_player


def test_the_demo_player_founds_posts_and_builds_tiles_where_random_play_does_not():
    setup = Setup(("Anna", "Róbert", "Krisztina", "Dávid"))
    built = random_playout(RULES, setup, random.Random("demo"), player=builder_player)  # every move checked
    clicked = random_playout(RULES, setup, random.Random("demo"))
    assert RULES.outcome(built.state) is not None

    def founded(playout):
        return sum(1 for e in playout.events if e.action and e.action == "found")

    assert founded(built) >= 8 and len(built.state.placements) >= 8
    assert founded(clicked) < founded(built) and len(clicked.state.placements) < len(built.state.placements)


def test_the_demo_uses_the_games_own_player():
    assert RULES.declaration.demo_player is builder_player
