"""Insights' counters (issue 49, "your mistakes"): each analysed game's decisions summed per seat, the same sums over
every analysed public game (the all-players figures), and each user's sums over their confirmed claims.

A game's summary is written once (the first complete analysis of its main line in the full view at seed 0 stays, as a
verdict does) and added to the all-players counters in the same script, which first adds the game to a counted set: a
job run twice counts once. A user's counters move only in :meth:`InsightStore.settle`, one script that reads the claim
and the game's summary and brings the user's counters in line with them: it adds the claimed seat's sums once the claim
is confirmed and the game summarised, and takes out exactly what it added once the claim is gone or declined (the game
and the seat counted are kept per user). So an analysis ending and a claim changing at the same moment both settle,
in either order, to the same counts; nothing is ever recomputed from the verdicts per request.

A user's counters are kept in two scopes: ``public`` (their public games only: what anyone may be shown) and ``all``
(their own private and unlisted games too: shown to them alone). Every key carries the ``{in}`` hash tag.

A counter field is ``<dimension>\\x1f<key>\\x1f<measure>``: the dimension ``all`` (key ``all``), ``phase`` (the phase or
role, as the game names it) or ``stage`` (early, middle, late); the measure ``n`` (decisions judged), ``m`` (mistakes:
``?`` or ``??``), ``b`` (blunders: ``??``) or ``l`` (the played moves' summed loss, in :data:`LOSS_UNIT`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import redis

from service.store import keys
from service.store.claims import Claim
from service.store.replies import as_bytes_hash, as_scored

SEPARATOR = "\x1f"
#: Losses are summed as integers of this many per unit of win chance (a loss of 0.1234 adds 1234).
LOSS_UNIT = 10_000
#: The scopes of a user's counters.
PUBLIC, ALL = "public", "all"

_RECORD = """
if not redis.call('SET', KEYS[1], ARGV[2], 'NX') then return 0 end
if ARGV[3] == '1' and redis.call('SADD', KEYS[2], ARGV[1]) == 1 then
  local summary = cjson.decode(ARGV[2])
  for _, per in pairs(summary.seats) do
    for field, n in pairs(per.counters) do
      if n ~= 0 then redis.call('HINCRBY', KEYS[3], field, n) end
    end
  end
end
return 1
"""

# KEYS: the claim, the game's summary, then per scope: the user's counted games, counters and worst moves.
# ARGV: the game's id.
_SETTLE = """
local summary = redis.call('GET', KEYS[2])
if summary then summary = cjson.decode(summary) end
local want = nil
local raw = redis.call('GET', KEYS[1])
if raw then
  local claim = cjson.decode(raw)
  local seat = tostring(claim.seat)
  if claim.status == 'confirmed' and summary and summary.seats[seat] then want = seat end
end
local function apply(per, sign, counters, worst)
  for field, n in pairs(per.counters) do  -- -1 * 0 would be sent as "-0", which HINCRBY refuses
    if n ~= 0 then redis.call('HINCRBY', counters, field, sign * n) end
  end
  for _, w in ipairs(per.worst) do
    if sign > 0 then redis.call('ZADD', worst, w[2], w[1]) else redis.call('ZREM', worst, w[1]) end
  end
end
local changed = 0
for i = 3, #KEYS, 3 do
  local had = redis.call('HGET', KEYS[i], ARGV[1])
  if not had then had = nil end
  if had ~= want then
    if had and summary and summary.seats[had] then apply(summary.seats[had], -1, KEYS[i + 1], KEYS[i + 2]) end
    if want then
      apply(summary.seats[want], 1, KEYS[i + 1], KEYS[i + 2])
      redis.call('HSET', KEYS[i], ARGV[1], want)
    else
      redis.call('HDEL', KEYS[i], ARGV[1])
    end
    changed = 1
  end
