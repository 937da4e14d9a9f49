"""marshmallow schemas of the JSON API: what requests may carry and what responses hold.

Request schemas validate input at the edge (unknown fields are refused, so a typo is an
error rather than silently ignored). Response schemas document the answers for
``/api/openapi.json``, and the tests check real answers against them.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from engine import get_rules, registered_games
from service.store.annotations import GLYPHS, MAX_TEXT
from service.store.games import VISIBILITIES
from service.store.seats import ENGINE_LEVELS

# Re-exported: the API's schemas build on them, and its views and the benchmarks name them from here.
from service.web.fields import Strict as Strict
from service.web.fields import StrictInt as StrictInt
from service.web.fields import plain_text as plain_text
from service.web.listing import MAX_GAMES_PAGE as MAX_GAMES_PAGE
from service.web.listing import MAX_LIST_OFFSET as MAX_LIST_OFFSET
from service.web.listing import GameListQuery as GameListQuery
from service.web.viewnames import VIEW_SHAPE

MAX_EVENTS_PAGE = 5000
DEFAULT_EVENTS_PAGE = 500
#: Bound of every other integer a request may carry (seqs, offsets, versions): exact in any JSON
#: reader (2^53 - 1) and far beyond any branch, so that no number reaches Redis as one it refuses.
MAX_NUMBER = 2**53 - 1


def _seq(description: str) -> fields.Integer:
    return fields.Integer(validate=validate.Range(min=1, max=MAX_NUMBER), metadata={"description": description})


def _view_field() -> fields.String:
    return fields.String(load_default="full", validate=validate.Regexp(VIEW_SHAPE, error="expected full, spectator or a seat number"),
                         metadata={"description": "full (everything), spectator (hidden information removed) or a seat number"})


# -- requests: query strings ----------------------------------------------------------------
class EventsQuery(Strict):
    """Paging of a branch's events, seen by whom."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_NUMBER),
                           metadata={"description": "events with seq greater than this"})
    limit = fields.Integer(load_default=DEFAULT_EVENTS_PAGE, validate=validate.Range(min=1, max=MAX_EVENTS_PAGE))
    view = _view_field()


class StateQuery(Strict):
    """Which state, seen by whom."""

    at = _seq("the seq to show the state after (default: the head)")
    view = _view_field()


class AtQuery(Strict):
    """A position on a branch, seen by whom."""

    at = _seq("the seq (default: the head)")
    view = _view_field()


class AnnotationListQuery(Strict):
    """Filter of a game's annotations."""

    branch = fields.String(metadata={"description": "only annotations on this branch"})
    inherited = fields.Boolean(load_default=False, metadata={
        "description": "with branch: also those on the moves the branch shares with its ancestors (up to each fork point)"})


class VersionQuery(Strict):
    """Optimistic concurrency for a change without a body."""

    expected_version = fields.Integer(validate=validate.Range(min=1, max=MAX_NUMBER))


# -- requests: bodies -----------------------------------------------------------------------
MAX_PLAYER_NAME = 60


def _known_game(name: str) -> None:
    """Refuse a game no rules are registered for (read per request: a game may be registered after start)."""
    if name not in registered_games():
        raise ValidationError(f"unknown game {name!r}: one of {', '.join(registered_games())}")


def _new_table_problem(data: dict[str, Any]) -> tuple[str, str] | None:
    """What is wrong with a new game's players and seats taken together, and the field to name: the player count
    its rules allow, one seat per player, a named seed only for a table nobody else is invited to, no invite to a
    private game. None when nothing is."""
    rules = get_rules(data["game"])
    count, seats = len(data["players"]), data.get("seats")
    invited = seats is not None and any(seat["holder"] == "invite" for seat in seats)
    if not rules.min_players <= count <= rules.max_players:
        return "players", (f"{data['game']} takes {rules.min_players} to {rules.max_players} players, got {count}")
    if seats is not None and len(seats) != count:
        return "seats", f"one seat per player: {count} players, {len(seats)} seats"
    if invited and "seed" in data:
        return "seed", ("a table with an invited person is dealt from a seed the server draws and keeps secret until "
                        "the end (its SHA-256 is shown from the start): leave the seed out, or give every other seat "
                        "to the engine")
    if invited and data.get("visibility") == "private":
        return "visibility", "a private game can be read by its owner only: make it unlisted or public to invite someone"
    return None


