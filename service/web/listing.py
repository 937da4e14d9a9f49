"""The game listing as a request asks for it: the query's filters and paging, read alike by ``GET /api/games`` and
the home page, and one page of games as the caller may see them."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from service.store.games import GameRecord
from service.store.listing import ListingQuery
from service.web.context import api
from service.web.fields import Strict

MAX_GAMES_PAGE = 200
#: Largest ``offset`` of a game listing: deeper pages go by cursor, so that no request walks a long list.
MAX_LIST_OFFSET = 200


class GameListQuery(Strict):
    """Filters (combined: a game must match all given), order and paging of ``GET /api/games``."""

    game = fields.String(metadata={"description": "only games of these rules (e.g. puerto_rico; tokaido for log-only logs)"})
    player = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "only games with a player whose name starts with this (case- and accent-insensitive: "
                       "'zo' finds Zoé)"})
    owner = fields.String(validate=validate.Length(min=1, max=100),
                          metadata={"description": "only games uploaded or started by this user"})
    source = fields.String(metadata={"description": "only games from this source: live, imported (BGA log with rules), "
                                                    "log-only (BGA log without rules; also bga-log)"})
    table = fields.String(validate=validate.Regexp(r"^[0-9]{1,20}$", error="expected a BGA table number"),
                          metadata={"description": "only games imported from this BGA table"})
    q = fields.String(validate=validate.Length(min=1, max=200),
                      metadata={"description": "only games whose title has every one of these words (case- and accent-insensitive)"})
    result = fields.String(validate=validate.OneOf(["finished", "unfinished"]), metadata={
        "description": "finished: only games whose main line has ended (played to the end, or imported from a log that "
                       "ends the game); unfinished: only the others"})
    winner = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "only finished games won by a player whose name starts with this (case- and accent-insensitive, "
                       "as `player`; a shared first place counts as a win)"})
    order = fields.String(load_default="newest", validate=validate.OneOf(["newest", "oldest"]),
                          metadata={"description": "newest (default) or oldest first"})
    cursor = fields.String(validate=validate.Regexp(r"^[0-9]{1,18}$", error="expected the next token of a previous page"),
                           metadata={"description": "the `next` token of the previous page: the page after it, stable while "
                                                    "games are added"})
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=MAX_GAMES_PAGE))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_LIST_OFFSET),
                            metadata={"description": f"games to skip (at most {MAX_LIST_OFFSET}: page further with `cursor`)"})


def game_summary(record: GameRecord) -> dict[str, Any]:
    """A game as listings show it."""
    return {
        "id": record.id, "game": record.game, "title": record.title, "players": list(record.setup.players),
        "owner": record.owner, "visibility": record.visibility, "source": record.source, "created": record.created,
        "finished": record.result is not None, "winners": [] if record.result is None else list(record.result.winners),
    }


def _listing_query(query: dict[str, Any], user: str | None, limit: int) -> ListingQuery:
    """The store's listing query from the request's filters."""
    return ListingQuery(
        user=user, game=query.get("game"), player=query.get("player"), owner=query.get("owner"),
        source=query.get("source"), table=query.get("table"), words=tuple(query.get("q", "").split()),
        result=query.get("result"), winner=query.get("winner"),
        newest_first=query["order"] == "newest", after=int(query["cursor"]) if "cursor" in query else None, limit=limit,
    )


def listing_page(query: dict[str, Any], user: str | None) -> dict[str, Any]:
    """One page of the listing for a loaded :class:`GameListQuery`, as ``user`` may see it: ``{"games", "limit",
    "offset", "next"}`` (the API's answer; the home page renders its first page with it)."""
    games = api().games
    page = games.index.find(_listing_query(query, user, query["limit"] + query["offset"]))
    found = [game_summary(record) for record in games.games(page.ids[query["offset"]:])]  # a game gone meanwhile is left out
    return {"games": found, "limit": query["limit"], "offset": query["offset"],
            "next": None if page.next is None else str(page.next)}
