"""Claims and insights (issue 49, "your mistakes"): say which player of a game was you, and see your mistakes.

``POST /api/me/claims`` ``{"game", "player"}`` claims a player: 201 when confirmed at once (your own game, or your own
BGA import of the same player name confirms it), 202 when it waits for the game's uploader, who answers it with
``POST /api/claims/<id>/confirm`` or ``…/decline`` (their claims to answer are listed by ``GET /api/me/claims``).
``DELETE /api/me/claims/<id>`` takes a claim back. The rules are :mod:`service.games.claims`'s; every change settles the
claimant's insights at once.

``GET /api/users/<name>/insights``: a user's analysed decisions by phase and stage beside every analysed player's,
their worst moves and each claimed game's figures (:mod:`service.games.insights`). Its owner sees every game they
claimed; anyone else sees only the user's public games counted and listed.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from service.api.docs import documented
from service.api.inputs import load_body
from service.api.schemas import Strict
from service.games.claims import confirmed_by_proof, make_claim
from service.games.insights import insights_of, settle_claim
from service.store.claims import CONFIRMED, DECLINED, Claim
from service.store.errors import NotFoundError
from service.web.auth import current_user, require_user
from service.web.context import api

bp = Blueprint("claims", __name__, url_prefix="/api/me/claims")
answers_bp = Blueprint("claim_answers", __name__, url_prefix="/api/claims")
users_bp = Blueprint("user_insights", __name__, url_prefix="/api/users")


class ClaimBody(Strict):
    """``POST /api/me/claims``."""

    game = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "the game's id"})
    player = fields.String(required=True, validate=validate.Length(min=1, max=200),
                           metadata={"description": "the player's name, exactly as the game has it"})


class ClaimSchema(Schema):
    """A claim."""

    id = fields.String(required=True)
    user = fields.String(required=True, metadata={"description": "the claimant"})
    gid = fields.String(required=True)
    game = fields.String(required=True, metadata={"description": "the game kind (puerto_rico, …)"})
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "confirmed, pending (the uploader's answer) or "
                                                                   "declined"})
    by = fields.String(required=True, allow_none=True, metadata={
        "description": "who confirmed or declined it: owner (the claimant's own game), uploader, bga (the claimant's "
                       "own BGA import of that player), taken (another claim on the seat was confirmed)"})
    owner = fields.String(required=True, allow_none=True, metadata={"description": "the game's uploader"})
    visibility = fields.String(required=True)
    created = fields.Float(required=True)


class ClaimsSchema(Schema):
    """``GET /api/me/claims``."""

    claims = fields.List(fields.Nested(ClaimSchema), required=True, metadata={"description": "your claims"})
    to_confirm = fields.List(fields.Nested(ClaimSchema), required=True, metadata={
        "description": "others' pending claims on players of your games, for you to confirm or decline"})


class FiguresSchema(Schema):
    """Decisions judged, mistakes (``?`` and ``??``) and blunders (``??``) per 100 of them, and the average loss."""

    decisions = fields.Integer(required=True)
    mistakes = fields.Integer(required=True)
    mistakes_per_100 = fields.Float(required=True, allow_none=True)
    blunders_per_100 = fields.Float(required=True, allow_none=True)
    average_loss = fields.Float(required=True, allow_none=True, metadata={
        "description": "the played move's win chance below the best move's, on average"})


class RowSchema(FiguresSchema):
    """One phase (or role) or stage: the user's figures, and every analysed player's beside them."""

    key = fields.String(required=True)
    everyone = fields.Nested(FiguresSchema, required=True)


class WorstSchema(Schema):
    """One of the worst moves, and where it was played."""

    gid = fields.String(required=True)
    bid = fields.String(required=True)
    seq = fields.Integer(required=True, metadata={"description": "the position (the state after this seq)"})
    loss = fields.Float(required=True)
    mark = fields.String(required=True, allow_none=True)
    phase = fields.String(required=True)
    stage = fields.String(required=True)
    played = fields.String(required=True, metadata={"description": "the move played, in the reader's language"})
    best = fields.String(required=True, metadata={"description": "the best move, in the reader's language"})
    played_action = fields.String(required=True, metadata={"description": "the move played, in notation"})
    best_action = fields.String(required=True, metadata={"description": "the best move, in notation"})


class ClaimedGameSchema(FiguresSchema):
    """One claimed, analysed game: the seat claimed and its figures."""

    gid = fields.String(required=True)
    title = fields.String(required=True)
    seat = fields.Integer(required=True)
    player = fields.String(required=True, allow_none=True)
    visibility = fields.String(required=True)
    by_phase = fields.List(fields.Dict(), required=True)
    by_stage = fields.List(fields.Dict(), required=True)


class GameKindInsightsSchema(Schema):
    """A user's insights in one game kind."""

    game = fields.String(required=True)
    overall = fields.Nested(FiguresSchema, required=True)
    everyone = fields.Dict(required=True, metadata={"description": "every analysed public game's figures, and how "
                                                                   "many games (games)"})
    by_phase = fields.List(fields.Nested(RowSchema), required=True)
    by_stage = fields.List(fields.Nested(RowSchema), required=True)
    worst = fields.List(fields.Nested(WorstSchema), required=True, metadata={"description": "the ten worst, worst "
                                                                                           "first"})
    games = fields.List(fields.Nested(ClaimedGameSchema), required=True)