class AssignSchema(Strict):
    """``PUT …/seats/<n>``, and each seat of a new game's: the seat's holder."""

    holder = fields.String(required=True, validate=validate.OneOf(("me", "engine", "invite")))
    level = fields.String(validate=validate.OneOf(ENGINE_LEVELS))

    @validates_schema
    def _level_for_engine(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("holder") == "engine" and "level" not in data:
            raise ValidationError(f"an engine seat needs a level: one of {', '.join(ENGINE_LEVELS)}", "level")
        if data.get("holder") != "engine" and "level" in data:
            raise ValidationError("only an engine seat has a level", "level")


class GameCreateSchema(Strict):
    """``POST /api/games``: a live game to play."""

    game = fields.String(required=True, validate=[validate.Length(min=1, max=60), _known_game],
                         metadata={"description": "registered rules name"})
    players = fields.List(fields.String(validate=[validate.Length(min=1, max=MAX_PLAYER_NAME), plain_text()]),
                          required=True, validate=validate.Length(min=1, max=12),
                          metadata={"description": "player names in seat order (as many as the game's rules allow)"})
    seats = fields.List(fields.Nested(AssignSchema), validate=validate.Length(min=1, max=12), metadata={
        "description": "who holds each seat, one per player in the same order: me (the caller), engine (with a level: "
                       "easy, normal or strong) or invite (the answer has its invite_url). Without seats the caller "
                       "plays every seat, as before seats existed. A seat is written before the game can be read: "
                       "nobody sees the table with every seat the owner's"})
    seed = fields.String(validate=validate.Length(min=1, max=100), metadata={
        "description": "seed of the chance draws (default: drawn by the server and kept secret until the game is over); "
                       "a game with a named seed seats the engine only, never an invited person (400 naming seed "
                       "when a seat is an invite)"})
    visibility = fields.String(load_default="public", validate=validate.OneOf(VISIBILITIES))
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={"description": "game options, as the rules define them"})
    title = fields.String(load_default="", validate=[validate.Length(max=200), plain_text()])

    @validates_schema(skip_on_field_errors=True)
    def _table_fits_the_rules(self, data: dict[str, Any], **_: Any) -> None:
        problem = _new_table_problem(data)
        if problem is not None:
            raise ValidationError(problem[1], problem[0])


class ActionSchema(Strict):
    """``POST …/actions``: a player's action, placed after ``expected_seq``."""

    action = fields.String(required=True, validate=validate.Length(min=1, max=500),
                           metadata={"description": "the action in the game's notation"})
    expected_seq = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_NUMBER),
                             metadata={"description": "the branch head the action was chosen at"})


class ForkSchema(Strict):
    """``POST /api/games/<gid>/branches``: a new branch from ``from`` after event ``at``."""

    source = fields.String(required=True, data_key="from", metadata={"description": "the branch to fork"})
    at = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_NUMBER), metadata={"description": "the fork keeps events 1..at"})
    name = fields.String(load_default="", validate=[validate.Length(max=80), plain_text()])
    chance = fields.String(load_default="redraw", validate=validate.OneOf(("redraw", "keep")), metadata={
        "description": "redraw: chance from the fork's own seed; keep: the parent line's later chance outcomes, in order, "
                       "wherever still possible in the new line (else the fork's seed)"})
    seed = fields.String(validate=validate.Length(min=1, max=100),
                         metadata={"description": "seed of the fork's chance draws (default: random), as for a new game"})


class AnnotationCreateSchema(Strict):
    """``POST /api/games/<gid>/annotations``: a comment and/or glyph on (branch, seq)."""

    branch = fields.String(required=True)
    seq = StrictInt(required=True, validate=validate.Range(min=1, max=MAX_NUMBER))
    text = fields.String(load_default="", validate=[validate.Length(max=MAX_TEXT), plain_text(allow_newlines=True)])
    glyph = fields.String(allow_none=True, load_default=None, validate=validate.OneOf(GLYPHS))


class AnnotationPatchSchema(Strict):
    """``PATCH …/annotations/<aid>``: new text and/or glyph (null clears the glyph)."""

    text = fields.String(validate=[validate.Length(max=MAX_TEXT), plain_text(allow_newlines=True)])
    glyph = fields.String(allow_none=True, validate=validate.OneOf(GLYPHS))
    expected_version = StrictInt(validate=validate.Range(min=1, max=MAX_NUMBER),
                                 metadata={"description": "409 unless the annotation is at this version"})

    @validates_schema
    def _something_to_change(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "text" not in data and "glyph" not in data:
            raise ValidationError("nothing to change: give text and/or glyph")


class VersionBodySchema(Strict):
    """An optional ``expected_version`` (undo)."""

    expected_version = StrictInt(validate=validate.Range(min=1, max=MAX_NUMBER))


# -- responses ------------------------------------------------------------------------------
class ErrorBodySchema(Schema):
    """What went wrong."""

    code = fields.String(required=True, metadata={"description": "stable, machine-readable"})
    message = fields.String(required=True, metadata={"description": "for people"})
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    """Every error answer."""

    error = fields.Nested(ErrorBodySchema, required=True)


def _actor(**kwargs: Any) -> fields.Raw:
    return fields.Raw(allow_none=True, metadata={"description": "a seat number, \"chance\", or null when the game is over"}, **kwargs)


class HealthSchema(Schema):
    """``GET /healthz``."""

    redis = fields.Boolean(required=True)
    workers = fields.Integer(required=True, allow_none=True, metadata={"description": "RQ workers seen (null if the queue is unreachable)"})
    version = fields.String(required=True)


class GameSummarySchema(Schema):
    """A game in a listing."""

    id = fields.String(required=True)
    game = fields.String(required=True)
    title = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    owner = fields.String(required=True, allow_none=True)
    visibility = fields.String(required=True)
    source = fields.String(required=True)
    created = fields.Float(required=True)
    finished = fields.Boolean(required=True, metadata={"description": "the game's main line has ended"})
    winners = fields.List(fields.String(), required=True,
                          metadata={"description": "who shares first place (empty while the game goes on)"})


class GameListSchema(Schema):
    """``GET /api/games``."""

    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "pass as `cursor` for the next page; null on the last page"})


