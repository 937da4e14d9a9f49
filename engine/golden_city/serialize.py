"""Snapshots and views: the state as JSON-safe data and back, and what one seat may see.

The dump names things as the rulebook does: card counts per terrain code, houses as site ids, the
phase by name. The component set is ``null`` for the default one, else its JSON (so a snapshot of a
game with a custom set loads on its own). Derived fields (``taken``, each player's ``reach``) are not
dumped; loading recomputes them.

``view`` hides what the rules keep secret: another player's landscape hand, bonus cards and letters
("A játékosok titokban tartják egymás előtt, azt, hogy mennyi kereskedőlevelük van") show only as
counts (letters not at all) until the game is over; the landscape, goods and scoring piles show as sizes (plus the back of
the next scoring card), and the bonus pile as a size except to the player choosing from it.
"""

from __future__ import annotations

from typing import Any, Final

from engine.core.errors import SetupError
from engine.core.jsonread import JsonReader
from engine.core.phased import Snapshots
from engine.golden_city.component_set import ComponentSet, component_set
from engine.golden_city.components import TERRAINS
from engine.golden_city.state import BONUS_CHOICE, OVER, PHASE_NAMES, Phase, Player, State

PLAYER_FIELDS = ("hand", "coins", "letters", "keys", "goods", "bonus", "houses_left", "houses", "blocked")
STATE_FIELDS = tuple(f for f in State.FIELDS if f not in ("components", "taken")) + ("components",)


def _cards(counts: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(TERRAINS, counts, strict=True))


def _sites(components: ComponentSet, mask: int) -> list[str]:
    return [components.site_ids[i] for i in components.site_bits(mask)]


def _dump_player(components: ComponentSet, p: Player) -> dict[str, Any]:
    return {
        "hand": _cards(p.hand), "coins": p.coins, "letters": p.letters, "keys": p.keys, "goods": list(p.goods),
        "bonus": list(p.bonus), "houses_left": p.houses_left, "houses": _sites(components, p.houses), "blocked": p.blocked,
    }


def dump_state(state: State) -> dict[str, Any]:
    """Every field, JSON-safe (see the module docstring)."""
    components = state.components
    return {
        "components": None if components.is_default else components.data,
        "names": list(state.names),
        "players": [_dump_player(components, p) for p in state.players],
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn, "round": state.round, "start_seat": state.start_seat,
        "coin_supply": state.coin_supply, "key_supply": state.key_supply, "keys_used": state.keys_used,
        "pile": _cards(state.pile), "discard": _cards(state.discard),
        "layout": [TERRAINS[t] if t >= 0 else None for t in state.layout],
        "bids": list(state.bids), "displacements": state.displacements, "built": state.built,
        "site": components.site_ids[state.site] if state.site >= 0 else None,
        "goods_pile": list(state.goods_pile), "goods_display": list(state.goods_display),
        "goods_boxed": list(state.goods_boxed), "bonus_pile": list(state.bonus_pile),
        "scoring_pile": list(state.scoring_pile), "scoring_card": state.scoring_card or None,
        "scored": list(state.scored), "last_scoring": list(state.last_scoring), "end_triggered": state.end_triggered,
        "resume": PHASE_NAMES[state.resume] if state.resume >= 0 else None, "late_reshuffle": state.late_reshuffle,
    }


# Loading ----------------------------------------------------------------------------------------


SUBJECT = "bad golden city state"


def _load_cards(field: JsonReader) -> tuple[int, ...]:
    """Card counts per terrain: an object with a count for each terrain code."""
    counts = field.fields(TERRAINS)
    return tuple(counts.at(t).integer(0) for t in TERRAINS)


def _site_mask(components: ComponentSet, field: JsonReader) -> int:
    """Site ids (none twice) as a bitmask of site indexes."""
    return sum(1 << components.site_index[sid] for sid in field.texts(components.site_index, unique=True))


def _load_player(components: ComponentSet, raw: JsonReader) -> Player:
    player = raw.fields(PLAYER_FIELDS)
    houses = _site_mask(components, player.at("houses"))
    reach = 0
    for site in components.site_bits(houses):
        reach |= components.neighbours[site]
    return Player(
        hand=_load_cards(player.at("hand")), coins=player.at("coins").integer(0), letters=player.at("letters").integer(0),
        keys=player.at("keys").integer(0), goods=player.at("goods").texts(components.goods_card_ids, unique=True),
        bonus=player.at("bonus").texts(components.bonus_ids, unique=True),
        houses_left=player.at("houses_left").integer(0), houses=houses, reach=reach,
        blocked=player.at("blocked").boolean(),
    )


