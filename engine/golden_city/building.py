"""Phase 4, building ("Kereskedőház építése"): 0, 1 or 2 houses per turn, then the hand limit.

A house goes on a free harbour (1 coast card, no road condition), or on a suburb or city part that is
a road neighbour of one of the player's houses (2 cards of its terrain; an inner part also a key
card), paid with the joker rule, and is rewarded before the next one. After every placement each
player is checked for being blocked, and a player's last house triggers the end.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from engine.golden_city import rewards
from engine.golden_city.cards import discards, hand_size, payments
from engine.golden_city.component_set import HARBOUR, INNER
from engine.golden_city.flow import end_building_turn, next_builder
from engine.golden_city.notation import PASS, Action, build_action
from engine.golden_city.state import HAND_LIMIT, Player, State, minus, open_sites, plus

#: Houses a player may build in one turn ("1, vagy 2 kereskedőházat építhet").
MAX_HOUSES_PER_TURN: Final = 2
PASS_ONLY: tuple[Action, ...] = (PASS,)


def need_of(kind: int) -> int:
    """Landscape cards a site of ``kind`` costs: 1 coast card for a harbour, else 2 of its terrain."""
    return 1 if kind == HARBOUR else 2


@cache
def site_actions(site: str, terrain: int, need: int, key: bool, hand: tuple[int, ...]) -> tuple[Action, ...]:
    """The build actions on one site for a hand (one per payment option)."""
    return tuple(build_action(site, pay, key) for pay in payments(hand, terrain, need))


def legal_build(state: State, player: Player) -> list[Action]:
    """Every (site, payment) the player can build now, in site order."""
    if player.houses_left <= 0:
        return []
    components = state.components
    kinds, terrains, ids = components.kinds, components.terrains, components.site_ids
    hand = player.hand
    actions: list[Action] = []
    mask = open_sites(state, player)
    while mask:
        low = mask & -mask
        site = low.bit_length() - 1
        mask ^= low
        kind = kinds[site]
        key = kind == INNER
        if key and not player.keys:
            continue
        actions.extend(site_actions(ids[site], terrains[site], need_of(kind), key, hand))
    return actions


def legal_actions(state: State) -> tuple[Action, ...]:
    """Build actions, then ``pass`` (a player may always stop: "vagy építés nélkül passzol")."""
    built = legal_build(state, state.players[state.turn])
    return (*built, PASS) if built else PASS_ONLY


def apply(state: State, action: Action) -> State:
    """Pass ends the turn; a build pays, places, checks the end triggers and gives the reward."""
    if action == PASS:
        return end_building_turn(state)
    return place_house(state, state.turn, state.components.site_index[action[1]], action[2], action[3])


def place_house(state: State, seat: int, site: int, pay: tuple[int, ...], key: bool) -> State:
    """Pay (cards to the face-up discards, the key to the box), place the house, then the reward."""
    components = state.components
    bit = 1 << site
    player = state.players[seat]
    earlier = sum(1 for p in state.players if p.houses & bit)
    player = player.evolve(
        hand=minus(player.hand, pay), keys=player.keys - key, houses=player.houses | bit,
        reach=player.reach | components.neighbours[site], houses_left=player.houses_left - 1,
    )
    players = state.players[:seat] + (player,) + state.players[seat + 1 :]
    state = state.evolve(
        players=players, discard=plus(state.discard, pay), keys_used=state.keys_used + key, built=state.built + 1,
        site=site, taken=state.taken | (bit & components.singles),
        end_triggered=state.end_triggered or player.houses_left == 0,
    )
    state = mark_blocked(state)
    return rewards.resolve(state, seat, site, earlier)


def mark_blocked(state: State) -> State:
    """Flag every player who has a house left but no site open to them (end trigger (b)).

    "Előfordulhat az is, hogy egy játékos nem tud további kereskedőházat építeni, mert már nincsen
    szabad kikötő és a játékosnak nincsen közvetlen kapcsolódási lehetősége egyetlen szabad helyhez
    sem. Ebben az esetben a játéknak idő előtti vége van. Ez a játékos lesz a játék vesztese." Open
    means an empty harbour or suburb, or a city part without their house, key or cards aside.
    """
    players = state.players
    changed = False
    new_players = list(players)
    for seat, p in enumerate(players):
        if not p.blocked and p.houses_left > 0 and not open_sites(state, p):
            new_players[seat] = p.evolve(blocked=True)
            changed = True
    if not changed:
        return state
    return state.evolve(players=tuple(new_players), end_triggered=True)


# Hand limit -------------------------------------------------------------------------------------


@cache
def discard_actions(hand: tuple[int, ...]) -> tuple[Action, ...]:
    """One ``discard`` per distinct multiset of the cards over the limit."""
    return tuple(("discard", cards) for cards in discards(hand, hand_size(hand) - HAND_LIMIT))


def legal_discard(state: State) -> tuple[Action, ...]:
    """"A játékos a kezében maradt lapokból választása szerint a lerakó-paklira dobja a többletlapokat"
    (the player chooses which surplus cards go onto the discard pile)."""
    return discard_actions(state.players[state.turn].hand)


def apply_discard(state: State, action: Action) -> State:
    """The cards go face up onto the discard pile; the next player builds."""
    seat = state.turn
    player = state.players[seat]
    cards = action[1]
    players = state.players[:seat] + (player.evolve(hand=minus(player.hand, cards)),) + state.players[seat + 1 :]
    return next_builder(state.evolve(players=players, discard=plus(state.discard, cards)))