class NewSeatSchema(Schema):
    """A seat of a new game."""

    seat = fields.Integer(required=True)
    holder = fields.String(required=True, metadata={"description": "owner, engine or invited"})
    level = fields.String(metadata={"description": "the engine's level"})
    invite_url = fields.String(metadata={"description": "for an invite: the single-use link to send; its last path "
                                                        "segment is the invite's token"})


class GameCreatedSchema(Schema):
    """``POST /api/games``."""

    id = fields.String(required=True)
    branch = fields.String(required=True)
    seq = fields.Integer(required=True, metadata={"description": "head of main (after any opening chance draws)"})
    url = fields.String(required=True, metadata={"description": "the table's page"})
    seats = fields.List(fields.Nested(NewSeatSchema), metadata={"description": "with seats asked: who holds each"})


class BranchSchema(Schema):
    """One branch of the tree (its seed stays secret: it decides future draws)."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    owner = fields.String(required=True, allow_none=True)
    parent = fields.String(required=True, allow_none=True)
    fork_seq = fields.Integer(required=True, metadata={"description": "events 1..fork_seq are the parent's"})
    head = fields.Integer(required=True)
    created = fields.Float(required=True)
    incomplete = fields.Boolean(required=True)
    chance = fields.String(required=True, metadata={"description": "a fork's chance: redraw (its own seed) or keep (the parent "
                                                                    "line's draws wherever still possible)"})


class GameDetailSchema(GameSummarySchema):
    """``GET /api/games/<gid>``."""

    rules_version = fields.String(required=True)
    options = fields.Dict(required=True)
    extra = fields.Dict(required=True)
    branches = fields.List(fields.Nested(BranchSchema), required=True)


class EventSchema(Schema):
    """One event of a branch."""

    seq = fields.Integer(required=True)
    type = fields.String(required=True, metadata={"description": "game_created, action_taken or chance_drawn"})
    actor = _actor(required=True)
    action = fields.String(required=True, allow_none=True,
                           metadata={"description": "notation; null for game_created, and for an event the view may not see"})
    hidden = fields.Boolean(metadata={"description": "true when the view may not see which action this was (action is null)"})
    text = fields.String(metadata={"description": "a hidden event's public sentence"})
    v = fields.Integer(required=True)
    meta = fields.Dict(required=True)
    data = fields.Dict(metadata={"description": "game_created only: game, rules version, setup"})


class EventsPageSchema(Schema):
    """``GET …/events``."""

    events = fields.List(fields.Nested(EventSchema), required=True)
    head = fields.Integer(required=True)


class StateSchema(Schema):
    """``GET …/state``."""

    seq = fields.Integer(required=True)
    head = fields.Integer(required=True)
    actor = _actor(required=True)
    state = fields.Raw(required=True, metadata={"description": "the game's state, as the rules dump or view it"})
    outcome = fields.Dict(required=True, allow_none=True, metadata={
        "description": "once the game is over: scores, tiebreaks, details, winners and ranks "
                       "(each seat's final place as the game's rules decide it, 1 = first)"})


class LegalActionSchema(Schema):
    """A legal action with its sentence."""

    action = fields.String(required=True)
    text = fields.String(required=True)


class LegalSchema(Schema):
    """``GET …/legal``."""

    seq = fields.Integer(required=True)
    actor = _actor(required=True)
    actions = fields.List(fields.Nested(LegalActionSchema), required=True)


class ActionResultSchema(Schema):
    """``POST …/actions``: the events stored (the player's and the chance draws after it)."""

    seq = fields.Integer(required=True, metadata={"description": "the new head"})
    events = fields.List(fields.Nested(EventSchema), required=True)


class ForkCreatedSchema(Schema):
    """``POST /api/games/<gid>/branches``."""

    branch = fields.String(required=True)
    seq = fields.Integer(required=True, metadata={"description": "head of the new branch (chance due at the fork point is drawn)"})


class AnnotationSchema(Schema):
    """A comment and/or glyph on a move."""

    id = fields.String(required=True)
    branch = fields.String(required=True)
    seq = fields.Integer(required=True)
    author = fields.String(required=True)
    text = fields.String(required=True)
    glyph = fields.String(required=True, allow_none=True)
    deleted = fields.Boolean(required=True)
    version = fields.Integer(required=True)
    created = fields.Float(required=True)
    updated = fields.Float(required=True)
    history = fields.List(fields.Dict(), metadata={"description": "every version, oldest first (single-annotation reads only)"})


class AnnotationListSchema(Schema):
    """``GET /api/games/<gid>/annotations``."""

    annotations = fields.List(fields.Nested(AnnotationSchema), required=True)
