"""Phase 5 (the round's scoring card), the bonus cards and the final ranking ("A játék vége").

A scoring card shows one good and one region (a river, or a city district). For each, every player
who has it gets 2 letters, and a sole holder (goods) or a sole leader (region) 2 more.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core.protocol import Outcome
from engine.golden_city.component_set import ComponentSet
from engine.golden_city.state import Player, State, houses_in

#: Letters for having the scored good or a house in the scored region; the majority bonus.
BASE, MAJORITY = 2, 2


def has_good(components: ComponentSet, player: Player, good: int) -> bool:
    """Whether one of the player's face-up goods cards shows ``good``."""
    bit = 1 << good
    return any(components.goods_of_card[card] & bit for card in player.goods)


def good_letters(state: State, good: int) -> list[int]:
    """Letters per seat for a good.

    "Minden olyan játékos, aki előtt a feltüntetett áruból felfordítva fekszik, 2 ... kereskedőlevelet
    kap" (everyone with the good face up in front of them gets 2); "Abban az esetben, ha egy játékos
    egyedüli tulajdonosa a feltüntetett áru fajtának, 2 ... ráadásként" (a sole owner gets 2 more).
    """
    holders = [has_good(state.components, p, good) for p in state.players]
    bonus = MAJORITY if sum(holders) == 1 else 0
    return [BASE + bonus if held else 0 for held in holders]


def region_letters(state: State, mask: int) -> list[int]:
    """Letters per seat for a river or district (``mask`` holds its sites).

    "Ahhoz, hogy ... elegendő, ha ... legalább egy kereskedőháza áll az érintett folyóparton, vagy
    kerületben" (one house there is enough for the 2); "Ha egy játékos egyedülként épített
    kereskedőházat, vagy egyedül neki van a legtöbb ... (Egyenlőség esetén nincs többségi bónusz!)"
    (the sole builder or the sole leader gets 2 more; no bonus on a tie).
    """
    counts = [houses_in(p, mask) for p in state.players]
    best = max(counts)
    leader = counts.index(best) if best and counts.count(best) == 1 else -1
    return [(BASE if c else 0) + (MAJORITY if seat == leader else 0) for seat, c in enumerate(counts)]


def round_gains(state: State, card: str) -> tuple[int, ...]:
    """Letters per seat that scoring card ``card`` pays in ``state``."""
    components = state.components
    gains = good_letters(state, components.scoring_good[card])
    for region in components.scoring_regions[card]:
        for seat, letters in enumerate(region_letters(state, components.region_masks[region])):
            gains[seat] += letters
    return tuple(gains)


def score_round(state: State) -> State:
    """Pay the face-up scoring card, then box it ("visszakerül a játék dobozába")."""
    card = state.scoring_card
    if not card:
        return state
    gains = round_gains(state, card)
    players = list(state.players)
    for seat in range(len(players)):
        if gains[seat]:
            player = players[seat].copy()
            player.letters += gains[seat]
            players[seat] = player
    new = state.copy()
    new.players = tuple(players)
    new.scoring_card = ""
    new.scored = (*state.scored, card)
    new.last_scoring = gains
    return new


def bonus_letters(components: ComponentSet, player: Player, card: str) -> int:
    """What one bonus card pays its owner at the end.

    "minden árukártyájáért 3" (3 per goods card), "minden érméért 2" (2 per coin), "minden Aranyvárosban
    álló kereskedőháza után 1" (1 per house in the Golden City), "minden folyó mellett álló
    kereskedőháza után 2" (2 per house on a river), "minden meghatározott területen fekvő elővárosban,
    vagy városrészben álló Kereskedőháza után 1" (1 per house in a suburb or city part of the terrain).
    """
    effect, terrain = components.bonus_effect[card]
    if effect == "goods":
        return 3 * len(player.goods)
    if effect == "coins":
        return 2 * player.coins
    if effect == "city":
        return houses_in(player, components.city)
    if effect == "river":
        return 2 * houses_in(player, components.river_mask)
    return houses_in(player, components.terrain_masks[terrain])


def details(components: ComponentSet, player: Player) -> dict[str, int]:
    """The per-seat breakdown: letters before the bonus cards, bonus, city houses, coins, blocked."""
    bonus = sum(bonus_letters(components, player, card) for card in player.bonus)
    return {
        "letters": player.letters, "bonus": bonus, "city_houses": houses_in(player, components.city),
        "coins": player.coins, "blocked": int(player.blocked),
    }


def ranking_key(part: Mapping[str, int]) -> tuple[int, int, int, int]:
    """Higher ranks higher: not blocked, letters, city houses, coins.

    "Egyezőség esetén az a játékos nyer, aki a legtöbb kereskedőházat építette az Aranyvárosban. Ha még
    mindig egyezőség mutatkozik, akkor az a játékos nyer, akinek több érméje van. Amennyiben még ezek
    után is egyezőség van, akkor a játéknak több nyertese van." A blocked player "lesz a játék vesztese"
    (is the loser); ruling: blocked players rank among themselves the same way.
    """
    return (1 - part["blocked"], part["letters"] + part["bonus"], part["city_houses"], part["coins"])


def outcome(state: State) -> Outcome:
    """Scores (letters with the bonus cards), tie-breaks (city houses, then coins), places and winners.

    The places follow :func:`ranking_key`: a blocked player is last whatever their letters.
    """
    parts = tuple(details(state.components, p) for p in state.players)
    keys = [ranking_key(part) for part in parts]
    scores = tuple(part["letters"] + part["bonus"] for part in parts)
    tiebreaks = tuple(part["city_houses"] * 1000 + part["coins"] for part in parts)
    return Outcome.ranked(keys, scores=scores, tiebreaks=tiebreaks, details=parts)
