"""Seats of a branch and the invites to them: who may move for which seat.

A branch with no seat record is played as before issue 33: its owner moves for every seat. Once its owner
assigns a seat, the branch's seats hash (``keys.seats_for``) holds one JSON record per assigned seat:

* ``{"holder": "owner"}``: the branch's owner (the same as no record);
* ``{"holder": "engine", "level": "easy"|"normal"|"strong"}``: the engine moves by itself (``workers/engine_seat.py``);
* ``{"holder": "invited", "invite": <token hash>}``: an invite link is out and nobody has taken it yet;
* ``{"holder": "user", "user": <name>}``: the person who redeemed the invite.

Once a person has taken a seat, the hash's field ``others`` also lists (JSON) every seat held since by anyone but the
owner, that person's included: the owner never sees those seats' views again until the game is over, whoever holds
them later (:func:`service.games.seating.views_of_seats`), so taking every seat back re-opens nothing.

Invites (``keys.invites_for``, one hash per game) are kept by the SHA-256 of their token, never the token:
a read of Redis hands out no seat, and a token is found by its hash (no comparison of secrets in Python, so
nothing to time). A token is ``<gid>.<secret>`` (43 characters of ``secrets.token_urlsafe``): the game id
says which hash to look in. An invite is ``open`` until it is ``used`` (once: redeeming is one WATCHed
transaction over the invite and the seat, so two browsers racing for it get one seat and one 410) or
``revoked`` (the owner took the seat back, gave it to the engine or made a new invite for it), or ``deleted`` (its
branch was deleted).

A branch is deleted only when nobody but its owner sits at it (issue 45), and the check and the deletion must not let
a seat in between: the deletion first marks the branch closing (:meth:`SeatStore.close`, WATCHed over the seats it
reads), and every transaction that gives a seat (redeeming, assigning, inviting) WATCHes that mark and the game's
branch table and refuses a branch closing (409 ``branch_closing``) or gone (410 ``branch_deleted``). So either the
seat is taken first (the deletion then sees it and is refused), or the deletion runs and the seat is refused; a
deletion the game store refuses (a branch with forks) lifts the mark (:meth:`SeatStore.reopen`), losing nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

import redis
from redis.typing import EncodableT, FieldT

from service.store import keys
from service.store.errors import (
    BranchClosingError,
    BranchGoneError,
    ConflictError,
    GoneError,
    InvalidRequestError,
    NotFoundError,
)
from service.store.replies import as_bytes_hash, as_optional_bytes, as_scored, as_text_list

#: The engine's strengths, weakest first.
ENGINE_LEVELS = ("easy", "normal", "strong")
OWNER, ENGINE, INVITED, USER = "owner", "engine", "invited", "user"
# Remove the branch only if no engine move was queued on it after this one started: that one is still due.
_DONE_UNLESS_REQUEUED = """local queued = redis.call('ZSCORE', KEYS[1], ARGV[1])
if queued and tonumber(queued) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0"""
#: Seat-change notices kept per game (a follower only ever needs the ones since it subscribed).
SEAT_CHANGES_KEPT = 200
SEATS_CHANGED, BRANCH_DELETED, TABLE_MOVED = "seats", "deleted", "moved"
#: Notices kept in the stream of changed tables (the home pages' lists need only the ones since they subscribed).
TABLE_CHANGES_KEPT = 1000
#: The seats hash's field listing the seats others have held since a person first sat (not a seat number).
OTHERS_FIELD = "others"
#: Seconds a branch stays marked closing at most: a deletion takes milliseconds; a process that died in the middle of
#: one leaves the branch open again after this.
CLOSING_SECONDS = 60
_TOKEN = re.compile(r"^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{20,64})$")


@dataclass(frozen=True)
class Seat:
    """Who holds one seat of a branch."""

    seat: int
    holder: str = OWNER
    user: str | None = None
    level: str | None = None
    invite: str | None = None  # the open invite's token hash

    def to_record(self) -> dict[str, Any]:
        """The stored JSON (without the seat number, which is the hash field)."""
        record: dict[str, Any] = {"holder": self.holder}
        for name in ("user", "level", "invite"):
            if getattr(self, name) is not None:
                record[name] = getattr(self, name)
        return record

    def held_by(self, user: str | None, owner: str | None) -> bool:
        """True when ``user`` moves for this seat (the owner for an owner's seat, the user for a user's)."""
        if user is None:
            return False
        return (self.holder == OWNER and user == owner) or (self.holder == USER and user == self.user)

    def describe(self, owner: str | None) -> str:
        """Who holds it, in words: ``alice (the owner)``, ``the engine (easy)``, ``an invite not yet taken``, ``bob``."""
        if self.holder == OWNER:
            return f"{owner} (the owner)"
        if self.holder == ENGINE:
            return f"the engine ({self.level})"
        if self.holder == INVITED:
            return "an invite not yet taken"
        return str(self.user)


@dataclass(frozen=True)
class Invite:
    """An invite as stored: the seat it hands out, and whether it still can."""

    game: str
    branch: str
    seat: int
    status: str  # open, used or revoked
    user: str | None = None


def token_hash(token: str) -> str:
    """The stored name of an invite token (hex SHA-256)."""
    return hashlib.sha256(token.encode()).hexdigest()


def _invite_of(gid: str, raw: bytes | str) -> Invite:
    data = json.loads(raw)
    return Invite(gid, str(data["branch"]), int(data["seat"]), str(data["status"]), data.get("user"))


def _notify(pipe: Any, gid: str, bid: str, change: str, **more: str) -> None:
    """Queue, in the transaction that makes it, the notice of a change of branch ``bid``'s seats (a page at the table
    hears of it live: a seated player learns that their seat was taken back, or that the branch is gone; a home
    page's list of tables, that a table was set, taken or deleted)."""
    pipe.xadd(keys.seat_changes_for(gid), {"branch": bid, "change": change, **more}, maxlen=SEAT_CHANGES_KEPT,
              approximate=True)
    table_changed(pipe, gid, bid)


