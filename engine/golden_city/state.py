"""The immutable game state: records (:class:`engine.core.records.Record`) of ints, strings and tuples, shared between successive states.

A move replaces only the player record and the counters it touches; everything else is the same
object as before (structural sharing). Landscape cards of one terrain are interchangeable, so hands,
the draw pile and the discard pile are counts per terrain (``CO MT ME FO DE``), and equal positions
are equal values. A player's houses are one bitmask over the component set's sites, and ``reach``
the union of their neighbours' masks, kept up to date on every placement, so that the sites open
to a player are a few integer operations (see :func:`open_sites`).
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar, Final, final

from engine.core.records import PhasedRecord, Record, own_slots
from engine.golden_city.component_set import ComponentSet


class Phase(IntEnum):
    """What a Die goldene Stadt state waits for: a chance outcome, a player's decision, or nobody (OVER)."""

    SETUP_DEAL = 0
    SETUP_GOODS = 1
    REVEAL = 2
    LAYOUT = 3
    BID = 4
    BUILD = 5
    CARD_CHOICE = 6
    BONUS_CHOICE = 7
    GOODS_CHOICE = 8
    CARD_DRAW = 9
    GOODS_DRAW = 10
    GOODS_REFILL = 11
    BOX = 12
    DISCARD = 13
    OVER = 14
    RESHUFFLE = 15


# Each phase as a Final name: compiled code reads a Final from a static, any other imported name from a dict.
SETUP_DEAL: Final = Phase.SETUP_DEAL
SETUP_GOODS: Final = Phase.SETUP_GOODS
REVEAL: Final = Phase.REVEAL
LAYOUT: Final = Phase.LAYOUT
BID: Final = Phase.BID
BUILD: Final = Phase.BUILD
CARD_CHOICE: Final = Phase.CARD_CHOICE
BONUS_CHOICE: Final = Phase.BONUS_CHOICE
GOODS_CHOICE: Final = Phase.GOODS_CHOICE
CARD_DRAW: Final = Phase.CARD_DRAW
GOODS_DRAW: Final = Phase.GOODS_DRAW
GOODS_REFILL: Final = Phase.GOODS_REFILL
BOX: Final = Phase.BOX
DISCARD: Final = Phase.DISCARD
OVER: Final = Phase.OVER
RESHUFFLE: Final = Phase.RESHUFFLE
PHASE_NAMES = (
    "setup deal", "setup goods", "reveal", "layout", "bidding", "building", "card reward", "bonus reward",
    "goods reward", "card draw", "goods draw", "goods refill", "goods limit", "hand limit", "over", "reshuffle",
)
#: Phases in which chance acts (RESHUFFLE: the draw pile has just run out, the discards become the new one).
CHANCE_PHASES: Final = frozenset({SETUP_DEAL, SETUP_GOODS, REVEAL, LAYOUT, CARD_DRAW, GOODS_DRAW, GOODS_REFILL, RESHUFFLE})
#: Phases that draw a landscape card (and so may need the discards reshuffled first).
LANDSCAPE_PHASES: Final = frozenset({SETUP_DEAL, LAYOUT, CARD_DRAW})

NOBODY: Final = -1
#: The most landscape cards a player keeps after a building turn ("nem maradhat több mint 5").
HAND_LIMIT: Final = 5
#: The most goods cards a player holds ("maximum 4 árukártya").
GOODS_LIMIT: Final = 4

