"""The explorer's counters (issue 49): what players of the public finished games chose, and how often they won.

A finished public game is counted once (its id joins a set in the same script that adds its choices), so the job that
counts it may run twice, and the rebuild may pass over games counted already. A query reads two hashes (counts and wins
per choice) for one player count, so its cost depends on how many different choices there are, never on the games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import redis

from service.store import keys
from service.store.replies import as_bytes_hash, as_text_list

#: The player-count filter meaning every player count.
ALL_PLAYERS = "all"
#: How many games a choice lists at most (the newest counted).
GAMES_LISTED = 50
SEPARATOR = "\x1f"

_COUNT_GAME = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
local order = redis.call('SCARD', KEYS[1])
local k = 6
for i = 2, #ARGV, 3 do
  local field, won, member = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  for h = 2, 4, 2 do
    redis.call('HINCRBY', KEYS[h], field, 1)
    if won == 1 then redis.call('HINCRBY', KEYS[h + 1], field, 1) end
  end
  redis.call('ZADD', KEYS[k], order, member)
  redis.call('ZADD', KEYS[k + 1], order, member)
  k = k + 2
end
return 1
"""


@dataclass(frozen=True)
class Pick:
    """One choice a player made in a game: at which stage, what, at which seq, and whether that player won."""

    stage: str
    choice: str
    seq: int
    won: bool


@dataclass(frozen=True)
class ChoiceCount:
    """How often a choice was made at a stage, and how often the player who made it won."""

    stage: str
    choice: str
    count: int
    wins: int


class ExplorerStore:
    """The explorer's counters per game kind and player count, and the games that passed through each choice."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._count_game = client.register_script(_COUNT_GAME)

    def count_game(self, game: str, gid: str, players: int, picks: Sequence[Pick]) -> bool:
        """Add a finished game's choices, once: False when it was counted already (nothing changes then)."""
        size = str(players)
        keys_ = [keys.explorer_counted(game), keys.explorer_counts(game, ALL_PLAYERS), keys.explorer_wins(game, ALL_PLAYERS),
                 keys.explorer_counts(game, size), keys.explorer_wins(game, size)]
        args: list[str | int] = [gid]
        for pick in picks:
            keys_ += [keys.explorer_games(game, ALL_PLAYERS, pick.stage, pick.choice),
                      keys.explorer_games(game, size, pick.stage, pick.choice)]
            args += [f"{pick.stage}{SEPARATOR}{pick.choice}", int(pick.won), f"{gid}@{pick.seq}"]
        return bool(self._count_game(keys=keys_, args=args))

    def is_counted(self, game: str, gid: str) -> bool:
        """True once game ``gid`` is in ``game``'s explorer."""
        return bool(self.redis.sismember(keys.explorer_counted(game), gid))

    def games_counted(self, game: str) -> int:
        """How many games ``game``'s explorer counts."""
        return int(self.redis.scard(keys.explorer_counted(game)))

    def choices(self, game: str, players: str = ALL_PLAYERS) -> list[ChoiceCount]:
        """Every (stage, choice) counted for ``game`` in games of ``players`` players (or all), unordered."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(keys.explorer_counts(game, players))
            pipe.hgetall(keys.explorer_wins(game, players))
            counts, wins = (as_bytes_hash(reply) for reply in pipe.execute())
        rows = []
        for field, count in counts.items():
            stage, _, choice = field.decode().partition(SEPARATOR)
            rows.append(ChoiceCount(stage, choice, int(count), int(wins.get(field, 0))))
        return rows

    def games_through(self, game: str, players: str, stage: str, choice: str,
                      limit: int = GAMES_LISTED) -> list[tuple[str, int]]:
        """The newest games (id, seq of the choice) that passed through ``choice`` at ``stage``."""
        members = as_text_list(self.redis.zrevrange(keys.explorer_games(game, players, stage, choice), 0, limit - 1))
        found = []
        for member in members:
            gid, _, seq = member.rpartition("@")
            found.append((gid, int(seq)))
        return found