class InsightsSchema(Schema):
    """``GET /api/users/<name>/insights``."""

    user = fields.String(required=True)
    scope = fields.String(required=True, metadata={
        "description": "all (the user's own view: every game they claimed) or public (anyone else's: the user's public "
                       "games only)"})
    games = fields.List(fields.Nested(GameKindInsightsSchema), required=True)


def _settled(claim: Claim) -> Claim:
    settle_claim(api().stores.insights, claim)
    return claim


@bp.post("")
@documented("Claim a player of a game as yourself", response=ClaimSchema, status=201, body=ClaimBody,
            errors=(400, 401, 403, 404, 409), auth="required", tag="insights",
            also=((202, "the claim waits for the game's uploader to confirm it"),),
            description="201: confirmed at once (your own game, or a BGA game whose player you claimed in a BGA game "
                        "you uploaded yourself); 202: pending the uploader. 400: no such player in the game; 403: "
                        "someone else's unlisted game; 404: no such game (or a private game not yours); 409: you "
                        "claimed a player of this game already, or the player is claimed by someone else.")
def create_claim() -> ResponseReturnValue:
    """The claim: ``{"id", "user", "gid", "seat", "player", "status", …}``."""
    user = require_user()
    body = load_body(ClaimBody)
    claim = _settled(make_claim(api().games, api().stores.claims, user, body["game"], body["player"]))
    for proved in confirmed_by_proof(api().games, api().stores.claims, claim):
        _settled(proved)
    return jsonify(claim.to_json()), 201 if claim.status == CONFIRMED else 202


@bp.get("")
@documented("Your claims, and the claims on your games waiting for your answer", response=ClaimsSchema,
            errors=(401,), auth="required", tag="insights")
def list_claims() -> ResponseReturnValue:
    """``{"claims": [...], "to_confirm": [...]}``."""
    user = require_user()
    claims = api().stores.claims
    return jsonify({"claims": [c.to_json() for c in claims.of_user(user)],
                    "to_confirm": [c.to_json() for c in claims.to_confirm(user)]})


@bp.delete("/<cid>")
@documented("Take back one of your claims", response=ClaimSchema, errors=(401, 404), auth="required",
            tag="insights", description="404 for an unknown claim or someone else's.")
def delete_claim(cid: str) -> ResponseReturnValue:
    """The claim as it was."""
    user = require_user()
    return jsonify(_settled(api().stores.claims.delete(cid, user)).to_json())


def _answer(cid: str, status: str) -> dict[str, Any]:
    user = require_user()
    return _settled(api().stores.claims.answer(cid, user, status)).to_json()


@answers_bp.post("/<cid>/confirm")
@documented("Confirm a claim on a player of your game", response=ClaimSchema, errors=(401, 403, 404, 409),
            auth="required", tag="insights",
            description="403: not your game; 409: answered already, or the seat is confirmed to someone else.")
def confirm_claim(cid: str) -> ResponseReturnValue:
    """The claim, confirmed."""
    return jsonify(_answer(cid, CONFIRMED))


@answers_bp.post("/<cid>/decline")
@documented("Decline a claim on a player of your game (also one you confirmed before)", response=ClaimSchema,
            errors=(401, 403, 404, 409), auth="required", tag="insights")
def decline_claim(cid: str) -> ResponseReturnValue:
    """The claim, declined."""
    return jsonify(_answer(cid, DECLINED))


@users_bp.get("/<name>/insights")
@documented("A user's mistakes by phase and stage, beside every analysed player's", response=InsightsSchema,
            errors=(404,), tag="insights",
            description="Counts the user's confirmed claims on games whose main line was analysed (full view, seed "
                        "0). The user sees every game they claimed; anyone else only their public games.")
def user_insights(name: str) -> ResponseReturnValue:
    """``{"user", "scope", "games": [{"game", "overall", "everyone", "by_phase", "by_stage", "worst", "games"}]}``."""
    if not api().users.exists(name):
        raise NotFoundError(f"no user {name!r}", user=name)
    context = api()
    return jsonify(insights_of(context.games, context.stores.insights, context.stores.claims, name, current_user()))
