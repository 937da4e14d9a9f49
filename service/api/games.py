"""Games: list the visible ones, create a live one, show one with its branch tree."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, url_for
from flask.typing import ResponseReturnValue

from engine import EngineError
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body, load_query
from service.api.schemas import GameCreatedSchema, GameCreateSchema, GameDetailSchema, GameListQuery, GameListSchema
from service.api.seats import invite_url
from service.store.errors import StoreError
from service.store.games import MAIN, Branch, new_id
from service.store.seats import ENGINE, INVITED, OWNER, Seat
from service.web.auth import current_user, readable_game, require_user
from service.web.context import api
from service.web.listing import game_summary as game_summary  # re-exported: other API views list games too
from service.web.listing import listing_page
from service.web.seating import seat_json
from service.web.tables import table_url

bp = Blueprint("games", __name__, url_prefix="/api/games")


def branch_json(branch: Branch, head: int) -> dict[str, Any]:
    """A branch for the tree; the seed is left out because it decides the branch's future draws."""
    return {
        "id": branch.id, "name": branch.name, "owner": branch.owner, "parent": branch.parent, "fork_seq": branch.fork_seq,
        "head": head, "created": branch.created, "incomplete": branch.incomplete, "chance": branch.chance,
    }


@bp.get("")
@documented("List games: public ones and the caller's own (unlisted and private included), filtered by the listing "
            "indexes (cost follows the page, not the number of games)", response=GameListSchema,
            query=GameListQuery, errors=(400,))
def list_games() -> ResponseReturnValue:
    """Newest (or oldest) first, filtered, paged by cursor (``next``) or by a small offset."""
    return jsonify(listing_page(load_query(GameListQuery), current_user()))


@bp.post("")
@documented("Create a live game, seated: the caller owns it and its main branch", response=GameCreatedSchema,
            status=201, body=GameCreateSchema, errors=(400, 413, 422), auth="required",
            description="With seats (one per player: me, engine with a level, or invite), the game is a table from its "
                        "first moment: the seats are stored before the game is, so nobody ever reads it with every seat "
                        "the owner's, and an engine seat to move plays by itself. A table with an invite is dealt from a "
                        "seed the server draws, committed by its SHA-256 (GET …/seats) and revealed at the end; a named "
                        "seed is for tables whose other seats are all the engine's. 400 names the field: an unknown "
                        "game, a player count the rules do not allow, seats not one per player, a bad level, a seed "
                        "with a person invited, an invite to a private game, a name too long.")
def create_game() -> ResponseReturnValue:
    """201 with the new game's id and head (and its seats, with invite links); opening chance is already drawn."""
    user = require_user()
    body = load_body(GameCreateSchema)
    play = api().play
    try:
        play.check_setup(body["game"], body["players"], body["options"])
    except (EngineError, StoreError):
        raise
    except (TypeError, ValueError, KeyError) as exc:
        # The rules choked on an option they do not validate themselves: still the request's fault.
        raise ApiError(422, "bad_setup", f"setup refused by the {body['game']!r} rules: {exc!r}", game=body["game"]) from exc
    gid = new_id()
    seats = _seat_table(gid, user, body.get("seats"))
    try:
        record, head = play.create_game(body["game"], body["players"], owner=user, seed=body.get("seed"),
                                        visibility=body["visibility"], options=body["options"], title=body["title"],
                                        gid=gid)
    except BaseException:
        if seats is not None:
            api().stores.seats.discard_table(gid, MAIN, user)
        raise
    created = {"id": record.id, "branch": MAIN, "seq": head, "url": table_url(record.id, MAIN)}
    response = jsonify(created if seats is None else created | {"seats": seats})
    response.headers["Location"] = url_for("games.show_game", gid=record.id)
    return response, 201


def _seat_table(gid: str, owner: str, asked: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Store the seats a new game was asked with, before the game (none asked: None, the owner plays them all);
    the seats as answered, with each invite's link."""
    if asked is None:
        return None
    holders = {"me": OWNER, "engine": ENGINE, "invite": INVITED}
    seats = [Seat(n, holders[seat["holder"]], level=seat.get("level")) for n, seat in enumerate(asked)]
    tokens = api().stores.seats.open_table(gid, MAIN, owner, seats)
    return [seat_json(seat) | ({"invite_url": invite_url(tokens[seat.seat])} if seat.seat in tokens else {})
            for seat in seats]


@bp.get("/<gid>")
@documented("A game: metadata, players and the branch tree", response=GameDetailSchema, errors=(404,))
def show_game(gid: str) -> ResponseReturnValue:
    """Every branch with its parent, fork point, owner, name and head."""
    record = readable_game(gid)
    games = api().games
    heads = games.heads(gid)
    branches = sorted(games.branches(gid).values(), key=lambda b: (b.created, b.id))
    body = game_summary(record) | {
        "rules_version": record.rules_version, "options": dict(record.setup.options), "extra": record.extra,
        "branches": [branch_json(b, heads.get(b.id, b.fork_seq)) for b in branches],
    }
    return jsonify(body)
