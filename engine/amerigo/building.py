"""Green: building tiles from one's stock onto islands where one has a trading post.

Seed, "ZÖLD AKCIÓ: ÉPÍTÉS": "Egy falulapkának a lerakási költsége csak 1 AP. Egy semleges
tájlapkának a lerakási költsége 1-6 AP" (a village tile costs 1 AP to build, a neutral tile 1-6 AP);
"1. A lapkát csak szárazföldre lehet építeni – vízre sosem. 2. Minden lapkát oldalszomszédosan
kell letenni ... a) vagy a játékos saját kereskedelmi állomásával ... b) ...vagy egy, a játékos
falulapkáiból és/vagy semleges tájlapkáiból álló, a kereskedelmi állomáshoz csatlakozó sorhoz.
(Nem számít, hogy ki építette le a semleges tájlapkát.)" (land only; orthogonally adjacent to an
own post or to a chain of own village and neutral tiles joined to it, whoever built the neutral
ones); "A játékosok nem építhetnek rá egy kereskedelmi állomásra, de építhetnek üres
kereskedelmiállomás-mezőre" (not on a post, but on an empty post space); goods spaces covered give
their goods tokens; "Ha a lapka kis szigeten épül meg, akkor a játékos a kisebb győzelmi pontot
kapja; ha egy nagy szigeten ... a nagyobb" (small / large VP by the island).
"""

from __future__ import annotations

from typing import Final

from engine.amerigo.board import LAND, Board
from engine.amerigo.component_set import ComponentSet, TileKind, rotate_cells
from engine.amerigo.kind_table import kind_table
from engine.amerigo.notation import BUILD_AT_CORNER, END, SPEND, Action, BuildMove
from engine.amerigo.scoring import cover_space
from engine.amerigo.state import Player, State, with_player
from engine.amerigo.turns import legal_cash
from engine.core.records import add_at

Placement = tuple[int, int, int, int]  # kind, rotation (the first of its equivalent ones), top row, left column


def first_rotation(kind: TileKind, rotation: int) -> int:
    """The first of the rotations equivalent to ``rotation`` (D2 turned twice is D2 unturned)."""
    cells = rotate_cells(kind.orientations[0][1], rotation)
    return next(k for k, shape in kind.orientations if shape == cells)


def placement_of(components: ComponentSet, action: Action) -> Placement:
    """The placement a build names: ``build <kind> r<k> at <row>,<col>`` (the anchor cell, any of the 4 rotations)
    or the old ``build <kind> r<k> <row>,<col>`` (the bounding box's corner). Assumes a known kind."""
    build = BuildMove(*action)
    k = kind_table(components).kind_index(build.kind)
    if build.verb == BUILD_AT_CORNER:
        return k, build.rotation, build.row, build.col
    dr, dc = kind_table(components).offsets[k][build.rotation % 4]
    return k, first_rotation(components.kinds[k], build.rotation), build.row - dr, build.col - dc


def build_action(components: ComponentSet, placement: Placement) -> Action:
    """The build action of a placement in today's notation: its first rotation, at its anchor cell."""
    k, rotation, top, left = placement
    table = kind_table(components)
    dr, dc = table.offsets[k][rotation]
    return ("build", table.names[k], rotation, top + dr, left + dc)


def listed_form(state: State, action: Action) -> Action:
    """A build as the legal actions list it (first rotation, anchor cell); any other action unchanged.

    Every rotation 0-3 names a placement, equivalent ones the same; an old-notation build is read as the
    placement it named. Builds of an unknown kind or an impossible rotation stay as they are (and are refused).
    """
    build = BuildMove.read(action)
    if build is None or state.board is None:
        return action
    k = kind_table(state.components).kind_index(build.kind)
    if k < 0 or not 0 <= build.rotation <= 3:
        return action
    if build.verb == BUILD_AT_CORNER and build.rotation not in dict(state.components.kinds[k].orientations):
        return action
    return build_action(state.components, placement_of(state.components, build))


def network(state: State, seat: int) -> set[int]:
    """The player's posts and every tile joined to them by a chain of neutral tiles and his own village tiles
    (other players' posts and village tiles break the chain)."""
    board = state.board
    assert board is not None
    cover = state.cover
    is_village = kind_table(state.components).is_village
    placements = state.placements
    mark = -(seat + 1)
    linked = [cell for cell in range(len(cover)) if cover[cell] == mark]
    seen = set(linked)
    adj = board.land_adj
    while linked:
        cell = linked.pop()
        for other in adj[cell]:
            what = cover[other]
            if what > 0 and other not in seen:
                kind, builder = placements[what - 1][0], placements[what - 1][1]
                if builder == seat or not is_village[kind]:
                    seen.add(other)
                    linked.append(other)
    return seen


def frontier(state: State, seat: int) -> list[int]:
    """Empty land spaces orthogonally adjacent to the player's network: a tile must cover one of them.

    Remembered for the last cover and seat asked: spending gold or planning asks again with the map unchanged."""
    remembered = _frontier
    if remembered[0] is state.cover and remembered[1] == seat:
        return remembered[2]  # type: ignore[return-value]
    result = _frontier_of(state, seat)
    _frontier[:] = [state.cover, seat, result]
    return result


