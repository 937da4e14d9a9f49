"""Analysis of a branch by the search player: request it, read its progress and results.

``POST /api/games/<gid>/branches/<bid>/analysis`` queues jobs (see :mod:`service.analysis`; the job is :mod:`workers.analysis`) for the
decisions still missing results at the requested budget and view; the game's owner, the branch's
owner, or anyone signed in on a public game may ask, at most :data:`ANALYSES_PER_HOUR` times an hour
per user. ``GET`` answers the status, the progress and every analysed decision with its win chances,
best moves and the played move's loss and mark.

``seed`` (an integer from 0 to :data:`~service.analysis.MAX_SEED`, default 0) seeds the searches: the
same request gives the same answer, another seed a second opinion (it is part of the stored results'
key and echoed in the answer).

``view`` is ``full`` (default: the search may use everything in the log, hidden cards included, as a
spectator reviewing a finished game would want) or a seat number (the search samples what that seat
could not see, so its hints use only that seat's information, and every field goes through the
viewer rule: another seat's secret move shows as the events route shows it in that view).
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from engine.analysis import DEFAULT_ROLLOUTS
from service import keys
from service.analysis import MAX_SEED, enqueue_analysis, report
from service.api.auth import readable_game, require_user
from service.api.context import api
from service.api.docs import documented
from service.api.errors import ApiError
from service.api.inputs import load_body, load_query
from service.api.schemas import Strict, StrictInt
from service.jobs import make_queue
from service.store.games import GameRecord

bp = Blueprint("analysis", __name__, url_prefix="/api/games/<gid>/branches/<bid>/analysis")

#: Budget bounds of a request (rollouts per decision).
MIN_ROLLOUTS, MAX_ROLLOUTS = 1, 5000
#: Analysis requests one user may make in an hour.
ANALYSES_PER_HOUR = 30
_VIEW = validate.Regexp(r"^(full|\d{1,2})$", error="expected full or a seat number")
_SEED = validate.Range(min=0, max=MAX_SEED, error=f"expected an integer from 0 to {MAX_SEED}")
_SEED_HELP = "seeds the searches: the same seed gives the same answer, another one a second opinion"


class AnalysisRequestSchema(Strict):
    """``POST …/analysis``."""

    rollouts = StrictInt(load_default=DEFAULT_ROLLOUTS, validate=validate.Range(min=MIN_ROLLOUTS, max=MAX_ROLLOUTS),
                         metadata={"description": "search iterations per decision (the budget)"})
    view = fields.String(load_default="full", validate=_VIEW,
                         metadata={"description": "full (the search may use everything) or a seat (only what it saw)"})
    seed = StrictInt(load_default=0, validate=_SEED, metadata={"description": _SEED_HELP})


class AnalysisQuery(Strict):
    """``GET …/analysis``: which analysis."""

    rollouts = fields.Integer(load_default=DEFAULT_ROLLOUTS, validate=validate.Range(min=MIN_ROLLOUTS, max=MAX_ROLLOUTS))
    view = fields.String(load_default="full", validate=_VIEW)
    seed = fields.Integer(load_default=0, validate=_SEED, metadata={"description": _SEED_HELP})


class AnalysisSchema(Schema):
    """The analysis of a branch."""

    status = fields.String(required=True, metadata={"description": "none, running or done"})
    done = fields.Integer(required=True)
    total = fields.Integer(required=True)
    rollouts = fields.Integer(required=True)
    seed = fields.Integer(required=True)
    view = fields.String(required=True)
    search_version = fields.String(required=True)
    thresholds = fields.Dict(keys=fields.String(), values=fields.Float(), required=True, metadata={
        "description": "each mark and the loss its interval's low end must reach"})
    positions = fields.List(fields.Dict(), required=True, metadata={
        "description": "per decision: seq (the state after it), actor, win and win_ci (per seat), best (at most 5, "
                       "best first) and options (every evaluated move, by win) [{action, text, win, ci, n}], played "
                       "{action, text, win, ci, loss, loss_ci, mark} (null at the head; action null and hidden true "
                       "for a move the view may not see; win to mark null where it was not judged)"})
    jobs = fields.Integer(metadata={"description": "jobs queued by this request"})


def _seat_count(record: GameRecord) -> int:
    return len(record.setup.players)


def _checked_view(record: GameRecord, view: str) -> str:
    if view != "full" and int(view) >= _seat_count(record):
        raise ApiError(400, "invalid", f"view {view!r}: expected full or a seat 0 to {_seat_count(record) - 1}",
                       fields={"view": [f"no seat {view}"]})
    return view


def _may_request(record: GameRecord, bid: str, user: str) -> None:
    branch = api().games.branch(record.id, bid)
    if record.visibility != "public" and user not in (record.owner, branch.owner):
        raise ApiError(403, "forbidden", "only the game's or the branch's owner may request an analysis of a game that is "
                                         "not public", game=record.id, branch=bid)
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games have no rules to analyse with", game=record.id)


def _take_quota(user: str) -> None:
    client = api().stores.redis
    key = keys.analysis_quota_for(user)
    used = int(client.incr(key))
    if used == 1:
        client.expire(key, 3600)
    if used > ANALYSES_PER_HOUR:
        raise ApiError(429, "too_many_analyses", f"at most {ANALYSES_PER_HOUR} analysis requests an hour per user; "
                                                 f"try again later", limit=ANALYSES_PER_HOUR)


@bp.post("")
@documented("Queue the analysis of every decision of a branch by the search player", response=AnalysisSchema,
            status=202, body=AnalysisRequestSchema, errors=(400, 403, 404, 413, 422, 429), auth="required",
            description="Only decisions without a stored result at this budget and view are queued, so asking again "
                        "resumes an analysis whose worker died. 429 beyond the per-user hourly limit.")
def request_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """202 with the analysis so far and the number of jobs queued."""
    user = require_user()
    record = readable_game(gid)
    _may_request(record, bid, user)
    body = load_body(AnalysisRequestSchema)
    view = _checked_view(record, body["view"])
    _take_quota(user)
    context = api()
    stores = context.stores
    queue = make_queue(stores.queue_redis, stores.config.queue_name)
    jobs = enqueue_analysis(context.games, stores.redis, queue, gid, bid, body["rollouts"], view, body["seed"])
    answer = report(context.games, stores.redis, gid, bid, body["rollouts"], view, body["seed"])
    return jsonify(answer | {"jobs": jobs}), 202


@bp.get("")
@documented("The analysis of a branch: status, progress, and per decision the win chances, best moves and marks",
            response=AnalysisSchema, query=AnalysisQuery, errors=(400, 404, 422))
def show_analysis(gid: str, bid: str) -> ResponseReturnValue:
    """``{"status", "done", "total", "rollouts", "seed", "view", "thresholds", "positions": [...]}``."""
    record = readable_game(gid)
    if record.is_log_only:
        raise ApiError(422, "log_only", "log-only games have no rules to analyse with", game=record.id)
    query = load_query(AnalysisQuery)
    view = _checked_view(record, query["view"])
    context = api()
    return jsonify(report(context.games, context.stores.redis, gid, bid, query["rollouts"], view, query["seed"]))
