"""Listing indexes: find games by game, player, owner, source, BGA table, title word or result without scanning them all.

Each index is a sorted set of game ids scored by creation order (the score of ``keys.games_index``), so
every index lists its games in the same order and a cursor (a score) pages any of them stably while games
are added. A query walks the smallest index that its filters name, newest or oldest first, and checks the
other filters and the caller's visibility per candidate with ZSCORE, in one script, with a bound on how
many candidates one call looks at: the cost follows the page asked for, not the number of games.

Every index key carries the one hash tag ``keys.INDEX_TAG``, so on a Redis Cluster they all live in one
slot and the script can read several of them (the price: one node holds every index).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from importlib import resources
from typing import Any

import redis

from service.store import keys
from service.store.records import GameRecord
from service.store.results import RESULT_FILTERS

#: Longest player-name prefix indexed (longer searches use this prefix and are checked in full by the caller).
MAX_PREFIX = 24
#: Candidates one query call looks at before it answers with what it found and a cursor to go on.
SCAN_BUDGET = 2000
#: Source names people use → the stored ``source`` of a game.
SOURCE_ALIASES = {"live": "live", "imported": "bga", "bga": "bga", "log-only": "bga-log", "bga-log": "bga-log"}
_WALK_SCRIPT = resources.files("service.store").joinpath("walk_index.lua").read_text()
_WORD = re.compile(r"\w+")
#: ZADD one member at one score to every key: a game's thirty-odd index writes as one command (packing and parsing a
#: command each cost the client more than Redis spends running them).
_ZADD_ALL = "for i = 1, #KEYS do redis.call('ZADD', KEYS[i], ARGV[1], ARGV[2]) end return #KEYS"


def normalise(text: str) -> str:
    """Case- and accent-insensitive form of a name or word: NFKD, combining marks dropped, casefolded, spaces single."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def name_prefixes(name: str) -> list[str]:
    """Every prefix (1 to MAX_PREFIX characters) of the normalised name: what an as-you-type search looks up."""
    norm = normalise(name)
    return [norm[:n] for n in range(1, min(len(norm), MAX_PREFIX) + 1)]


def title_terms(title: str) -> set[str]:
    """The normalised words of a title worth indexing (two characters or more)."""
    return {w for w in _WORD.findall(normalise(title)) if len(w) >= 2}


def table_id_of(record: GameRecord) -> str | None:
    """The BGA table a game was imported from, if known."""
    imported = record.extra.get("imported")
    table = imported.get("table_id") if isinstance(imported, dict) else record.extra.get("table_id")
    return None if table is None else str(table)


def result_key(finished: bool) -> str:
    """The index of the finished games, or of those still going on."""
    return keys.listing_index_for("result", "finished" if finished else "unfinished")


def index_keys(record: GameRecord) -> list[str]:
    """Every listing index the game belongs in (unlisted games are in their owner's index only)."""
    ix = keys.listing_index_for
    out = [ix("game", record.game), ix("source", record.source), result_key(record.result is not None)]
    if record.result is not None:
        out += [ix("winner", p) for name in record.result.winners for p in name_prefixes(name)]
    if record.visibility == "public":
        out.append(ix("public"))
    if record.owner:
        out.append(ix("owner", record.owner))
    out += [ix("player", p) for name in record.setup.players for p in name_prefixes(name)]
    out += [ix("term", t) for t in title_terms(record.title)]
    if (table := table_id_of(record)) is not None:
        out.append(ix("table", table))
    return sorted(set(out))


@dataclass(frozen=True)
class ListingQuery:
    """Filters (all optional, combined with AND), order and page of a listing, and who asks."""

    user: str | None = None
    game: str | None = None
    player: str | None = None
    owner: str | None = None
    source: str | None = None
    table: str | None = None
    words: tuple[str, ...] = ()
    #: "finished" or "unfinished" (``RESULT_FILTERS``).
    result: str | None = None
    #: A winner's name, or its start (normalised as player names are); only finished games have winners.
    winner: str | None = None
    newest_first: bool = True
    #: Exclusive creation-order score to continue after (a previous answer's ``next``).
    after: int | None = None
    limit: int = 50

    def filter_keys(self) -> list[str]:
        """The indexes a game must be in to match the filters."""
        ix = keys.listing_index_for
        out = []
        if self.game:
            out.append(ix("game", self.game))
        if self.player:
            out.append(ix("player", normalise(self.player)[:MAX_PREFIX]))
        if self.owner:
            out.append(ix("owner", self.owner))
        if self.source:
            out.append(ix("source", SOURCE_ALIASES.get(self.source, self.source)))
        if self.table:
            out.append(ix("table", self.table))
        if self.result:
            out.append(result_key(RESULT_FILTERS[self.result]))
        if self.winner:
            out.append(ix("winner", normalise(self.winner)[:MAX_PREFIX]))
        out += [ix("term", t) for t in sorted(title_terms(" ".join(self.words)))]  # as titles are cut into terms
        return out

    def visible_keys(self) -> list[str]:
        """A game is shown if it is in one of these: the public games, and the caller's own."""
        ix = keys.listing_index_for
        return [ix("public")] + ([ix("owner", self.user)] if self.user else [])


@dataclass(frozen=True)
class ListingPage:
    """Game ids of one page, and the cursor to the next (None at the end)."""

    ids: list[str]
    next: int | None