def table_changed(client: Any, gid: str, bid: str) -> None:
    """Add the notice that table ``bid`` changed (a seat, or a move) to the stream the home pages' lists follow."""
    client.xadd(keys.tables_changed(), {"gid": gid, "bid": bid}, maxlen=TABLE_CHANGES_KEPT, approximate=True)


def _table(gid: str, bid: str) -> str:
    """A table's member in a user's set of tables."""
    return f"{gid}/{bid}"


def _tables(members: list[str]) -> list[tuple[str, str]]:
    """(gid, bid) of members of a user's set of tables."""
    return [(gid, bid) for gid, _, bid in (member.partition("/") for member in members)]


def _leave_table(pipe: Any, person: str, gid: str, bid: str) -> None:
    """Queue the removal of the table from ``person``'s lists (played and finished): they no longer sit there."""
    pipe.zrem(keys.tables_of(person), _table(gid, bid))
    pipe.zrem(keys.finished_tables_of(person), _table(gid, bid))


def _people(stored: dict[bytes, bytes]) -> set[str]:
    """The people (not the owner) who hold a seat in a seats hash."""
    held = (_seat_of(int(k), v) for k, v in stored.items() if k.isdigit())
    return {seat.user for seat in held if seat.holder == USER and seat.user is not None}


def _new_invite(gid: str, bid: str, seat: int) -> tuple[Seat, str, str]:
    """A new invite to ``seat``: the invited seat, the token to hand out, and the invite's stored record."""
    token = f"{gid}.{secrets.token_urlsafe(32)}"
    invited = Seat(seat, INVITED, invite=token_hash(token))
    return invited, token, json.dumps({"branch": bid, "seat": seat, "status": "open"})


def _open_invites(stored: dict[bytes, bytes]) -> list[str]:
    """The token hashes of the invites a seats hash's invited seats wait on."""
    held = (_seat_of(int(k), v) for k, v in stored.items() if k.isdigit())
    return [seat.invite for seat in held if seat.holder == INVITED and seat.invite]
