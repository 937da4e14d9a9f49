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

from typing import Any

from engine.core.errors import SetupError, StateFormatError
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


def _bad(why: str) -> StateFormatError:
    return StateFormatError(f"bad golden city state: {why}")


def _int(value: Any, what: str, minimum: int = 0) -> int:
    if type(value) is not int or value < minimum:
        raise _bad(f"{what} must be an integer of at least {minimum}, got {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise _bad(f"{what} must be a boolean, got {value!r}")
    return value


def _load_cards(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, dict) or set(value) != set(TERRAINS):
        raise _bad(f"{what} must give a count for each of {', '.join(TERRAINS)}, got {value!r}")
    return tuple(_int(value[t], f"{what}.{t}") for t in TERRAINS)


def _ids(value: Any, known: tuple[str, ...] | dict[str, int], what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v in known for v in value):
        raise _bad(f"{what} must be a list of known ids, got {value!r}")
    if len(set(value)) != len(value):
        raise _bad(f"{what} lists an id twice: {value!r}")
    return tuple(value)


def _site_mask(components: ComponentSet, value: Any, what: str) -> int:
    return sum(1 << components.site_index[sid] for sid in _ids(value, components.site_index, what))


def _load_player(components: ComponentSet, raw: Any, seat: int) -> Player:
    where = f"players[{seat}]"
    if not isinstance(raw, dict) or set(raw) != set(PLAYER_FIELDS):
        raise _bad(f"{where} must have the fields {', '.join(PLAYER_FIELDS)}")
    houses = _site_mask(components, raw["houses"], f"{where}.houses")
    reach = 0
    for site in components.site_bits(houses):
        reach |= components.neighbours[site]
    return Player(
        hand=_load_cards(raw["hand"], f"{where}.hand"), coins=_int(raw["coins"], f"{where}.coins"),
        letters=_int(raw["letters"], f"{where}.letters"), keys=_int(raw["keys"], f"{where}.keys"),
        goods=_ids(raw["goods"], components.goods_card_ids, f"{where}.goods"),
        bonus=_ids(raw["bonus"], components.bonus_ids, f"{where}.bonus"),
        houses_left=_int(raw["houses_left"], f"{where}.houses_left"), houses=houses, reach=reach,
        blocked=_bool(raw["blocked"], f"{where}.blocked"),
    )


def _components(raw: Any) -> ComponentSet:
    try:
        return component_set(raw)
    except SetupError as exc:
        raise _bad(str(exc)) from None


def load_state(data: Any) -> State:
    """The state from :func:`dump_state` data; raises StateFormatError when malformed."""
    if not isinstance(data, dict) or set(data) != set(STATE_FIELDS):
        missing = sorted(set(STATE_FIELDS) - set(data)) if isinstance(data, dict) else list(STATE_FIELDS)
        extra = sorted(set(data) - set(STATE_FIELDS)) if isinstance(data, dict) else []
        raise _bad(f"expected the fields of a state, missing {missing}, unknown {extra}")
    components = _components(data["components"])
    names = data["names"]
    if not isinstance(names, list) or len(names) not in components.houses or not all(isinstance(x, str) for x in names):
        raise _bad(f"names must be 3 or 4 strings, got {names!r}")
    n = len(names)
    if not isinstance(data["players"], list) or len(data["players"]) != n:
        raise _bad(f"expected {n} players")
    players = tuple(_load_player(components, raw, seat) for seat, raw in enumerate(data["players"]))
    if data["phase"] not in PHASE_NAMES:
        raise _bad(f"unknown phase {data['phase']!r}; known: {', '.join(PHASE_NAMES)}")
    layout = data["layout"]
    if not isinstance(layout, list) or len(layout) > 2 * n or not all(t is None or t in TERRAINS for t in layout):
        raise _bad(f"layout must list up to {2 * n} terrain codes or nulls, got {layout!r}")
    bids = data["bids"]
    if not isinstance(bids, list) or len(bids) != n or not all(type(b) is int and -1 <= b < n for b in bids):
        raise _bad(f"bids must list a seat or -1 for each of {n} pairs, got {bids!r}")
    site = data["site"]
    if site is not None and site not in components.site_index:
        raise _bad(f"site must be a site id or null, got {site!r}")
    taken = 0
    for p in players:
        taken |= p.houses & components.singles
    scoring_card = data["scoring_card"]
    if scoring_card is not None and scoring_card not in components.scoring_back:
        raise _bad(f"scoring_card must be a scoring card id or null, got {scoring_card!r}")
    last = data["last_scoring"]
    if not isinstance(last, list) or len(last) != n:
        raise _bad(f"last_scoring must list {n} integers")
    turn = data["turn"]
    if type(turn) is not int or not -1 <= turn < n:
        raise _bad(f"turn must be a seat or -1, got {turn!r}")
    resume = data["resume"]
    if resume is not None and resume not in PHASE_NAMES:
        raise _bad(f"resume must be a phase or null, got {resume!r}")
    return State(
        components=components, names=tuple(names), players=players, phase=Phase(PHASE_NAMES.index(data["phase"])), turn=turn,
        round=_int(data["round"], "round"), start_seat=_int(data["start_seat"], "start_seat"), taken=taken,
        coin_supply=_int(data["coin_supply"], "coin_supply"), key_supply=_int(data["key_supply"], "key_supply"),
        keys_used=_int(data["keys_used"], "keys_used"), pile=_load_cards(data["pile"], "pile"),
        discard=_load_cards(data["discard"], "discard"), layout=tuple(-1 if t is None else TERRAINS.index(t) for t in layout),
        bids=tuple(bids), displacements=_int(data["displacements"], "displacements"), built=_int(data["built"], "built"),
        site=-1 if site is None else components.site_index[site],
        goods_pile=_ids(data["goods_pile"], components.goods_card_ids, "goods_pile"),
        goods_display=_ids(data["goods_display"], components.goods_card_ids, "goods_display"),
        goods_boxed=_ids(data["goods_boxed"], components.goods_card_ids, "goods_boxed"),
        bonus_pile=_ids(data["bonus_pile"], components.bonus_ids, "bonus_pile"),
        scoring_pile=_ids(data["scoring_pile"], components.scoring_ids, "scoring_pile"), scoring_card=scoring_card or "",
        scored=_ids(data["scored"], components.scoring_ids, "scored"),
        last_scoring=tuple(_int(x, "last_scoring") for x in last), end_triggered=_bool(data["end_triggered"], "end_triggered"),
        resume=-1 if resume is None else Phase(PHASE_NAMES.index(resume)), late_reshuffle=_bool(data["late_reshuffle"], "late_reshuffle"),
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
