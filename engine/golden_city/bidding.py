"""Phase 3, bidding ("Licitáló kezek lehelyezése"): every player's hand ends on one landscape pair.

The start player begins, then clockwise, skipping players whose hand lies on a pair. A free pair
costs nothing; a pair with another hand costs the displacement price, which starts at 1 coin each
phase and rises by 1 with every displacement, whoever displaces whom on whichever pair. The phase
ends when every pair carries a hand.
"""

from __future__ import annotations

from engine.golden_city.flow import end_bidding
from engine.golden_city.notation import Action
from engine.golden_city.state import NOBODY, State, replaced

#: Bid actions by pair index (at most 4 pairs).
BIDS: tuple[Action, ...] = tuple(("bid", k) for k in range(9))


def displacement_cost(state: State) -> int:
    """"Egy adott körben az elűzés költsége minden egyes elűzéssel egyel növekszik" (each displacement
    in the phase costs one more than the last): 1, 2, 3 …; "A következő körben ... ismét 1 érme"."""
    return state.displacements + 1


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every free pair, and every pair with a hand if the player can pay the current price."""
    affordable = state.players[state.turn].coins >= displacement_cost(state)
    return tuple(BIDS[k] for k, seat in enumerate(state.bids) if seat == NOBODY or affordable)


def apply(state: State, action: Action) -> State:
    """Place the hand (paying to displace), then the next unplaced player clockwise, or the end."""
    pair: int = action[1]
    seat = state.turn
    new = state.copy()
    if state.bids[pair] != NOBODY:
        # "1 érme készletbe történő megfizetésének fejében ... a játékosnak a licitkezét vissza kell vennie"
        cost = displacement_cost(state)
        player = state.players[seat].copy()
        player.coins -= cost
        new.players = replaced(state.players, seat, player)
        new.coin_supply = state.coin_supply + cost
        new.displacements = state.displacements + 1
    bids = state.bids[:pair] + (seat,) + state.bids[pair + 1 :]
    new.bids = bids
    if NOBODY not in bids:
        return end_bidding(new)
    new.turn = next_bidder(new, seat)
    return new


def next_bidder(state: State, seat: int) -> int:
    """The next seat clockwise whose hand lies on no pair ("átugorják a játékost, akinek a licitkeze már
    egy kártya páron van")."""
    n = state.n
    placed = state.bids
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if candidate not in placed:
            return candidate
    return seat


def bid_listed(state: State, action: Action) -> bool:
    """Whether ``action`` is one of the bids :func:`legal_actions` lists (found without listing them; False:
    compare with the list)."""
    if len(action) != 2 or action[0] != "bid" or type(action[1]) is not int:
        return False
    pair: int = action[1]
    bids = state.bids
    if not 0 <= pair < len(bids):
        return False
    return bids[pair] == NOBODY or state.players[state.turn].coins >= displacement_cost(state)
