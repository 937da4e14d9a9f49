"""Scoring: island completion, the pirates at each round's end, the final scoring and the outcome.

Completion (seed, "Egy sziget befejezése"): the player covering an island's last empty space
scores 3 VP more and, on a big island, its treasure chest; then every player with posts on the
island scores the completion table's number for his post count times the top time marker.
Pirates (seed, "EGY FORDULÓ VÉGE"): each player fires as many cannons as the pirates' strength;
not enough cannons: all are fired and the player loses VP equal to the full strength.
Final scoring (seed, "A JÁTÉK VÉGE"): gold, goods, progress, special-action track.
"""

from __future__ import annotations

from engine.amerigo import components as c
from engine.amerigo.gold import gain_gold, lose_vp
from engine.amerigo.state import Player, State, order_of, with_player
from engine.amerigo.tokens import GOLD_TOKENS, PT11, PT12, PT13, PT22, PT23, PT24, owns, unused
from engine.core.protocol import Outcome

DETAIL_NAMES = ("before final scoring", "gold", "goods", "end tokens", "progress track", "special-action track")


def time_value(state: State) -> int:
    """The value of the top time marker this round (Ruling 1: 5, 4, 3, 2, then the printed 1)."""
    return c.TIME_VALUES[min(max(state.round, 1), c.ROUNDS) - 1]


def track_vp(vp_spaces: tuple[tuple[int, int], ...], position: int) -> int:
    """The highest VP number reached or passed on a track ("az elért vagy túl haladott legnagyobb számmal")."""
    best = 0
    for space, vp in vp_spaces:
        if space <= position:
            best = vp
    return best


def posts_on(state: State, island: int, seat: int) -> int:
    """How many trading posts ``seat`` has on ``island``."""
    mark = -(seat + 1)
    cover = state.cover
    assert state.board is not None
    return sum(1 for cell in state.board.islands[island].cells if cover[cell] == mark)


def cover_space(state: State, island: int, seat: int) -> State:
    """One more land space of ``island`` covered by ``seat``; scores the completion if it was the last."""
    left = state.island_empty[island] - 1
    state = state.evolve(island_empty=state.island_empty[:island] + (left,) + state.island_empty[island + 1 :])
    return complete_island(state, island, seat) if left == 0 else state


def complete_island(state: State, island: int, seat: int) -> State:
    """+3 VP and the chest to the completer (Ruling 10: by a tile or a post), then table x time to every owner."""
    player = state.players[seat]
    player = player.evolve(vp=player.vp + c.COMPLETION_VP)
    if state.chests[island]:
        player = player.evolve(chests=player.chests + 1)
        state = state.evolve(chests=state.chests[:island] + (False,) + state.chests[island + 1 :])
    state = with_player(state, seat, player)
    factor = time_value(state)
    for owner in range(state.n):
        posts = posts_on(state, island, owner)
        if posts:  # Ruling 9: more than 6 posts score as 6
            p = state.players[owner]
            state = with_player(state, owner, p.evolve(vp=p.vp + c.COMPLETION_TABLE[min(posts, 6) - 1] * factor))
    return state


def pirate_strength(state: State, seat: int) -> int:
    """The face-up pirates' sum, +2 for every PT11 another player owns."""
    others = sum(1 for s, p in enumerate(state.players) if s != seat and owns(p, PT11))
    return sum(state.pirates) + 2 * others


def fight(player: Player, strength: int) -> Player:
    """One player against pirates of ``strength``: enough cannons repel them (PT13: +2 gold), else all
    cannons are fired and the VP are lost (PT12: half, rounded up)."""
    if player.cannons >= strength:
        player = player.evolve(cannons=player.cannons - strength)
        return gain_gold(player, 2) if owns(player, PT13) else player
    loss = (strength + 1) // 2 if owns(player, PT12) else strength
    return lose_vp(player.evolve(cannons=0), loss)


def fight_pirates(state: State) -> State:
    """Every player against the pirates at the round's end (no decisions)."""
    for seat in range(state.n):
        state = with_player(state, seat, fight(state.players[seat], pirate_strength(state, seat)))
    return state


def final_gold(player: Player) -> tuple[Player, int]:
    """Step 1: chests and unused PT17/PT18 become gold (overflow → VP), then 1 VP per gold."""
    before = player.vp
    player = gain_gold(player.evolve(chests=0), c.CHEST_GOLD * player.chests)
    for token, amount in GOLD_TOKENS.items():
        if unused(player, token):
            player = gain_gold(player.evolve(used=(*player.used, token)), amount)
    player = player.evolve(vp=player.vp + player.gold)
    return player, player.vp - before


def goods_vp(player: Player) -> int:
    """Step 2: per good, goods tokens x production tokens (the printed one counts, values do not)."""
    values = len(c.PRODUCTION_VALUES)
    return sum(player.goods[g] * (1 + sum(player.production[g * values: (g + 1) * values])) for g in range(len(c.GOODS)))


def end_token_vp(player: Player) -> int:
    """Step 3a: PT22 1 VP per post founded, PT23 7 VP, PT24 the gold track again."""
    vp = 0
    if owns(player, PT22):
        vp += player.posts_founded
    if owns(player, PT23):
        vp += 7
    if owns(player, PT24):
        vp += player.gold
    return vp


def final_scoring(state: State) -> State:
    """The four steps of the final scoring for every player; the breakdown is kept in ``state.final``."""
    components = state.components
    final = []
    for seat in range(state.n):
        player = state.players[seat]
        before = player.vp
        player, gold = final_gold(player)
        parts = (goods_vp(player), end_token_vp(player), track_vp(components.progress_vp, player.progress),
                 track_vp(components.order_vp, player.order_pos))
        state = with_player(state, seat, player.evolve(vp=player.vp + sum(parts)))
        final.append((before, gold, *parts))
    return state.evolve(final=tuple(final))


def outcome(state: State) -> Outcome:
    """Most VP wins; a tie goes to the tied player earlier in the final order."""
    scores = tuple(p.vp for p in state.players)
    order = order_of(state)
    tiebreaks = tuple(state.n - order.index(seat) for seat in range(state.n))
    details = tuple(dict(zip(DETAIL_NAMES, parts, strict=True)) for parts in state.final)
    return Outcome.ranked(list(zip(scores, tiebreaks, strict=True)), scores=scores, tiebreaks=tiebreaks, details=details)
