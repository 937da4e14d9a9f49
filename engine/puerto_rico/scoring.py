"""Final scoring ("A játék vége"): VP chips + building VP + bonuses of occupied large buildings.

Ties go to the most doubloons plus barrels ("1 hordót 1 dublonnal számolva"); a tie that
remains is shared.
"""

from __future__ import annotations

from typing import Final

from engine.core.protocol import Outcome
from engine.puerto_rico.components import (
    CITY_HALL,
    COLUMNS,
    CUSTOMS_HOUSE,
    FORTRESS,
    GUILD_HALL,
    IS_VIOLET,
    LARGE_PRODUCTION,
    RESIDENCE,
    SMALL_PRODUCTION,
)
from engine.puerto_rico.state import Player, State, colonists_of


def guild_hall_bonus(player: Player) -> int:
    """+1 per small and +2 per large production building, occupied or not."""
    city = player.city
    return sum(1 for b in SMALL_PRODUCTION if city[b] >= 0) + sum(2 for b in LARGE_PRODUCTION if city[b] >= 0)


def residence_bonus(player: Player) -> int:
    """4 for up to 9 filled island spaces, 5 for 10, 6 for 11, 7 for 12."""
    return max(4, sum(player.island) - 5)


def fortress_bonus(player: Player) -> int:
    """+1 per 3 colonists anywhere on the board (San Juan included)."""
    return colonists_of(player) // 3


def customs_house_bonus(player: Player) -> int:
    """+1 per 4 VP of chips (owed points after the bank ran out included)."""
    return player.vp // 4


def city_hall_bonus(player: Player) -> int:
    """+1 per violet building in the city, itself included."""
    return sum(1 for b, w in enumerate(player.city) if w >= 0 and IS_VIOLET[b])


LARGE_BONUSES: Final = {
    GUILD_HALL: guild_hall_bonus,
    RESIDENCE: residence_bonus,
    FORTRESS: fortress_bonus,
    CUSTOMS_HOUSE: customs_house_bonus,
    CITY_HALL: city_hall_bonus,
}


def building_vp(player: Player) -> int:
    """The printed VP of every building, occupied or not."""
    return sum(COLUMNS[b] for b, w in enumerate(player.city) if w >= 0)


def bonus_vp(player: Player) -> int:
    """Bonuses of the occupied large buildings only."""
    return sum(bonus(player) for b, bonus in LARGE_BONUSES.items() if player.city[b] > 0)


def details(player: Player) -> dict[str, int]:
    """The per-seat breakdown: chips, buildings, bonus."""
    return {"chips": player.vp, "buildings": building_vp(player), "bonus": bonus_vp(player)}


def outcome(state: State) -> Outcome:
    """Scores, tie-breaks (doubloons + barrels) and the winners (shared after both)."""
    parts = tuple(details(p) for p in state.players)
    scores = tuple(d["chips"] + d["buildings"] + d["bonus"] for d in parts)
    tiebreaks = tuple(p.doubloons + sum(p.goods) for p in state.players)
    return Outcome.ranked(list(zip(scores, tiebreaks, strict=True)), scores=scores, tiebreaks=tiebreaks, details=parts)