def _invites_of_branch(stored: dict[bytes, bytes], bid: str) -> dict[bytes, dict[str, Any]]:
    """The invites (by token hash) of branch ``bid`` in a game's invites hash."""
    records = {hashed: json.loads(raw) for hashed, raw in stored.items()}
    return {hashed: record for hashed, record in records.items() if record.get("branch") == bid}


def _others(raw: bytes | str | None) -> set[int]:
    """The ``others`` field's seats (none when it is not set: no person has sat yet)."""
    return set(json.loads(raw)) if raw is not None else set()


def _others_now(stored: dict[bytes, bytes]) -> set[int]:
    """From a seats hash: the seats others have held (``others``), and those held by anyone but the owner now."""
    held = {int(k) for k, v in stored.items() if k.isdigit() and _seat_of(int(k), v).holder != OWNER}
    return _others(stored.get(OTHERS_FIELD.encode())) | held


def _watch_branch(pipe: Any, gid: str, bid: str, *more: str) -> None:
    """WATCH ``more`` and what says whether the branch may still be seated: its closing mark and the game's branches."""
    pipe.watch(*more, keys.branch_closing_for(gid, bid), keys.branches_for(gid))


def _refuse_closed(pipe: Any, gid: str, bid: str) -> None:
    """In a transaction WATCHed by :func:`_watch_branch`: refuse a branch being deleted, or deleted."""
    if pipe.exists(keys.branch_closing_for(gid, bid)):
        raise BranchClosingError(f"branch {bid!r} is being deleted by its owner: none of its seats can be taken or "
                                 "given now", game=gid, branch=bid)
    if not pipe.hexists(keys.branches_for(gid), bid):
        raise BranchGoneError(f"branch {bid!r} of game {gid!r} was deleted by its owner, and its seats with it",
                              game=gid, branch=bid)


def _seat_of(seat: int, raw: bytes | str) -> Seat:
    data = json.loads(raw)
    return Seat(seat, str(data["holder"]), data.get("user"), data.get("level"), data.get("invite"))


