"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

The dump leaves out what is derived: the component components is written as the custom component set
(``components``, null for the defaults) and the map's geometry is rebuilt from the layout.
``view`` hides the cubes inside the tower (only their number shows): nothing else in Amerigo is
secret, and the face-down pirates, the progress and production pools are chance not yet decided
(their contents are the public components minus what is out).
"""

from __future__ import annotations

import json
from typing import Any, Final

from engine.amerigo import components as c
from engine.amerigo.board import Board, board_for
from engine.amerigo.component_set import ComponentSet, component_set
from engine.amerigo.state import PHASE_NAMES, Phase, Player, State
from engine.core.errors import EngineError
from engine.core.jsonread import JsonReader
from engine.core.phased import Snapshots

PLAYER_FIELDS = Player.FIELDS
STATE_FIELDS = tuple(f for f in State.FIELDS if f not in ("components", "board"))
#: Fields stored under their names of rules versions 1-2 (snapshots stay valid): the wait point was
#: called ``step`` and the colour of the action phase ``phase``.
STORED_AS = {"phase": "step", "colour": "phase"}
#: The dump's keys, in the fields' order.
STORED_FIELDS = tuple(STORED_AS.get(name, name) for name in STATE_FIELDS)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def dump_state(state: State) -> dict[str, Any]:
    """Every field, tuples as lists, players as dicts, the components as its custom set."""
    data: dict[str, Any] = {"components": None if state.components.custom is None else json.loads(state.components.custom)}
    for name, key in zip(STATE_FIELDS, STORED_FIELDS, strict=True):
        if name == "players":
            data[key] = [{f: _plain(v) for f, v in zip(PLAYER_FIELDS, p.values(), strict=True)} for p in state.players]
        else:
            data[key] = _plain(getattr(state, name))
    data[STORED_AS["phase"]] = int(state.phase)  # the same number, stored as a plain int
    return data


SUBJECT = "bad amerigo state"


def _placement(field: JsonReader) -> tuple[int, int, int, int, int]:
    """One built tile: ``[kind, builder, rotation, row, col]``."""
    kind, builder, rotation, row, col = field.integers(5)
    return kind, builder, rotation, row, col


def _rows(field: JsonReader) -> tuple[tuple[int, ...], ...]:
    """A list of lists of ints (a row per seat)."""
    return tuple(row.integers() for row in field.items())


def _load_player(raw: JsonReader) -> Player:
    player = raw.fields(PLAYER_FIELDS)
    return Player(
        vp=player.at("vp").integer(), gold=player.at("gold").integer(), cannons=player.at("cannons").integer(),
        progress=player.at("progress").integer(), order_pos=player.at("order_pos").integer(),
        order_stamp=player.at("order_stamp").integer(), ships=player.at("ships").integers(),
        posts_left=player.at("posts_left").integer(), posts_founded=player.at("posts_founded").integer(),
        villages=player.at("villages").integers(), stock=player.at("stock").integers(), goods=player.at("goods").integers(),
        production=player.at("production").integers(), tokens=player.at("tokens").integers(),
        used=player.at("used").integers(), chests=player.at("chests").integer(),
    )


def _components(data: JsonReader) -> ComponentSet:
    try:
        return component_set(data.at("components").value)
    except EngineError as exc:
        raise data.fail(str(exc)) from None


def _placed_tile(pair: JsonReader, components: ComponentSet) -> tuple[int, int]:
    """One ``[tile, rotation]`` pair of the layout, of a known tile."""
    tile, rotation = pair.items(2, 2)
    return tile.integer(0, len(components.island_tiles) - 1), rotation.integer()


def _layout(field: JsonReader, components: ComponentSet, players: int) -> tuple[tuple[int, int], ...]:
    """The (tile, rotation) pairs placed so far: at most a full grid."""
    rows, cols = c.GRID[players]
    return tuple(_placed_tile(pair, components) for pair in field.items(0, rows * cols))


def _board(state: JsonReader, components: ComponentSet, layout: tuple[tuple[int, int], ...], players: int) -> Board | None:
    """The map once the layout is complete (None before), whose cells the cover must match one for one."""
    rows, cols = c.GRID[players]
    board = board_for(components, layout, players) if len(layout) == rows * cols else None
    if board is not None:
        state.at("cover").items(board.cells, board.cells)
    return board


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError naming the bad field."""
    state = JsonReader(data, SUBJECT).fields(("components", *STORED_FIELDS))
    names = state.at("names").texts(low=2, high=4)
    n = len(names)
    components = _components(state)
    layout = _layout(state.at("layout"), components, n)
    return State(
        names=names, components=components, layout=layout, board=_board(state, components, layout, n),
        phase=Phase(state.at(STORED_AS["phase"]).integer(0, len(PHASE_NAMES) - 1)), round=state.at("round").integer(),
        colour=state.at(STORED_AS["colour"]).integer(), tower=state.at("tower").integers(),
        storage=state.at("storage").integers(), field=state.at("field").integers(), stray=state.at("stray").integers(),
        thrown=state.at("thrown").integers(), throw_colour=state.at("throw_colour").integer(),
        cover=state.at("cover").integers(), placements=tuple(_placement(p) for p in state.at("placements").items()),
        island_empty=state.at("island_empty").integers(), discovered=state.at("discovered").booleans(),
        chests=state.at("chests").booleans(), neutral=state.at("neutral").integers(),
        progress_spaces=state.at("progress_spaces").integers(), progress_pool=state.at("progress_pool").integers(),
        production_spaces=state.at("production_spaces").integers(),
        production_pool=state.at("production_pool").integers(), pirates=state.at("pirates").integers(),
        pirate_pool=state.at("pirate_pool").integers(), stamps=state.at("stamps").integer(),
        turn_order=state.at("turn_order").integers(), turn=state.at("turn").integer(),
        phase_ap=state.at("phase_ap").integer(), action=state.at("action").integer(), ap=state.at("ap").integer(),
        ships_moved=state.at("ships_moved").booleans(), sailed=state.at("sailed").integer(),
        neutral_taken=state.at("neutral_taken").integer(), tokens_due=state.at("tokens_due").integer(),
        track_gold=state.at("track_gold").boolean(), final=_rows(state.at("final")),
        before_fight=_rows(state.at("before_fight")), before_final=_rows(state.at("before_final")),
        players=tuple(_load_player(p) for p in state.at("players").items(n, n)),
    )


def map_lines(state: State) -> list[str]:
    """The map as rows of tile characters (``~ A . P C T S K F``), or [] before the layout is complete."""
    board = state.board
    if board is None:
        return []
    letters = "~A.P"
    return ["".join(c.GOOD_LETTERS[board.goods[y * board.width + x]] if board.goods[y * board.width + x] >= 0
                    else letters[board.terrain[y * board.width + x]] for x in range(board.width))
            for y in range(board.height)]


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it (None: a spectator): the tower's contents hidden, its count shown."""
    data = dump_state(state)
    data["tower"] = None
    data["tower_cubes"] = sum(state.tower)
    data["step_name"] = PHASE_NAMES[state.phase]
    for i, player in enumerate(data["players"]):
        player["name"] = state.names[i]
    return data


#: The state's view, dump and load, as the game's rules object takes them.
SNAPSHOTS: Final = Snapshots(view, dump_state, load_state)