@final
class Player(Record):
    """One player: hand (cards per terrain), purse, letters, keys, cards in front of them, houses."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "hand", "coins", "letters", "keys", "goods", "bonus", "houses_left", "houses", "reach", "blocked",
    )
    __slots__ = FIELDS

    hand: tuple[int, ...]
    coins: int
    letters: int
    keys: int
    goods: tuple[str, ...]  # goods card ids face up in front of the player, in the order taken
    bonus: tuple[str, ...]  # bonus card ids, face down
    houses_left: int
    houses: int  # bitmask of the sites with one of the player's houses
    reach: int  # bitmask of the road neighbours of those sites
    blocked: bool

    def __init__(
        self, hand: tuple[int, ...], coins: int, letters: int, keys: int, goods: tuple[str, ...],
        bonus: tuple[str, ...], houses_left: int, houses: int, reach: int, blocked: bool,
    ) -> None:
        self.hand = hand
        self.coins = coins
        self.letters = letters
        self.keys = keys
        self.goods = goods
        self.bonus = bonus
        self.houses_left = houses_left
        self.houses = houses
        self.reach = reach
        self.blocked = blocked

    def copy(self) -> Player:
        """A new record with the same fields, for a move to change before it hands it on."""
        return Player(
            self.hand, self.coins, self.letters, self.keys, self.goods, self.bonus, self.houses_left, self.houses,
            self.reach, self.blocked,
        )


@final
class State(PhasedRecord):
    """The whole game; ``turn`` is the seat the phase is at (the seat dealt to during the setup deal)."""

    FIELDS: ClassVar[tuple[str, ...]] = (
        "components", "names", "players", "phase", "turn", "round", "start_seat", "taken", "coin_supply", "key_supply",
        "keys_used", "pile", "discard", "layout", "bids", "displacements", "built", "site", "goods_pile",
        "goods_display", "goods_boxed", "bonus_pile", "scoring_pile", "scoring_card", "scored", "last_scoring",
        "end_triggered", "resume", "late_reshuffle",
    )
    __slots__ = own_slots(FIELDS)

    components: ComponentSet
    names: tuple[str, ...]
    players: tuple[Player, ...]
    round: int
    start_seat: int  # who holds the start key
    taken: int  # bitmask of the harbours and suburbs holding a house
    coin_supply: int
    key_supply: int
    keys_used: int  # key cards played for inner parts (back in the box)
    pile: tuple[int, ...]  # face-down landscape cards per terrain
    discard: tuple[int, ...]  # face-up landscape discards per terrain
    layout: tuple[int, ...]  # terrains laid out this round; pair k holds cards k and n + k (-1: no card)
    bids: tuple[int, ...]  # the seat whose bidding hand lies on each pair, -1 for none
    displacements: int  # displacements so far in this bidding phase (the next costs one more)
    built: int  # houses built in the current building turn
    site: int  # the site whose reward is being resolved, -1 when none
    goods_pile: tuple[str, ...]
    goods_display: tuple[str, ...]
    goods_boxed: tuple[str, ...]
    bonus_pile: tuple[str, ...]
    scoring_pile: tuple[str, ...]  # sorted by back: the lowest back is on top
    scoring_card: str  # the card turned up this round, "" when none
    scored: tuple[str, ...]  # cards scored and boxed, in order
    last_scoring: tuple[int, ...]  # letters each seat got in the latest scoring (public)
    end_triggered: bool
    resume: int  # in the RESHUFFLE phase: the phase the game goes on with afterwards, else -1
    late_reshuffle: bool  # rules version 1: the discards are reshuffled only when a draw needs a card

    def __init__(
        self, components: ComponentSet, names: tuple[str, ...], players: tuple[Player, ...], phase: Phase, turn: int,
        round: int, start_seat: int, taken: int, coin_supply: int, key_supply: int, keys_used: int,
        pile: tuple[int, ...], discard: tuple[int, ...], layout: tuple[int, ...], bids: tuple[int, ...],
        displacements: int, built: int, site: int, goods_pile: tuple[str, ...], goods_display: tuple[str, ...],
        goods_boxed: tuple[str, ...], bonus_pile: tuple[str, ...], scoring_pile: tuple[str, ...], scoring_card: str,
        scored: tuple[str, ...], last_scoring: tuple[int, ...], end_triggered: bool, resume: int, late_reshuffle: bool,
    ) -> None:
        self.components = components
        self.names = names
        self.players = players
        self.phase = phase
        self.turn = turn
        self.round = round
        self.start_seat = start_seat
        self.taken = taken
        self.coin_supply = coin_supply
        self.key_supply = key_supply
        self.keys_used = keys_used
        self.pile = pile
        self.discard = discard
        self.layout = layout
        self.bids = bids
        self.displacements = displacements
        self.built = built
        self.site = site
        self.goods_pile = goods_pile
        self.goods_display = goods_display
        self.goods_boxed = goods_boxed
        self.bonus_pile = bonus_pile
        self.scoring_pile = scoring_pile
        self.scoring_card = scoring_card
        self.scored = scored
        self.last_scoring = last_scoring
        self.end_triggered = end_triggered
        self.resume = resume
        self.late_reshuffle = late_reshuffle

    def copy(self) -> State:
        """A new record with the same fields, for a move to change before it hands it on."""
        return State(
            self.components, self.names, self.players, self.phase, self.turn, self.round, self.start_seat, self.taken,
            self.coin_supply, self.key_supply, self.keys_used, self.pile, self.discard, self.layout, self.bids,
            self.displacements, self.built, self.site, self.goods_pile, self.goods_display, self.goods_boxed,
            self.bonus_pile, self.scoring_pile, self.scoring_card, self.scored, self.last_scoring, self.end_triggered,
            self.resume, self.late_reshuffle,
        )

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)




def with_player(state: State, seat: int, player: Player) -> State:
    """``state`` with one player replaced (a copy: records are values)."""
    new = state.copy()
    new.players = replaced(state.players, seat, player)
    return new


def replaced(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    """``players`` with the one at ``seat`` replaced."""
    return players[:seat] + (player,) + players[seat + 1 :]


def with_phase(state: State, phase: Phase) -> State:
    """``state`` waiting in ``phase`` (a copy: records are values)."""
    new = state.copy()
    new.phase = phase
    return new


def plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Two card counts added (of equal length: an index loop, which compiles to plain C, unlike zip(strict=True))."""
    return tuple([a[i] + b[i] for i in range(len(a))])