class SeatStore:
    """A branch's seats and the game's invites."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def seats(self, gid: str, bid: str, count: int) -> list[Seat]:
        """Every seat of the branch ``0 … count-1``: the stored holder, the owner where none is stored."""
        stored = self.redis.hgetall(keys.seats_for(gid, bid))
        found = {int(k): v for k, v in stored.items() if k.isdigit()}
        return [_seat_of(n, found[n]) if n in found else Seat(n) for n in range(count)]

    def others_held(self, gid: str, bid: str) -> frozenset[int]:
        """The seats held by anyone but the owner since a person first took a seat of the branch (none before)."""
        return frozenset(_others(as_optional_bytes(self.redis.hget(keys.seats_for(gid, bid), OTHERS_FIELD))))

    def has_assignments(self, gid: str, bid: str) -> bool:
        """True when the owner has assigned any seat of the branch (else the owner plays them all, as before)."""
        return bool(self.redis.exists(keys.seats_for(gid, bid)))

    def seat(self, gid: str, bid: str, seat: int) -> Seat:
        """One seat's holder (the owner when none is stored)."""
        raw = self.redis.hget(keys.seats_for(gid, bid), str(seat))
        return _seat_of(seat, raw) if raw is not None else Seat(seat)

    def assign(self, gid: str, bid: str, seat: Seat, *, owner: str | None = None) -> Seat:
        """Give ``seat`` to its new holder (owner or engine), revoking an open invite to it; ``owner``, the branch's
        owner, then counts the branch among their tables."""
        if seat.holder not in (OWNER, ENGINE):
            raise InvalidRequestError(f"assign: holder {seat.holder!r} is not owner or engine")
        self._replace(gid, bid, seat, None, owner)
        return seat

    def invite(self, gid: str, bid: str, seat: int, *, owner: str | None = None) -> tuple[Seat, str]:
        """A new single-use invite to ``seat`` (an open one before it is revoked); the seat and the token."""
        invited, token, record = _new_invite(gid, bid, seat)
        self._replace(gid, bid, invited, (str(invited.invite), record), owner)
        return invited, token

    def open_table(self, gid: str, bid: str, owner: str, seats: list[Seat]) -> dict[int, str]:
        """Seat the branch of a game not yet stored (``POST /api/games`` with seats): every seat (``INVITED`` ones
        get a new invite each), the owner's list of tables, in one transaction, refused (ConflictError) if the game
        exists already. Written before the game, so that nobody ever sees the game with all its seats the owner's.
        Returns the invites' tokens by seat."""
        tokens: dict[int, str] = {}
        records: dict[FieldT, EncodableT] = {}
        stored: dict[FieldT, EncodableT] = {}
        for seat in seats:
            if seat.holder == INVITED:
                seat, tokens[seat.seat], records[str(seat.invite)] = _new_invite(gid, bid, seat.seat)
            stored[str(seat.seat)] = json.dumps(seat.to_record())
        meta_key = keys.game_meta_for(gid)
        with self.redis.pipeline() as pipe:
            pipe.watch(meta_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
            if pipe.exists(meta_key):
                raise ConflictError(f"game {gid!r} exists already", game=gid)
            pipe.multi()
            pipe.hset(keys.seats_for(gid, bid), mapping=stored)
            if records:
                pipe.hset(keys.invites_for(gid), mapping=records)
            pipe.zadd(keys.tables_of(owner), {_table(gid, bid): time.time()})
            pipe.execute()
        return tokens

    def discard_table(self, gid: str, bid: str, owner: str) -> None:
        """Undo :meth:`open_table` for a game that could not be stored after all."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(keys.seats_for(gid, bid), keys.invites_for(gid))
            pipe.zrem(keys.tables_of(owner), _table(gid, bid))
            pipe.execute()

    def table_moved(self, gid: str, bid: str) -> None:
        """After an append on a table (a branch with seats): tell the home pages' lists of tables that it moved on."""
        table_changed(self.redis, gid, bid)

    def table_over(self, gid: str, bid: str, *, owner: str | None, when: float) -> None:
        """The table's game ended (at ``when``): in its players' and ``owner``'s lists it moves from the tables played to
        the finished ones, and the home pages hear of it."""
        seats_key, member = keys.seats_for(gid, bid), _table(gid, bid)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(seats_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    people = _people(as_bytes_hash(pipe.hgetall(seats_key))) | ({owner} if owner else set())
                    pipe.multi()
                    for person in people:
                        pipe.zrem(keys.tables_of(person), member)
                        pipe.zadd(keys.finished_tables_of(person), {member: when}, nx=True)
                    table_changed(pipe, gid, bid)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def tables_of(self, user: str) -> list[tuple[str, str]]:
        """The tables (gid, bid) ``user`` sits at and plays (owns with seats assigned, or holds a seat of by invite),
        those whose game is over left out once :meth:`table_over` moved them."""
        return _tables(as_text_list(self.redis.zrange(keys.tables_of(user), 0, -1)))

    def finished_tables_of(self, user: str, count: int) -> tuple[list[tuple[str, str, float]], int]:
        """The ``count`` tables (gid, bid, when it ended) ``user`` sat at whose game ended last (the latest first), and
        how many there are."""
        key = keys.finished_tables_of(user)
        recent = as_scored(self.redis.zrevrange(key, 0, count - 1, withscores=True)) if count > 0 else []
        tables = _tables([member.decode() for member, _ in recent])
        return [(gid, bid, when) for (gid, bid), (_, when) in zip(tables, recent, strict=True)], int(self.redis.zcard(key))

    def sits_at(self, user: str, gid: str, bid: str) -> bool:
        """True when the table is among ``user``'s, being played or finished."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.zscore(keys.tables_of(user), _table(gid, bid))
            pipe.zscore(keys.finished_tables_of(user), _table(gid, bid))
            return any(score is not None for score in pipe.execute())

    def _replace(self, gid: str, bid: str, seat: Seat, new_invite: tuple[str, str] | None, owner: str | None) -> None:
        """Write ``seat`` and revoke the invite it replaces, in one transaction (the invite may be redeemed meanwhile);
        a person whose last seat of the branch it was leaves it from their tables."""
        seats_key, invites_key = keys.seats_for(gid, bid), keys.invites_for(gid)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    _watch_branch(pipe, gid, bid, seats_key, invites_key)
                    _refuse_closed(pipe, gid, bid)
                    stored = as_bytes_hash(pipe.hgetall(seats_key))
                    old_raw = stored.get(str(seat.seat).encode())
                    old = _seat_of(seat.seat, old_raw) if old_raw is not None else Seat(seat.seat)
                    old_invite = pipe.hget(invites_key, old.invite) if old.invite else None
                    others = _others(stored.get(OTHERS_FIELD.encode()))
                    left = _people(stored) - _people(stored | {str(seat.seat).encode(): json.dumps(seat.to_record()).encode()})
                    # a table whose game is over stays among the owner's finished ones
                    ended = owner is not None and pipe.zscore(keys.finished_tables_of(owner), _table(gid, bid)) is not None
                    pipe.multi()
                    for person in left:
                        _leave_table(pipe, person, gid, bid)
                    if owner is not None and not ended:
                        pipe.zadd(keys.tables_of(owner), {_table(gid, bid): time.time()}, nx=True)
                    if others and seat.holder != OWNER:
                        pipe.hset(seats_key, OTHERS_FIELD, json.dumps(sorted(others | {seat.seat})))
                    if old.invite and old_invite is not None:
                        revoked = json.loads(old_invite) | {"status": "revoked"}
                        pipe.hset(invites_key, old.invite, json.dumps(revoked))
                    if new_invite is not None:
                        pipe.hset(invites_key, new_invite[0], new_invite[1])
                    pipe.hset(seats_key, str(seat.seat), json.dumps(seat.to_record()))
                    _notify(pipe, gid, bid, SEATS_CHANGED)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def find_invite(self, token: str) -> Invite:
        """The invite of ``token`` in any state; NotFoundError for a token no invite has (forged, mistyped)."""
        match = _TOKEN.match(token)
        raw = self.redis.hget(keys.invites_for(match.group(1)), token_hash(token)) if match else None
        if match is None or raw is None:
            raise NotFoundError("no such invite: the link is wrong or was never made (ask the branch's owner for a "
                                "new one)", invite="unknown")
        return _invite_of(match.group(1), raw)

    def redeem(self, token: str, user: str, *, owner: str | None) -> Invite:
        """``user`` takes the seat ``token`` invites to: once. GoneError when used or revoked, NotFoundError forged.

        The branch's owner cannot take an invite to their own branch (they hold its seats already: PUT me).
        """
        invite = self.find_invite(token)
        hashed, invites_key = token_hash(token), keys.invites_for(invite.game)
        seats_key = keys.seats_for(invite.game, invite.branch)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    _watch_branch(pipe, invite.game, invite.branch, invites_key, seats_key)
                    current = _invite_of(invite.game, pipe.hget(invites_key, hashed) or b"{}")
                    self.check_usable(current)
                    _refuse_closed(pipe, invite.game, invite.branch)
                    self._refuse_owner(current, user, owner)
                    others = _others_now(as_bytes_hash(pipe.hgetall(seats_key))) | {current.seat}
                    pipe.multi()
                    pipe.hset(seats_key, OTHERS_FIELD, json.dumps(sorted(others)))
                    used = {"branch": current.branch, "seat": current.seat, "status": "used", "user": user}
                    pipe.hset(invites_key, hashed, json.dumps(used))
                    pipe.hset(seats_key, str(current.seat), json.dumps(Seat(current.seat, USER, user=user).to_record()))
                    pipe.zadd(keys.tables_of(user), {_table(invite.game, current.branch): time.time()}, nx=True)
                    _notify(pipe, invite.game, current.branch, SEATS_CHANGED)
                    pipe.execute()
                    return Invite(invite.game, current.branch, current.seat, "used", user)
                except redis.WatchError:
                    continue

    @staticmethod
    def check_usable(invite: Invite) -> None:
        """GoneError (saying why) unless the invite is still open."""
        where = {"game": invite.game, "branch": invite.branch, "seat": invite.seat}
        if invite.status == "used":
            raise GoneError(f"this invite to seat {invite.seat} was already used (by {invite.user}): an invite "
                            "is single-use; ask the branch's owner for a new one", **where)
        if invite.status == "revoked":
            raise GoneError(f"this invite to seat {invite.seat} was revoked by the branch's owner", **where)
        if invite.status == "deleted":
            raise BranchGoneError(f"this invite was to seat {invite.seat} of branch {invite.branch!r}, which its owner "
                                  "deleted", **where)

    @staticmethod
    def _refuse_owner(invite: Invite, user: str, owner: str | None) -> None:
        where = {"game": invite.game, "branch": invite.branch, "seat": invite.seat}
        if user == owner:
            raise ConflictError(f"you own branch {invite.branch!r} and hold its seats already: send the link to "
                                "the person you invite", **where)

    def close(self, gid: str, bid: str) -> list[Seat]:
        """Mark the branch closing before its deletion: from now on no seat of it can be taken or given (redeeming,
        assigning and inviting refuse it) until :meth:`delete_branch` or :meth:`reopen`. Returns the seats people other
        than the owner hold at that moment (the caller refuses the deletion while they play there, and reopens).
        BranchClosingError while another deletion of it runs."""
        seats_key, closing_key = keys.seats_for(gid, bid), keys.branch_closing_for(gid, bid)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(seats_key, closing_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    if pipe.exists(closing_key):
                        raise BranchClosingError(f"branch {bid!r} is being deleted already", game=gid, branch=bid)
                    stored = as_bytes_hash(pipe.hgetall(seats_key))
                    pipe.multi()
                    pipe.set(closing_key, b"1", ex=CLOSING_SECONDS)
                    pipe.execute()
                    held = (_seat_of(int(k), v) for k, v in stored.items() if k.isdigit())
                    return sorted((seat for seat in held if seat.holder == USER), key=lambda seat: seat.seat)
                except redis.WatchError:
                    continue

    def reopen(self, gid: str, bid: str) -> None:
        """Lift :meth:`close`'s mark: the branch was not deleted after all (its seats are as they were)."""
        self.redis.delete(keys.branch_closing_for(gid, bid))

    def delete_branch(self, gid: str, bid: str, *, owner: str | None = None) -> None:
        """Forget a deleted branch's seats, its invites (marked ``deleted``: redeeming one says the branch is gone), the
        table in its players' and ``owner``'s lists, and its closing mark, and tell the pages that follow its seats that
        it is gone."""
        seats_key, invites_key = keys.seats_for(gid, bid), keys.invites_for(gid)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(seats_key, invites_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    people = _people(as_bytes_hash(pipe.hgetall(seats_key))) | ({owner} if owner else set())
                    invites = _invites_of_branch(as_bytes_hash(pipe.hgetall(invites_key)), bid)
                    pipe.multi()
                    for person in people:
                        _leave_table(pipe, person, gid, bid)
                    for hashed, record in invites.items():
                        pipe.hset(invites_key, hashed, json.dumps(record | {"status": "deleted"}))
                    pipe.delete(seats_key, keys.engine_quota_wait_for(gid, bid), keys.branch_closing_for(gid, bid))
                    _notify(pipe, gid, bid, BRANCH_DELETED)
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def carry_table(self, gid: str, bid: str, new: str) -> None:
        """Seat branch ``new`` (not yet made: a take-back's line) as branch ``bid`` is seated, the seats others have
        held included (so the new line keeps the table's secrets from its owner), and hand the open invites to ``bid``'s
        seats on to it; written before the branch, so that nobody ever sees it with every seat the owner's. Once ``new``
        is seated it does nothing (a take-back resumed after its granter died carries the table again)."""
        old_key, new_key, invites_key = keys.seats_for(gid, bid), keys.seats_for(gid, new), keys.invites_for(gid)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(old_key, new_key, invites_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    if pipe.exists(new_key):
                        return
                    stored = as_bytes_hash(pipe.hgetall(old_key))
                    invites = {h: pipe.hget(invites_key, h) for h in _open_invites(stored)}
                    pipe.multi()
                    if stored:
                        pipe.hset(new_key, mapping=dict(stored))  # type: ignore[arg-type]
                    for hashed, raw in invites.items():
                        if raw is not None:
                            pipe.hset(invites_key, hashed, json.dumps(json.loads(raw) | {"branch": new}))
                    pipe.execute()
                    return
                except redis.WatchError:
                    continue

    def table_moved_on(self, gid: str, bid: str, new: str, owner: str | None) -> None:
        """After a take-back: the table plays on at ``new``, which its people (and ``owner``) now list instead of
        ``bid``; the pages at ``bid`` are told where it went."""
        people = _people(as_bytes_hash(self.redis.hgetall(keys.seats_for(gid, new)))) | ({owner} if owner else set())
        with self.redis.pipeline(transaction=True) as pipe:
            for person in people:
                pipe.zrem(keys.tables_of(person), _table(gid, bid))
                pipe.zadd(keys.tables_of(person), {_table(gid, new): time.time()})
            _notify(pipe, gid, bid, TABLE_MOVED, to=new)
            _notify(pipe, gid, new, SEATS_CHANGED)
            pipe.execute()

    def engine_waits_for_quota(self, gid: str, bid: str, note: dict[str, Any], seconds: int) -> None:
        """Note that the branch's engine seat waits ``seconds`` for its owner's work quota (``note``: who, how much)."""
        self.redis.set(keys.engine_quota_wait_for(gid, bid), json.dumps(note), ex=max(1, seconds))

    def engine_quota_wait(self, gid: str, bid: str) -> dict[str, Any] | None:
        """The note of :meth:`engine_waits_for_quota` while the wait lasts, else None."""
        raw = as_optional_bytes(self.redis.get(keys.engine_quota_wait_for(gid, bid)))
        return None if raw is None else dict(json.loads(raw))

    def engine_quota_wait_over(self, gid: str, bid: str) -> None:
        """The engine seat's move was paid for: it no longer waits for the quota."""
        self.redis.delete(keys.engine_quota_wait_for(gid, bid))

    def engine_move_due(self, gid: str, bid: str, when: float) -> None:
        """Note that an engine seat's move was queued on the branch at ``when`` (the upkeep re-queues a lost one)."""
        self.redis.zadd(keys.engine_moves_due(), {f"{gid}/{bid}": when})

    def engine_move_done(self, gid: str, bid: str, started: float | None = None) -> None:
        """The engine move queued on the branch is played (or no engine seat is to move): not due any more, unless
        another was queued after ``started`` (the move just played queues the next engine seat's at once)."""
        member = f"{gid}/{bid}"
        if started is None:
            self.redis.zrem(keys.engine_moves_due(), member)
        else:
            self.redis.eval(_DONE_UNLESS_REQUEUED, 1, keys.engine_moves_due(), member, repr(started))

    def engine_moves_overdue(self, deadline: float, now: float) -> list[tuple[str, str]]:
        """Branches (gid, bid) whose engine move was queued ``deadline`` seconds or more before ``now``."""
        rows = as_scored(self.redis.zrangebyscore(keys.engine_moves_due(), 0, now - deadline, withscores=True))
        return [(gid, bid) for gid, _, bid in (member.decode().partition("/") for member, _ in rows)]
