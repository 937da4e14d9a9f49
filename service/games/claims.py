"""Who may claim which player of a game (issue 49, "your mistakes").

A user claims the player of an imported (or played) game who was them, so that their insights count that seat's
decisions:

- in a game they uploaded (own), the claim is confirmed at once;
- in someone else's **public** game, it waits for the game's uploader to confirm it, unless the claimant's own BGA
  import confirms it: a confirmed claim of theirs on the same player name in a BGA game they uploaded themselves (BGA
  names a player by their account, so a name they proved in their own upload is theirs; proved later, it confirms
  the claims waiting on that name: :func:`confirmed_by_proof`);
- someone else's unlisted game is refused (its players are not the public's to claim: 403), and someone else's private
  game is answered as the game routes answer it, as no game at all (404).

Every change of a claim settles the claimant's insights at once (:func:`service.games.insights.settle_claim`).
"""

from __future__ import annotations

from service.store.claims import BY_BGA, BY_OWNER, CONFIRMED, PENDING, Claim, ClaimStore
from service.store.errors import ForbiddenError, InvalidRequestError, NotFoundError, StoreError
from service.store.games import GameStore

#: The sources of games imported from Board Game Arena (with rules, or as log lines only).
BGA_SOURCES = ("bga", "bga-log")


def claim_refusal(games: GameStore, user: str, gid: str, player: str) -> StoreError | None:
    """Why ``user`` may not claim ``player`` of game ``gid`` (see the module docstring), as the error
    :func:`make_claim` raises, or None when they may (the store still refuses a seat or a game claimed already). A
    page shows the form again with the reason; the API answers the error."""
    if not games.exists(gid):
        return NotFoundError(f"no game {gid!r}", game=gid)
    record = games.game(gid)
    if record.owner != user and record.visibility == "private":
        return NotFoundError(f"no game {gid!r}", game=gid)  # as every game route answers a private game not yours
    if record.owner != user and record.visibility != "public":
        return ForbiddenError(f"game {gid!r} is {record.visibility} and not yours: only a public game's players can "
                              "be claimed by someone other than its uploader", game=gid, visibility=record.visibility)
    names = list(record.setup.players)
    if player not in names:
        return InvalidRequestError(f"game {gid!r} has no player {player!r}: its players are {', '.join(names)}",
                                   game=gid, player=player, players=names)
    return None


def bga_confirms(claims: ClaimStore, games: GameStore, user: str, player: str) -> bool:
    """True when ``user`` holds a confirmed claim on a player called ``player`` in a BGA game they uploaded."""
    own = [c for c in claims.of_user(user) if c.status == CONFIRMED and c.player == player and c.owner == user]
    return any(record.source in BGA_SOURCES for record in games.games([c.gid for c in own]))


def make_claim(games: GameStore, claims: ClaimStore, user: str, gid: str, player: str) -> Claim:
    """``user`` claims ``player`` of game ``gid``: confirmed at once (their own game, or their BGA import confirms it)
    or pending the uploader's answer. The store refuses a second claim in one game or a seat confirmed to another."""
    refused = claim_refusal(games, user, gid, player)
    if refused is not None:
        raise refused
    record = games.game(gid)
    seat = list(record.setup.players).index(player)
    status, by = PENDING, None
    if record.owner == user:
        status, by = CONFIRMED, BY_OWNER
    elif record.source in BGA_SOURCES and bga_confirms(claims, games, user, player):
        status, by = CONFIRMED, BY_BGA
    elif record.owner is None:
        raise ForbiddenError(f"game {gid!r} has no uploader to confirm a claim, and no BGA game you uploaded names "
                             f"a player {player!r} you claimed", game=gid, player=player)
    return claims.create(user=user, gid=gid, game=record.game, seat=seat, player=player, status=status, by=by,
                         owner=record.owner, visibility=record.visibility)


def claimed_seats(claims: ClaimStore, user: str) -> set[tuple[str, int]]:
    """The (game id, seat) of each of ``user``'s confirmed claims: the decisions that are theirs."""
    return {(c.gid, c.seat) for c in claims.of_user(user) if c.status == CONFIRMED}


def confirmed_by_proof(games: GameStore, claims: ClaimStore, claim: Claim) -> list[Claim]:
    """After ``claim``: when it is the claimant's confirmed claim in a BGA game they uploaded, their claims pending on
    the same player name in other BGA games are confirmed by it (as a claim made after it would be at once); those
    claims as they are now, for the caller to settle."""
    if claim.status != CONFIRMED or claim.owner != claim.user:
        return []
    if games.game(claim.gid).source not in BGA_SOURCES:
        return []
    waiting = [c for c in claims.of_user(claim.user) if c.status == PENDING and c.player == claim.player]
    sources = {record.id: record.source for record in games.games([c.gid for c in waiting])}
    confirmed = [c for c in waiting if sources.get(c.gid) in BGA_SOURCES and claims.confirm_by_bga(c)]
    return [found for c in confirmed if (found := claims.get(c.id)) is not None]
