"""Take-back requests at a table (issue 46 item 6): a player asks, the other people at the table approve or decline.

One request per table at a time (``keys.takeback_request_for``, JSON): who asked, the branch's head when they asked
(the request lasts while the head stays there: another move played expires it), the seq the new line forks after, who
must still approve and who has, and its status: ``open``, ``granting`` (every approval is in: the take-back runs),
``granted`` (with the new line), ``declined`` (by whom), ``expired`` or ``failed``.

A granted request closes the table's line to moves in the same transaction that grants it: the branch's closed mark
(``keys.branch_closed_for``, whose value is the line the table plays on at once that is made) is read by the append
script (``append.lua``), which refuses every append to a closed branch. Each answer WATCHes the request and the game's
heads, so a move and the last approval racing each other have one winner: either the move lands first (the approval
then finds the head moved and the request expired) or the grant commits first (the move's append then finds the
branch closed). Two approvals at once are the same: one transaction wins, the other reads the request again.

The grant survives its granter's death: the transaction that makes a request ``granting`` also fixes the new line's id
(its ``branch``) and stamps when granting began (``granting_since``), and every step of the take-back is idempotent, so
whoever touches a request left ``granting`` longer than :data:`GRANT_LEASE_S` (the granter presumed dead) runs the rest
of it again (:mod:`service.api.takeback_requests`); racing resumers make one line, since its id is fixed.

Every change of a request is noticed on the game's seat-changes stream (``{branch, change: "takeback"}``), which the
table's pages follow (``GET …/seats/stream``).
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any

import redis

from service.store import keys
from service.store.errors import ConflictError, ForbiddenError, NotFoundError
from service.store.games import new_id
from service.store.replies import as_optional_bytes
from service.store.seats import SEAT_CHANGES_KEPT

OPEN, GRANTING, GRANTED, DECLINED, EXPIRED, FAILED = "open", "granting", "granted", "declined", "expired", "failed"
#: A request (and the outcome its requester is shown) is kept this long.
KEPT_S = 7 * 24 * 3600
TAKEBACK = "takeback"
#: A request ``granting`` this long is presumed abandoned by its granter (a killed process): the next caller resumes it.
GRANT_LEASE_S = 15.0


@dataclass(frozen=True)
class TakeBackRequest:
    """One request to take back a player's last move at a table."""

    id: str
    requester: str
    head: int  # the branch's head when asked: the request lasts while it stays there
    at: int  # the new line forks after this seq (just before the requester's last decision)
    waiting: tuple[str, ...]  # who must still approve
    approved: tuple[str, ...] = ()
    status: str = OPEN
    answered_by: str | None = None
    branch: str | None = None  # the new line: its id fixed when granting began, made once granted
    asked: float = 0.0
    granting_since: float | None = None  # when the last approval made it granting

    def stuck(self, now: float) -> bool:
        """Left ``granting`` longer than the lease: its granter is presumed dead, and anyone may run the rest."""
        return self.status == GRANTING and now - (self.granting_since or 0.0) > GRANT_LEASE_S

    def to_json(self) -> dict[str, Any]:
        """As stored and as the API shows it."""
        return asdict(self) | {"waiting": list(self.waiting), "approved": list(self.approved)}


#: A change of a table's request: from the request stored (if any) and the branch's head, the request to store and
#: whether to refuse the call once it is stored.
Change = Callable[["TakeBackRequest | None", int], "tuple[TakeBackRequest, bool]"]


def _request_of(raw: bytes | None) -> TakeBackRequest | None:
    if raw is None:
        return None
    data = json.loads(raw)
    return TakeBackRequest(**(data | {"waiting": tuple(data["waiting"]), "approved": tuple(data["approved"])}))


def new_request(requester: str, head: int, at: int, waiting: list[str]) -> TakeBackRequest:
    """A request of ``requester``'s made at ``head``, forking after ``at``, for ``waiting`` to approve."""
    return TakeBackRequest(secrets.token_urlsafe(8), requester, head, at, tuple(sorted(set(waiting))), asked=time.time())


def _granting(request: TakeBackRequest) -> TakeBackRequest:
    """``request`` with every approval in: granting from now, to a new line whose id is fixed here."""
    return replace(request, status=GRANTING, branch=new_id(4), granting_since=time.time())


def _notice(pipe: Any, gid: str, bid: str) -> None:
    pipe.xadd(keys.seat_changes_for(gid), {"branch": bid, "change": TAKEBACK}, maxlen=SEAT_CHANGES_KEPT, approximate=True)


