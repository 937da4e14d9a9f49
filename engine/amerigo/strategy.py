"""Amerigo strategy bots: a builder and a sailor, usable as opponents and as rollout policies.

Inside an action both play one ply greedily: they apply every legal action and keep the one after
which :func:`worth` (their final score as it would stand now, plus what buys points later) is
highest, ties broken by the rng. What the estimate counts follows the final scoring: victory points,
gold (a point each, up to the track's 12), chests (3 gold each), goods times production tokens, the
end tokens, the highest VP space reached on the progress and special-action tracks; and what earns
points later: cannons (pirates take points from a player with too few), trading posts founded (they
open islands to build on; the first post on an island is worth 3), tiles in stock (built, they score).

Which action to take (the colour) gains nothing by itself, so there each bot follows its plan:

* **builder**: green (building) while it holds tiles, red (planning tiles) otherwise once its ships
  have founded a few posts, blue (sailing) before that;
* **sailor**: blue while it has many posts left to found (first posts on islands pay 3 and open them
  for everyone's tiles), then green with tiles in stock, red otherwise.

When the colour it wants is not in the action field, it takes the next of its plan, then brown,
yellow, black, white; gold instead of an action only when nothing else is offered.

While sailing, both take an anchor where a post can be founded when one is in reach (like the demo
player, :mod:`engine.amerigo.rollout`). They pick among the legal actions they are given, with the
randomness they are given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, final

from engine.amerigo.components import BLACK, BLUE, BROWN, GREEN, RED, WHITE, YELLOW
from engine.amerigo.sailing import can_found, node_of
from engine.amerigo.scoring import end_token_vp, goods_vp, track_vp
from engine.amerigo.state import CHOOSE, SAIL, State
from engine.core.fold import Player as Bot
from engine.players.picking import forced_or_explored, pick

#: The most gold the track holds (each gold above it turns into a point at once).
GOLD_TRACK: Final = 12
#: The most actions a greedy step looks at (building offers hundreds of placements; the rest are sampled).
MAX_LOOKED_AT: Final = 120


@final
class Style:
    """A strategy: its plan for the colours and the weights of what earns points later."""

    def __init__(self, name: str, sail_until_posts_left: int, cannon: float, post: float, stock: float) -> None:
        self.name = name
        #: Blue is its choice while it has more posts than this left to found.
        self.sail_until_posts_left = sail_until_posts_left
        self.cannon = cannon
        self.post = post
        self.stock = stock


BUILDER: Final = Style("builder", sail_until_posts_left=8, cannon=0.6, post=1.5, stock=0.5)
SAILOR: Final = Style("sailor", sail_until_posts_left=4, cannon=0.6, post=2.5, stock=0.4)
#: The other colours, in the order either plan falls back on when its colour is not in the action field.
FALLBACK: Final = (BROWN, YELLOW, BLACK, WHITE)


def worth(style: Style, state: State, seat: int) -> float:
    """The seat's final score as it stands, plus what the style thinks earns points later."""
    player = state.players[seat]
    components = state.components
    value = float(player.vp + min(player.gold + 3 * player.chests, GOLD_TRACK) + goods_vp(player) + end_token_vp(player))
    value += track_vp(components.progress_vp, player.progress) + track_vp(components.order_vp, player.order_pos)
    value += style.cannon * min(player.cannons, 8) + style.post * player.posts_founded + style.stock * len(player.stock)
    return value


@final
class StrategyBot:
    """A :data:`engine.core.declaration.Player` playing one :class:`Style`, through the rules' ``apply``."""

    def __init__(self, style: Style, apply: Callable[[State, Any], State], explore: float = 0.0) -> None:
        self.style = style
        self.apply = apply
        self.explore = explore

    def __call__(self, state: State, actions: list[Any], rng: random.Random) -> Any:
        """The colour of the plan, an anchor to found at, else the greedy choice (see the module docstring)."""
        chosen = forced_or_explored(actions, rng, self.explore)
        if chosen is not None:
            return chosen
        if state.phase == CHOOSE:
            for colour in self._colours(state):
                if ("choose", colour) in actions:
                    return ("choose", colour)
        if state.phase == SAIL and state.board is not None:
            board = state.board
            anchors = [a for a in actions if a[0] == "sail" and can_found(state, node_of(board, a[2], a[3]))]
            if anchors:
                return pick(anchors, rng)
        return self._greedy(state, actions, rng)

    def _colours(self, state: State) -> tuple[int, ...]:
        """The colours in the plan's order of preference."""
        me = state.me
        building = (GREEN, RED) if me.stock else (RED, GREEN)
        if me.posts_left > self.style.sail_until_posts_left:
            return (BLUE, *building, *FALLBACK)
        return (*building, BLUE, *FALLBACK)

    def _greedy(self, state: State, actions: list[Any], rng: random.Random) -> Any:
        seat = state.turn_order[state.turn]
        looked_at = actions if len(actions) <= MAX_LOOKED_AT else [pick(actions, rng) for _ in range(MAX_LOOKED_AT)]
        best_value, best = -1e18, [looked_at[0]]
        for action in looked_at:
            value = worth(self.style, self.apply(state, action), seat)
            if value > best_value + 1e-9:
                best_value, best = value, [action]
            elif value > best_value - 1e-9:
                best.append(action)
        if len(best) > 1:
            # Ties (sailing on, ending an action): anything but an early end, if there is a choice.
            going_on = [a for a in best if a[0] != "end"]
            best = going_on or best
        return best[0] if len(best) == 1 else pick(best, rng)


def strategy_players(apply: Callable[[State, Any], State]) -> dict[str, Bot]:
    """The game's bots by name, strongest first, playing through the rules' ``apply``."""
    return {"sailor": StrategyBot(SAILOR, apply), "builder": StrategyBot(BUILDER, apply)}