def _components(state: JsonReader) -> ComponentSet:
    try:
        return component_set(state.at("components").value)
    except SetupError as exc:
        raise state.at("components").fail(str(exc)) from None


def _names(state: JsonReader, components: ComponentSet) -> tuple[str, ...]:
    """The players' names: as many as the component set has houses for."""
    field = state.at("names")
    names = field.texts()
    if len(names) not in components.houses:
        raise field.expected(f"{' or '.join(str(k) for k in sorted(components.houses))} names")
    return names


def _terrain_or_empty(field: JsonReader) -> int:
    return -1 if field.is_null() else field.choice(TERRAINS)


def _optional_phase(field: JsonReader) -> int:
    return -1 if field.is_null() else Phase(field.choice(PHASE_NAMES))


def _site(field: JsonReader, components: ComponentSet) -> int:
    return -1 if field.is_null() else components.site_index[field.text(components.site_index)]


def _scoring_card(field: JsonReader, components: ComponentSet) -> str:
    return "" if field.is_null() else field.text(components.scoring_back)


def _taken(players: tuple[Player, ...], components: ComponentSet) -> int:
    """The single sites (harbours and suburbs) some house stands on."""
    taken = 0
    for p in players:
        taken |= p.houses & components.singles
    return taken


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError naming the bad field."""
    state = JsonReader(data, SUBJECT).fields(STATE_FIELDS)
    components = _components(state)
    names = _names(state, components)
    n = len(names)
    players = tuple(_load_player(components, raw) for raw in state.at("players").items(n, n))
    goods, bonus, scoring = components.goods_card_ids, components.bonus_ids, components.scoring_ids
    return State(
        components=components, names=names, players=players, phase=Phase(state.at("phase").choice(PHASE_NAMES)),
        turn=state.at("turn").integer(-1, n - 1), round=state.at("round").integer(0),
        start_seat=state.at("start_seat").integer(0), taken=_taken(players, components),
        coin_supply=state.at("coin_supply").integer(0), key_supply=state.at("key_supply").integer(0),
        keys_used=state.at("keys_used").integer(0), pile=_load_cards(state.at("pile")), discard=_load_cards(state.at("discard")),
        layout=tuple(_terrain_or_empty(t) for t in state.at("layout").items(0, 2 * n)),
        bids=state.at("bids").integers(n, -1, n - 1), displacements=state.at("displacements").integer(0),
        built=state.at("built").integer(0), site=_site(state.at("site"), components),
        goods_pile=state.at("goods_pile").texts(goods, unique=True),
        goods_display=state.at("goods_display").texts(goods, unique=True),
        goods_boxed=state.at("goods_boxed").texts(goods, unique=True),
        bonus_pile=state.at("bonus_pile").texts(bonus, unique=True),
        scoring_pile=state.at("scoring_pile").texts(scoring, unique=True),
        scoring_card=_scoring_card(state.at("scoring_card"), components),
        scored=state.at("scored").texts(scoring, unique=True), last_scoring=state.at("last_scoring").integers(n, 0),
        end_triggered=state.at("end_triggered").boolean(), resume=_optional_phase(state.at("resume")),
        late_reshuffle=state.at("late_reshuffle").boolean(),
    )


# Views ------------------------------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` sees it (None: a spectator); see the module docstring."""
    data = dump_state(state)
    over = state.phase == OVER  # "A játékosok felfordítják bonusz-kártyáikat": everything is shown at the end
    for i, player in enumerate(data["players"]):
        player["name"] = state.names[i]
        player["hand_size"] = sum(state.players[i].hand)
        player["bonus_count"] = len(state.players[i].bonus)
        if i != seat and not over:
            player["hand"] = None
            player["bonus"] = None
            player["letters"] = None
    data["pile"] = sum(state.pile)
    data["goods_pile"] = len(state.goods_pile)
    components = state.components
    data["scoring_pile"] = len(state.scoring_pile)
    data["next_scoring_back"] = components.scoring_back[state.scoring_pile[0]] if state.scoring_pile else None
    choosing = state.phase == BONUS_CHOICE and seat == state.turn
    data["bonus_pile"] = list(state.bonus_pile) if choosing else len(state.bonus_pile)
    return data


#: The state's view, dump and load, as the game's rules object takes them.
SNAPSHOTS: Final = Snapshots(view, dump_state, load_state)
