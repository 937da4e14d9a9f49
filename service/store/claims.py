"""Claims (issue 49, "your mistakes"): a user says which player of a game was them.

A claim names a game, a seat (and the player's name there) and its claimant; it is ``confirmed`` (by the game's
uploader, at once in the claimant's own game, or by the claimant's own BGA import of the same player name: ``by``
says which), ``pending`` (waiting for the uploader) or ``declined``. A seat has at most one confirmed claim, and a
user at most one claim per game. :mod:`service.games.claims` decides who may claim what; this module keeps the claims
and checks those two rules in the one script that writes, so two racing claims cannot both win a seat.

Every key carries the ``{in}`` hash tag (:mod:`service.store.keys`), with the insights' counters that a claim moves
(:mod:`service.store.insights`), so a Redis Cluster runs each script on one node.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import asdict, dataclass
from typing import Any

import redis

from service.store import keys
from service.store.errors import ConflictError, ForbiddenError, NotFoundError
from service.store.replies import as_text_list

CONFIRMED, PENDING, DECLINED = "confirmed", "pending", "declined"
#: Who confirmed a claim: the claimant owns the game, its uploader said yes, or the claimant's own BGA import names
#: the same player.
BY_OWNER, BY_UPLOADER, BY_BGA = "owner", "uploader", "bga"

# Shared by the scripts: the claims on a game's seat other than ``except`` (a claim id), decoded.
_OTHERS = """
local function others(game_set, except)
  local found = {}
  for _, cid in ipairs(redis.call('SMEMBERS', game_set)) do
    if cid ~= except then
      local raw = redis.call('GET', 'PREFIX' .. cid)
      if raw then table.insert(found, cjson.decode(raw)) end
    end
  end
  return found
end
local function decline_rivals(game_set, claim, owner_queue)
  for _, other in ipairs(others(game_set, claim.id)) do
    if other.seat == claim.seat and other.status == 'pending' then
      other.status = 'declined'
      other.by = 'taken'
      redis.call('SET', 'PREFIX' .. other.id, cjson.encode(other))
      redis.call('ZREM', owner_queue, other.id)
    end
  end
end
"""

# KEYS: the game's claims, the new claim, the user's claims, the uploader's queue. ARGV: the claim (JSON), its order.
_CREATE = _OTHERS + """
local claim = cjson.decode(ARGV[1])
for _, other in ipairs(others(KEYS[1], claim.id)) do
  if other.user == claim.user then return {'mine', other.id, tostring(other.seat), other.status} end
  if other.seat == claim.seat and other.status == 'confirmed' then return {'taken', other.user} end
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[1], claim.id)
redis.call('ZADD', KEYS[3], ARGV[2], claim.id)
if claim.status == 'pending' then redis.call('ZADD', KEYS[4], ARGV[2], claim.id) end
if claim.status == 'confirmed' then decline_rivals(KEYS[1], claim, KEYS[4]) end
return {'ok'}
"""

# KEYS: the claim, the game's claims, the uploader's queue. ARGV: the caller, the answer (confirmed or declined), who
# answers (uploader, or bga: the claimant's own proof), and the claim's field the caller must be (owner or user).
_ANSWER = _OTHERS + """
local raw = redis.call('GET', KEYS[1])
if not raw then return {'missing'} end
local claim = cjson.decode(raw)
if claim[ARGV[4]] ~= ARGV[1] then return {'forbidden', tostring(claim.owner)} end
if claim.status ~= 'pending' and not (claim.status == 'confirmed' and ARGV[2] == 'declined') then
  return {'settled', claim.status}
end
if ARGV[2] == 'confirmed' then
  for _, other in ipairs(others(KEYS[2], claim.id)) do
    if other.seat == claim.seat and other.status == 'confirmed' then return {'taken', other.user} end
  end
