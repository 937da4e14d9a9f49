"""Blue: sailing and founding trading posts.

Seed, "KÉK AKCIÓ: HAJÓZÁS": "Amikor egy játékos első alkalommal választja ezt az akciót, leteszi a
két hajóját a keret bármelyik általa választott mezőre" (the first time, both ships go onto frame
spaces of his choice); "Minden akciópontért minden hajóját egy oldalszomszédos vízmezőre
mozgathatja" (per AP, each ship one orthogonal water step); "Bármennyi hajó állhat egy keretmezőn,
de egy szigetlapka minden vízmezőjén csak egy hajó tartózkodhat. Egy vízmezőn álló hajó nem
akadályozza a többi hajó áthaladását" (any number on a frame space, one per island water space,
passing through is free); "Ha egy hajó a mozgása végén egy horgonymezőre ér, akkor a játékos egy
kereskedelmi állomást alapíthat a szomszédos kereskedelmi állomás mezőn, amennyiben az nem
foglalt" (a ship ending on an anchor may found a post on the linked space if it is free);
"Minden szigeten az első játékos, aki megalapít egy kereskedelmi állomást, 3 győzelmi pontot
kap" (the island's first post scores 3 VP).

A ship's path has no side effects, so a sailing decision is its destination; the engine lists
every legal destination within the ship's AP (its own space included: the ship stays). A ship on an
anchor may also sail out and back (``sail 1 back``): its movement ends on the anchor it started on,
so it may found there (offered only where that differs from staying: a free post and 2 AP).
"""

from __future__ import annotations

from typing import Final

from engine.amerigo import components as c
from engine.amerigo.board import ANCHOR, Board
from engine.amerigo.gold import gain_gold
from engine.amerigo.notation import DECLINE, END, FOUND, SPEND, USE_PT10, Action
from engine.amerigo.scoring import cover_space
from engine.amerigo.state import FOUND as FOUND_STEP
from engine.amerigo.state import SAIL, State, players_with, with_player
from engine.amerigo.tokens import PT10, PT19, owns, unused
from engine.amerigo.turns import end_action, legal_cash

PT10_AP: Final = 8
BOTH_MOVED: Final[tuple[bool, ...]] = (True, True)


def frame_pairs(board: Board) -> list[Action]:
    """Every placement of the two ships onto frame spaces (unordered: the ships are alike)."""
    frames = len(board.frames)
    return [("ships", a, b) for a in range(frames) for b in range(a, frames)]


def legal_place(state: State) -> list[Action]:
    """The first sailing: both ships onto frame spaces, free."""
    assert state.board is not None
    return frame_pairs(state.board) + legal_cash(state.me)


def distances(board: Board, start: int, budget: int) -> dict[int, int]:
    """Steps from ``start`` to every water node within ``budget`` steps (ships never block a passage)."""
    seen = {start: 0}
    frontier = [start]
    adj = board.sea_adj
    for step in range(1, budget + 1):
        following = []
        for node in frontier:
            for other in adj[node]:
                if other not in seen:
                    seen[other] = step
                    following.append(other)
        if not following:
            break
        frontier = following
    return seen


def reachable(board: Board, start: int, budget: int) -> list[int]:
    """The nodes of :func:`distances`, sorted: what listing the sails needs (a flag per node, not a dictionary)."""
    adj = board.sea_adj
    seen = [False] * len(adj)
    seen[start] = True
    nodes = [start]
    frontier = [start]
    for _ in range(budget):
        following = []
        for node in frontier:
            for other in adj[node]:
                if not seen[other]:
                    seen[other] = True
                    following.append(other)
        if not following:
            break
        nodes += following
        frontier = following
    nodes.sort()
    return nodes


def occupied(state: State, but: tuple[int, int]) -> set[int]:
    """Island water spaces holding a ship other than ship ``but`` = (seat, ship)."""
    assert state.board is not None
    cells = state.board.cells
    but_seat, but_ship = but
    players = state.players
    result = set()
    for seat in range(len(players)):
        ships = players[seat].ships
        for i in range(2):
            node = ships[i]
            if 0 <= node < cells and (seat != but_seat or i != but_ship):
                result.add(node)
    return result


def destination(board: Board, node: int) -> Action:
    """The (row, col) of a map space, or (-1, frame index) of a frame space."""
    cells = board.cells
    if node >= cells:
        return (-1, node - cells)
    return divmod(node, board.width)


def sail_actions(board: Board) -> tuple[tuple[Action, ...], ...]:
    """Per ship (0, 1), the sailing action to every node: ``("sail", ship + 1, *destination)``. Remembered per
    map size (they depend on nothing else), since listing the legal sails is most of a sailing decision's work."""
    key = (board.height, board.width, len(board.sea_adj))
    table = _sail_tables.get(key)
    if table is None:
        nodes = [destination(board, node) for node in range(len(board.sea_adj))]
        table = _sail_tables[key] = (tuple([("sail", 1, *where) for where in nodes]),
                                     tuple([("sail", 2, *where) for where in nodes]))
    return table


_sail_tables: Final[dict[tuple[int, int, int], tuple[tuple[Action, ...], ...]]] = {}


