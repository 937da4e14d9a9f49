"""Playing on a branch: check a player's action, draw the chance events that follow, append.

This is the one place where the service makes moves. Chance is drawn from the branch's
seed and the seq being drawn (``chance_uniform``), so the same seed and history always
give the same draws, and a fork (with a seed of its own) can draw differently.

A fork made with ``chance="keep"`` asks for the same luck instead ("what if I had built X with
the same plantations coming up"): its n-th chance draw replays the n-th chance outcome of the
parent line after the fork point, when the rules still allow that outcome there; when they do
not (the line has diverged: another kind of draw, a tile no longer in the stack), that draw
falls back to the fork's seed and the parent's outcome is passed over, so the later draws stay
aligned slot by slot.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine import CHANCE, Event, IllegalActionError, action_event, check_action, draw_chance, get_rules
from engine.core.protocol import Rules, Setup, State
from service.games.titles import game_title
from service.store.errors import ConflictError, IdempotencyKeyReusedError
from service.store.games import MAIN, AppendResult, Branch, GameRecord, GameStore, IdempotencyKey
from service.store.results import GameResult, result_of
from service.store.snapshots import StateReader

AppendListener = Callable[[str, str], object]
#: Whose idempotency keys a play with no author makes (the CLI's, say): no user name can be it.
SERVER_PRINCIPAL = "~server"
#: Called with the seat to move (or chance, or None at the end); raises to refuse the move (see ``PlayService.play``).
MoverCheck = Callable[[Any], None]


def chance_uniform(seed: str, seq: int) -> float:
    """A number in [0, 1) fixed by (seed, seq): the draw for the chance event at ``seq``."""
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def draw_chance_events(rules: Rules, state: State, seed: str, next_seq: int, kept: Sequence[str] = (),
                       **meta: Any) -> tuple[list[Event], State]:
    """The chance events due now (none if a seat is to act), and the state after them.

    ``kept`` are outcomes to replay first, one per draw, in order (a ``chance="keep"`` fork's share of its
    parent line's draws): each is used when the rules allow it at that draw, else the seed decides that draw.
    """
    events: list[Event] = []
    while rules.current_actor(state) == CHANCE:
        seq = next_seq + len(events)
        outcomes = rules.chance_outcomes(state)
        wanted = kept[len(events)] if len(events) < len(kept) else None
        action = _kept_outcome(rules, outcomes, wanted) if wanted is not None else None
        if action is None:
            action = draw_chance(outcomes, chance_uniform(seed, seq))
        events.append(action_event(seq, CHANCE, rules.format_action(action), **meta))
        state = rules.apply(state, action)
    return events, state


def _kept_outcome(rules: Rules, outcomes: Any, notation: str) -> Any:
    """The outcome written ``notation`` if it is one of ``outcomes`` with a weight above zero, else None."""
    for outcome, weight in outcomes:
        if weight > 0 and rules.format_action(outcome) == notation:
            return outcome
    return None


class PlayService:
    """Creates live games and appends players' actions with the chance that follows."""

    def __init__(self, games: GameStore, reader: StateReader, on_append: AppendListener | None = None) -> None:
        self.games = games
        self.reader = reader
        self.on_append = on_append or (lambda gid, bid: None)

    def create_game(self, game: str, players: Sequence[str], *, owner: str | None, seed: str | None = None,
                    visibility: str = "public", options: Mapping[str, Any] | None = None, title: str = "",
                    gid: str | None = None) -> tuple[GameRecord, int]:
        """A new live game, with any opening chance (a shuffle, say) already drawn; returns it and its head. ``gid``:
        its id, when the caller seated it before (:meth:`check_setup`, then the seats, then this)."""
        rules = get_rules(game)
        setup = Setup(tuple(players), dict(options or {}))
        state = rules.initial_state(setup)  # raises SetupError before anything is stored
        title = title or game_title(game, setup.players, when=time.time())
        record = self.games.create_game(game, rules.version, setup, owner=owner, seed=seed, visibility=visibility,
                                        title=title, meta={"author": owner, "time": time.time()}, gid=gid)
        seed_used = self.games.branch(record.id, MAIN).seed
        events, _ = draw_chance_events(rules, state, seed_used, 2, author="server", time=time.time())
        head = self.games.append(record.id, MAIN, events, 1).last_seq if events else 1
        self.on_append(record.id, MAIN)
        return record, head

    @staticmethod
    def check_setup(game: str, players: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        """Raise as :meth:`create_game` would for a setup its rules refuse, storing nothing."""
        get_rules(game).initial_state(Setup(tuple(players), dict(options or {})))

    def fork(self, gid: str, parent: str, at: int, *, owner: str | None, name: str = "",
             chance: str = "redraw", seed: str | None = None, bid: str | None = None) -> tuple[Branch, int]:
        """A new branch of ``parent`` after event ``at``, owned by ``owner``; returns it and its head.

        If chance is due at the fork point, the new branch draws it at once, so that its owner can
        act: from its own seed (``chance="redraw"``: a fork can explore other dice), or replaying
        the parent line's draws where still possible (``chance="keep"``: the same luck). The seed is
        ``seed`` where given (as a new game's may be), else a random one; its id ``bid`` where given (a take-back at a
        table seats it before it is made), else a new one.
        """
        branch = self.games.fork(gid, parent, at, owner=owner, name=name, chance=chance, seed=seed, bid=bid)
        position = self.reader.position(gid, branch.id)
        events, _ = draw_chance_events(position.rules, position.state, branch.seed, position.seq + 1,
                                       self._kept_draws(gid, branch), author="server", time=time.time())
        if not events:
            return branch, position.seq
        head = self.games.append(gid, branch.id, events, position.seq).last_seq
        self.on_append(gid, branch.id)
        return branch, head

    def play(self, gid: str, bid: str, notation: str, expected_seq: int, *, author: str | None,
             idempotency_key: str | None = None, may_move: MoverCheck | None = None) -> list[Event]:
        """Append a player's action at ``expected_seq`` + 1 and the chance events it leads to.

        Raises ConflictError for a stale ``expected_seq``, NotationError for text that is
        not an action, IllegalActionError (placed at its seq) for one the rules refuse.
        ``may_move`` is called with the seat to move at ``expected_seq`` before anything is checked further, and
        raises to refuse the request (only a seat's holder plays it: :func:`service.games.seating.check_mover`).

        The key rule: an idempotency key is its first user's (``author``: a user, or the engine) on the branch, so the
        same key from anyone else is a new request. Sent again by its user for the same request (action and seq),
        it stores nothing and returns the first request's events, however many copies race and wherever the head
        is now, once ``may_move`` has let the caller make that move as it would a new one; sent for another
        request, it raises IdempotencyKeyReusedError.
        """
        key = IdempotencyKey(author or SERVER_PRINCIPAL, idempotency_key) if idempotency_key else None
        fingerprint = request_fingerprint(notation, expected_seq) if key else ""
        replayed = self._replayed(gid, bid, key, fingerprint, may_move) if key else None
        if replayed is not None:
            return replayed
        try:
            return self._append_action(gid, bid, notation, expected_seq, author, key, fingerprint, may_move)
        except ConflictError:
            # A copy of this request may have won the race since we looked: it moved the head.
            # The key then holds its result, which is this request's answer too.
            replayed = self._replayed(gid, bid, key, fingerprint, may_move) if key else None
            if replayed is None:
                raise
            return replayed

    def _append_action(self, gid: str, bid: str, notation: str, expected_seq: int, author: str | None,
                       idempotency_key: IdempotencyKey | None, fingerprint: str, may_move: MoverCheck | None) -> list[Event]:
        position = self.reader.position(gid, bid)
        if position.seq != expected_seq:
            raise ConflictError(f"stale expected_seq {expected_seq}: branch {bid!r} is at seq {position.seq}",
                                expected_seq=expected_seq, head=position.seq)
        rules, state = position.rules, position.state
        if may_move is not None:
            may_move(rules.current_actor(state))
        events = self._player_event(rules, state, notation, expected_seq + 1, author)
        state = rules.apply(state, rules.parse_action(notation))
        branch = self.games.branch(gid, bid)
        chance, state = draw_chance_events(rules, state, branch.seed, expected_seq + 2, self._kept_draws(gid, branch),
                                           author="server", time=time.time())
        result = self.games.append(gid, bid, events + chance, expected_seq, idempotency_key=idempotency_key,
                                   fingerprint=fingerprint, ends=self._result_if_over(gid, bid, rules, state))
        if result.duplicate:
            # A copy of this request got there between our look-up and our append.
            self._refuse_reuse(bid, idempotency_key.key if idempotency_key else "", fingerprint, result)
        else:
            # The next request on this branch starts from here: spare it the fold.
            self.reader.remember(gid, bid, result.last_seq, state)
        self.on_append(gid, bid)
        return self.games.events_between(gid, bid, result.first_seq - 1, result.last_seq)

    def _result_if_over(self, gid: str, bid: str, rules: Rules, state: State) -> GameResult | None:
        """The game's result if this move ends its main line (the store then lists it as finished), else None."""
        if bid != MAIN or rules.current_actor(state) is not None:
            return None
        return result_of(rules, state, self.games.game(gid).setup.players)

    def _kept_draws(self, gid: str, branch: Branch) -> list[str]:
        """The parent line's chance outcomes a ``keep`` fork has still to replay, in order (none for ``redraw``).

        The fork's own draws so far have used up as many of the parent's draws after the fork point.
        """
        if branch.chance != "keep" or branch.parent is None:
            return []
        parents = [e.action for e in self.games.events(gid, branch.parent, after=branch.fork_seq)
                   if e.actor == CHANCE and e.action is not None]
        used = sum(1 for e in self.games.events(gid, branch.id, after=branch.fork_seq) if e.actor == CHANCE)
        return parents[used:]

    def _player_event(self, rules: Rules, state: State, notation: str, seq: int, author: str | None) -> list[Event]:
        actor = rules.current_actor(state)
        action = rules.parse_action(notation)
        if actor == CHANCE:
            raise IllegalActionError(notation, "chance is to act: the server draws it", rule="chance", seq=seq)
        try:
            check_action(rules, state, actor, action)
        except IllegalActionError as exc:
            raise exc.at_seq(seq) from None
        return [action_event(seq, actor, rules.format_action(action), author=author, time=time.time())]

    def _replayed(self, gid: str, bid: str, key: IdempotencyKey, fingerprint: str,
                  may_move: MoverCheck | None) -> list[Event] | None:
        """The events a previous append with this idempotency key (by the same principal) stored, if any, once
        ``may_move`` lets the caller make that move now (refusing a reuse for another request)."""
        prior = self.games.idempotent_result(gid, bid, key)
        if prior is None:
            return None
        self._refuse_reuse(bid, key.key, fingerprint, prior)
        if may_move is not None:
            # The same who-may-move check as the first answer's: the seat to move where that request was made.
            position = self.reader.position(gid, bid, prior.first_seq - 1)
            may_move(position.rules.current_actor(position.state))
        return self.games.events_between(gid, bid, prior.first_seq - 1, prior.last_seq)

    @staticmethod
    def _refuse_reuse(bid: str, key: str, fingerprint: str, prior: AppendResult) -> None:
        # A key stored before fingerprints existed has none: it can only be taken as a retry.
        if prior.fingerprint and prior.fingerprint != fingerprint:
            raise IdempotencyKeyReusedError(
                f"idempotency key {key!r} was used for another request on branch {bid!r} (which stored seqs "
                f"{prior.first_seq} to {prior.last_seq}): a retry must repeat the same action and expected_seq",
                key=key, first_seq=prior.first_seq, last_seq=prior.last_seq)


def request_fingerprint(notation: str, expected_seq: int) -> str:
    """What identifies a play request under its idempotency key (the branch is part of the key)."""
    return hashlib.sha256(f"{expected_seq}\x00{notation}".encode()).hexdigest()[:32]