end
claim.status = ARGV[2]
claim.by = ARGV[3]
redis.call('SET', KEYS[1], cjson.encode(claim))
redis.call('ZREM', KEYS[3], claim.id)
if claim.status == 'confirmed' then decline_rivals(KEYS[2], claim, KEYS[3]) end
return {'ok'}
"""

# KEYS: the claim, the game's claims, the user's claims, the uploader's queue. ARGV: the caller.
_DELETE = """
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local claim = cjson.decode(raw)
if claim.user ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], claim.id)
redis.call('ZREM', KEYS[3], claim.id)
redis.call('ZREM', KEYS[4], claim.id)
return 1
"""


@dataclass(frozen=True)
class Claim:
    """One claim: ``user`` says they were ``player`` (seat ``seat``) of game ``gid``."""

    id: str
    user: str
    gid: str
    game: str
    seat: int
    player: str
    status: str
    by: str | None
    #: The game's uploader (who answers a pending claim) and its visibility, as they were when the claim was made.
    owner: str | None
    visibility: str
    created: float

    def to_json(self) -> dict[str, Any]:
        """The claim as stored and answered."""
        return asdict(self)


def _claim(raw: str | bytes) -> Claim:
    data = json.loads(raw)
    return Claim(**{name: data.get(name) for name in Claim.__dataclass_fields__})


def _script(source: str) -> str:
    return source.replace("'PREFIX' .. ", f"'{keys.claim_for('')}' .. ")


class ClaimStore:
    """The claims, by user, by game and by the uploader who is to answer them."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._create = client.register_script(_script(_CREATE))
        self._answer = client.register_script(_script(_ANSWER))
        self._delete = client.register_script(_DELETE)

    def create(self, *, user: str, gid: str, game: str, seat: int, player: str, status: str, by: str | None,
               owner: str | None, visibility: str) -> Claim:
        """Store a new claim; ConflictError when the user has a claim in this game already or another user holds a
        confirmed claim on the seat. A confirmed claim declines the other pending claims on its seat."""
        now = time.time()
        claim = Claim(secrets.token_hex(6), user, gid, game, seat, player, status, by, owner, visibility, round(now, 3))
        reply = as_text_list(self._create(
            keys=[keys.claims_on_game(gid), keys.claim_for(claim.id), keys.claims_of_user(user),
                  keys.claims_to_confirm(owner or "")],
            args=[json.dumps(claim.to_json()), now]))
        if reply[0] == "mine":
            raise ConflictError(f"you claimed seat {reply[2]} of game {gid!r} already ({reply[3]}): delete that claim "
                                "first to claim another player", game=gid, claim=reply[1], status=reply[3])
        if reply[0] == "taken":
            raise ConflictError(f"player {player!r} of game {gid!r} is claimed by {reply[1]} already", game=gid,
                                player=player, claimed_by=reply[1])
        return claim

    def get(self, cid: str) -> Claim | None:
        """The claim, or None."""
        raw = self.redis.get(keys.claim_for(cid))
        return _claim(raw) if raw is not None else None

    def _many(self, cids: list[str]) -> list[Claim]:
        if not cids:
            return []
        raws = self.redis.mget([keys.claim_for(cid) for cid in cids])
        return [_claim(raw) for raw in raws if raw is not None]

    def of_user(self, user: str) -> list[Claim]:
        """The user's claims, oldest first."""
        return self._many(as_text_list(self.redis.zrange(keys.claims_of_user(user), 0, -1)))

    def on_game(self, gid: str) -> list[Claim]:
        """Every claim on the game's seats."""
        return self._many(sorted(as_text_list(list(self.redis.smembers(keys.claims_on_game(gid))))))

    def to_confirm(self, owner: str) -> list[Claim]:
        """The pending claims on ``owner``'s games, oldest first."""
        return self._many(as_text_list(self.redis.zrange(keys.claims_to_confirm(owner), 0, -1)))

    def answer(self, cid: str, owner: str, status: str) -> Claim:
        """The uploader ``owner`` confirms (``confirmed``) or declines (``declined``, also a confirmed one) a claim on
        their game; the claim as it is now. NotFoundError, ForbiddenError (not their game's), ConflictError (answered
        already, or the seat is confirmed to another user)."""
        claim = self.get(cid)
        if claim is None:
            raise NotFoundError(f"no claim {cid!r}", claim=cid)
        reply = as_text_list(self._answer(
            keys=[keys.claim_for(cid), keys.claims_on_game(claim.gid), keys.claims_to_confirm(owner)],
            args=[owner, status, BY_UPLOADER, "owner"]))
        if reply[0] == "missing":
            raise NotFoundError(f"no claim {cid!r}", claim=cid)
        if reply[0] == "forbidden":
            raise ForbiddenError(f"claim {cid!r} is on a game uploaded by {reply[1]}: only its uploader answers it",
                                 claim=cid)
        if reply[0] == "settled":
            raise ConflictError(f"claim {cid!r} is {reply[1]} already", claim=cid, status=reply[1])
        if reply[0] == "taken":
            raise ConflictError(f"seat {claim.seat} of game {claim.gid!r} is claimed by {reply[1]} already",
                                claim=cid, claimed_by=reply[1])
        answered = self.get(cid)
        if answered is None:  # deleted by its claimant just now
            raise NotFoundError(f"no claim {cid!r}", claim=cid)
        return answered

    def confirm_by_bga(self, claim: Claim) -> bool:
        """Confirm ``claim`` (pending) on its claimant's own proof, their BGA import of the same player; False when it
        is no longer pending or the seat was confirmed to someone else meanwhile (it stays as it is)."""
        reply = as_text_list(self._answer(
            keys=[keys.claim_for(claim.id), keys.claims_on_game(claim.gid), keys.claims_to_confirm(claim.owner or "")],
            args=[claim.user, CONFIRMED, BY_BGA, "user"]))
        return reply[0] == "ok"

    def delete(self, cid: str, user: str) -> Claim:
        """Delete ``user``'s own claim (any status); NotFoundError for an unknown claim or another user's."""
        claim = self.get(cid)
        missing = NotFoundError(f"no claim {cid!r} of yours", claim=cid)
        if claim is None:
            raise missing
        deleted = self._delete(keys=[keys.claim_for(cid), keys.claims_on_game(claim.gid), keys.claims_of_user(user),
                                     keys.claims_to_confirm(claim.owner or "")], args=[user])
        if not deleted:
            raise missing
        return claim
