"""Demo games: seeded games of every game with rules, played by a random legal player.

So that a new install has something to show. Each demo game has a fixed id
(``demo-<game>-<n>``), so loading the demo twice adds nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Setup, get_rules, listed_games, random_playout
from engine.core.fold import Playout
from engine.players.offered import demo_player_for
from service.store.errors import ConflictError
from service.store.games import MAIN, GameStore
from service.store.results import result_of

DEMO_NAMES = ("Anna", "Róbert", "Krisztina", "Dávid", "Emese")


def demo_games() -> list[str]:
    """Games the demo plays: every listed game (test fixture games register unlisted)."""
    return listed_games()


def load_demo(games: GameStore, per_game: int = 2, on_append: Callable[[str, str], None] | None = None) -> list[str]:
    """Store ``per_game`` demo games of each game (skipping ones already there); returns new ids."""
    created = []
    for name in demo_games():
        for n in range(1, per_game + 1):
            gid = demo_id(name, n)
            if _store_playout(games, name, gid, n):
                created.append(gid)
                if on_append:
                    on_append(gid, MAIN)
    return created


def demo_id(name: str, n: int) -> str:
    """The id of game ``name``'s ``n``-th demo game (from 1): ``demo-<game>-<n>``."""
    return f"demo-{name.replace('_', '-')}-{n}"


def demo_setup(name: str, n: int) -> Setup:
    """Who plays game ``name``'s ``n``-th demo game: the most players it takes, then one fewer, and so on."""
    rules = get_rules(name)
    players = rules.max_players - (n - 1) % (rules.max_players - rules.min_players + 1)
    return Setup(DEMO_NAMES[:players])


def demo_playout(name: str, n: int) -> Playout:
    """Game ``name``'s ``n``-th demo game (from 1), move for move as :func:`load_demo` stores it.

    A game may declare a player that shows it better than uniform random play (``Declaration.demo_player``).
    """
    rules = get_rules(name)
    return random_playout(rules, demo_setup(name, n), random.Random(f"{name}:{n}"), player=demo_player_for(rules))


def _store_playout(games: GameStore, name: str, gid: str, n: int) -> bool:
    rules = get_rules(name)
    playout = demo_playout(name, n)
    try:
        games.create_game(name, rules.version, demo_setup(name, n), owner=None, gid=gid, source="demo", seed=str(n),
                          title=f"Demo {rules.name.replace('_', ' ').title()} #{n}")
    except ConflictError:
        return False
    games.append(gid, MAIN, playout.events[1:], 1, ends=result_of(rules, playout.state, demo_setup(name, n).players))
    return True
