"""Seats at play: who may move now, how the engine chooses its move, and when a branch is "live".

The seats themselves (who holds which) are the seat store's (:mod:`service.store.seats`); this module holds the
rules built on them, shared by the API, the pages, the CLI and the engine seats' worker:

* :func:`check_mover`: only the holder of the seat to move plays it (the owner of a branch whose seats are all
  the owner's plays them all, as before seats existed);
* :func:`is_live_multi_holder`: a branch with a seat held by someone other than its owner (a person or the
  engine) whose game is not over: its hidden information is kept per seat and its analysis is refused;
* :func:`choose_engine_move`: an engine seat's move, by level, seeded by :func:`engine_seed` from what the seat sees;
* :func:`table_hiding`: why the analysis of a branch is refused (it is a live table; its ancestors are not);
* :func:`chat_rights`: who may read and write a table's chat;
* :class:`TableMoves`: after a move at a table, its players' lists of tables hear of it (and of its end).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from engine import CHANCE
from engine.analysis import default_rollouts
from engine.analysis.player import choose, tree_choice
from engine.core.protocol import Rules, State
from service.store.errors import ConflictError, ForbiddenError
from service.store.games import GameStore
from service.store.records import Branch
from service.store.seats import OWNER, USER, Seat, SeatStore
from service.store.snapshots import StateReader


@dataclass(frozen=True)
class Level:
    """An engine level: the tree search's most visited move, or with ``search_player`` the search player's move
    (:func:`engine.analysis.player.choose`), at a budget of ``rollouts`` playouts (None: the game's analysis
    budget, :func:`engine.analysis.default_rollouts`)."""

    rollouts: int | None
    search_player: bool = False


#: The engine's levels, weakest first. ``strong`` is the search player whose strength against the games' strategy
#: bots docs/PERFORMANCE.md records (``python -m bench.strength``), at the game's own analysis budget (200 or 400
#: rollouts, :func:`engine.analysis.default_rollouts`); ``easy`` is quick enough for a turn a second on a busy worker.
LEVELS: dict[str, Level] = {
    "easy": Level(rollouts=16),
    "normal": Level(rollouts=64),
    "strong": Level(rollouts=None, search_player=True),
}


def engine_seed(rules: Rules, state: State, seat: int) -> int:
    """The search seed of ``seat``'s engine move at ``state``: a hash of the position as that seat sees it.

    So the same position seen alike gives the same move on any branch, game or copy of the job (a retried job, a
    test, a second table at the same point), and nothing the seat cannot see goes into it: a seed drawn from the
    full state would make the engine's move a function of hidden cards, which someone who knows the code could test
    candidate hidden states against."""
    seen = json.dumps(rules.view(state, seat), sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(f"{rules.name}/{seat}/{seen}".encode()).digest()[:8], "big")


def engine_budget(rules: Rules, level: str) -> int:
    """The playouts one move of the engine at ``level`` searches: the work its table's owner pays for it, in the
    analysis quota's unit (rollouts x decisions)."""
    chosen = LEVELS[level]
    return chosen.rollouts if chosen.rollouts is not None else default_rollouts(rules)


def choose_engine_move(rules: Rules, state: State, seat: int, level: str, seed: int) -> Any:
    """The action ``seat`` plays at ``state``, from what the seat can see (determinised, as the analysis does for a
    seat's view: the engine does not look at hidden cards): the tree search's most visited move, or at the strong
    level the search player's."""
    chosen, budget = LEVELS[level], engine_budget(rules, level)
    if chosen.search_player:
        return choose(rules, state, seat, rollouts=budget, seed=seed)
    return tree_choice(rules, state, seat, rollouts=budget, seed=seed)


def check_mover(seats: Sequence[Seat], branch: Branch, actor: Any, user: str) -> None:
    """Raise ForbiddenError unless ``user`` holds the seat ``actor`` (who is to move at the head)."""
    if actor is None or actor == CHANCE or not isinstance(actor, int) or actor >= len(seats):
        if user != branch.owner:  # nothing to move, or chance: the play itself says so, to the owner only
            raise _not_yours(branch, f"branch {branch.id!r} is {branch.owner}'s and you hold none of its seats")
        return
    seat = seats[actor]
    if seat.held_by(user, branch.owner):
        return
    mine = [s.seat for s in seats if s.held_by(user, branch.owner)]
    yours = f"you hold seat {mine[0]}" if len(mine) == 1 else (
        f"you hold seats {', '.join(map(str, mine))}" if mine else "you hold no seat of it")
    raise _not_yours(branch, f"seat {actor} is to move on branch {branch.id!r} and it is held by "
                             f"{seat.describe(branch.owner)}; {yours}", seat=actor, holder=seat.holder)


def check_seated(seats: Sequence[Seat], branch: Branch, user: str) -> None:
    """Raise ForbiddenError unless ``user`` owns the branch or holds one of its seats: a move by anyone else is
    refused whatever seq or idempotency key it names, so the answer tells them nothing about the table."""
    if user != branch.owner and not any(seat.held_by(user, branch.owner) for seat in seats):
        raise _not_yours(branch, f"branch {branch.id!r} is {branch.owner}'s and you hold none of its seats")


