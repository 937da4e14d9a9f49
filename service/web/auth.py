"""Who is asking, and what they may see.

A request is authenticated by ``Authorization: Bearer TOKEN`` (tokens from the UI's tokens
page or ``ludolog user add``), or by the session cookie the UI sets at sign-in: a signed
cookie holding a session id (``session["sid"]``) whose user is kept on the server. A
cookie is sent by the browser on its own, so a cookie-authenticated request that changes
something must also carry the page's CSRF token: the app's one check (:mod:`service.web.csrf`)
refuses it before any view runs; a bearer token cannot be forged that way and needs nothing more.

Visibility: public and unlisted games are readable by anyone with the id; a private game
is readable by its owner only, and answers 404 (as if it did not exist) to everyone else.
"""

from __future__ import annotations

from flask import g, request, session

from service.games.play import MoverCheck
from service.games.seating import check_mover, check_seated
from service.store.errors import ForbiddenError, NotFoundError
from service.store.games import Branch, GameRecord
from service.web.context import api
from service.web.csrf import SESSION_ID_KEY
from service.web.errors import ApiError

_ANONYMOUS = ""


def current_user() -> str | None:
    """The caller's user name, or None; a bad bearer token is a 401, never anonymous."""
    if "ludolog_user" not in g:
        g.ludolog_user = _bearer_user() or session_user() or _ANONYMOUS  # a cookie's writes passed service.web.csrf
    return g.ludolog_user or None


def require_user() -> str:
    """The caller's user name; 401 when the request is not authenticated."""
    user = current_user()
    if user is None:
        raise ApiError(401, "unauthorized",
                       "authentication required: send 'Authorization: Bearer TOKEN' (make a token on the /tokens page "
                       "or with 'ludolog user add')")
    return user


def _bearer_user() -> str | None:
    header = request.headers.get("Authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "malformed Authorization header: expected 'Bearer TOKEN'", header="Authorization")
    user = api().users.user_for_token(token.strip())
    if user is None:
        raise ApiError(401, "unauthorized", "unknown or revoked API token (Authorization header)", header="Authorization")
    return user


SESSION_ID = SESSION_ID_KEY


def session_user() -> str | None:
    """The user of the session cookie's server-side session: None when there is none, or it ended or expired.

    The signed cookie holds only a session id; who it belongs to is kept in Redis
    (:class:`service.store.sessions.SessionStore`), so signing out ends it for every copy of the cookie.
    """
    if "ludolog_session_user" not in g:
        sid = session.get(SESSION_ID) if request.cookies else None
        g.ludolog_session_user = api().sessions.user_for(str(sid)) if sid else None
    user: str | None = g.ludolog_session_user
    return user


def can_read(record: GameRecord, user: str | None) -> bool:
    """Anyone reads public and unlisted games; only the owner reads a private one."""
    return record.visibility != "private" or (user is not None and user == record.owner)


def is_listed_for(record: GameRecord, user: str | None) -> bool:
    """Listings show public games, plus the caller's own games of any visibility."""
    return record.visibility == "public" or (user is not None and user == record.owner)


def readable_game(gid: str) -> GameRecord:
    """The game if the caller may read it; otherwise the same 404 as an unknown game."""
    record = api().games.game(gid)
    if not can_read(record, current_user()):
        raise NotFoundError(f"no game {gid!r}", game=gid)
    return record


def owned_branch(gid: str, bid: str, user: str) -> Branch:
    """The branch if ``user`` owns it (only the owner appends); 403 otherwise."""
    branch = api().games.branch(gid, bid)
    if branch.owner is None or branch.owner != user:
        owner = f"{branch.owner}'s" if branch.owner else "nobody's"
        raise ForbiddenError(f"branch {bid!r} is {owner}: only its owner may play on it; fork it to play your own line",
                             game=gid, branch=bid)
    return branch


def mover_check(record: GameRecord, bid: str, user: str) -> MoverCheck:
    """Who may play on a branch, as the check :meth:`service.games.play.PlayService.play` calls with the seat to move.

    A branch with no seat assigned is its owner's alone (403 to anyone else, before anything is read further);
    once seats are assigned, anyone who neither owns it nor holds a seat is refused at once, and only the holder of
    the seat to move plays it (403 naming the seat and its holder).
    """
    context = api()
    if not context.stores.seats.has_assignments(record.id, bid):
        owned_branch(record.id, bid, user)
        return lambda actor: None
    branch = context.games.branch(record.id, bid)
    seats = context.stores.seats.seats(record.id, bid, len(record.setup.players))
    check_seated(seats, branch, user)
    return lambda actor: check_mover(seats, branch, actor, user)