end
return changed
"""


def scopes_of(visibility: str) -> tuple[str, ...]:
    """The scopes a game of ``visibility`` counts in: a public game in both, any other in ``all`` only."""
    return (PUBLIC, ALL) if visibility == "public" else (ALL,)


def figures_from(raw: dict[bytes, bytes] | dict[str, int]) -> dict[str, dict[str, dict[str, int]]]:
    """Counters (a counters hash as read, or a summary's seat counters) as ``{dimension: {key: {"n", "m", "b",
    "l"}}}`` (the rows with no decision left out; every measure present)."""
    found: dict[str, dict[str, dict[str, int]]] = {}
    for field, value in raw.items():
        dimension, key, measure = (field.decode() if isinstance(field, bytes) else field).split(SEPARATOR)
        if int(value):
            found.setdefault(dimension, {}).setdefault(key, {"n": 0, "m": 0, "b": 0, "l": 0})[measure] = int(value)
    return {dimension: {key: sums for key, sums in rows.items() if sums["n"]} for dimension, rows in found.items()}


class InsightStore:
    """Games' summaries, the all-players counters and each user's counters and worst moves."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._record = client.register_script(_RECORD)
        self._settle = client.register_script(_SETTLE)

    def record_game(self, summary: dict[str, Any]) -> bool:
        """Store a game's summary (``gid``, ``game``, ``visibility``, ``seats``: per seat its ``counters`` and
        ``worst`` ``[[member, loss], …]``) unless one is stored, and count a public game's in the all-players counters
        once; True if stored now."""
        gid, game = summary["gid"], summary["game"]
        return bool(self._record(keys=[keys.insights_game_for(gid), keys.insights_everyone_counted(game),
                                       keys.insights_everyone(game)],
                                 args=[gid, json.dumps(summary, separators=(",", ":")),
                                       int(summary["visibility"] == "public")]))

    def game(self, gid: str) -> dict[str, Any] | None:
        """A game's summary, or None while it has none."""
        raw = self.redis.get(keys.insights_game_for(gid))
        return json.loads(raw) if raw is not None else None

    def games(self, gids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The summaries of those of ``gids`` that have one, by id."""
        if not gids:
            return {}
        raws = self.redis.mget([keys.insights_game_for(gid) for gid in gids])
        return {gid: json.loads(raw) for gid, raw in zip(gids, raws, strict=True) if raw is not None}

    def settle(self, claim: Claim) -> bool:
        """Bring ``claim.user``'s counters in line with the claim as stored now and its game's summary (see the module
        docstring); True if they changed."""
        keys_ = [keys.claim_for(claim.id), keys.insights_game_for(claim.gid)]
        for scope in scopes_of(claim.visibility):
            keys_ += [keys.insights_user_counted(claim.user, scope), keys.insights_user(claim.user, scope, claim.game),
                      keys.insights_user_worst(claim.user, scope, claim.game)]
        return bool(self._settle(keys=keys_, args=[claim.gid]))

    def everyone(self, game: str) -> dict[str, dict[str, dict[str, int]]]:
        """The all-players counters of ``game``."""
        return figures_from(as_bytes_hash(self.redis.hgetall(keys.insights_everyone(game))))

    def everyone_games(self, game: str) -> int:
        """How many analysed public games of ``game`` the all-players counters hold."""
        return int(self.redis.scard(keys.insights_everyone_counted(game)))

    def user(self, user: str, scope: str, game: str) -> dict[str, dict[str, dict[str, int]]]:
        """A user's counters of ``scope`` for ``game``."""
        return figures_from(as_bytes_hash(self.redis.hgetall(keys.insights_user(user, scope, game))))

    def counted(self, user: str, scope: str) -> dict[str, int]:
        """The games counted in a user's ``scope`` and the seat counted in each."""
        raw = as_bytes_hash(self.redis.hgetall(keys.insights_user_counted(user, scope)))
        return {gid.decode(): int(seat) for gid, seat in raw.items()}

    def worst(self, user: str, scope: str, game: str, count: int) -> list[tuple[str, int, float]]:
        """The user's ``count`` worst judged moves of ``scope`` in ``game``: (gid, seq, loss), the worst first."""
        found = []
        for member, loss in as_scored(self.redis.zrevrange(keys.insights_user_worst(user, scope, game), 0, count - 1,
                                                           withscores=True)):
            gid, _, seq = member.decode().rpartition("@")
            found.append((gid, int(seq), loss))
        return found
