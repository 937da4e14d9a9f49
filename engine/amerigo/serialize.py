"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

The dump leaves out what is derived: the component components is written as the custom component set
(``components``, null for the defaults) and the map's geometry is rebuilt from the layout.
``view`` hides the cubes inside the tower (only their number shows): nothing else in Amerigo is
secret, and the face-down pirates, the progress and production pools are chance not yet decided
(their contents are the public components minus what is out).
"""

from __future__ import annotations

import json
from typing import Any

from engine.amerigo import components as c
from engine.amerigo.board import board_for
from engine.amerigo.component_set import component_set
from engine.amerigo.state import PHASE_NAMES, Phase, Player, State
from engine.core.errors import EngineError, StateFormatError

PLAYER_FIELDS = Player.FIELDS
STATE_FIELDS = tuple(f for f in State.FIELDS if f not in ("components", "board"))
#: Fields stored under their names of rules versions 1-2 (snapshots stay valid): the wait point was
#: called ``step`` and the colour of the action phase ``phase``.
STORED_AS = {"phase": "step", "colour": "phase"}
#: The dump's keys, in the fields' order.
STORED_FIELDS = tuple(STORED_AS.get(name, name) for name in STATE_FIELDS)
BOOL_FIELDS = {"discovered", "chests", "ships_moved", "track_gold"}


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


def _bad(what: str, value: Any) -> StateFormatError:
    return StateFormatError(f"bad amerigo state: {what}, got {str(value)[:80]!r}")


def _tuple(value: Any, what: str) -> Any:
    """Lists become tuples, all the way down; only ints, bools and strings may be leaves."""
    if isinstance(value, list):
        return tuple(_tuple(v, what) for v in value)
    if type(value) in (int, bool, str):
        return value
    raise _bad(f"{what} must hold integers, booleans and lists", value)


def _load_player(raw: Any, seat: int) -> Player:
    if not isinstance(raw, dict) or set(raw) != set(PLAYER_FIELDS):
        raise _bad(f"player {seat} must have the fields {', '.join(PLAYER_FIELDS)}", raw)
    values = {name: _tuple(raw[name], f"players[{seat}].{name}") for name in PLAYER_FIELDS}
    for name, value in values.items():
        leaves = value if isinstance(value, tuple) else (value,)
        if not all(type(v) is int for v in leaves):
            raise _bad(f"players[{seat}].{name} must be integers", value)
    return Player(**values)


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError when malformed."""
    if not isinstance(data, dict) or set(data) != {"components", *STORED_FIELDS}:
        raise StateFormatError("bad amerigo state: expected the fields of a dumped state")
    names = data["names"]
    if not isinstance(names, list) or not 2 <= len(names) <= 4 or not all(isinstance(x, str) for x in names):
        raise _bad("names must be 2 to 4 strings", names)
    try:
        components = component_set(data["components"])
    except EngineError as exc:
        raise StateFormatError(f"bad amerigo state: {exc}") from None
    values: dict[str, Any] = {"components": components}
    for name, key in zip(STATE_FIELDS, STORED_FIELDS, strict=True):
        if name == "players":
            if not isinstance(data[key], list) or len(data[key]) != len(names):
                raise _bad(f"expected {len(names)} players", data[key])
            values[name] = tuple(_load_player(p, seat) for seat, p in enumerate(data[key]))
        else:
            values[name] = _tuple(data[key], key)
    if not 0 <= values["phase"] < len(PHASE_NAMES) or type(values["phase"]) is not int:
        raise _bad("unknown step", values["phase"])
    values["phase"] = Phase(values["phase"])
    rows, cols = c.GRID[len(names)]
    layout = values["layout"]
    if not isinstance(layout, tuple) or len(layout) > rows * cols or not all(
            isinstance(t, tuple) and len(t) == 2 and 0 <= t[0] < len(components.island_tiles) for t in layout):
        raise _bad("layout must list (tile, rotation) pairs of known tiles", layout)
    values["board"] = board_for(components, layout, len(names)) if len(layout) == rows * cols else None
    if values["board"] is not None and len(values["cover"]) != values["board"].cells:
        raise _bad("cover must have one entry per map space", len(values["cover"]))
    return State(**values)


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