def node_of(board: Board, row: int, col: int) -> int:
    """The node of a sailing destination."""
    return board.cells + col if row < 0 else row * board.width + col


def legal_sail(state: State) -> list[Action]:
    """Every ship that has not moved, to every legal end space; PT10, gold, chests, the action's end."""
    board = state.board
    assert board is not None
    seat = state.seat
    player = state.players[seat]
    result: list[Action] = []
    for i in range(2):
        if state.ships_moved[i]:
            continue
        blocked = occupied(state, (seat, i))
        sails = sail_actions(board)[i]
        result += [sails[node] for node in reachable(board, player.ships[i], state.ap) if node not in blocked]
        if can_sail_back(state, i):
            result.append(("back", i + 1))
    if unused(player, PT10):
        result.append(USE_PT10)
    if player.gold:
        result.append(SPEND)
    return result + legal_cash(player) + [END]


def can_sail_back(state: State, i: int) -> bool:
    """Ship ``i`` (0 or 1) can sail out and back to the anchor it is on, and founding there is possible.

    "Minden akciópontért minden hajóját egy oldalszomszédos vízmezőre mozgathatja" (per AP, each ship
    one orthogonal water step) and "Ha egy hajó a mozgása végén egy horgonymezőre ér" (if a ship ends
    its movement on an anchor): one step out and one back is a movement that ends on the anchor. Where
    no post could be founded, out and back is the same as staying, so it is not listed twice.
    """
    board = state.board
    assert board is not None
    start = state.players[state.seat].ships[i]
    return (not state.ships_moved[i] and state.ap >= 2 and 0 <= start < board.cells and bool(board.sea_adj[start])
            and can_found(state, start))


def legal_found(state: State) -> list[Action]:
    """A ship ended its move on an anchor with a free trading-post space: found a post or not."""
    return [FOUND, DECLINE] + legal_cash(state.me)


def can_found(state: State, node: int) -> bool:
    """``node`` is an anchor whose trading-post space is free, and the player has a post left."""
    board = state.board
    assert board is not None
    if node >= board.cells or board.terrain[node] != ANCHOR or not state.me.posts_left:
        return False
    return state.cover[board.anchor_post[node]] == 0


def apply_place(state: State, action: Action) -> State:
    """Both ships onto their frame spaces."""
    assert state.board is not None
    seat = state.seat
    cells = state.board.cells
    player = state.players[seat].copy()
    player.ships = (cells + action[1], cells + action[2])
    new = state.copy()
    new.players = players_with(state.players, seat, player)
    new.phase = SAIL
    return new


def apply_sail(state: State, action: Action) -> State:
    """A ship moves to its destination in one go (or out and back); its unused AP are lost."""
    if action[0] == "back":
        return apply_sail_back(state, action)
    board = state.board
    assert board is not None
    seat = state.seat
    i = action[1] - 1
    player = state.players[seat].copy()
    start, end = player.ships[i], node_of(board, action[2], action[3])
    player.ships = (end, player.ships[1]) if i == 0 else (player.ships[0], end)
    new = state.copy()
    new.players = players_with(state.players, seat, player)
    new.ships_moved = (True, state.ships_moved[1]) if i == 0 else (state.ships_moved[0], True)
    if end != start and can_found(new, end):  # Ruling 3: only a ship that moved this action founds
        new.phase = FOUND_STEP
        new.sailed = i
        return new
    return _after_ship(new)


def apply_sail_back(state: State, action: Action) -> State:
    """The ship sails out and back to its anchor (its unused AP are lost): it may found there."""
    i = action[1] - 1
    moved = (True, state.ships_moved[1]) if i == 0 else (state.ships_moved[0], True)
    return state.evolve(ships_moved=moved, phase=FOUND_STEP, sailed=i)


def _after_ship(state: State) -> State:
    if state.ships_moved == BOTH_MOVED:
        return end_action(state)
    new = state.copy()
    new.phase = SAIL
    new.sailed = -1
    return new


def apply_found(state: State, action: Action) -> State:
    """Found the post (3 VP for the island's first; PT19 1 gold; completion), or decline."""
    if action == DECLINE:
        return _after_ship(state)
    board = state.board
    assert board is not None
    seat = state.seat
    player = state.players[seat]
    post = board.anchor_post[player.ships[state.sailed]]
    island = board.island_of[post]
    player = player.evolve(posts_left=player.posts_left - 1, posts_founded=player.posts_founded + 1)
    if not state.discovered[island]:
        player = player.evolve(vp=player.vp + c.DISCOVERY_VP)
        state = state.evolve(discovered=state.discovered[:island] + (True,) + state.discovered[island + 1 :])
    if owns(player, PT19):
        player = gain_gold(player, 1)
    cover = state.cover
    state = with_player(state, seat, player).evolve(cover=cover[:post] + (-(seat + 1),) + cover[post + 1 :])
    return _after_ship(cover_space(state, island, seat))


def apply_pt10(state: State) -> State:
    """PT10 (once): each ship that has not moved gets 8 more AP."""
    seat = state.seat
    player = state.players[seat]
    return with_player(state, seat, player.evolve(used=(*player.used, PT10))).evolve(ap=state.ap + PT10_AP)
