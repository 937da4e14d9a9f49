"""Setup: the state before the first chance event, and the setup's chance steps.

Seed, "ELŐKÉSZÜLETEK": islands of 9 / 12 / 16 random tiles (2 / 3 / 4 players) in frames; the
time markers; the supplies; "Jól keverjétek meg a kalózzelzőket, és tegyék képpel lefelé 5
darabot ... Az egyik, véletlenszerűen választott kalózzelzőt fordítsátok meg" (shuffle the pirates,
five face down, one of them turned up); a progress token face up on each progress space; the
production tokens for the player count on their spaces; the order discs in one random stack
("Akié a legfelső korong, az lesz a kezdőjátékos. Az összes többi játékos annyi aranyat kap,
ahány játékos előtte van": the top disc starts, every other player gets 1 gold per disc above
his); all 49 cubes thrown into the tower. Each random step is a chance event (digest § Engine
interface), in the digest's setup order.
"""

from __future__ import annotations

from typing import Final

from engine.amerigo import components as c
from engine.amerigo.component_set import ComponentSet
from engine.amerigo.state import EMPTY, LAYOUT, NO_ACTION, UNPLACED, Player, State
from engine.core.errors import SetupError

ZERO7: Final[tuple[int, ...]] = (0,) * 7


def production_pool(players: int) -> tuple[int, ...]:
    """The production tokens in the game, per production kind (good * 3 + value index)."""
    per_good = c.PRODUCTION_TOKENS[players]
    return tuple(per_good[v] for _ in c.GOODS for v in range(len(c.PRODUCTION_VALUES)))


def initial_state(names: tuple[str, ...], components: ComponentSet) -> State:
    """The game before its first chance event (the first island tile); the rules object has checked the player count."""
    n = len(names)
    rows, cols = c.GRID[n]
    if len(components.island_tiles) < rows * cols:
        raise SetupError(f"bad amerigo components: island_tiles: {n} players need {rows * cols} island tiles, "
                         f"the set has {len(components.island_tiles)}")
    villages = tuple(components.kinds[k].copies for k in components.village_kinds)
    player = Player(vp=0, gold=0, cannons=0, progress=0, order_pos=0, order_stamp=0, ships=(UNPLACED, UNPLACED),
                    posts_left=c.POSTS_PER_PLAYER, posts_founded=0, villages=villages, stock=(0,) * len(components.kinds),
                    goods=(0,) * 5, production=(0,) * 15, tokens=(), used=(), chests=0)
    return State(
        names=names, components=components, layout=(), board=None, phase=LAYOUT, round=0, colour=0, tower=ZERO7,
        storage=ZERO7, field=ZERO7, stray=ZERO7, thrown=ZERO7, throw_colour=7, cover=(), placements=(), island_empty=(),
        discovered=(), chests=(), neutral=tuple(components.kinds[k].copies for k in components.neutral_kinds),
        progress_spaces=(EMPTY,) * len(c.PROGRESS_SPACES), progress_pool=tuple(range(len(c.PROGRESS_TOKENS))),
        production_spaces=(EMPTY,) * c.PRODUCTION_SPACES[n], production_pool=production_pool(n), pirates=(),
        pirate_pool=tuple(sorted(c.PIRATES)), stamps=0, turn_order=(), turn=0, phase_ap=0, action=NO_ACTION, ap=0,
        ships_moved=(False, False), sailed=-1, neutral_taken=0, tokens_due=0, track_gold=False, final=(),
        before_fight=(), before_final=(),
        players=(player,) * n,
    )
