"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

``view`` hides other players' VP chips (kept face down: "a jelzőket képpel lefelé tartják")
and shows the face-down stack only as a count; everything else is open.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import StateFormatError
from engine.puerto_rico.components import N_BUILDINGS
from engine.puerto_rico.state import PHASE_NAMES, Phase, Player, State

PLAYER_FIELDS = Player.FIELDS
STATE_FIELDS = State.FIELDS
#: Fields stored under their names of rules versions 1-2 (snapshots stay valid).
STORED_AS = {"turns_done": "step"}
#: The dump's keys, in the fields' order.
STORED_FIELDS = tuple(STORED_AS.get(name, name) for name in STATE_FIELDS)
_TUPLE_LENGTHS = {"goods": 5, "island": 6, "island_workers": 6, "city": N_BUILDINGS}


def dump_state(state: State) -> dict[str, Any]:
    """Every field, tuples as lists, players as dicts."""
    data: dict[str, Any] = {}
    for key, value in zip(STORED_FIELDS, state.values(), strict=True):
        if key == "players":
            data[key] = [_dump_player(p) for p in state.players]
        else:
            data[key] = list(value) if isinstance(value, tuple) else value
    data["phase"] = int(state.phase)  # the same number, stored as a plain int
    return data


def _dump_player(player: Player) -> dict[str, Any]:
    return {name: list(v) if isinstance(v, tuple) else v for name, v in zip(PLAYER_FIELDS, player.values(), strict=True)}


def _ints(value: Any, length: int | None, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise StateFormatError(f"bad puerto rico state: {what} must be a list of {length or 'some'} integers, got {value!r}")
    if not all(type(v) is int for v in value):
        raise StateFormatError(f"bad puerto rico state: {what} must hold integers, got {value!r}")
    return tuple(value)


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise StateFormatError(f"bad puerto rico state: {what} must be an integer, got {value!r}")
    return value


def _bools(value: Any, length: int, what: str) -> tuple[bool, ...]:
    if not isinstance(value, list) or len(value) != length or not all(type(v) is bool for v in value):
        raise StateFormatError(f"bad puerto rico state: {what} must be a list of {length} booleans, got {value!r}")
    return tuple(value)


def _load_player(raw: Any, seat: int) -> Player:
    if not isinstance(raw, dict) or set(raw) != set(PLAYER_FIELDS):
        raise StateFormatError(f"bad puerto rico state: player {seat} must have the fields {', '.join(PLAYER_FIELDS)}")
    values: dict[str, Any] = {}
    for name in PLAYER_FIELDS:
        where = f"players[{seat}].{name}"
        values[name] = _ints(raw[name], _TUPLE_LENGTHS[name], where) if name in _TUPLE_LENGTHS else _int(raw[name], where)
    return Player(**values)


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError when malformed."""
    if not isinstance(data, dict) or set(data) != set(STORED_FIELDS):
        missing = sorted(set(STORED_FIELDS) - set(data)) if isinstance(data, dict) else list(STORED_FIELDS)
        raise StateFormatError(f"bad puerto rico state: expected the fields of a state, missing {missing}")
    names = data["names"]
    if not isinstance(names, list) or not 3 <= len(names) <= 5 or not all(isinstance(x, str) for x in names):
        raise StateFormatError(f"bad puerto rico state: names must be 3 to 5 strings, got {names!r}")
    n = len(names)
    players = data["players"]
    if not isinstance(players, list) or len(players) != n:
        raise StateFormatError(f"bad puerto rico state: expected {n} players")
    cards = len(data["role_coins"]) if isinstance(data["role_coins"], list) else -1
    if cards != n + 3:
        raise StateFormatError(f"bad puerto rico state: {n} players play with {n + 3} role cards")
    values: dict[str, Any] = {
        "names": tuple(names),
        "players": tuple(_load_player(p, seat) for seat, p in enumerate(players)),
        "role_coins": _ints(data["role_coins"], cards, "role_coins"),
        "roles_taken": _bools(data["roles_taken"], cards, "roles_taken"),
        "wharf_used": _bools(data["wharf_used"], n, "wharf_used"),
        "produced": _bools(data["produced"], 5, "produced"),
        "trading_house": _ints(data["trading_house"], None, "trading_house"),
        "building_supply": _ints(data["building_supply"], N_BUILDINGS, "building_supply"),
        "ship_goods": _ints(data["ship_goods"], 3, "ship_goods"),
        "ship_loads": _ints(data["ship_loads"], 3, "ship_loads"),
    }
    for name in ("goods_supply", "face_up", "stack", "discards"):
        values[name] = _ints(data[name], 5, name)
    for name in ("hacienda_used", "captain_bonus_used", "end_triggered"):
        if type(data[name]) is not bool:
            raise StateFormatError(f"bad puerto rico state: {name} must be a boolean, got {data[name]!r}")
        values[name] = data[name]
    for name, key in zip(STATE_FIELDS, STORED_FIELDS, strict=True):
        if name not in values:
            values[name] = _int(data[key], key)
    if not 0 <= values["phase"] < len(PHASE_NAMES):
        raise StateFormatError(f"bad puerto rico state: unknown phase {values['phase']!r}")
    values["phase"] = Phase(values["phase"])
    if len(values["trading_house"]) > 4:
        raise StateFormatError("bad puerto rico state: the trading house holds at most 4 barrels")
    return State(**values)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it (None: a spectator): chips of others hidden, stack as a count."""
    data = dump_state(state)
    for i, player in enumerate(data["players"]):
        player["name"] = state.names[i]
        if i != seat:
            player["vp"] = None
    data["stack"] = sum(state.stack)
    data["phase_name"] = PHASE_NAMES[state.phase]
    return data