class GameIndex:
    """Writes and reads the listing indexes (the game store calls the writes on its one write path)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._walk = client.register_script(_WALK_SCRIPT)
        #: redis-py's cluster pipelines run no scripts: there, one ZADD per index.
        self._one_script = not isinstance(client, redis.RedisCluster)

    def add_to(self, pipe: Any, record: GameRecord, order: float) -> None:
        """Queue the writes that put ``record`` in its indexes at score ``order`` on ``pipe``."""
        wanted = index_keys(record)
        if self._one_script:
            pipe.eval(_ZADD_ALL, len(wanted), *wanted, repr(float(order)), record.id)
            return
        for key in wanted:
            pipe.zadd(key, {record.id: order})

    @staticmethod
    def remove_from(pipe: Any, record: GameRecord) -> None:
        """Queue the ZREMs that take ``record`` out of its indexes on ``pipe``."""
        for key in index_keys(record):
            pipe.zrem(key, record.id)

    def add(self, record: GameRecord, order: float) -> None:
        """Put a game in its indexes (idempotent), and out of the result index it no longer belongs in, in one
        transaction."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(result_key(record.result is None), record.id)
            self.add_to(pipe, record, order)
            pipe.execute()

    def move(self, old: GameRecord, new: GameRecord, order: float) -> None:
        """A game's fields changed (visibility, title, result): out of the old indexes, into the new, in one transaction."""
        with self.redis.pipeline(transaction=True) as pipe:
            self.move_on(pipe, old, new, order)
            pipe.execute()

    def move_on(self, pipe: Any, old: GameRecord, new: GameRecord, order: float) -> None:
        """Queue the ZREMs and ZADDs of :meth:`move` on ``pipe``."""
        for key in sorted(set(index_keys(old)) - set(index_keys(new))):
            pipe.zrem(key, old.id)
        self.add_to(pipe, new, order)

    def find(self, query: ListingQuery) -> ListingPage:
        """One page of the ids of visible games matching the query, in creation order."""
        filters = self.filter_keys_by_size(query.filter_keys())
        visible = query.visible_keys()
        if filters:
            walks = [self._walk_one(filters[0], filters[1:], visible, query)]
        else:  # the visible games are the union of the public index and the caller's own: walk each, merge
            walks = [self._walk_one(key, [], visible, query) for key in visible]
        return _merge(walks, query)

    def filter_keys_by_size(self, filter_keys: list[str]) -> list[str]:
        """The filter indexes, smallest first (the walk starts from the smallest)."""
        if len(filter_keys) < 2:
            return filter_keys
        with self.redis.pipeline(transaction=False) as pipe:
            for key in filter_keys:
                pipe.zcard(key)
            sizes = pipe.execute()
        return [key for _, key in sorted(zip(sizes, filter_keys, strict=True))]

    def _walk_one(self, driver: str, others: list[str], visible: list[str], query: ListingQuery) -> _Walk:
        start = str(query.after) if query.after is not None else ("+inf" if query.newest_first else "-inf")
        reply = self._walk(keys=[driver, *others, *visible],
                           args=[len(others), "desc" if query.newest_first else "asc", start, query.limit, SCAN_BUDGET])
        *pairs, more, last = reply
        items = [(pairs[i].decode(), float(pairs[i + 1])) for i in range(0, len(pairs), 2)]
        last_text = last.decode() if isinstance(last, bytes) else str(last)
        return _Walk(items, bool(int(more)), None if last_text in ("+inf", "-inf") else float(last_text))

    def misplaced(self, record: GameRecord) -> list[str]:
        """The result index that holds the game and should not (the game finished, and a crash kept it listed as
        going on): the reconciler's other check."""
        contrary = result_key(record.result is None)
        return [contrary] if self.redis.zscore(contrary, record.id) is not None else []

    def missing(self, record: GameRecord) -> list[str]:
        """The indexes that should hold the game and do not (a lost write, indexes never built): the reconciler's check."""
        wanted = index_keys(record)
        with self.redis.pipeline(transaction=False) as pipe:
            for key in wanted:
                pipe.zscore(key, record.id)
            scores = pipe.execute()
        return [key for key, score in zip(wanted, scores, strict=True) if score is None]


@dataclass(frozen=True)
class _Walk:
    """What one walk of one index found: (id, score) in order, whether the index goes on, the last score looked at."""

    items: list[tuple[str, float]]
    more: bool
    last: float | None


def _merge(walks: list[_Walk], query: ListingQuery) -> ListingPage:
    """Merge walks of several indexes into one page in creation order (ids unique).

    A walk that stopped early (a full page, or its budget spent) has seen nothing past its last score, so
    the page keeps only games before the earliest such frontier, and the cursor resumes from there.
    """
    sign = -1.0 if query.newest_first else 1.0
    frontiers = [w.last for w in walks if w.more and w.last is not None]
    frontier = (max if query.newest_first else min)(frontiers) if frontiers else None
    merged = sorted({gid: score for w in walks for gid, score in w.items}.items(), key=lambda item: sign * item[1])
    if frontier is not None:
        merged = [(gid, score) for gid, score in merged if sign * score <= sign * frontier]
    page = merged[:query.limit]
    if len(page) == query.limit and (len(merged) > query.limit or frontier is not None):
        return ListingPage([gid for gid, _ in page], int(page[-1][1]))
    return ListingPage([gid for gid, _ in page], None if frontier is None else int(frontier))