_frontier: Final[list[object]] = [None, -1, None]


def _frontier_of(state: State, seat: int) -> list[int]:
    board = state.board
    assert board is not None
    cover = state.cover
    adj = board.land_adj
    return sorted({other for cell in network(state, seat) for other in adj[cell] if cover[other] == 0})


def _fits(board: Board, cover: tuple[int, ...], top: int, left: int, cells: tuple[tuple[int, int], ...]) -> bool:
    width, terrain = board.width, board.terrain
    for r, col in cells:
        y, x = top + r, left + col
        if y < 0 or x < 0 or y >= board.height or x >= width:
            return False
        cell = y * width + x
        if terrain[cell] < LAND or cover[cell]:
            return False
    return True


def placements(state: State) -> list[Placement]:
    """Every legal placement of a stock tile the AP pay for, sorted (one per distinct rotation)."""
    board = state.board
    assert board is not None
    seat = state.seat
    stock = state.players[seat].stock
    table = kind_table(state.components)
    ap = state.ap
    kinds = [k for k in range(len(stock)) if stock[k] and table.build_costs[k] <= ap]
    if not kinds:
        return []
    edge = frontier(state, seat)
    height, width = board.height, board.width
    cover = state.cover
    # A placement on the map as one number, ordered as its tuple (kind, rotation, top, left): a set of numbers is
    # cheaper to fill and ask than a set of tuples, and each candidate is tried once.
    tried: set[int] = set()
    found: list[int] = []
    for k in kinds:
        for rotation, cells in table.orientations[k]:
            shape = k * 4 + rotation
            for cell in edge:
                y = cell // width
                x = cell % width
                for r, col in cells:
                    top = y - r
                    left = x - col
                    if top < 0 or left < 0 or top >= height or left >= width:
                        continue  # the shape's top row or left column would be off the map: it cannot fit
                    key = (shape * height + top) * width + left
                    if key not in tried:
                        tried.add(key)
                        if _fits(board, cover, top, left, cells):
                            found.append(key)
    found.sort()
    return [_placement(key, height, width) for key in found]


def _placement(key: int, height: int, width: int) -> Placement:
    """The placement numbered ``key`` by :func:`placements`."""
    shape, spot = divmod(key, height * width)
    return shape // 4, shape % 4, spot // width, spot % width


_cache: Final[list[object]] = [None, None, -1, -1, None]


def cached_placements(state: State) -> list[Placement]:
    """:func:`placements`, remembered for the last position asked (settling and listing ask twice)."""
    player = state.me
    key = _cache
    if key[0] is state.cover and key[1] is player.stock and key[2] == state.ap and key[3] == state.seat:
        return key[4]  # type: ignore[return-value]
    result = placements(state)
    _cache[:] = [state.cover, player.stock, state.ap, state.seat, result]
    return result


def legal_build(state: State) -> list[Action]:
    """Every placement, gold for AP while the stock holds a tile, chests, the action's end."""
    components = state.components
    result: list[Action] = [build_action(components, placement) for placement in cached_placements(state)]
    player = state.me
    if may_spend(player):
        result.append(SPEND)
    return result + legal_cash(player) + [END]


def may_spend(player: Player) -> bool:
    """Gold for AP is offered while the stock holds a tile."""
    return bool(player.gold) and any(player.stock)


def build_open(state: State) -> bool:
    """Whether building offers more than ending it: :func:`legal_build` lists more than END."""
    player = state.me
    return bool(cached_placements(state)) or may_spend(player) or bool(legal_cash(player))


def shape_cells(state: State, kind: int, rotation: int, top: int, left: int) -> list[int]:
    """The map cells a placement covers."""
    board = state.board
    assert board is not None
    cells = dict(state.components.kinds[kind].orientations)[rotation]
    return [(top + r) * board.width + left + col for r, col in cells]


def apply_build(state: State, action: Action) -> State:
    """The tile is built: its VP (small or big island), the goods tokens it covers, completion."""
    board = state.board
    assert board is not None
    components = state.components
    k, rotation, top, left = placement_of(components, action)
    kind = components.kinds[k]
    seat = state.seat
    cells = shape_cells(state, k, rotation, top, left)
    island = board.island_of[cells[0]]
    player = state.players[seat]
    goods = player.goods
    for cell in cells:
        if board.goods[cell] >= 0:
            goods = add_at(goods, board.goods[cell], 1)
    vp = kind.vp_big if board.islands[island].big else kind.vp_small
    player = player.evolve(vp=player.vp + vp, goods=goods, stock=add_at(player.stock, k, -1))
    mark = len(state.placements) + 1
    cover = list(state.cover)
    for cell in cells:
        cover[cell] = mark
    state = with_player(state, seat, player).evolve(
        cover=tuple(cover), placements=(*state.placements, (k, seat, rotation, top, left)),
        ap=state.ap - kind.build_cost)
    for _ in cells:
        state = cover_space(state, island, seat)
    return state
