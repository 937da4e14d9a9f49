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
from engine.golden_city.state import HAND_LIMIT, Player, State, minus, open_sites, plus, replaced

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
    players = state.players
    earlier = 0
    for i in range(len(players)):
        if players[i].houses & bit:
            earlier += 1
    player = players[seat].copy()
    player.hand = minus(player.hand, pay)
    player.keys -= key
    player.houses |= bit
    player.reach |= components.neighbours[site]
    player.houses_left -= 1
    new = state.copy()
    new.players = replaced(players, seat, player)
    new.discard = plus(state.discard, pay)
    new.keys_used = state.keys_used + key
    new.built = state.built + 1
    new.site = site
    new.taken = state.taken | (bit & components.singles)
    new.end_triggered = state.end_triggered or player.houses_left == 0
    return rewards.resolve(mark_blocked(new), seat, site, earlier)


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
            blocked = p.copy()
            blocked.blocked = True
            new_players[seat] = blocked
            changed = True
    if not changed:
        return state
    new = state.copy()
    new.players = tuple(new_players)
    new.end_triggered = True
    return new


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
    player = state.players[seat].copy()
    cards: tuple[int, ...] = action[1]
    player.hand = minus(player.hand, cards)
    new = state.copy()
    new.players = replaced(state.players, seat, player)
    new.discard = plus(state.discard, cards)
    return next_builder(new)


# Checking one action ----------------------------------------------------------------------------
# The rules' check asks whether an action is one of the legal actions; listing every site and payment
# of a building turn to find one is most of what checking a logged build costs. This test answers for
# one action (as bidding.bid_listed does for a bid): True only for an action the legal list holds,
# False sends it to the full comparison, which also words why it is illegal.


def build_listed(state: State, action: Action) -> bool:
    """Whether ``action`` is one of :func:`legal_actions` in a building turn (False: compare with the list)."""
    if action == PASS:
        return True
    if len(action) != 4 or action[0] != "build" or type(action[1]) is not str or type(action[3]) is not bool:
        return False
    player = state.players[state.turn]
    components = state.components
    site = components.site_index.get(action[1], -1)
    if site < 0 or player.houses_left <= 0 or not open_sites(state, player) >> site & 1:
        return False
    kind = components.kinds[site]
    key = kind == INNER
    if action[3] is not key or (key and not player.keys):
        return False
    return action[2] in payments(player.hand, components.terrains[site], need_of(kind))