class TakeBackRequests:
    """The tables' take-back requests and the closed marks of the lines they took back."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def current(self, gid: str, bid: str, head: int) -> TakeBackRequest | None:
        """The table's last request as it stands at ``head`` (an open one made at another head is expired)."""
        found = _request_of(as_optional_bytes(self.redis.get(keys.takeback_request_for(gid, bid))))
        if found is not None and found.status == OPEN and found.head != head:
            return replace(found, status=EXPIRED)
        return found

    def closed_to(self, gid: str, bid: str) -> str | None:
        """The line a table plays on at after a take-back closed this one (``""`` while it is being made), or None."""
        raw = as_optional_bytes(self.redis.get(keys.branch_closed_for(gid, bid)))
        return None if raw is None else raw.decode()

    def ask(self, gid: str, bid: str, request: TakeBackRequest) -> TakeBackRequest:
        """Store ``request`` as the table's (granting at once when nobody is ``waiting``), unless the head moved since
        it was made or another request is open (ConflictError)."""
        def change(current: TakeBackRequest | None, head: int) -> tuple[TakeBackRequest, bool]:
            if head != request.head:
                raise ConflictError(f"branch {bid!r} moved on to seq {head} meanwhile: ask again", branch=bid, head=head)
            if current is not None and current.status in (OPEN, GRANTING) and current.head == head:
                raise ConflictError(f"{current.requester} has a take-back request open at this table already: one "
                                    f"at a time", branch=bid, request=current.id, reason="request_open")
            return (request if request.waiting else _granting(request)), False

        return self._change(gid, bid, change)

    def answer(self, gid: str, bid: str, rid: str, user: str, *, approve: bool) -> TakeBackRequest:
        """``user`` approves or declines request ``rid``: NotFoundError for another request, ConflictError once it is
        no longer open (expired by a move, declined, granted), ForbiddenError for someone not asked. The last approval
        makes it ``granting`` and closes the line, in one transaction."""
        def change(current: TakeBackRequest | None, head: int) -> tuple[TakeBackRequest, bool]:
            if current is None or current.id != rid:
                raise NotFoundError(f"no take-back request {rid[:40]!r} at branch {bid!r}", branch=bid, request=rid[:40])
            if current.status == OPEN and current.head != head:
                return replace(current, status=EXPIRED), True  # stored as expired, then refused
            if user in current.approved:  # a second click, or an approval racing its own copy
                return current, False
            if current.status != OPEN:
                raise _closed(bid, current)
            if user not in current.waiting:
                raise ForbiddenError(f"the take-back request of {current.requester} is not yours to answer: it waits "
                                     f"for {', '.join(current.waiting)}", branch=bid, request=rid)
            if not approve:
                return replace(current, status=DECLINED, answered_by=user, waiting=()), False
            waiting = tuple(w for w in current.waiting if w != user)
            answered = replace(current, waiting=waiting, approved=(*current.approved, user))
            return (answered if waiting else _granting(replace(answered, answered_by=user))), False

        return self._change(gid, bid, change)

    def settle(self, gid: str, bid: str, rid: str, *, branch: str | None) -> TakeBackRequest:
        """A ``granting`` request's take-back is done: granted, the table now playing on at ``branch`` (the closed mark
        names it), or, with no branch, failed (the line opens again). Settled again as it was (a resumed grant racing
        another), it is returned as it stands."""
        def change(current: TakeBackRequest | None, head: int) -> tuple[TakeBackRequest, bool]:
            if current is not None and current.id == rid and current.status == (GRANTED if branch else FAILED) and (
                    branch is None or current.branch == branch):
                return current, False
            if current is None or current.id != rid or current.status != GRANTING:
                raise ConflictError(f"take-back request {rid!r} is not being granted", branch=bid, request=rid)
            return replace(current, status=GRANTED if branch else FAILED, branch=branch), False

        return self._change(gid, bid, change)

    def _change(self, gid: str, bid: str, change: Change) -> TakeBackRequest:
        """Apply ``change(current request, head)`` (the new request, and whether to refuse it once stored) in a
        transaction WATCHing the request and the game's heads; a grant closes the line in the same transaction."""
        request_key, heads_key = keys.takeback_request_for(gid, bid), keys.branch_head_for(gid)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(request_key, heads_key)  # type: ignore[no-untyped-call]  # redis-py leaves Pipeline.watch unannotated
                    current = _request_of(as_optional_bytes(pipe.get(request_key)))
                    head_raw = as_optional_bytes(pipe.hget(heads_key, bid))
                    if head_raw is None:
                        raise NotFoundError(f"no branch {bid!r} in game {gid!r}", game=gid, branch=bid)
                    changed, refuse = change(current, int(head_raw))
                    pipe.multi()
                    if changed != current:
                        pipe.set(request_key, json.dumps(changed.to_json()), ex=KEPT_S)
                        _notice(pipe, gid, bid)
                        _close(pipe, keys.branch_closed_for(gid, bid), changed)
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue
        if refuse:
            raise _closed(bid, changed)
        return changed

    def delete_branch(self, gid: str, bid: str) -> None:
        """Forget a deleted branch's request and closed mark."""
        self.redis.delete(keys.takeback_request_for(gid, bid), keys.branch_closed_for(gid, bid))


def _close(pipe: Any, closed_key: str, request: TakeBackRequest) -> None:
    """The closed mark as ``request`` leaves it: set while it is granted or being granted (naming the new line once
    there is one), gone when its take-back failed."""
    if request.status == GRANTING:
        pipe.set(closed_key, "")
    elif request.status == GRANTED:
        pipe.set(closed_key, str(request.branch))
    elif request.status == FAILED:
        pipe.delete(closed_key)


def _closed(bid: str, request: TakeBackRequest) -> ConflictError:
    why = {EXPIRED: "it expired: a move was played since it was asked",
           DECLINED: f"{request.answered_by} declined it",
           GRANTED: f"it was granted: the table plays on at branch {request.branch!r}",
           FAILED: "its take-back failed"}.get(request.status, request.status)
    return ConflictError(f"the take-back request of {request.requester} is no longer open: {why}", branch=bid,
                         request=request.id, status=request.status, reason="request_closed")
