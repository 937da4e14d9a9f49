"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

``view`` hides other players' VP chips (kept face down: "a jelzőket képpel lefelé tartják")
and shows the face-down stack only as a count; everything else is open.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core.jsonread import JsonReader
from engine.core.phased import Snapshots
from engine.puerto_rico.components import N_BUILDINGS
from engine.puerto_rico.state import PHASE_NAMES, Phase, Player, State

PLAYER_FIELDS = Player.FIELDS
STATE_FIELDS = State.FIELDS
#: Fields stored under their names of rules versions 1-2 (snapshots stay valid).
STORED_AS = {"turns_done": "step"}
#: The dump's keys, in the fields' order.
STORED_FIELDS = tuple(STORED_AS.get(name, name) for name in STATE_FIELDS)


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


SUBJECT = "bad puerto rico state"


def _load_player(raw: JsonReader) -> Player:
    player = raw.fields(PLAYER_FIELDS)
    return Player(
        doubloons=player.at("doubloons").integer(), vp=player.at("vp").integer(),
        goods=player.at("goods").integers(5), island=player.at("island").integers(6),
        island_workers=player.at("island_workers").integers(6), city=player.at("city").integers(N_BUILDINGS),
        san_juan=player.at("san_juan").integer(),
    )


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError naming the bad field."""
    state = JsonReader(data, SUBJECT).fields(STORED_FIELDS)
    n = len(state.at("names").items(3, 5))
    cards = n + 3
    return State(
        names=state.at("names").texts(), players=tuple(_load_player(p) for p in state.at("players").items(n, n)),
        governor=state.at("governor").integer(), phase=Phase(state.at("phase").integer(0, len(PHASE_NAMES) - 1)),
        turn=state.at("turn").integer(), chooser=state.at("chooser").integer(),
        turns_done=state.at(STORED_AS["turns_done"]).integer(), picks=state.at("picks").integer(),
        round=state.at("round").integer(), role_coins=state.at("role_coins").integers(cards),
        roles_taken=state.at("roles_taken").booleans(cards), colonist_supply=state.at("colonist_supply").integer(),
        colonist_ship=state.at("colonist_ship").integer(), vp_bank=state.at("vp_bank").integer(),
        goods_supply=state.at("goods_supply").integers(5), ship_goods=state.at("ship_goods").integers(3),
        ship_loads=state.at("ship_loads").integers(3), trading_house=tuple(t.integer() for t in state.at("trading_house").items(0, 4)),
        face_up=state.at("face_up").integers(5), stack=state.at("stack").integers(5),
        discards=state.at("discards").integers(5), quarries=state.at("quarries").integer(),
        building_supply=state.at("building_supply").integers(N_BUILDINGS), to_draw=state.at("to_draw").integer(),
        hacienda_used=state.at("hacienda_used").boolean(), captain_bonus_used=state.at("captain_bonus_used").boolean(),
        wharf_used=state.at("wharf_used").booleans(n), last_slot=state.at("last_slot").integer(),
        produced=state.at("produced").booleans(5), end_triggered=state.at("end_triggered").boolean(),
    )


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


#: The state's view, dump and load, as the game's rules object takes them.
SNAPSHOTS: Final = Snapshots(view, dump_state, load_state)
