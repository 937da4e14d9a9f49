"""Black (cannons), brown (progress) and white's order move: the three tracks a disc moves along.

Seed: black "A játékos az ágyúszámláló-koronggal lép ... minden akciópontért 1 mezőnyit jobbra, de
legfeljebb a 12-esig" (one space per AP, at most to 12); brown "minden felhasznált akciópontért
egy mezőt lép ... Amikor elér vagy túllép egy győzelmi pontot jelző mezőn, akkor el kell vennie
egy fejlődésjelzőt" (one space per AP; reaching or passing a VP space, he must take a progress
token); white "minden elköltött AP-ért egy mezővel előbbre tolhatja a korongját ... Ha olyan
mezőn áll meg, amin már áll egy vagy több korong, akkor a korongját a már ott lévő korongok
tetejére teszi" (one space per AP; onto a space with discs, on top of them). End of a track:
"Ha a játékos számlálókorongja eléri (vagy elérte) az ágyú-, fejlődés- vagy speciálisakció-sáv
végét, és a játékos nem használta fel az összes elérhető akciópontját, akkor kap 2 aranyat"
(at the end of the track with AP unused: 2 gold, Ruling 5: once per action).
"""

from __future__ import annotations

from typing import Final

from engine.amerigo import components as c
from engine.amerigo.gold import gain_gold
from engine.amerigo.notation import SPEND, USE_PT16, Action
from engine.amerigo.state import EMPTY, TAKE_TOKEN, Player, State, order_of, players_with, with_player
from engine.amerigo.tokens import PT16, unused
from engine.amerigo.turns import end_action, legal_cash, next_turn

CANNON_ACTIONS: Final[tuple[Action, ...]] = tuple(("cannons", k) for k in range(c.CANNON_MAX + 1))


def _moves(verb: str, state: State, position: int, last: int) -> list[Action]:
    """``verb k`` for every k the AP allow, up to the track's end; spending gold while it could take the disc further."""
    most = min(state.ap, last - position)
    result: list[Action] = [(verb, k) for k in range(most + 1)]
    if state.me.gold and position + state.ap < last:
        result.append(SPEND)
    return result


def legal_cannon(state: State) -> list[Action]:
    """Black: 0..min(AP, 12 − cannons) spaces."""
    return _moves("cannons", state, state.me.cannons, c.CANNON_MAX) + legal_cash(state.me)


def _end_gold(player: Player, position: int, last: int, ap_left: int) -> Player:
    """``player``, with the end-of-track gold if his disc is at the track's end with AP unused."""
    if position == last and ap_left >= 1:
        return gain_gold(player, c.END_OF_TRACK_GOLD)
    return player


def apply_cannons(state: State, action: Action) -> State:
    """The cannon disc moves; 2 gold at the track's end with AP unused."""
    seat = state.seat
    player = state.players[seat].copy()
    player.cannons += action[1]
    return end_action(with_player(state, seat, _end_gold(player, player.cannons, c.CANNON_MAX, state.ap - action[1])))


def legal_advance(state: State) -> list[Action]:
    """Brown: 0..min(AP, last − position) spaces."""
    return _moves("advance", state, state.me.progress, state.components.progress_last) + legal_cash(state.me)


def vp_spaces_between(vp_spaces: tuple[tuple[int, int], ...], start: int, end: int) -> int:
    """VP spaces reached or passed moving from ``start`` to ``end``."""
    return sum(1 for space, _ in vp_spaces if start < space <= end)


def apply_advance(state: State, action: Action) -> State:
    """The progress disc moves; one token due per VP space reached or passed (while tokens remain)."""
    seat = state.seat
    player = state.players[seat]
    components = state.components
    end = player.progress + action[1]
    moved = player.copy()
    moved.progress = end
    new = state.copy()
    new.players = players_with(state.players, seat, moved)
    new.tokens_due = vp_spaces_between(components.progress_vp, player.progress, end)
    new.track_gold = end == components.progress_last and state.ap - action[1] >= 1
    return _next_token(new)


def _next_token(state: State) -> State:
    if state.tokens_due and any(t != EMPTY for t in state.progress_spaces):
        new = state.copy()
        new.phase = TAKE_TOKEN
        return new
    return end_action(state)


def legal_token(state: State) -> list[Action]:
    """Every token on the progress spaces (the player must take one)."""
    return [("take", t) for t in state.progress_spaces if t != EMPTY] + legal_cash(state.me)


def apply_take(state: State, action: Action) -> State:
    """The token goes to the player's sheet; it works from now on (never for the action that gained it)."""
    seat = state.seat
    player = state.players[seat].copy()
    player.tokens = (*player.tokens, action[1])
    new = state.copy()
    new.players = players_with(state.players, seat, player)
    new.progress_spaces = tuple([EMPTY if t == action[1] else t for t in state.progress_spaces])
    new.tokens_due = state.tokens_due - 1
    return _next_token(new)


def legal_order(state: State) -> list[Action]:
    """White order move: 0..min(AP, last − position) spaces; PT16 while someone else is first."""
    player = state.me
    result = _moves("move", state, player.order_pos, state.components.order_last)
    if unused(player, PT16) and order_of(state)[0] != state.seat:
        result.append(USE_PT16)
    return result + legal_cash(player)


def apply_move(state: State, action: Action) -> State:
    """The order disc moves, onto the top of any discs there (the order of this phase stays: Ruling 6)."""
    seat = state.seat
    player = state.players[seat]
    if action[1] == 0:
        return end_action(with_player(state, seat, _end_gold(player, player.order_pos, state.components.order_last, state.ap)))
    moved = player.copy()
    moved.order_pos = player.order_pos + action[1]
    moved.order_stamp = state.stamps + 1
    new = state.copy()
    new.players = players_with(state.players, seat, _end_gold(moved, moved.order_pos, state.components.order_last,
                                                              state.ap - action[1]))
    new.stamps = state.stamps + 1
    return end_action(new)


def apply_pt16(state: State) -> State:
    """PT16 (once): ignoring AP, the disc goes on top of the current first player's disc (no track gold)."""
    seat = state.seat
    player = state.players[seat]
    first = state.players[order_of(state)[0]]
    stamp = state.stamps + 1
    player = player.evolve(order_pos=first.order_pos, order_stamp=stamp, used=(*player.used, PT16))
    return next_turn(with_player(state, seat, player).evolve(stamps=stamp))
