"""Demo games: seeded games of every game with rules, played by a random legal player.

So that a new install has something to show. Each demo game has a fixed id
(``demo-<game>-<n>``), so loading the demo twice adds nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Setup, get_rules, random_playout, registered_games
from engine.core.fold import uniform_player
from service.store.errors import ConflictError
from service.store.games import MAIN, GameStore

DEMO_NAMES = ("Anna", "Róbert", "Krisztina", "Dávid", "Emese")
TEST_ONLY_GAMES = {"pig"}


def demo_games() -> list[str]:
    """Games the demo plays: every registered game but test fixtures."""
    return [g for g in registered_games() if g not in TEST_ONLY_GAMES]


def load_demo(games: GameStore, per_game: int = 2, on_append: Callable[[str, str], None] | None = None) -> list[str]:
    """Store ``per_game`` demo games of each game (skipping ones already there); returns new ids."""
    created = []
    for name in demo_games():
        rules = get_rules(name)
        for n in range(per_game):
            players = rules.max_players - n % (rules.max_players - rules.min_players + 1)
            gid = f"demo-{name.replace('_', '-')}-{n + 1}"
            if _store_playout(games, name, gid, players, seed=n + 1):
                created.append(gid)
                if on_append:
                    on_append(gid, MAIN)
    return created


def _store_playout(games: GameStore, name: str, gid: str, players: int, seed: int) -> bool:
    rules = get_rules(name)
    setup = Setup(DEMO_NAMES[:players])
    # A game may name a player that shows it better than uniform random play (see Rules.demo_player).
    player = getattr(rules, "demo_player", None) or uniform_player
    playout = random_playout(rules, setup, random.Random(f"{name}:{seed}"), player=player)
    try:
        games.create_game(name, rules.version, setup, owner=None, gid=gid, source="demo", seed=str(seed),
                          title=f"Demo {rules.name.replace('_', ' ').title()} #{seed}")
    except ConflictError:
        return False
    games.append(gid, MAIN, playout.events[1:], 1)
    return True
