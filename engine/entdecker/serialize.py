"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

``dump_state`` writes every field (``components`` is null for the default set, else the set's
data); placed tiles are codes ``kind * 4 + rotation`` into the component set's kinds, units
``[seat, unit, part]``. ``view`` hides what no player may see: the contents of the face-down stacks
(only each stack's size and the back of its top tile are public) and the face-down chip pool (only
its size); everything else, including the chips players hold face up, is open.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import SetupError, StateFormatError
from engine.entdecker.component_set import ComponentSet, component_set
from engine.entdecker.state import (
    NO_UNIT,
    PHASE_NAMES,
    Island,
    Phase,
    State,
    unit_code,
    unit_kind,
    unit_part,
    unit_seat,
)

FIELDS = State.FIELDS


def dump_state(state: State) -> dict[str, Any]:
    """Every field as JSON-safe data."""
    components = state.components
    return {
        "components": None if components.is_default else components.data,
        "names": list(state.names),
        "income_each_turn": state.income_each_turn,
        "phase": int(state.phase),
        "round": state.round,
        "turn": state.turn,
        "gold": list(state.gold),
        "score": list(state.score),
        "supply": [list(s) for s in state.supply],
        "chips": [list(c) for c in state.chips],
        "pool": list(state.pool),
        "board": list(state.board),
        "units": [None if u == NO_UNIT else [unit_seat(u), unit_kind(u), unit_part(u)] for u in state.units],
        "stacks": list(state.stacks),
        "tops": list(state.tops),
        "undrawn": list(state.undrawn),
        "discarded": list(state.discarded),
        "reserve": list(state.reserve),
        "ship": list(state.ship),
        "draws_left": state.draws_left,
        "drawn": state.drawn,
        "stack": state.stack,
        "tile": state.tile,
        "placed": list(state.placed),
        "storm": state.storm,
        "islands": [[i.first, i.size, list(i.unit_cells)] for i in state.islands],
        "chip_queue": list(state.chip_queue),
        "chip_best": state.chip_best,
        "income": state.income,
    }


def _bad(why: str) -> StateFormatError:
    return StateFormatError(f"bad entdecker state: {why}")


def _int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        raise _bad(f"{what} must be an integer from {low}{f' to {high}' if high is not None else ''}, got {value!r}")
    return value


def _ints(value: Any, what: str, length: int | None = None, low: int = 0, high: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise _bad(f"{what} must be a list of {length if length is not None else 'some'} integers, got {value!r}")
    return tuple(_int(v, f"{what}[{i}]", low, high) for i, v in enumerate(value))


def _bool(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise _bad(f"{what} must be a boolean, got {value!r}")
    return value


def _units(value: Any, cells: int, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != cells:
        raise _bad(f"units must be a list of {cells} entries")
    out = []
    for i, unit in enumerate(value):
        if unit is None:
            out.append(NO_UNIT)
        else:
            seat, kind, part = _ints(unit, f"units[{i}]", 3)
            if seat >= n or kind > 2 or part > 15:
                raise _bad(f"units[{i}] = {unit!r} is not [seat, unit 0-2, part]")
            out.append(unit_code(seat, kind, part))
    return tuple(out)


def _component_set(raw: Any) -> ComponentSet:
    try:
        return component_set(raw)
    except SetupError as exc:
        raise _bad(f"its component set is not acceptable: {exc}") from None


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError when malformed."""
    if not isinstance(data, dict) or set(data) != set(dump_state_fields()):
        missing = sorted(set(dump_state_fields()) - set(data)) if isinstance(data, dict) else list(dump_state_fields())
        raise _bad(f"expected the fields of a state, missing {missing}")
    components = _component_set(data["components"])
    names = data["names"]
    if not isinstance(names, list) or not 2 <= len(names) <= 4 or not all(isinstance(x, str) for x in names):
        raise _bad(f"names must be 2 to 4 strings, got {names!r}")
    n = len(names)
    stacks = len(components.stack_sizes)
    supply = data["supply"]
    chips = data["chips"]
    if not isinstance(supply, list) or len(supply) != n or not isinstance(chips, list) or len(chips) != n:
        raise _bad(f"supply and chips must hold one entry per player ({n})")
    islands = data["islands"]
    if not isinstance(islands, list) or not all(isinstance(i, list) and len(i) == 3 for i in islands):
        raise _bad("islands must be a list of [first cell, size, unit cells]")
    ship = _ints(data["ship"], "ship", 3, -1)
    state = State(
        components=components, names=tuple(names), income_each_turn=_bool(data["income_each_turn"], "income_each_turn"),
        phase=Phase(_int(data["phase"], "phase", 0, len(PHASE_NAMES) - 1)), round=_int(data["round"], "round", 1),
        turn=_int(data["turn"], "turn", 0, n - 1), gold=_ints(data["gold"], "gold", n),
        score=_ints(data["score"], "score", n),
        supply=tuple(_ints(s, f"supply[{i}]", 3) for i, s in enumerate(supply)),
        chips=tuple(_ints(c, f"chips[{i}]", None, 1) for i, c in enumerate(chips)),
        pool=_ints(data["pool"], "pool", len(components.chip_values)),
        board=_ints(data["board"], "board", components.cells, -1, len(components.kinds) * 4 - 1),
        units=_units(data["units"], components.cells, n),
        stacks=_ints(data["stacks"], "stacks", stacks), tops=_ints(data["tops"], "tops", stacks, -1, 1),
        undrawn=_ints(data["undrawn"], "undrawn", components.draw_kinds),
        discarded=_ints(data["discarded"], "discarded", components.draw_kinds),
        reserve=_ints(data["reserve"], "reserve", 6),
        ship=(ship[0], ship[1], ship[2]),
        draws_left=_int(data["draws_left"], "draws_left"), drawn=_int(data["drawn"], "drawn"),
        stack=_int(data["stack"], "stack", 0, stacks - 1), tile=_int(data["tile"], "tile", -1, components.draw_kinds - 1),
        placed=_ints(data["placed"], "placed", None, 0, components.cells - 1), storm=_bool(data["storm"], "storm"),
        islands=tuple(Island(_int(i[0], "island first", 0, components.cells - 1), _int(i[1], "island size", 1),
                             _ints(i[2], "island unit cells", None, 0, components.cells - 1)) for i in islands),
        chip_queue=_ints(data["chip_queue"], "chip_queue", None, 0, n - 1),
        chip_best=_int(data["chip_best"], "chip_best"), income=_int(data["income"], "income"),
    )
    if ship[0] > 2:
        raise _bad(f"ship must be [mode 0-2, cell, side or region], got {data['ship']!r}")
    return state


def dump_state_fields() -> tuple[str, ...]:
    """The keys of a dumped state."""
    return ("components", *(name for name in FIELDS if name != "components"))


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it (None: a spectator): stacks and chip pool reduced to what is public."""
    data = dump_state(state)
    del data["undrawn"]
    data["pool"] = sum(state.pool)
    data["phase_name"] = PHASE_NAMES[state.phase]
    data["seat"] = seat
    return data