def _not_yours(branch: Branch, message: str, **details: Any) -> ForbiddenError:
    return ForbiddenError(message, branch=branch.id, **details)


def is_live_multi_holder(seats: Sequence[Seat], over: bool, others_held: Collection[int] = ()) -> bool:
    """True while the game is not over and a seat is held by someone other than the branch's owner (the engine,
    an invited person, or an invite not yet taken), or a person other than the owner has held one (``others_held``:
    the seats others have held since, :meth:`service.store.seats.SeatStore.others_held`): taking every seat back does
    not make a table the owner's alone again before its game is over."""
    return not over and (bool(others_held) or any(seat.holder != OWNER for seat in seats))


def views_of_seats(seats: Sequence[Seat], owner: str | None, user: str | None, others_held: Collection[int]) -> list[int]:
    """The seats whose view ``user`` may have at a live table: those they hold, but for the owner not those others
    have held (the owner's own seats stay theirs; a seat taken back from someone keeps its secrets from the owner
    until the game is over)."""
    return [seat.seat for seat in seats
            if seat.held_by(user, owner) and not (seat.holder == OWNER and seat.seat in others_held)]


def table_hiding(games: GameStore, seats: SeatStore, reader: StateReader, gid: str, bid: str) -> str | None:
    """Why the analysis of branch ``bid`` is refused now, or None when it is not.

    Refused while ``bid`` itself is played by more than its owner and its game is not over (:func:`is_live_table`):
    nobody reads the engine's opinion of a game being played. The table protects itself, not its relatives: the
    lines it was forked from, and every other line, stay analysable by whoever may read them (a position of the
    table can be set up anywhere, as a correspondence chess position can; what stays closed is the table's own
    line, its forks and take-backs: :func:`refuse_copy_of_table`). After the game ends, everything opens.
    """
    if not is_live_table(games, seats, reader, gid, bid):
        return None
    return (f"analysis refused: branch {bid!r} is being played with seats held by others than its owner and its game "
            f"is not over; no engine help on it (analysis, forks, take-backs) until it ends")


def refuse_copy_of_table(games: GameStore, seats: SeatStore, reader: StateReader, gid: str, bid: str, what: str) -> None:
    """ConflictError while branch ``bid`` itself is a live table: a fork or a take-back of it would be a branch of the
    caller's own, read in full, holding the table's hidden information (the other seats' hands) up to its head."""
    if is_live_table(games, seats, reader, gid, bid):
        raise ConflictError(f"branch {bid!r} is being played with seats held by others than its owner: it cannot be "
                            f"{what} until its game is over (a copy would show every seat's hidden information)",
                            game=gid, branch=bid)


def is_live_table(games: GameStore, seats: SeatStore, reader: StateReader, gid: str, bid: str) -> bool:
    """True while branch ``bid`` is a live table (:func:`is_live_multi_holder` read from the stores)."""
    if not seats.has_assignments(gid, bid):
        return False
    position = reader.position(gid, bid)
    held = seats.seats(gid, bid, len(games.game(gid).setup.players))
    return is_live_multi_holder(held, position.rules.current_actor(position.state) is None, seats.others_held(gid, bid))


@dataclass(frozen=True)
class ChatRights:
    """What one reader may do with a table's chat."""

    read: bool
    write: bool


def at_table(seats: Sequence[Seat], owner: str | None, user: str | None) -> bool:
    """True when ``user`` is the branch's owner or a person who holds one of its seats now."""
    return user is not None and (user == owner or any(s.holder == USER and s.user == user for s in seats))


def chat_rights(seats: Sequence[Seat], owner: str | None, user: str | None, *, assigned: bool, public: bool) -> ChatRights:
    """Who may use the chat of a branch (a table once ``assigned``: it has seats): the owner and the people seated
    write and read it; everyone else who may read the game reads it only when the game is ``public`` (an unlisted
    game's table talks among itself; a private game's is its owner's, whom nobody else may read anyway)."""
    player = at_table(seats, owner, user)
    return ChatRights(read=player or public, write=player and assigned)


@dataclass(frozen=True)
class TableMoves:
    """The append listener that keeps the lists of tables (``GET /api/me/tables``): after a move on a branch with
    seats, the home pages that list it hear of it; the move that ends its game moves it to its people's finished
    tables, so that a list of the tables being played never reads the finished ones again."""

    seats: SeatStore
    games: GameStore
    reader: StateReader

    def __call__(self, gid: str, bid: str) -> None:
        """Called after each append on branch ``bid``."""
        if not self.seats.has_assignments(gid, bid):
            return
        position = self.reader.position(gid, bid)  # the position just appended: remembered, no fold
        if position.rules.current_actor(position.state) is None:
            self.seats.table_over(gid, bid, owner=self.games.branch(gid, bid).owner, when=time.time())
        else:
            self.seats.table_moved(gid, bid)