def minus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Card counts ``b`` taken from ``a`` (of equal length)."""
    return tuple([a[i] - b[i] for i in range(len(a))])


def open_sites(state: State, player: Player) -> int:
    """The sites ``player`` may build on, cards and keys aside (bitmask).

    "A kikötőben útmegkötés nélkül mindig lehetséges" (a harbour is always possible, with no road
    condition); any other site must be a road neighbour of one of the player's houses; a harbour or
    suburb takes one house in all, a city part one house per player.
    """
    components = state.components
    return (components.harbours | player.reach) & ~state.taken & ~player.houses


def next_seat(state: State, seat: int) -> int:
    """The seat clockwise after ``seat``."""
    return (seat + 1) % len(state.names)


def houses_in(player: Player, mask: int) -> int:
    """How many of the player's houses stand on the sites of ``mask``."""
    return (player.houses & mask).bit_count()


def initial_players(components: ComponentSet, n: int) -> tuple[Player, ...]:
    """Each player with their houses, 3 coins and one coast card ("1 darab kikötő terepkártyát")."""
    hand = (1, 0, 0, 0, 0)
    return tuple(Player(hand, components.start_coins, 0, 0, (), (), components.houses[n], 0, 0, False) for _ in range(n))


def initial_state(components: ComponentSet, names: tuple[str, ...], start_seat: int, late_reshuffle: bool = False) -> State:
    """The setup before chance deals: coast cards handed out, every pile full, the start key placed.

    ``late_reshuffle`` keeps rules version 1's reshuffle (at the next draw, not when the pile runs out).
    """
    n = len(names)
    pile = (components.landscape[0] - n, *components.landscape[1:])
    return State(
        components=components, names=names, players=initial_players(components, n), phase=SETUP_DEAL, turn=0, round=0,
        start_seat=start_seat, taken=0, coin_supply=components.coins - components.start_coins * n, key_supply=components.key_cards,
        keys_used=0, pile=pile, discard=(0,) * 5, layout=(), bids=(NOBODY,) * n, displacements=0, built=0, site=-1,
        goods_pile=components.goods_card_ids, goods_display=(), goods_boxed=(), bonus_pile=components.bonus_ids,
        scoring_pile=components.scoring_ids, scoring_card="", scored=(), last_scoring=(0,) * n, end_triggered=False,
        resume=-1, late_reshuffle=late_reshuffle,
    )
