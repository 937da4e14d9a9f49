"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

``dump_state`` writes every field (``components`` is null for the default set, else the set's
data); placed tiles are codes ``kind * 4 + rotation`` into the component set's kinds, units
``[seat, unit, part]``. ``view`` hides what no player may see: the contents of the face-down stacks
(only each stack's size and the back of its top tile are public) and the face-down chip pool (only
its size); everything else, including the chips players hold face up, is open.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core.errors import SetupError
from engine.core.jsonread import JsonReader
from engine.core.phased import Snapshots
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


SUBJECT = "bad entdecker state"


def _unit(field: JsonReader, seats: int) -> int:
    """One cell's unit: null, or ``[seat, unit 0-2, part 0-15]``."""
    if field.is_null():
        return NO_UNIT
    seat, kind, part = field.items(3, 3)
    return unit_code(seat.integer(0, seats - 1), kind.integer(0, 2), part.integer(0, 15))


def _island(field: JsonReader, cells: int) -> Island:
    """One island: ``[first cell, size, unit cells]``."""
    first, size, unit_cells = field.items(3, 3)
    return Island(first.integer(0, cells - 1), size.integer(1), unit_cells.integers(None, 0, cells - 1))


def _ship(field: JsonReader) -> tuple[int, int, int]:
    """The ship: ``[mode 0-2, cell, side or region]``."""
    mode, cell, side = field.items(3, 3)
    return mode.integer(0, 2), cell.integer(-1), side.integer(-1)


def _components(state: JsonReader) -> ComponentSet:
    try:
        return component_set(state.at("components").value)
    except SetupError as exc:
        raise state.at("components").fail(f"its component set is not acceptable: {exc}") from None


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError naming the bad field."""
    state = JsonReader(data, SUBJECT).fields(dump_state_fields())
    components = _components(state)
    names = state.at("names").texts(low=2, high=4)
    n = len(names)
    stacks = len(components.stack_sizes)
    cells = components.cells
    return State(
        components=components, names=names, income_each_turn=state.at("income_each_turn").boolean(),
        phase=Phase(state.at("phase").integer(0, len(PHASE_NAMES) - 1)), round=state.at("round").integer(1),
        turn=state.at("turn").integer(0, n - 1), gold=state.at("gold").integers(n, 0),
        score=state.at("score").integers(n, 0),
        supply=tuple(s.integers(3, 0) for s in state.at("supply").items(n, n)),
        chips=tuple(c.integers(None, 1) for c in state.at("chips").items(n, n)),
        pool=state.at("pool").integers(len(components.chip_values), 0),
        board=state.at("board").integers(cells, -1, len(components.kinds) * 4 - 1),
        units=tuple(_unit(u, n) for u in state.at("units").items(cells, cells)),
        stacks=state.at("stacks").integers(stacks, 0), tops=state.at("tops").integers(stacks, -1, 1),
        undrawn=state.at("undrawn").integers(components.draw_kinds, 0),
        discarded=state.at("discarded").integers(components.draw_kinds, 0),
        reserve=state.at("reserve").integers(6, 0), ship=_ship(state.at("ship")),
        draws_left=state.at("draws_left").integer(0), drawn=state.at("drawn").integer(0),
        stack=state.at("stack").integer(0, stacks - 1), tile=state.at("tile").integer(-1, components.draw_kinds - 1),
        placed=state.at("placed").integers(None, 0, cells - 1), storm=state.at("storm").boolean(),
        islands=tuple(_island(i, cells) for i in state.at("islands").items()),
        chip_queue=state.at("chip_queue").integers(None, 0, n - 1),
        chip_best=state.at("chip_best").integer(0), income=state.at("income").integer(0),
    )


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


#: The state's view, dump and load, as the game's rules object takes them.
SNAPSHOTS: Final = Snapshots(view, dump_state, load_state)
